package exec

import (
	"eddy/engine/plan"
	"eddy/engine/types"
)

// streamOp builds the streaming forms of plan shapes whose changelog
// differs from the batch operators' (Top-N, deduplication, regular
// joins). ok is false when n is not one of them.
func (b *Builder) streamOp(n plan.Node) (Operator, bool, error) {
	if !b.opts.Streaming {
		return nil, false, nil
	}
	if b.depth == 1 {
		b.rankUse = rankColumnUse(n)
	}
	switch n := n.(type) {
	case *plan.Filter:
		if m, ok := matchRank(n); ok {
			used, known := b.rankUse[n]
			op, err := b.rank(n, m, used || !known)
			return op, true, err
		}
		if m, ok := matchSemi(n); ok {
			op, err := b.semiFilter(n, m)
			return op, true, err
		}
		return nil, false, nil
	case *plan.Limit:
		s, ok := n.Input.(*plan.Sort)
		if !ok || n.Fetch < 0 {
			return nil, false, nil
		}
		op, err := b.sortLimit(n, s)
		return op, true, err
	case *plan.Join:
		if hashJoinable(n) {
			return nil, false, nil
		}
		op, err := b.streamJoin(n)
		return op, true, err
	}
	return nil, false, nil
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

// rank builds a Top-N or deduplication for a matched Filter; rankUsed says
// whether the rank column is read above it.
func (b *Builder) rank(f *plan.Filter, m rankMatch, rankUsed bool) (Operator, error) {
	switch m.call.Name {
	case "RANK", "DENSE_RANK":
		return nil, &streamRankError{m.call.Name + "() on streaming table is not supported currently"}
	}
	rankUsed = rankUsed || exprsUse(m.residual, m.filterRankCol)
	input := m.over.Input
	in, err := b.Build(input)
	if err != nil {
		return nil, err
	}
	var op Operator
	if m.end < m.start {
		in.Close()
		op = emptyOp{}
	} else {
		op, err = b.rankOver(in, input, m.call.Partition, m.call.Order, m.start, m.end, true, rankUsed, m.call.T)
		if err != nil {
			return nil, err
		}
	}
	if m.proj != nil {
		evs, err := b.compileAll(m.proj.Exprs)
		if err != nil {
			op.Close()
			return nil, err
		}
		op = &projectOp{in: op, evs: evs, types: schemaTypes(m.proj.Schema()), loc: b.env.Loc}
	}
	if len(m.residual) > 0 {
		cond, err := b.compile(plan.And(m.residual...))
		if err != nil {
			op.Close()
			return nil, err
		}
		op = &filterOp{in: op, cond: cond}
	}
	return op, nil
}

// sortLimit is ORDER BY ... LIMIT in streaming mode: a Top-N without
// partitions and without a rank column.
func (b *Builder) sortLimit(l *plan.Limit, s *plan.Sort) (Operator, error) {
	in, err := b.Build(s.Input)
	if err != nil {
		return nil, err
	}
	if l.Fetch == 0 {
		in.Close()
		return emptyOp{}, nil
	}
	return b.rankOver(in, s.Input, nil, s.Keys, l.Offset+1, l.Offset+l.Fetch, false, false, nil)
}

// rankOver chooses the algorithm as Flink's planner does and returns the
// operator over in (the rows of input). withRankCol appends the rank
// column (of type rankType); rankUsed says whether its value is read.
func (b *Builder) rankOver(in Operator, input plan.Node, part []plan.Expr, keys []plan.SortKey, start, end int64,
	withRankCol, rankUsed bool, rankType *types.Type) (Operator, error) {
	partEvs, err := b.compileAll(part)
	if err != nil {
		in.Close()
		return nil, err
	}
	orderExprs := make([]plan.Expr, len(keys))
	for i, k := range keys {
		orderExprs[i] = k.Expr
	}
	orderEvs, err := b.compileAll(orderExprs)
	if err != nil {
		in.Close()
		return nil, err
	}
	inTypes := input.Schema().Types()
	appendOnly := !updating(input)
	timeAttr := types.Regular
	timeCol := -1
	if len(keys) == 1 {
		timeAttr = keys[0].Expr.Type().TimeAttr
		if r, ok := keys[0].Expr.(*plan.ColumnRef); ok {
			timeCol = r.Index
		}
	}
	// Flink's planner drops the rank number of a range of one rank and
	// projects the constant instead.
	single := start == end
	spec := rankSpec{part: partEvs, order: orderEvs, keys: keys, start: start, end: end,
		withRankCol: withRankCol, rankNumber: (rankUsed && !single) || start > 1, updateBefore: true}
	if appendOnly {
		if op, ok := b.windowRank(in, input, part, spec, rankType); ok {
			return op, nil
		}
	}
	// Deduplication: rn = 1 ordered by a time attribute of an append-only
	// input.
	if appendOnly && start == 1 && end == 1 && timeAttr != types.Regular && withRankCol {
		switch {
		case timeAttr == types.Proctime:
			return newDedupOp(in, partEvs, -1, keys[0].Desc, 0, inTypes, rankType, withRankCol, 1), nil
		case timeCol >= 0:
			delay, _ := watermarkDelay(input)
			return newDedupOp(in, partEvs, timeCol, keys[0].Desc, delay, inTypes, rankType, withRankCol, 1), nil
		}
	}
	switch {
	case !appendOnly:
		spec.strategy = rankRetract
	case timeAttr == types.Proctime && !keys[0].Desc:
		spec.strategy = rankFirstN
	case start == 1 && end == 1:
		spec.strategy = rankFastTop1
		// Flink's planner asks a partitioned Top-1 only for +U (its
		// partition key is the result's unique key).
		spec.updateBefore = len(part) == 0
	default:
		spec.strategy = rankAppendTopN
	}
	return newRankOp(spec, in, inTypes, rankType), nil
}

// streamRankError is Flink's refusal of RANK and DENSE_RANK in streaming
// mode.
type streamRankError struct{ msg string }

func (e *streamRankError) Error() string { return e.msg }

// Class returns Flink's exception class.
func (e *streamRankError) Class() string { return "TableException" }

// updating reports whether a plan's rows can carry updates or deletions
// in streaming mode (the input of a Top-N then needs the retracting
// algorithm).
func updating(n plan.Node) bool {
	switch n := n.(type) {
	case *plan.Aggregate:
		if w, ok := n.Input.(*plan.WindowTVF); ok && n.GroupingSets == nil && groupsByWindow(n, w) {
			return updating(w.Input)
		}
		return true
	case *plan.Join:
		if n.Kind != plan.InnerJoin && n.Kind != plan.CrossJoin && n.Kind != plan.SemiJoin {
			return true
		}
	case *plan.Limit:
		if _, ok := n.Input.(*plan.Sort); ok && n.Fetch >= 0 {
			return true
		}
	case *plan.SetOp:
		if !(n.Kind == plan.Union && n.All) {
			return true
		}
	case *plan.Filter:
		if m, ok := matchRank(n); ok {
			return rankUpdates(m)
		}
		if m, ok := matchSemi(n); ok {
			return m.join.Kind == plan.AntiJoin || updating(m.join.Left) || updating(m.join.Right)
		}
	case *plan.Project:
		if f, ok := n.Input.(*plan.Filter); ok {
			if m, ok := matchRank(f); ok {
				return rankUpdates(m)
			}
		}
	}
	for _, c := range n.Children() {
		if updating(c) {
			return true
		}
	}
	return false
}

// rankUpdates reports whether a Top-N's output updates: all do except a
// keep-first deduplication and a first-N of an append-only input.
func rankUpdates(m rankMatch) bool {
	if updating(m.over.Input) {
		return true
	}
	if len(m.call.Order) == 1 && !m.call.Order[0].Desc {
		switch m.call.Order[0].Expr.Type().TimeAttr {
		case types.Proctime:
			return false
		case types.Rowtime:
			return !(m.start == 1 && m.end == 1)
		}
	}
	return true
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
	visit = func(n plan.Node, need []bool) {
		if need == nil {
			need = all(n)
		}
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
