package exec

import (
	"context"

	"eddy/engine/plan"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// intervalJoin runs an interval join (plan.IntervalJoin) as Flink's
// TimeIntervalJoin does, for insert-only inputs: an arriving row is
// joined at once with the kept rows of the other side that satisfy the
// condition (bounds included), each pair emitted as +I; the row is kept
// until the other input's watermark passes the last time a matching row
// could have (left row at t: right watermark at t - Lower; right row at
// s: left watermark at s + Upper), and dropped then, emitted padded with
// NULLs if its side is outer and it met no row. An input's watermark is
// the largest event time it has delivered minus the delay of its
// source's WATERMARK clause, and the largest time there is once it has
// ended. The inputs are read a batch of each in turn.
func (b *Builder) intervalJoin(n *plan.IntervalJoin) (Operator, error) {
	o, err := b.timedJoin(n.Kind, n.Left, n.Right, n.EquiKeys, n.Residual, n.Schema())
	if err != nil {
		return nil, err
	}
	o.timeCol = [2]int{n.LeftTime, n.RightTime}
	o.expCol = [2]int{n.LeftTime, n.RightTime}
	o.expOff = [2]int64{-n.Lower, n.Upper}
	return o, nil
}

// windowJoin runs a window join (plan.WindowJoin) as Flink's
// WindowJoinOperator does, for insert-only inputs: rows of the same
// window and key meet, each pair emitted as +I; a window's rows are
// dropped when the other input's watermark passes the window's end, a
// row of an outer side that met no row emitted padded with NULLs then.
func (b *Builder) windowJoin(n *plan.WindowJoin) (Operator, error) {
	o, err := b.timedJoin(n.Kind, n.Left, n.Right, n.EquiKeys, n.Residual, n.Schema())
	if err != nil {
		return nil, err
	}
	o.timeCol = [2]int{n.LeftTime, n.RightTime}
	o.expCol = [2]int{n.LeftEnd, n.RightEnd}
	o.expOff = [2]int64{-1, -1}
	return o, nil
}

func (b *Builder) timedJoin(kind plan.JoinKind, left, right plan.Node, keys []plan.EquiKey, residual plan.Expr, out plan.Schema) (*timedJoinOp, error) {
	l, err := b.Build(left)
	if err != nil {
		return nil, err
	}
	r, err := b.Build(right)
	if err != nil {
		l.Close()
		return nil, err
	}
	o := &timedJoinOp{in: [2]Operator{l, r}, types: [2][]*types.Type{left.Schema().Types(), right.Schema().Types()},
		outTypes: out.Types(),
		wm:       [2]int64{minWatermark, minWatermark}, soonest: [2]int64{maxWatermark, maxWatermark},
		state: [2]map[string][]*timedRecord{{}, {}}}
	o.outer[0] = kind == plan.LeftJoin || kind == plan.FullJoin
	o.outer[1] = kind == plan.RightJoin || kind == plan.FullJoin
	o.delay[0], _ = watermarkDelay(left)
	o.delay[1], _ = watermarkDelay(right)
	if o.joinCond, err = b.compileJoinCond(keys, residual); err != nil {
		o.Close()
		return nil, err
	}
	return o, nil
}

// timedRecord is a kept row, the time after which no row of the other
// side can meet it, and whether it has met one.
type timedRecord struct {
	row     []any
	expires int64
	matched bool
}

// timedJoinOp is the operator of interval and window joins: they differ
// only in when a row can no longer meet rows of the other side.
type timedJoinOp struct {
	in       [2]Operator
	types    [2][]*types.Type
	outTypes []*types.Type
	joinCond
	outer [2]bool
	// timeCol is each side's event-time column (-1: none), which its
	// watermark follows; a row expires when the other side's watermark
	// reaches its column expCol plus expOff.
	timeCol [2]int
	expCol  [2]int
	expOff  [2]int64
	delay   [2]int64

	wm [2]int64
	// soonest is, per side, the smallest expiry time of its kept rows
	// (maxWatermark: none): a watermark below it expires nothing, and
	// the state is not walked.
	soonest [2]int64
	ended   [2]bool
	turn    int
	state   [2]map[string][]*timedRecord
	unkeyed [2][]*timedRecord
	pending *vector.Batch
}

func (o *timedJoinOp) Next(ctx context.Context) (*vector.Batch, error) {
	for !o.ended[0] || !o.ended[1] {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		side := o.turn
		if o.ended[side] {
			side = 1 - side
		}
		o.turn = 1 - side
		bt, err := o.in[side].Next(ctx)
		if err != nil {
			return nil, err
		}
		o.pending = vector.NewBatch(o.outTypes, 16)
		if bt == nil {
			o.ended[side] = true
			o.wm[side] = maxWatermark
		} else if err := o.consume(ctx, side, bt); err != nil {
			return nil, err
		}
		o.expire(0)
		o.expire(1)
		if o.pending.N > 0 {
			out := o.pending
			o.pending = nil
			return out, nil
		}
	}
	return nil, nil
}

func (o *timedJoinOp) Close() error { return closeInputs(o.in) }

// consume joins one batch of a side with the other side's kept rows and
// keeps its rows.
func (o *timedJoinOp) consume(ctx context.Context, side int, bt *vector.Batch) error {
	keys, err := evalAll(ctx, o.keys[side], bt)
	if err != nil {
		return err
	}
	var buf []byte
	for i := range bt.N {
		row := bt.Row(i)
		if c := o.timeCol[side]; c >= 0 && !bt.Cols[c].IsNull(i) {
			o.wm[side] = max(o.wm[side], millis(bt.Cols[c].Times[i])-o.delay[side])
		}
		exp := bt.Cols[o.expCol[side]]
		if exp.IsNull(i) {
			continue // a row without a time meets nothing
		}
		rec := &timedRecord{row: row, expires: millis(exp.Times[i]) + o.expOff[side]}
		o.soonest[side] = min(o.soonest[side], rec.expires)
		var keyed bool
		buf, keyed = encodeKey(buf[:0], keys, o.nullSafe, i)
		if !keyed {
			o.unkeyed[side] = append(o.unkeyed[side], rec)
			continue
		}
		cands := o.state[1-side][string(buf)]
		if len(cands) > 0 {
			pass, err := o.check(ctx, side, row, cands)
			if err != nil {
				return err
			}
			for j, c := range cands {
				if !pass[j] {
					continue
				}
				rec.matched, c.matched = true, true
				if side == 0 {
					o.pending.AppendRow(types.Insert, append(append([]any(nil), row...), c.row...))
				} else {
					o.pending.AppendRow(types.Insert, append(append([]any(nil), c.row...), row...))
				}
			}
		}
		o.state[side][string(buf)] = append(o.state[side][string(buf)], rec)
	}
	return nil
}

// check evaluates the condition over row (of side) and each candidate.
func (o *timedJoinOp) check(ctx context.Context, side int, row []any, cands []*timedRecord) ([]bool, error) {
	pass := make([]bool, len(cands))
	if o.residual == nil {
		for j := range pass {
			pass[j] = true
		}
		return pass, nil
	}
	pairs := vector.NewBatch(append(append([]*types.Type(nil), o.types[0]...), o.types[1]...), len(cands))
	for _, c := range cands {
		if side == 0 {
			pairs.AppendRow(types.Insert, append(append([]any(nil), row...), c.row...))
		} else {
			pairs.AppendRow(types.Insert, append(append([]any(nil), c.row...), row...))
		}
	}
	cond, err := o.residual(ctx, pairs)
	if err != nil {
		return nil, err
	}
	for j := range pass {
		pass[j] = !cond.IsNull(j) && cond.Bools[j]
	}
	return pass, nil
}

// expire drops the rows of side that the other side's watermark has
// passed, emitting the unmatched ones of an outer side padded.
func (o *timedJoinOp) expire(side int) {
	wm := o.wm[1-side]
	if wm < o.soonest[side] {
		return
	}
	o.soonest[side] = maxWatermark
	drop := func(recs []*timedRecord) []*timedRecord {
		kept := recs[:0]
		for _, r := range recs {
			if r.expires > wm {
				kept = append(kept, r)
				o.soonest[side] = min(o.soonest[side], r.expires)
				continue
			}
			if o.outer[side] && !r.matched {
				o.padded(side, r.row)
			}
		}
		return kept
	}
	o.unkeyed[side] = drop(o.unkeyed[side])
	for k, recs := range o.state[side] {
		if recs = drop(recs); len(recs) == 0 {
			delete(o.state[side], k)
		} else {
			o.state[side][k] = recs
		}
	}
}

func (o *timedJoinOp) padded(side int, row []any) {
	n0, n1 := len(o.types[0]), len(o.types[1])
	out := make([]any, n0+n1)
	if side == 0 {
		copy(out, row)
	} else {
		copy(out[n0:], row)
	}
	o.pending.AppendRow(types.Insert, out)
}
