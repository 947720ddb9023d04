package exec

import (
	"context"

	"eddy/engine/functions"
	"eddy/engine/plan"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// over computes window functions: the input is materialised, split into
// partitions, each sorted by the call's ORDER BY, and every call evaluated
// per row over its frame. Output rows come partition by partition in
// window order (as Flink's sort-based OverAggregate emits them).
func (b *Builder) over(n *plan.Over) (Operator, error) {
	if b.opts.Streaming && !sameWindow(n.Calls) {
		return nil, &plannerError{msg: "Over Agg: Unsupported use of OVER windows. All aggregates must be computed on the same window. please re-check the over window statement."}
	}
	in, err := b.Build(n.Input)
	if err != nil {
		return nil, err
	}
	o := &overOp{n: n, in: in, inTypes: n.Input.Schema().Types(), outTypes: n.Schema().Types(), workers: 1}
	if !b.opts.Streaming {
		o.workers = max(b.opts.Parallelism, 1)
	}
	for _, c := range n.Calls {
		var s overSpec
		s.call = c
		if s.args, err = b.compileAll(c.Args); err != nil {
			in.Close()
			return nil, err
		}
		if s.part, err = b.compileAll(c.Partition); err != nil {
			in.Close()
			return nil, err
		}
		keys := make([]plan.Expr, len(c.Order))
		for i, k := range c.Order {
			keys[i] = k.Expr
		}
		if s.order, err = b.compileAll(keys); err != nil {
			in.Close()
			return nil, err
		}
		if c.Func == nil || c.Func.Kind == functions.Aggregate {
			argTypes := make([]*types.Type, len(c.Args))
			for i, a := range c.Args {
				argTypes[i] = a.Type()
			}
			if isAggregateName(c.Name) {
				if s.newAcc, err = functions.AggregateKernel(c.Name, argTypes, c.T); err != nil {
					in.Close()
					return nil, err
				}
			}
		}
		o.specs = append(o.specs, s)
	}
	return o, nil
}

// sameWindow reports whether every call has the same PARTITION BY, ORDER
// BY and frame: Flink's streaming OverAggregate computes one window.
func sameWindow(calls []plan.WindowCall) bool {
	window := func(c plan.WindowCall) string {
		c.Name, c.Args, c.Alias, c.Distinct = "", nil, "", false
		return c.String()
	}
	for _, c := range calls[min(1, len(calls)):] {
		if window(c) != window(calls[0]) {
			return false
		}
	}
	return true
}

func isAggregateName(name string) bool {
	switch name {
	case "ROW_NUMBER", "RANK", "DENSE_RANK", "PERCENT_RANK", "CUME_DIST", "NTILE", "LAG", "LEAD":
		return false
	}
	return true
}

type overSpec struct {
	call   plan.WindowCall
	args   []evaluator
	part   []evaluator
	order  []evaluator
	newAcc func() functions.Accumulator
}

type overOp struct {
	n                 *plan.Over
	in                Operator
	inTypes, outTypes []*types.Type
	specs             []overSpec
	out               *sliceOp
	// workers is the goroutines the partitions are sorted on (batch
	// mode's eddy.exec.parallelism; parallelsort.go's sortRows).
	workers int
}

func (o *overOp) Next(ctx context.Context) (*vector.Batch, error) {
	if o.out == nil {
		rows, err := Drain(ctx, o.in, o.inTypes)
		if err != nil {
			return nil, err
		}
		res, err := o.compute(ctx, rows)
		if err != nil {
			return nil, err
		}
		o.out = &sliceOp{b: res}
	}
	return o.out.Next(ctx)
}

// compute evaluates every call; the output order is that of the first
// call's partitions and ordering.
func (o *overOp) compute(ctx context.Context, rows *vector.Batch) (*vector.Batch, error) {
	results := make([][]any, len(o.specs))
	var outOrder []int
	if len(o.specs) > 0 {
		outOrder = make([]int, 0, rows.N)
	}
	ints := make([][]int64, len(o.specs))
	for si, s := range o.specs {
		// ROW_NUMBER, RANK and DENSE_RANK write integers, not values.
		var vals []any
		if rankingInts(s.call.Name, o.outTypes[len(o.inTypes)+si]) {
			ints[si] = make([]int64, rows.N)
		} else {
			vals = make([]any, rows.N)
		}
		args, err := evalAll(ctx, s.args, rows)
		if err != nil {
			return nil, err
		}
		parts, err := evalAll(ctx, s.part, rows)
		if err != nil {
			return nil, err
		}
		keys, err := evalAll(ctx, s.order, rows)
		if err != nil {
			return nil, err
		}
		cmpRows := rowComparator(s.call.Order, keys)
		// Ties keep input order: rows compare by position last.
		cmpStable := func(x, y int) int {
			if c := cmpRows(x, y); c != 0 {
				return c
			}
			return x - y
		}
		groups := partitionRows(parts, rows.N)
		if len(s.call.Order) > 0 {
			if err := sortGroups(ctx, groups, cmpStable, leadKeyOf(s.call.Order, keys), o.workers); err != nil {
				return nil, err
			}
		}
		for _, g := range groups {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if err := o.evalPartition(s, g, args, cmpRows, vals, ints[si]); err != nil {
				return nil, err
			}
			if si == 0 {
				outOrder = append(outOrder, g...)
			}
		}
		results[si] = vals
	}
	if len(o.specs) == 0 {
		return rows, nil
	}
	out := &vector.Batch{N: rows.N}
	for _, v := range rows.Cols {
		out.Cols = append(out.Cols, v.Gather(outOrder))
	}
	for si, vals := range results {
		t := o.outTypes[len(o.inTypes)+si]
		if ints[si] != nil {
			v := vector.Make(t, rows.N)
			for j, i := range outOrder {
				v.Ints[j] = ints[si][i]
			}
			out.Cols = append(out.Cols, v)
			continue
		}
		v := vector.New(t, rows.N)
		for _, i := range outOrder {
			v.Append(vals[i])
		}
		out.Cols = append(out.Cols, v)
	}
	return out, nil
}

// peersEnd returns, for each position of a sorted partition, the end
// (exclusive) of its peer group (rows equal on the ORDER BY keys).
func peersEnd(g []int, cmpRows func(i, j int) int) []int {
	end := make([]int, len(g))
	for i := len(g) - 1; i >= 0; i-- {
		if i+1 < len(g) && cmpRows(g[i], g[i+1]) == 0 {
			end[i] = end[i+1]
		} else {
			end[i] = i + 1
		}
	}
	return end
}

// evalPartition evaluates a call over one sorted partition into vals, or
// into ints for the calls rankingInts accepts.
func (o *overOp) evalPartition(s overSpec, g []int, args []*vector.Vec, cmpRows func(i, j int) int, vals []any, ints []int64) error {
	n := len(g)
	name := s.call.Name
	k := s.call.T.Kind
	switch name {
	case "ROW_NUMBER":
		if ints != nil {
			for i, r := range g {
				ints[r] = int64(i + 1)
			}
			return nil
		}
		for i, r := range g {
			vals[r] = types.IntegerValue(k, int64(i+1))
		}
		return nil
	case "RANK", "DENSE_RANK", "PERCENT_RANK", "CUME_DIST":
		var peers []int
		if name == "CUME_DIST" {
			peers = peersEnd(g, cmpRows)
		}
		rank, dense := 1, 0
		for i, r := range g {
			if i == 0 || cmpRows(g[i-1], r) != 0 {
				rank = i + 1
				dense++
			}
			switch {
			case ints != nil && name == "RANK":
				ints[r] = int64(rank)
			case ints != nil && name == "DENSE_RANK":
				ints[r] = int64(dense)
			case name == "RANK":
				vals[r] = types.IntegerValue(k, int64(rank))
			case name == "DENSE_RANK":
				vals[r] = types.IntegerValue(k, int64(dense))
			case name == "PERCENT_RANK":
				if n == 1 {
					vals[r] = 0.0
				} else {
					vals[r] = float64(rank-1) / float64(n-1)
				}
			case name == "CUME_DIST":
				vals[r] = float64(peers[i]) / float64(n)
			}
		}
		return nil
	case "NTILE":
		buckets := int64(1)
		if len(args) > 0 && args[0].Len > 0 {
			buckets, _ = types.AsInt64(args[0].Get(g[0]))
		}
		size, extra := int64(n)/buckets, int64(n)%buckets
		pos := int64(0)
		for b := int64(1); b <= buckets && pos < int64(n); b++ {
			cnt := size
			if b <= extra {
				cnt++
			}
			for j := int64(0); j < cnt && pos < int64(n); j++ {
				vals[g[pos]] = types.IntegerValue(k, b)
				pos++
			}
		}
		return nil
	case "LAG", "LEAD":
		for i, r := range g {
			off := int64(1)
			if len(args) > 1 && !args[1].IsNull(r) {
				off, _ = types.AsInt64(args[1].Get(r))
			}
			if name == "LAG" {
				off = -off
			}
			j := int64(i) + off
			switch {
			case j >= 0 && j < int64(n):
				vals[r] = castTo(args[0].Get(g[j]), args[0].T, s.call.T)
			case len(args) > 2:
				vals[r] = castTo(args[2].Get(r), args[2].T, s.call.T)
			default:
				vals[r] = nil
			}
		}
		return nil
	}
	if s.newAcc == nil {
		return &UnsupportedError{What: "window function " + name}
	}
	peers := peersEnd(g, cmpRows)
	f := s.call.Frame
	if f.Mode == 0 {
		f = plan.Frame{Mode: plan.FrameRows, Start: plan.Bound{Kind: plan.UnboundedPreceding}, End: plan.Bound{Kind: plan.UnboundedFollowing}}
		if len(s.call.Order) > 0 {
			f = plan.Frame{Mode: plan.FrameRange, Start: plan.Bound{Kind: plan.UnboundedPreceding}, End: plan.Bound{Kind: plan.CurrentRow}}
		}
	}
	bounds := func(i int) (int, int) {
		lo, hi := 0, n
		switch f.Start.Kind {
		case plan.CurrentRow:
			lo = i
			if f.Mode == plan.FrameRange {
				for lo > 0 && peers[lo-1] == peers[i] {
					lo--
				}
			}
		case plan.Preceding:
			lo = i - int(offsetOf(f.Start))
		case plan.Following:
			lo = i + int(offsetOf(f.Start))
		}
		switch f.End.Kind {
		case plan.CurrentRow:
			hi = i + 1
			if f.Mode == plan.FrameRange {
				hi = peers[i]
			}
		case plan.Preceding:
			hi = i - int(offsetOf(f.End)) + 1
		case plan.Following:
			hi = i + int(offsetOf(f.End)) + 1
		case plan.UnboundedPreceding:
			hi = 0
		}
		return max(lo, 0), min(hi, n)
	}
	// Frames starting at UNBOUNDED PRECEDING grow monotonically: fold rows
	// in once.
	if f.Start.Kind == plan.UnboundedPreceding {
		acc := s.newAcc()
		added := 0
		for i, r := range g {
			_, hi := bounds(i)
			for added < hi {
				acc.Add(args, g[added])
				added++
			}
			vals[r] = acc.Result()
		}
		return nil
	}
	for i, r := range g {
		lo, hi := bounds(i)
		acc := s.newAcc()
		for j := lo; j < hi; j++ {
			acc.Add(args, g[j])
		}
		vals[r] = acc.Result()
	}
	return nil
}

func offsetOf(b plan.Bound) int64 {
	if l, ok := b.Offset.(*plan.Literal); ok {
		n, _ := types.AsInt64(l.Value)
		return n
	}
	return 0
}

func castTo(v any, from, to *types.Type) any {
	if v == nil || !needsCast(from, to) {
		return v
	}
	c, err := types.CastValue(v, from, to)
	if err != nil {
		return v
	}
	return c
}

func (o *overOp) Close() error { return o.in.Close() }

// rankingInts reports whether a window call's results are integers
// written without boxing: ROW_NUMBER, RANK and DENSE_RANK into an integer
// column.
func rankingInts(name string, t *types.Type) bool {
	switch name {
	case "ROW_NUMBER", "RANK", "DENSE_RANK":
		return vector.ClassOf(t) == vector.Int
	}
	return false
}

// partitionRows splits rows 0..n-1 by the partition key columns, in order
// of first appearance, each partition's rows in input order. One integer
// key uses an intTable, others the byte encoding of the keys.
func partitionRows(parts []*vector.Vec, n int) [][]int {
	var groups [][]int
	if len(parts) == 0 {
		all := make([]int, n)
		for i := range all {
			all[i] = i
		}
		return append(groups, all)
	}
	if len(parts) == 1 && parts[0].Class == vector.Int {
		p := parts[0]
		index := newIntTable()
		null := -1
		for i := range n {
			var g int
			if p.IsNull(i) {
				if null < 0 {
					null = len(groups)
					groups = append(groups, nil)
				}
				g = null
			} else if id := index.get(p.Ints[i]); id >= 0 {
				g = int(id)
			} else {
				g = len(groups)
				index.put(p.Ints[i], int32(g))
				groups = append(groups, nil)
			}
			groups[g] = append(groups[g], i)
		}
		return groups
	}
	index := map[string]int{}
	var buf []byte
	for i := range n {
		buf = buf[:0]
		for _, p := range parts {
			buf = vector.AppendKey(buf, p, i)
		}
		g, ok := index[string(buf)]
		if !ok {
			g = len(groups)
			index[string(buf)] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], i)
	}
	return groups
}
