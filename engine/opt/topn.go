package opt

import (
	"fmt"

	"eddy/engine/plan"
	"eddy/engine/types"
)

// TopN turns, in a streaming plan, every Filter that bounds the rank
// column of an Over with one ranking call (ROW_NUMBER, RANK, DENSE_RANK
// ordered by something) into a plan.TopN, with the Filter's projection
// and its other conjuncts above it, and every ORDER BY ... LIMIT (a Limit
// with a fetch over a Sort) into a plan.TopN without partitions and rank
// column. A Top-N records whether its rank column is read above it.
func TopN(root plan.Node) (plan.Node, error) {
	t := &topNs{use: rankColumnUse(root), done: memo{}}
	return t.rewrite(root)
}

// topNs rewrites one root plan; use is rankColumnUse of that root.
type topNs struct {
	use  map[*plan.Filter]bool
	done memo
}

func (t *topNs) rewrite(n plan.Node) (plan.Node, error) { return t.done.once(n, t.rewriteNode) }

func (t *topNs) rewriteNode(n plan.Node) (plan.Node, error) {
	switch x := n.(type) {
	case *plan.Filter:
		if m, ok := matchRank(x); ok {
			used, known := t.use[x]
			return t.rank(m, used || !known)
		}
	case *plan.Limit:
		if s, ok := x.Input.(*plan.Sort); ok && x.Fetch >= 0 {
			in, err := t.rewrite(s.Input)
			if err != nil {
				return nil, err
			}
			return &plan.TopN{Input: in, Order: s.Keys, Start: x.Offset + 1, End: x.Offset + x.Fetch}, nil
		}
	}
	return mapNode(n, t.rewrite, TopN)
}

// rank builds the Top-N of a matched Filter; rankUsed says whether the
// rank column is read above the Filter.
func (t *topNs) rank(m rankMatch, rankUsed bool) (plan.Node, error) {
	in, err := t.rewrite(m.over.Input)
	if err != nil {
		return nil, err
	}
	var out plan.Node = &plan.TopN{Input: in, Func: m.call.Name, Partition: m.call.Partition, Order: m.call.Order,
		Start: m.start, End: m.end, RankCol: true, RankName: m.call.Alias, RankType: m.call.T,
		RankUsed: rankUsed || exprsUse(m.residual, m.filterRankCol)}
	if m.proj != nil {
		es, err := mapExprs(m.proj.Exprs, TopN)
		if err != nil {
			return nil, err
		}
		out = &plan.Project{Input: out, Exprs: es, Names: m.proj.Names}
	}
	if len(m.residual) > 0 {
		c, err := mapExpr(plan.And(m.residual...), TopN)
		if err != nil {
			return nil, err
		}
		out = &plan.Filter{Input: out, Cond: c}
	}
	return out, nil
}

// rankMatch is a Filter over an optional Project over an Over with one
// ranking call, whose condition bounds the rank.
type rankMatch struct {
	proj          *plan.Project // or nil
	over          *plan.Over
	call          plan.WindowCall
	filterRankCol int // the rank column in the Filter's schema
	start, end    int64
	residual      []plan.Expr // the other conjuncts, over the Filter's schema
}

func matchRank(f *plan.Filter) (rankMatch, bool) {
	var m rankMatch
	in := f.Input
	if p, ok := in.(*plan.Project); ok {
		m.proj = p
		in = p.Input
	}
	over, ok := in.(*plan.Over)
	if !ok || len(over.Calls) != 1 {
		return m, false
	}
	m.over, m.call = over, over.Calls[0]
	switch m.call.Name {
	case "ROW_NUMBER", "RANK", "DENSE_RANK":
	default:
		return m, false
	}
	if len(m.call.Order) == 0 {
		return m, false
	}
	rankCol := len(over.Input.Schema())
	m.filterRankCol = rankCol
	if m.proj != nil {
		m.filterRankCol = -1
		for i, e := range m.proj.Exprs {
			if r, ok := e.(*plan.ColumnRef); ok && r.Index == rankCol {
				m.filterRankCol = i
			} else if exprsUse([]plan.Expr{e}, rankCol) {
				return m, false
			}
		}
		if m.filterRankCol < 0 {
			return m, false
		}
	}
	m.start, m.end = 1, -1
	for _, c := range plan.Conjuncts(f.Cond) {
		if m.bound(c) {
			continue
		}
		m.residual = append(m.residual, c)
	}
	return m, m.end >= 0
}

