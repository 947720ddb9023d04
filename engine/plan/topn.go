package plan

import (
	"fmt"
	"strings"

	"eddy/engine/types"
)

// TopN keeps, for every partition of its input, the rows ranked Start to
// End (1-based, inclusive) by Order. The optimizer (engine/opt) makes one
// out of the shapes the validator builds for it in streaming mode: a
// Filter bounding the rank column of an Over with one ranking call
// (ROW_NUMBER, RANK, DENSE_RANK), and ORDER BY ... LIMIT (a Limit over a
// Sort, without partitions and without a rank column). End < Start keeps
// no row.
type TopN struct {
	Input Node
	// Func is the ranking function (ROW_NUMBER, RANK, DENSE_RANK), or ""
	// for ORDER BY ... LIMIT.
	Func      string
	Partition []Expr    // over the input row
	Order     []SortKey // over the input row
	Start     int64
	End       int64
	// RankCol appends the rank column, named RankName, of type RankType.
	RankCol  bool
	RankName string
	RankType *types.Type
	// RankUsed says whether the rank column's value is read above the
	// Top-N (Flink's planner drops an unread rank number, which changes
	// the changelog of the algorithm).
	RankUsed bool
	// InputUpdates is set by the changelog pass when the input's rows
	// carry updates or deletions (the Top-N must then retract).
	InputUpdates bool
}

// Schema returns the input columns, then the rank column if any.
func (n *TopN) Schema() Schema {
	out := append(Schema{}, n.Input.Schema()...)
	if n.RankCol {
		out = append(out, Column{Name: n.RankName, Type: n.RankType})
	}
	return out
}

// Children returns the input.
func (n *TopN) Children() []Node { return []Node{n.Input} }

// WithChildren replaces the input.
func (n *TopN) WithChildren(c ...Node) (Node, error) {
	if err := checkChildren("TopN", 1, c); err != nil {
		return nil, err
	}
	cp := *n
	cp.Input = c[0]
	return &cp, nil
}

// Describe prints Rank(...) in the words of Flink's plans.
func (n *TopN) Describe() string {
	var b strings.Builder
	fn := n.Func
	if fn == "" {
		fn = "ROW_NUMBER"
	}
	fmt.Fprintf(&b, "Rank(rankType=[%s], rankRange=[rankStart=%d, rankEnd=%d], partitionBy=[%s], orderBy=[%s]",
		fn, n.Start, n.End, exprList(n.Partition), sortKeys(n.Order))
	fmt.Fprintf(&b, ", select=[%s", strings.Join(n.Input.Schema().Names(), ", "))
	if n.RankCol {
		b.WriteString(", " + n.RankName)
	}
	b.WriteString("]")
	if n.RankCol && !n.RankUsed {
		b.WriteString(", rankUnused=[true]")
	}
	if n.InputUpdates {
		b.WriteString(", inputUpdates=[true]")
	}
	b.WriteString(")")
	return b.String()
}

var _ Node = (*TopN)(nil)
