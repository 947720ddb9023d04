package plan

import (
	"fmt"
	"strings"
)

// LookupJoin joins each row of Input with the rows of a table looked up
// by key as the row arrives (a processing-time temporal join, Flink's
// LookupJoin): JOIN t FOR SYSTEM_TIME AS OF input.proctime ON
// input.x = t.k. The table is never scanned, so it is not a child.
// Kind is InnerJoin or LeftJoin (a LEFT join pads an input row without
// a match with NULLs). Output rows keep the input's order and row kinds,
// each input row followed by its matches in the order the table returns
// them.
type LookupJoin struct {
	Kind  JoinKind
	Input Node
	// Table is the looked-up table (its Physical schema is the right
	// side's columns).
	Table *Scan
	// Keys are the lookup keys: Left over the input row equals the
	// table's physical column Column.
	Keys []LookupKey
	// Residual is the rest of the ON condition, over the input columns
	// followed by the table's, or nil.
	Residual Expr
}

// LookupKey is one equality of a lookup join's ON condition.
type LookupKey struct {
	Left   Expr
	Column int
}

// Schema returns the input columns then the table's, nullable for a
// LEFT join.
func (n *LookupJoin) Schema() Schema {
	l := n.Input.Schema()
	out := make(Schema, 0, len(l)+len(n.Table.Physical))
	out = append(out, l...)
	return append(out, nullableIf(n.Table.Physical, n.Kind == LeftJoin)...)
}

// Children returns the input.
func (n *LookupJoin) Children() []Node { return []Node{n.Input} }

// WithChildren replaces the input.
func (n *LookupJoin) WithChildren(c ...Node) (Node, error) {
	if err := checkChildren("LookupJoin", 1, c); err != nil {
		return nil, err
	}
	cp := *n
	cp.Input = c[0]
	return &cp, nil
}

// Describe prints LookupJoin(table=[...], joinType=[...], lookup=[...]).
func (n *LookupJoin) Describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "LookupJoin(table=[%s], joinType=[%s]", n.Table.Table, n.Kind)
	keys := make([]string, len(n.Keys))
	for i, k := range n.Keys {
		keys[i] = n.Table.Physical[k.Column].Name + "=" + k.Left.String()
	}
	fmt.Fprintf(&b, ", lookup=[%s]", strings.Join(keys, ", "))
	if n.Residual != nil {
		fmt.Fprintf(&b, ", where=[%s]", n.Residual)
	}
	b.WriteString(")")
	return b.String()
}
