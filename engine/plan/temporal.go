package plan

import (
	"fmt"
	"strings"
)

// TemporalJoin joins each row of Left with the version of a versioned
// table (Right: a table with a primary key and an event-time attribute)
// that was valid at the row's event time: JOIN r FOR SYSTEM_TIME AS OF
// l.rowtime ON l.k = r.pk (Flink's event-time temporal join). EquiKeys
// hold the right side's primary key; Residual (over the left columns then
// the right ones) filters the joined rows. Kind is InnerJoin or LeftJoin
// (a left row without a valid version, or whose version fails Residual,
// is padded with NULLs).
//
// A left row is joined once the watermark (the smaller of both inputs')
// passes its time, with the latest right row of its key whose time is at
// or before the left row's; that version joins only when it is an insert
// or update, not a deletion. Output rows keep the left row's kind.
type TemporalJoin struct {
	Kind     JoinKind
	Left     Node
	Right    Node
	EquiKeys []EquiKey
	Residual Expr
	// LeftTime is the column of Left read FOR SYSTEM_TIME AS OF (an
	// event-time attribute); RightTime the event-time column of Right.
	LeftTime  int
	RightTime int
	// VersionKey is the versioned table's primary key (columns of
	// Right).
	VersionKey []int
}

// Schema returns the left columns then the right ones, nullable for a
// LEFT join.
func (n *TemporalJoin) Schema() Schema {
	l := n.Left.Schema()
	out := make(Schema, 0, len(l)+len(n.Right.Schema()))
	out = append(out, l...)
	return append(out, nullableIf(n.Right.Schema(), n.Kind == LeftJoin)...)
}

// Children returns the left input and the versioned table.
func (n *TemporalJoin) Children() []Node { return []Node{n.Left, n.Right} }

// WithChildren replaces the inputs.
func (n *TemporalJoin) WithChildren(c ...Node) (Node, error) {
	if err := checkChildren("TemporalJoin", 2, c); err != nil {
		return nil, err
	}
	cp := *n
	cp.Left, cp.Right = c[0], c[1]
	return &cp, nil
}

// Describe prints TemporalJoin(joinType=[...], equi=[...], asOf=[...],
// version=[...]).
func (n *TemporalJoin) Describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "TemporalJoin(joinType=[%s]", n.Kind)
	keys := make([]string, len(n.EquiKeys))
	for i, k := range n.EquiKeys {
		keys[i] = k.Left.String() + " = " + k.Right.String()
	}
	fmt.Fprintf(&b, ", equi=[%s]", strings.Join(keys, ", "))
	if n.Residual != nil {
		fmt.Fprintf(&b, ", where=[%s]", n.Residual)
	}
	fmt.Fprintf(&b, ", asOf=[%s], version=[%s])", n.Left.Schema()[n.LeftTime].Name, n.Right.Schema()[n.RightTime].Name)
	return b.String()
}

var _ Node = (*TemporalJoin)(nil)
