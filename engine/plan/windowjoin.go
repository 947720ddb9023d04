package plan

import (
	"fmt"
	"strings"
)

// WindowJoin is a join of two insert-only windowed inputs (window table
// functions, or window aggregates over them) whose ON condition equates
// both window_start and window_end (Flink's window join): rows meet only
// rows of the same window, and once the other input's watermark passes a
// window's end the window's rows are dropped, a row of an outer side that
// met nothing being emitted padded with NULLs then. EquiKeys and Residual
// are those of Join. The output is insert-only.
type WindowJoin struct {
	Kind     JoinKind
	Left     Node
	Right    Node
	EquiKeys []EquiKey
	Residual Expr
	// LeftEnd and RightEnd are the window_end columns of each side.
	LeftEnd, RightEnd int
	// LeftTime and RightTime are an event-time column of each side, which
	// its watermark follows, or -1 when it has none (its watermark then
	// stays back until it ends).
	LeftTime, RightTime int
}

// Schema returns the left columns then the right ones, nullable on the
// side an outer join pads.
func (n *WindowJoin) Schema() Schema { return joinSchema(n.Kind, n.Left, n.Right) }

// Children returns the inputs.
func (n *WindowJoin) Children() []Node { return []Node{n.Left, n.Right} }

// WithChildren replaces the inputs.
func (n *WindowJoin) WithChildren(c ...Node) (Node, error) {
	if err := checkChildren("WindowJoin", 2, c); err != nil {
		return nil, err
	}
	cp := *n
	cp.Left, cp.Right = c[0], c[1]
	return &cp, nil
}

// Describe prints WindowJoin(joinType=[...], leftWindowEnd=[...], ...).
func (n *WindowJoin) Describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "WindowJoin(joinType=[%s], leftWindowEnd=[%s], rightWindowEnd=[%s]", n.Kind,
		n.Left.Schema()[n.LeftEnd].Name, n.Right.Schema()[n.RightEnd].Name)
	writeJoinCond(&b, n.EquiKeys, n.Residual)
	b.WriteString(")")
	return b.String()
}

var _ Node = (*WindowJoin)(nil)
