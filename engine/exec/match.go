package exec

import (
	"context"
	"fmt"
	"sort"
	"time"

	"eddy/engine/functions"
	"eddy/engine/plan"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// MatchError is a failure of MATCH_RECOGNIZE that Flink reports as a
// TableException (planning) or a runtime exception (skipping to a missing
// row).
type MatchError struct {
	Msg     string
	Runtime bool
}

func (e *MatchError) Error() string { return e.Msg }

// Class returns Flink's exception class.
func (e *MatchError) Class() string {
	if e.Runtime {
		return "FlinkRuntimeException"
	}
	return "TableException"
}

// checkMatchOrder applies the checks of Flink's StreamExecMatch and
// BatchExecMatch on the ORDER BY of MATCH_RECOGNIZE.
func checkMatchOrder(n *plan.Match, streaming bool) error {
	if streaming {
		if len(n.Order) == 0 {
			return &MatchError{Msg: "You must specify either rowtime or proctime for order by."}
		}
		if t := n.Order[0].Expr.Type(); t.TimeAttr != types.Rowtime && t.TimeAttr != types.Proctime {
			return &MatchError{Msg: "You must specify either rowtime or proctime for order by as the first one."}
		}
		if n.Order[0].Desc {
			return &MatchError{Msg: "Primary sort order of a streaming table must be ascending on time."}
		}
		return nil
	}
	if len(n.Order) == 0 {
		return &MatchError{Msg: "You must specify non-empty order by."}
	}
	switch n.Order[0].Expr.Type().Kind {
	case types.Date, types.Time, types.Timestamp, types.TimestampLTZ, types.TimestampTZ:
	default:
		return &MatchError{Msg: "You must specify time point for order by as the first one."}
	}
	if n.Order[0].Desc {
		return &MatchError{Msg: "Primary sort order of a table must be ascending on time."}
	}
	return nil
}

// match builds the MATCH_RECOGNIZE operator: it reads its whole (bounded)
// input, partitions and orders it, and runs the pattern as an NFA over
// each partition's rows.
func (b *Builder) match(n *plan.Match) (Operator, error) {
	if err := checkMatchOrder(n, b.opts.Streaming); err != nil {
		return nil, err
	}
	in, err := b.Build(n.Input)
	if err != nil {
		return nil, err
	}
	op := &matchOp{b: b, n: n, in: in, streaming: b.opts.Streaming}
	fail := func(err error) (Operator, error) {
		in.Close()
		return nil, err
	}
	for _, k := range n.Order {
		ev, err := b.compile(k.Expr)
		if err != nil {
			return fail(err)
		}
		op.order = append(op.order, ev)
	}
	for _, s := range n.Slots {
		evs, err := b.compileAll(s.Args)
		if err != nil {
			return fail(err)
		}
		op.slotArgs = append(op.slotArgs, evs)
		var mk func() functions.Accumulator
		if s.Kind == plan.SlotAgg {
			ts := make([]*types.Type, len(s.Args))
			for i, a := range s.Args {
				ts[i] = a.Type()
			}
			if mk, err = functions.AggregateKernel(s.Agg, ts, s.T); err != nil {
				return fail(err)
			}
		}
		op.aggs = append(op.aggs, mk)
	}
	op.defines = make([]evaluator, len(n.Defines))
	op.defineSlots = make([][]int, len(n.Defines))
	for i, d := range n.Defines {
		if d == nil {
			continue
		}
		if op.defines[i], err = b.compile(d); err != nil {
			return fail(err)
		}
		op.defineSlots[i] = slotRefs(d)
	}
	for _, m := range n.Measures {
		ev, err := b.compile(m)
		if err != nil {
			return fail(err)
		}
		op.measures = append(op.measures, ev)
		op.measureSlots = append(op.measureSlots, slotRefs(m))
	}
	op.slotTypes = make([]*types.Type, len(n.Slots))
	for i, s := range n.Slots {
		op.slotTypes[i] = s.T
	}
	for i, v := range n.Pattern {
		if v.Name == n.AfterVar {
			op.afterVar = i
		}
	}
	if op.streaming {
		return newMatchStream(op), nil
	}
	return op, nil
}

// slotRefs lists the slots an expression reads.
func slotRefs(e plan.Expr) []int {
	var out []int
	plan.WalkExpr(e, func(x plan.Expr) bool {
		if c, ok := x.(*plan.ColumnRef); ok {
			out = append(out, c.Index)
		}
		return true
	})
	return out
}

type matchOp struct {
	b            *Builder
	n            *plan.Match
	in           Operator
	order        []evaluator
	slotArgs     [][]evaluator
	aggs         []func() functions.Accumulator
	slotTypes    []*types.Type
	defines      []evaluator
	defineSlots  [][]int
	measures     []evaluator
	measureSlots [][]int
	afterVar     int
	streaming    bool
	out          *sliceOp
}

func (o *matchOp) Next(ctx context.Context) (*vector.Batch, error) {
	if o.out == nil {
		res, err := o.run(ctx)
		if err != nil {
			return nil, err
		}
		o.out = &sliceOp{b: res}
	}
	return o.out.Next(ctx)
}

func (o *matchOp) Close() error { return o.in.Close() }

// run matches every partition of the input.
func (o *matchOp) run(ctx context.Context) (*vector.Batch, error) {
	inTypes := schemaTypes(o.n.Input.Schema())
	all, err := Drain(ctx, o.in, inTypes)
	if err != nil {
		return nil, err
	}
	out := vector.NewBatch(schemaTypes(o.n.Cols), vector.BatchSize)
	if all.N == 0 {
		return out, nil
	}
	r := &matchRun{op: o, ctx: ctx, all: all, out: out}
	if r.keys, err = matchEvalAll(ctx, o.order, all); err != nil {
		return nil, err
	}
	r.args = make([][]*vector.Vec, len(o.slotArgs))
	for i, evs := range o.slotArgs {
		if r.args[i], err = matchEvalAll(ctx, evs, all); err != nil {
			return nil, err
		}
	}
	// Partitions in order of their first row.
	var order []string
	parts := map[string][]int{}
	var key []byte
	for i := 0; i < all.N; i++ {
		key = key[:0]
		for _, c := range o.n.Partition {
			key = vector.AppendKey(key, all.Cols[c], i)
		}
		k := string(key)
		if _, ok := parts[k]; !ok {
			order = append(order, k)
		}
		parts[k] = append(parts[k], i)
	}
	// Flink's batch plan sorts the input by the partition columns (NULL
	// first): partitions leave in that order.
	sort.SliceStable(order, func(a, b int) bool {
		i, j := parts[order[a]][0], parts[order[b]][0]
		for _, c := range o.n.Partition {
			v := all.Cols[c]
			ni, nj := v.IsNull(i), v.IsNull(j)
			switch {
			case ni && nj:
				continue
			case ni || nj:
				return ni
			}
			if x := vector.Compare(v, i, v, j); x != 0 {
				return x < 0
			}
		}
		return false
	})
	for _, k := range order {
		rows := parts[k]
		if !o.n.Proctime {
			r.sortRows(rows)
		}
		if err := r.partition(rows); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func matchEvalAll(ctx context.Context, evs []evaluator, b *vector.Batch) ([]*vector.Vec, error) {
	out := make([]*vector.Vec, len(evs))
	for i, ev := range evs {
		v, err := ev(ctx, b)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// matchRun is the matching of one statement's input.
type matchRun struct {
	op   *matchOp
	ctx  context.Context
	all  *vector.Batch
	keys []*vector.Vec   // order keys over all
	args [][]*vector.Vec // slot arguments over all
	out  *vector.Batch

	rows    []int // the current partition's rows (indexes into all), in order
	matches int   // matches emitted in the partition
	// The NFA's state between rows: the partial matches, and the
	// complete ones waiting for an earlier partial match.
	active, done []*partial
}

// sortRows orders a partition's rows by the order keys (stable).
func (r *matchRun) sortRows(rows []int) {
	keys := r.op.n.Order
	sort.SliceStable(rows, func(a, b int) bool {
		return compareMatchKeys(keys, r.keys, rows[a], rows[b]) < 0
	})
}

// compareMatchKeys compares rows i and j of the order key vectors.
func compareMatchKeys(keys []plan.SortKey, vs []*vector.Vec, i, j int) int {
	for k, key := range keys {
		v := vs[k]
		ni, nj := v.IsNull(i), v.IsNull(j)
		var c int
		switch {
		case ni && nj:
			c = 0
		case ni:
			c = -1
			if !key.NullsFirst {
				c = 1
			}
		case nj:
			c = 1
			if !key.NullsFirst {
				c = -1
			}
		default:
			c = vector.Compare(v, i, v, j)
			if key.Desc {
				c = -c
			}
		}
		if c != 0 {
			return c
		}
	}
	return 0
}

// partial is a partial match: rows start, start+1, ... mapped to vars.
type partial struct {
	start int    // position in the partition of the first row
	vars  []int8 // the variable of each row
	cur   int    // the variable being matched
	count int    // rows taken by cur
}

func (p *partial) end() int { return p.start + len(p.vars) - 1 }

// millis returns the time of the partition's row at position pos.
func (r *matchRun) millis(pos int) (int64, bool) {
	v := r.keys[0]
	i := r.rows[pos]
	if v.IsNull(i) {
		return 0, false
	}
	switch x := v.Get(i).(type) {
	case time.Time:
		return x.UnixMilli(), true
	case int32:
		return int64(x) * 86400000, true
	case int64:
		return x, true
	case time.Duration:
		return x.Milliseconds(), true
	}
	return 0, false
}

// partition runs the NFA over one partition.
func (r *matchRun) partition(rows []int) error {
	r.rows, r.matches, r.active, r.done = rows, 0, nil, nil
	for pos := range rows {
		if err := r.step(pos); err != nil {
			return err
		}
	}
	return nil
}

// step feeds the partition's row at pos to the NFA and emits the matches
// it completes.
func (r *matchRun) step(pos int) error {
	if err := r.ctx.Err(); err != nil {
		return err
	}
	active := r.active
	if w := r.op.n.WithinMillis; w > 0 {
		now, ok := r.millis(pos)
		kept := active[:0]
		for _, p := range active {
			if st, ok2 := r.millis(p.start); !ok || !ok2 || now-st < w {
				kept = append(kept, p)
			}
		}
		active = kept
	}
	active = append(active, &partial{start: pos})
	var next []*partial
	done := r.done
	for _, p := range active {
		succ, complete, err := r.advance(p, pos)
		if err != nil {
			return err
		}
		next = append(next, succ...)
		done = append(done, complete...)
	}
	active = next
	sort.SliceStable(done, func(a, b int) bool { return done[a].start < done[b].start })
	// A complete match waits while a partial match that started
	// earlier may still complete (Flink's NFA emits matches in the
	// order of their starts); emitting one prunes the others.
	for len(done) > 0 {
		m := done[0]
		if len(active) > 0 && earliest(active) < m.start {
			break
		}
		done = done[1:]
		if err := r.emit(m); err != nil {
			return err
		}
		keep, err := r.pruner(m)
		if err != nil {
			return err
		}
		active = filterPartials(active, keep)
		done = filterPartials(done, keep)
	}
	r.active, r.done = active, done
	return nil
}

// earliest returns the first start among partial matches.
func earliest(ps []*partial) int {
	first := ps[0].start
	for _, p := range ps[1:] {
		first = min(first, p.start)
	}
	return first
}

func filterPartials(ps []*partial, keep func(*partial) bool) []*partial {
	out := ps[:0]
	for _, p := range ps {
		if keep(p) {
			out = append(out, p)
		}
	}
	return out
}

// pruner returns which partial matches survive the emission of m under
// the AFTER MATCH strategy (Flink's AfterMatchSkipStrategy).
func (r *matchRun) pruner(m *partial) (func(*partial) bool, error) {
	n := r.op.n
	switch n.After {
	case plan.SkipToNextRow:
		return func(p *partial) bool { return p.start != m.start }, nil
	case plan.SkipToFirst, plan.SkipToLast:
		target := -1
		for i, v := range m.vars {
			if int(v) == r.op.afterVar {
				if target < 0 || n.After == plan.SkipToLast {
					target = m.start + i
				}
			}
		}
		if target < 0 {
			return nil, &MatchError{Runtime: true, Msg: fmt.Sprintf("Could not skip to %s. No such element in the found match.", n.AfterVar)}
		}
		if target == m.start {
			return nil, &MatchError{Runtime: true, Msg: "Could not skip to first element of a match."}
		}
		return func(p *partial) bool { return p.start >= target }, nil
	}
	end := m.end()
	return func(p *partial) bool { return p.start > end }, nil
}

// advance consumes the row at pos in the partial match p: it returns the
// partial matches that continue and those that complete with this row.
// A greedy variable that can take the row keeps it: the row cannot then
// start the next variable (Flink's greedy condition).
func (r *matchRun) advance(p *partial, pos int) (cont, complete []*partial, err error) {
	pat := r.op.n.Pattern
	var visit func(cur, count int, blocked bool) error
	visit = func(cur, count int, blocked bool) error {
		if cur >= len(pat) {
			return nil
		}
		v := pat[cur]
		canTake := v.Max < 0 || count < v.Max
		if canTake {
			ok, err := r.define(p, cur, pos)
			if err != nil {
				return err
			}
			if ok && !blocked {
				np := &partial{start: p.start, vars: append(append(make([]int8, 0, len(p.vars)+1), p.vars...), int8(cur)),
					cur: cur, count: count + 1}
				if r.within(np) {
					if r.canFinish(np) {
						complete = append(complete, np)
					}
					if np.count < v.Max || v.Max < 0 || np.cur+1 < len(pat) {
						cont = append(cont, np)
					}
				}
			}
			if ok && v.Greedy && count >= v.Min {
				// The greedy loop takes the row: it may not move on.
				blocked = true
			}
		}
		if count >= v.Min {
			return visit(cur+1, 0, blocked)
		}
		return nil
	}
	if err := visit(p.cur, p.count, false); err != nil {
		return nil, nil, err
	}
	// A partial that completed keeps going only if more rows can be taken.
	return cont, complete, nil
}

// within tells whether a partial match still fits WITHIN: as in Flink's
// NFA, a match times out when its last row is WITHIN or more after its
// first.
func (r *matchRun) within(p *partial) bool {
	w := r.op.n.WithinMillis
	if w <= 0 {
		return true
	}
	a, ok1 := r.millis(p.start)
	b, ok2 := r.millis(p.end())
	return !ok1 || !ok2 || b-a < w
}

// canFinish tells whether the variables after p's current one may all be
// empty and p's current one has its minimum: the match is complete.
func (r *matchRun) canFinish(p *partial) bool {
	pat := r.op.n.Pattern
	if p.count < pat[p.cur].Min {
		return false
	}
	for _, v := range pat[p.cur+1:] {
		if v.Min > 0 {
			return false
		}
	}
	return true
}

// define evaluates variable cur's condition for the row at pos appended
// to p.
func (r *matchRun) define(p *partial, cur, pos int) (bool, error) {
	ev := r.op.defines[cur]
	if ev == nil {
		return true, nil
	}
	vars := append(append(make([]int8, 0, len(p.vars)+1), p.vars...), int8(cur))
	b, err := r.slotBatch(p.start, vars, r.op.defineSlots[cur], r.matches+1)
	if err != nil {
		return false, err
	}
	v, err := ev(r.ctx, b)
	if err != nil {
		return false, err
	}
	if v.IsNull(0) {
		return false, nil
	}
	x, _ := v.Get(0).(bool)
	return x, nil
}

// emit appends the output row of a complete match.
func (r *matchRun) emit(m *partial) error {
	r.matches++
	vals := make([]any, 0, len(r.op.n.Cols))
	first := r.rows[m.start]
	for _, c := range r.op.n.Partition {
		vals = append(vals, r.all.Cols[c].Get(first))
	}
	for i, ev := range r.op.measures {
		b, err := r.slotBatch(m.start, m.vars, r.op.measureSlots[i], r.matches)
		if err != nil {
			return err
		}
		v, err := ev(r.ctx, b)
		if err != nil {
			return err
		}
		vals = append(vals, v.Get(0))
	}
	r.out.AppendRow(types.Insert, vals)
	return nil
}

// slotBatch computes the slots in used for the rows start.. mapped to
// vars, as a one-row batch.
func (r *matchRun) slotBatch(start int, vars []int8, used []int, number int) (*vector.Batch, error) {
	b := vector.NewBatch(r.op.slotTypes, 1)
	vals := make([]any, len(r.op.slotTypes))
	for _, s := range used {
		v, err := r.slotValue(s, start, vars, number)
		if err != nil {
			return nil, err
		}
		vals[s] = v
	}
	b.AppendRow(types.Insert, vals)
	return b, nil
}

// slotValue computes one slot.
func (r *matchRun) slotValue(s, start int, vars []int8, number int) (any, error) {
	sl := r.op.n.Slots[s]
	pat := r.op.n.Pattern
	switch sl.Kind {
	case plan.SlotClassifier:
		return pat[vars[len(vars)-1]].Name, nil
	case plan.SlotMatchNumber:
		return int64(number), nil
	case plan.SlotRowtime:
		if r.op.n.Proctime {
			// Flink's timestamp of a match in processing time.
			return types.TruncateTime(time.Now().UTC(), 3), nil
		}
		ms, ok := r.millis(start + len(vars) - 1)
		if !ok {
			return nil, nil
		}
		return time.UnixMilli(ms).UTC(), nil
	case plan.SlotProctime:
		return types.TruncateTime(time.Now().UTC(), 3), nil
	}
	in := func(v int8) bool {
		if sl.Vars == nil {
			return true
		}
		for _, name := range sl.Vars {
			if pat[v].Name == name {
				return true
			}
		}
		return false
	}
	var rows []int
	for i, v := range vars {
		if in(v) {
			rows = append(rows, r.rows[start+i])
		}
	}
	if sl.Kind == plan.SlotNav {
		k := len(rows) - 1 - sl.Offset
		if sl.First {
			k = sl.Offset
		}
		if k < 0 || k >= len(rows) {
			return nil, nil
		}
		return r.args[s][0].Get(rows[k]), nil
	}
	acc := r.op.aggs[s]()
	for _, row := range rows {
		acc.Add(r.args[s], row)
	}
	return acc.Result(), nil
}
