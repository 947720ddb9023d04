package plan

import (
	"fmt"
	"strings"
)

// Node is a logical operator. Nodes are immutable.
type Node interface {
	// Schema is the node's output columns.
	Schema() Schema
	// Children returns the node's inputs in order (nil for leaves).
	Children() []Node
	// WithChildren returns a copy of the node with its inputs replaced; it
	// fails when the number of children is wrong.
	WithChildren(children ...Node) (Node, error)
	// Describe prints the operator and its attributes on one line, without
	// its children: Project(id, name).
	Describe() string
}

// TableID is the fully qualified name of a catalog table.
type TableID struct {
	Catalog  string
	Database string
	Object   string
}

// String returns `c`.`d`.`o`.
func (id TableID) String() string {
	q := func(s string) string { return "`" + strings.ReplaceAll(s, "`", "``") + "`" }
	return q(id.Catalog) + "." + q(id.Database) + "." + q(id.Object)
}

// ChildCountError is returned by WithChildren for a wrong number of inputs.
type ChildCountError struct {
	Node string
	Want int
	Got  int
}

func (e *ChildCountError) Error() string {
	return fmt.Sprintf("plan: %s takes %d children, got %d", e.Node, e.Want, e.Got)
}

func checkChildren(node string, want int, got []Node) error {
	if len(got) != want {
		return &ChildCountError{Node: node, Want: want, Got: len(got)}
	}
	return nil
}

// Format prints a plan tree, one operator a line, children indented under
// their parent with ":- " (not last) and "+- " (last), as Flink's EXPLAIN
// does. The result ends with a newline.
func Format(n Node) string {
	var b strings.Builder
	formatNode(&b, NewReuse(n), n, "", "")
	return b.String()
}

func formatNode(b *strings.Builder, r *Reuse, n Node, first, rest string) {
	b.WriteString(first)
	line, more := r.Line(n, n.Describe())
	b.WriteString(line)
	b.WriteByte('\n')
	if !more {
		return
	}
	kids := n.Children()
	for i, c := range kids {
		if i == len(kids)-1 {
			formatNode(b, r, c, rest+"+- ", rest+"   ")
		} else {
			formatNode(b, r, c, rest+":- ", rest+":  ")
		}
	}
}

func exprList(es []Expr) string {
	s := make([]string, len(es))
	for i, e := range es {
		s[i] = e.String()
	}
	return strings.Join(s, ", ")
}

func intList(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ", ")
}
