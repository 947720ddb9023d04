package plan

import (
	"fmt"
	"strings"
)

// IntervalJoin is a join of two insert-only inputs whose condition bounds
// the distance between their event times (Flink's interval join):
// l.t BETWEEN r.t - INTERVAL ... AND r.t + INTERVAL ..., or the same with
// <, <=, >, >=. EquiKeys and Residual are those of Join (the time bounds
// stay in Residual). Lower and Upper are the bounds, in milliseconds, of
// Left's time minus Right's: a row can only meet rows of the other side
// within them, so once the other input's watermark passes that range the
// row is dropped, and a row of an outer side that met nothing is emitted
// padded with NULLs then. The output is insert-only.
type IntervalJoin struct {
	Kind     JoinKind
	Left     Node
	Right    Node
	EquiKeys []EquiKey
	Residual Expr
	// LeftTime and RightTime are the event-time columns the bounds
	// compare.
	LeftTime, RightTime int
	Lower, Upper        int64
}

// Schema returns the left columns then the right ones, nullable on the
// side an outer join pads.
func (n *IntervalJoin) Schema() Schema {
	return joinSchema(n.Kind, n.Left, n.Right)
}

// joinSchema is the row of a join of kind k.
func joinSchema(k JoinKind, left, right Node) Schema {
	l, r := left.Schema(), right.Schema()
	out := make(Schema, 0, len(l)+len(r))
	out = append(out, nullableIf(l, k == RightJoin || k == FullJoin)...)
	return append(out, nullableIf(r, k == LeftJoin || k == FullJoin)...)
}

// Children returns the inputs.
func (n *IntervalJoin) Children() []Node { return []Node{n.Left, n.Right} }

// WithChildren replaces the inputs.
func (n *IntervalJoin) WithChildren(c ...Node) (Node, error) {
	if err := checkChildren("IntervalJoin", 2, c); err != nil {
		return nil, err
	}
	cp := *n
	cp.Left, cp.Right = c[0], c[1]
	return &cp, nil
}

// Describe prints IntervalJoin(joinType=[...], windowBounds=[...], ...).
func (n *IntervalJoin) Describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "IntervalJoin(joinType=[%s], windowBounds=[leftLowerBound=%d, leftUpperBound=%d, leftTimeIndex=%d, rightTimeIndex=%d]",
		n.Kind, n.Lower, n.Upper, n.LeftTime, n.RightTime)
	writeJoinCond(&b, n.EquiKeys, n.Residual)
	b.WriteString(")")
	return b.String()
}

// writeJoinCond prints equi=[...] and where=[...].
func writeJoinCond(b *strings.Builder, keys []EquiKey, residual Expr) {
	if len(keys) > 0 {
		ks := make([]string, len(keys))
		for i, k := range keys {
			op := "="
			if k.NullSafe {
				op = "IS NOT DISTINCT FROM"
			}
			ks[i] = k.Left.String() + " " + op + " " + k.Right.String()
		}
		fmt.Fprintf(b, ", equi=[%s]", strings.Join(ks, ", "))
	}
	if residual != nil {
		fmt.Fprintf(b, ", where=[%s]", residual)
	}
}

var _ Node = (*IntervalJoin)(nil)
