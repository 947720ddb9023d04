package exec

import (
	"context"

	"eddy/engine/plan"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// streamJoin is a regular join in streaming mode, with the changelog of
// Flink's StreamingJoinOperator (and StreamingSemiAntiJoinOperator for
// semi and anti joins): both inputs are kept in state by join key, each
// arriving row is joined with the other side's state, an outer side emits
// its row padded with NULLs while it has no match, then -D of that row
// and +I of the joined row when a match arrives (and the reverse when the
// match is retracted); retractions of either input retract the joined
// rows they produced.
//
// Arrival order: Flink interleaves its two inputs as the network delivers
// them. eddy reads one batch of the left input, then one of the right,
// and so on, continuing with the other input alone once one has ended;
// two small bounded inputs (one batch each) therefore arrive as all left
// rows, then all right rows. Matching rows of the other side are visited
// in their arrival order (Flink visits them in the order of its state
// backend's map).
//
// An inner join of two bounded inputs without updates runs as the batch
// hash join (vectorized, within the memory budget): its rows are all
// inserts, in the order of the interleaving where the right input
// arrives first (each left row then meets the right rows that match it,
// in their order).
func (b *Builder) streamJoin(n *plan.Join) (Operator, error) {
	left, err := b.Build(n.Left)
	if err != nil {
		return nil, err
	}
	right, err := b.Build(n.Right)
	if err != nil {
		left.Close()
		return nil, err
	}
	o := &streamJoinOp{n: n, in: [2]Operator{left, right},
		types: [2][]*types.Type{n.Left.Schema().Types(), n.Right.Schema().Types()}, outTypes: n.Schema().Types(),
		state: [2]map[string][]*joinRecord{{}, {}}}
	switch n.Kind {
	case plan.LeftJoin:
		o.outer[0] = true
	case plan.RightJoin:
		o.outer[1] = true
	case plan.FullJoin:
		o.outer = [2]bool{true, true}
	case plan.SemiJoin, plan.AntiJoin:
		o.semi = true
		o.anti = n.Kind == plan.AntiJoin
	}
	if o.joinCond, err = b.compileJoinCond(n.EquiKeys, n.Residual); err != nil {
		o.Close()
		return nil, err
	}
	return o, nil
}

// joinCond is a join's condition compiled: each side's key expressions,
// which keys match NULLs, and the residual predicate (nil: none).
type joinCond struct {
	keys     [2][]evaluator
	nullSafe []bool
	residual evaluator
}

// compileJoinCond compiles a join's equality keys and residual predicate.
func (b *Builder) compileJoinCond(keys []plan.EquiKey, residual plan.Expr) (joinCond, error) {
	var c joinCond
	for _, k := range keys {
		l, err := b.compile(k.Left)
		if err != nil {
			return joinCond{}, err
		}
		r, err := b.compile(k.Right)
		if err != nil {
			return joinCond{}, err
		}
		c.keys[0] = append(c.keys[0], l)
		c.keys[1] = append(c.keys[1], r)
		c.nullSafe = append(c.nullSafe, k.NullSafe)
	}
	if residual != nil {
		var err error
		if c.residual, err = b.compile(residual); err != nil {
			return joinCond{}, err
		}
	}
	return c, nil
}

// joinRecord is one row in a side's state; assoc counts its matches on
// the other side (kept for outer sides and the left side of semi and anti
// joins).
type joinRecord struct {
	row   []any
	assoc int
}

type streamJoinOp struct {
	n        *plan.Join
	in       [2]Operator
	types    [2][]*types.Type
	outTypes []*types.Type
	joinCond
	outer [2]bool
	semi  bool
	anti  bool

	state   [2]map[string][]*joinRecord
	ended   [2]bool
	turn    int
	pending *vector.Batch
}

func (o *streamJoinOp) Next(ctx context.Context) (*vector.Batch, error) {
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
		if bt == nil {
			o.ended[side] = true
			continue
		}
		o.pending = vector.NewBatch(o.outTypes, bt.N)
		if err := o.consume(ctx, side, bt); err != nil {
			return nil, err
		}
		if o.pending.N > 0 {
			out := o.pending
			o.pending = nil
			return out, nil
		}
	}
	return nil, nil
}

func (o *streamJoinOp) Close() error { return closeInputs(o.in) }

// closeInputs closes both inputs of a two-input operator and returns the
// first error.
func closeInputs(in [2]Operator) error {
	err := in[0].Close()
	if e := in[1].Close(); err == nil {
		err = e
	}
	return err
}

func (o *streamJoinOp) consume(ctx context.Context, side int, bt *vector.Batch) error {
	keys, err := evalAll(ctx, o.keys[side], bt)
	if err != nil {
		return err
	}
	var buf []byte
	for i := range bt.N {
		var ok bool
		buf, ok = encodeKey(buf[:0], keys, o.nullSafe, i)
		row := bt.Row(i)
		var matches []*joinRecord
		if ok {
			if matches, err = o.match(ctx, side, string(buf), row); err != nil {
				return err
			}
		}
		kind := bt.Kind(i)
		if o.semi {
			o.processSemi(side, string(buf), ok, row, kind, matches)
		} else {
			o.process(side, string(buf), ok, row, kind, matches)
		}
	}
	return nil
}

