package exec

import (
	"context"
	"sort"

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
	in, err := b.Build(n.Input)
	if err != nil {
		return nil, err
	}
	o := &overOp{n: n, in: in, inTypes: n.Input.Schema().Types(), outTypes: n.Schema().Types()}
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
	for si, s := range o.specs {
		vals := make([]any, rows.N)
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
		// Partition rows in order of first appearance.
		index := map[string]int{}
		var groups [][]int
		var buf []byte
		for i := range rows.N {
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
		for _, g := range groups {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			sort.SliceStable(g, func(x, y int) bool { return compareKeys(s.call.Order, keys, g[x], g[y]) < 0 })
			if err := o.evalPartition(s, g, args, keys, vals); err != nil {
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
		v := vector.New(o.outTypes[len(o.inTypes)+si], rows.N)
		for _, i := range outOrder {
			v.Append(vals[i])
		}
		out.Cols = append(out.Cols, v)
	}
	return out, nil
}

// peersEnd returns, for each position of a sorted partition, the end
// (exclusive) of its peer group (rows equal on the ORDER BY keys).
func peersEnd(s overSpec, g []int, keys []*vector.Vec) []int {
	end := make([]int, len(g))
	for i := len(g) - 1; i >= 0; i-- {
		if i+1 < len(g) && compareKeys(s.call.Order, keys, g[i], g[i+1]) == 0 {
			end[i] = end[i+1]
		} else {
			end[i] = i + 1
		}
	}
	return end
}

func (o *overOp) evalPartition(s overSpec, g []int, args, keys []*vector.Vec, vals []any) error {
	n := len(g)
	peers := peersEnd(s, g, keys)
	name := s.call.Name
	k := s.call.T.Kind
	switch name {
	case "ROW_NUMBER":
		for i, r := range g {
			vals[r] = types.IntegerValue(k, int64(i+1))
		}
		return nil
	case "RANK", "DENSE_RANK", "PERCENT_RANK", "CUME_DIST":
		rank, dense := 1, 0
		for i, r := range g {
			if i == 0 || compareKeys(s.call.Order, keys, g[i-1], r) != 0 {
				rank = i + 1
				dense++
			}
			switch name {
			case "RANK":
				vals[r] = types.IntegerValue(k, int64(rank))
			case "DENSE_RANK":
				vals[r] = types.IntegerValue(k, int64(dense))
			case "PERCENT_RANK":
				if n == 1 {
					vals[r] = 0.0
				} else {
					vals[r] = float64(rank-1) / float64(n-1)
				}
			case "CUME_DIST":
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