// bound applies a conjunct `rank <op> literal` (or `literal <op> rank`)
// to the range; false when c is not one.
func (m *rankMatch) bound(c plan.Expr) bool {
	call, ok := c.(*plan.Call)
	if !ok || call.Func != nil || len(call.Args) != 2 {
		return false
	}
	op := call.Name
	a, b := call.Args[0], call.Args[1]
	if _, ok := a.(*plan.Literal); ok {
		a, b = b, a
		switch op {
		case plan.OpLt:
			op = plan.OpGt
		case plan.OpLe:
			op = plan.OpGe
		case plan.OpGt:
			op = plan.OpLt
		case plan.OpGe:
			op = plan.OpLe
		}
	}
	ref, ok := a.(*plan.ColumnRef)
	if !ok || ref.Index != m.filterRankCol {
		return false
	}
	lit, ok := b.(*plan.Literal)
	if !ok {
		return false
	}
	v, ok := types.AsInt64(lit.Value)
	if !ok {
		return false
	}
	switch op {
	case plan.OpLe:
		m.end = minBound(m.end, v)
	case plan.OpLt:
		m.end = minBound(m.end, v-1)
	case plan.OpEq:
		m.start = max(m.start, v)
		m.end = minBound(m.end, v)
	case plan.OpGe:
		m.start = max(m.start, v)
	case plan.OpGt:
		m.start = max(m.start, v+1)
	default:
		return false
	}
	return true
}

func minBound(cur, v int64) int64 {
	if cur < 0 || v < cur {
		return max(v, 0)
	}
	return cur
}

// exprsUse reports whether any expression reads column col.
func exprsUse(es []plan.Expr, col int) bool {
	used := false
	for _, e := range es {
		plan.WalkExpr(e, func(x plan.Expr) bool {
			if r, ok := x.(*plan.ColumnRef); ok && r.Index == col {
				used = true
			}
			return !used
		})
	}
	return used
}

// rankColumnUse finds, for every Top-N Filter of a plan, whether a node
// above it reads its rank column (Flink's planner prunes an unread rank
// number, which changes the algorithm's changelog). It follows the
// columns each node needs from its inputs; where it cannot tell, every
// column counts as read.
func rankColumnUse(root plan.Node) map[*plan.Filter]bool {
	use := map[*plan.Filter]bool{}
	var visit func(n plan.Node, need []bool)
	all := func(n plan.Node) []bool {
		out := make([]bool, len(n.Schema()))
		for i := range out {
			out[i] = true
		}
		return out
	}
	mark := func(need []bool, es ...plan.Expr) {
		for _, e := range es {
			plan.WalkExpr(e, func(x plan.Expr) bool {
				if r, ok := x.(*plan.ColumnRef); ok && r.Index < len(need) {
					need[r.Index] = true
				}
				return true
			})
		}
	}
	// A shared node is visited once for each distinct need.
	type visitKey struct {
		n    plan.Node
		need string
	}
	seen := map[visitKey]bool{}
	visit = func(n plan.Node, need []bool) {
		if need == nil {
			need = all(n)
		}
		key := visitKey{n, fmt.Sprint(need)}
		if seen[key] {
			return
		}
		seen[key] = true
		switch x := n.(type) {
		case *plan.Project:
			in := make([]bool, len(x.Input.Schema()))
			for i, e := range x.Exprs {
				if i < len(need) && need[i] {
					mark(in, e)
				}
			}
			visit(x.Input, in)
			return
		case *plan.Filter:
			in := append([]bool(nil), need...)
			if m, ok := matchRank(x); ok {
				use[x] = need[m.filterRankCol] || exprsUse(m.residual, m.filterRankCol)
				visit(m.over.Input, nil)
				return
			}
			mark(in, x.Cond)
			visit(x.Input, in)
			return
		case *plan.Limit:
			visit(x.Input, need)
			return
		case *plan.Sort:
			in := append([]bool(nil), need...)
			for _, k := range x.Keys {
				mark(in, k.Expr)
			}
			visit(x.Input, in)
			return
		case *plan.Aggregate:
			in := make([]bool, len(x.Input.Schema()))
			mark(in, x.Group...)
			for _, a := range x.Aggs {
				mark(in, a.Args...)
				if a.Filter != nil {
					mark(in, a.Filter)
				}
			}
			visit(x.Input, in)
			return
		}
		for _, c := range n.Children() {
			visit(c, nil)
		}
	}
	visit(root, nil)
	return use
}
