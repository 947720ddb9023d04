package plan

import (
	"fmt"
	"strings"
)

// Project computes one expression per output column over its input row.
type Project struct {
	Input Node
	Exprs []Expr
	Names []string // output column names, one per expression
}

// Schema returns the projected columns.
func (n *Project) Schema() Schema {
	out := make(Schema, len(n.Exprs))
	for i, e := range n.Exprs {
		out[i] = Column{Name: n.Names[i], Type: e.Type()}
	}
	return out
}

// Children returns the input.
func (n *Project) Children() []Node { return []Node{n.Input} }

// WithChildren replaces the input.
func (n *Project) WithChildren(c ...Node) (Node, error) {
	if err := checkChildren("Project", 1, c); err != nil {
		return nil, err
	}
	cp := *n
	cp.Input = c[0]
	return &cp, nil
}

// Describe prints Calc(select=[a, +(b, 1) AS c]).
func (n *Project) Describe() string {
	s := make([]string, len(n.Exprs))
	for i, e := range n.Exprs {
		s[i] = e.String()
		if ref, ok := e.(*ColumnRef); !ok || ref.Name != n.Names[i] {
			s[i] += " AS " + n.Names[i]
		}
	}
	return "Project(select=[" + strings.Join(s, ", ") + "])"
}

// Filter keeps the input rows for which Cond is TRUE (not FALSE, not NULL).
type Filter struct {
	Input Node
	Cond  Expr // BOOLEAN
}

// Schema returns the input's schema.
func (n *Filter) Schema() Schema { return n.Input.Schema() }

// Children returns the input.
func (n *Filter) Children() []Node { return []Node{n.Input} }

// WithChildren replaces the input.
func (n *Filter) WithChildren(c ...Node) (Node, error) {
	if err := checkChildren("Filter", 1, c); err != nil {
		return nil, err
	}
	cp := *n
	cp.Input = c[0]
	return &cp, nil
}

// Describe prints Filter(condition=[...]).
func (n *Filter) Describe() string { return "Filter(condition=[" + n.Cond.String() + "])" }

// SortKey is one ORDER BY item.
type SortKey struct {
	Expr       Expr // over the input row
	Desc       bool
	NullsFirst bool // explicit: the validator applies Flink's default (NULLS FIRST for ASC, NULLS LAST for DESC)
}

func (k SortKey) String() string {
	s := k.Expr.String()
	if k.Desc {
		s += " DESC"
	} else {
		s += " ASC"
	}
	if k.NullsFirst {
		s += " NULLS FIRST"
	} else {
		s += " NULLS LAST"
	}
	return s
}

func sortKeys(keys []SortKey) string {
	s := make([]string, len(keys))
	for i, k := range keys {
		s[i] = k.String()
	}
	return strings.Join(s, ", ")
}

// Sort orders its input. The sort is stable: equal rows keep their input
// order.
type Sort struct {
	Input Node
	Keys  []SortKey
}

// Schema returns the input's schema.
func (n *Sort) Schema() Schema { return n.Input.Schema() }

// Children returns the input.
func (n *Sort) Children() []Node { return []Node{n.Input} }

// WithChildren replaces the input.
func (n *Sort) WithChildren(c ...Node) (Node, error) {
	if err := checkChildren("Sort", 1, c); err != nil {
		return nil, err
	}
	cp := *n
	cp.Input = c[0]
	return &cp, nil
}

// Describe prints Sort(orderBy=[a ASC NULLS FIRST]).
func (n *Sort) Describe() string { return "Sort(orderBy=[" + sortKeys(n.Keys) + "])" }

// Limit skips Offset rows of its input and passes at most Fetch rows
// (Fetch < 0: all). A Limit directly above a Sort is a Top-N.
type Limit struct {
	Input  Node
	Offset int64
	Fetch  int64
}

// Schema returns the input's schema.
func (n *Limit) Schema() Schema { return n.Input.Schema() }

// Children returns the input.
func (n *Limit) Children() []Node { return []Node{n.Input} }

// WithChildren replaces the input.
func (n *Limit) WithChildren(c ...Node) (Node, error) {
	if err := checkChildren("Limit", 1, c); err != nil {
		return nil, err
	}
	cp := *n
	cp.Input = c[0]
	return &cp, nil
}

// Describe prints Limit(offset=[0], fetch=[10]).
func (n *Limit) Describe() string {
	fetch := "unlimited"
	if n.Fetch >= 0 {
		fetch = fmt.Sprint(n.Fetch)
	}
	return fmt.Sprintf("Limit(offset=[%d], fetch=[%s])", n.Offset, fetch)
}

// SetOpKind is UNION, INTERSECT or EXCEPT.
type SetOpKind uint8

// Set operations.
const (
	Union SetOpKind = iota + 1
	Intersect
	Except
)

func (k SetOpKind) String() string {
	switch k {
	case Union:
		return "Union"
	case Intersect:
		return "Intersect"
	case Except:
		return "Except"
	}
	return fmt.Sprintf("SetOpKind(%d)", uint8(k))
}

// SetOp combines inputs of the same column count, position by position.
// The validator casts every input to the common column types (Cols); the
// output takes the names of Cols. All keeps duplicates (UNION ALL) with
// multiset semantics for INTERSECT ALL and EXCEPT ALL; otherwise the
// result has no duplicate rows.
type SetOp struct {
	Kind   SetOpKind
	All    bool
	Inputs []Node // two or more for Union; exactly two for Intersect and Except
	Cols   Schema
}

// Schema returns Cols.
func (n *SetOp) Schema() Schema { return n.Cols }

// Children returns the inputs.
func (n *SetOp) Children() []Node { return n.Inputs }

// WithChildren replaces the inputs.
func (n *SetOp) WithChildren(c ...Node) (Node, error) {
	if err := checkChildren(n.Kind.String(), len(n.Inputs), c); err != nil {
		return nil, err
	}
	cp := *n
	cp.Inputs = append([]Node(nil), c...)
	return &cp, nil
}

// Describe prints Union(all=[true], union=[a, b]).
func (n *SetOp) Describe() string {
	return fmt.Sprintf("%s(all=[%t], fields=[%s])", n.Kind, n.All, strings.Join(n.Cols.Names(), ", "))
}

var (
	_ Node = (*Project)(nil)
	_ Node = (*Filter)(nil)
	_ Node = (*Sort)(nil)
	_ Node = (*Limit)(nil)
	_ Node = (*SetOp)(nil)
)