// match returns the other side's records that join with row.
func (o *streamJoinOp) match(ctx context.Context, side int, key string, row []any) ([]*joinRecord, error) {
	cands := o.state[1-side][key]
	if o.residual == nil || len(cands) == 0 {
		return cands, nil
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
	var out []*joinRecord
	for j, c := range cands {
		if !cond.IsNull(j) && cond.Bools[j] {
			out = append(out, c)
		}
	}
	return out, nil
}

func (o *streamJoinOp) output(kind types.RowKind, side int, row, other []any) {
	n0, n1 := len(o.types[0]), len(o.types[1])
	out := make([]any, 0, n0+n1)
	if side == 0 {
		out = append(out, row...)
		if other == nil {
			other = make([]any, n1)
		}
		out = append(out, other...)
	} else {
		if other == nil {
			other = make([]any, n0)
		}
		out = append(append(out, other...), row...)
	}
	o.pending.AppendRow(kind, out)
}

// nullPadded emits a row of one side with NULLs for the other.
func (o *streamJoinOp) nullPadded(kind types.RowKind, side int, row []any) {
	o.output(kind, side, row, nil)
}

func (o *streamJoinOp) add(side int, key string, keyed bool, row []any, assoc int) {
	if !keyed {
		return // a NULL key matches nothing, now or later
	}
	o.state[side][key] = append(o.state[side][key], &joinRecord{row: row, assoc: assoc})
}

func (o *streamJoinOp) retract(side int, key string, row []any) {
	recs := o.state[side][key]
	for j, r := range recs {
		if sameRow(r.row, row) {
			recs = append(recs[:j:j], recs[j+1:]...)
			break
		}
	}
	if len(recs) == 0 {
		delete(o.state[side], key)
	} else {
		o.state[side][key] = recs
	}
}

// process is StreamingJoinOperator.processElement.
func (o *streamJoinOp) process(side int, key string, keyed bool, row []any, kind types.RowKind, matches []*joinRecord) {
	inOuter, otherOuter := o.outer[side], o.outer[1-side]
	if kind.IsAccumulate() {
		if inOuter {
			if len(matches) == 0 {
				o.nullPadded(types.Insert, side, row)
				o.add(side, key, keyed, row, 0)
				return
			}
			for _, m := range matches {
				if otherOuter {
					if m.assoc == 0 {
						o.nullPadded(types.Delete, 1-side, m.row)
					}
					m.assoc++
				}
				o.output(types.Insert, side, row, m.row)
			}
			o.add(side, key, keyed, row, len(matches))
			return
		}
		o.add(side, key, keyed, row, 0)
		if otherOuter {
			for _, m := range matches {
				if m.assoc == 0 {
					o.nullPadded(types.Delete, 1-side, m.row)
				}
				m.assoc++
				o.output(types.Insert, side, row, m.row)
			}
			return
		}
		for _, m := range matches {
			o.output(kind, side, row, m.row)
		}
		return
	}
	if keyed {
		o.retract(side, key, row)
	}
	if len(matches) == 0 {
		if inOuter {
			o.nullPadded(types.Delete, side, row)
		}
		return
	}
	outKind := kind
	if inOuter {
		outKind = types.Delete
	}
	for _, m := range matches {
		o.output(outKind, side, row, m.row)
		if otherOuter {
			if m.assoc == 1 {
				o.nullPadded(types.Insert, 1-side, m.row)
			}
			m.assoc--
		}
	}
}

// processSemi is StreamingSemiAntiJoinOperator: the output is left rows.
func (o *streamJoinOp) processSemi(side int, key string, keyed bool, row []any, kind types.RowKind, matches []*joinRecord) {
	if side == 0 {
		if (len(matches) == 0) == o.anti {
			o.pending.AppendRow(kind, row)
		}
		if kind.IsAccumulate() {
			o.add(0, key, keyed, row, len(matches))
		} else if keyed {
			o.retract(0, key, row)
		}
		return
	}
	if kind.IsAccumulate() {
		o.add(1, key, keyed, row, 0)
		for _, m := range matches {
			if m.assoc == 0 {
				if o.anti {
					o.pending.AppendRow(types.Delete, m.row)
				} else {
					o.pending.AppendRow(kind, m.row)
				}
			}
			m.assoc++
		}
		return
	}
	if keyed {
		o.retract(1, key, row)
	}
	for _, m := range matches {
		if m.assoc == 1 {
			if o.anti {
				o.pending.AppendRow(types.Insert, m.row)
			} else {
				o.pending.AppendRow(kind, m.row)
			}
		}
		m.assoc--
	}
}

var _ Operator = (*streamJoinOp)(nil)
