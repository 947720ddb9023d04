package exec

import (
	"context"
	"sort"

	"eddy/engine/plan"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// temporalJoin runs an event-time temporal join with the results and
// changelog of Flink's TemporalRowTimeJoinOperator:
//
//   - left rows are kept until the watermark passes their time; the
//     versioned table's rows are kept by key and time (a later row of the
//     same key and time replaces the earlier one; its update-befores are
//     dropped, as Flink's planner drops them before the join);
//   - when the watermark advances, each kept left row whose time it has
//     passed is emitted, in arrival order, joined with the latest version
//     of its key at or before its time when that version is an insert or
//     update (not a deletion) and the rest of the ON condition holds, or,
//     in a LEFT join, padded with NULLs; the output row has the left
//     row's kind;
//   - then every key keeps only its versions newer than the watermark and
//     the latest one at or before it (versions are dropped when left rows
//     are emitted, Flink's when any row's timer fires: this changes only
//     which versions a late left row can still meet).
//
// The watermark is the smaller of the two inputs' watermarks; an input's
// watermark is the largest event time it has delivered minus the delay of
// its source's WATERMARK clause, and the largest time there is once the
// input has ended, so at the end of bounded inputs every kept left row is
// emitted. Rows with a NULL time are dropped. The inputs are read a batch
// of each in turn, as the streaming join reads them. In batch mode the
// join fails as Flink's batch planner fails on it.
func (b *Builder) temporalJoin(n *plan.TemporalJoin) (Operator, error) {
	if !b.opts.Streaming {
		// Flink's batch planner cannot decorrelate the snapshot.
		return nil, &plannerError{msg: "unexpected correlate variable $cor0 in the plan"}
	}
	left, err := b.Build(n.Left)
	if err != nil {
		return nil, err
	}
	right, err := b.Build(n.Right)
	if err != nil {
		left.Close()
		return nil, err
	}
	o := &temporalJoinOp{n: n, in: [2]Operator{left, right},
		types:    [2][]*types.Type{n.Left.Schema().Types(), n.Right.Schema().Types()},
		outTypes: n.Schema().Types(), timeCol: [2]int{n.LeftTime, n.RightTime},
		wm: [2]int64{minWatermark, minWatermark}, done: minWatermark, next: maxWatermark, keys: map[string]*temporalKey{}}
	o.delay[0], _ = watermarkDelay(n.Left)
	o.delay[1], _ = watermarkDelay(n.Right)
	if o.cond, err = b.compileJoinCond(n.EquiKeys, n.Residual); err != nil {
		o.Close()
		return nil, err
	}
	return o, nil
}

// temporalKey is the state of one join key: the left rows waiting for the
// watermark and the versions of the versioned table, by time.
type temporalKey struct {
	left     []temporalRow
	versions []temporalRow // sorted by time
}

type temporalRow struct {
	seq  int64 // arrival order (left rows)
	time int64
	kind types.RowKind
	row  []any
}

type temporalJoinOp struct {
	n        *plan.TemporalJoin
	in       [2]Operator
	types    [2][]*types.Type
	outTypes []*types.Type
	cond     joinCond
	timeCol  [2]int
	delay    [2]int64

	wm   [2]int64 // each input's watermark
	done int64    // the watermark up to which left rows are emitted
	// next is the smallest time of the kept left rows (maxWatermark:
	// none): a watermark below it emits nothing, and the state is not
	// walked.
	next   int64
	ended  [2]bool
	turn   int
	seq    int64
	keys   map[string]*temporalKey
	unkeyd []temporalRow // left rows with a NULL key: they match nothing
	out    []*vector.Batch
}

func (o *temporalJoinOp) Next(ctx context.Context) (*vector.Batch, error) {
	for len(o.out) == 0 {
		if o.ended[0] && o.ended[1] {
			return nil, nil
		}
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
			o.wm[side] = maxWatermark
		} else if err := o.consume(ctx, side, bt); err != nil {
			return nil, err
		}
		if wm := min(o.wm[0], o.wm[1]); wm > o.done && wm >= o.next {
			o.done = wm
			if err := o.emit(ctx, wm); err != nil {
				return nil, err
			}
		}
	}
	out := o.out[0]
	o.out = o.out[1:]
	return out, nil
}

func (o *temporalJoinOp) Close() error {
	o.keys = nil
	return closeInputs(o.in)
}

// consume keeps one input batch's rows and advances that input's
// watermark.
func (o *temporalJoinOp) consume(ctx context.Context, side int, bt *vector.Batch) error {
	keys, err := evalAll(ctx, o.cond.keys[side], bt)
	if err != nil {
		return err
	}
	tcol := bt.Cols[o.timeCol[side]]
	var buf []byte
	for i := range bt.N {
		if tcol.IsNull(i) {
			continue
		}
		ts := millis(tcol.Times[i])
		if ts-o.delay[side] > o.wm[side] {
			o.wm[side] = ts - o.delay[side]
		}
		kind := bt.Kind(i)
		var keyed bool
		buf, keyed = encodeKey(buf[:0], keys, o.cond.nullSafe, i)
		if side == 1 {
			if kind == types.UpdateBefore || !keyed {
				continue
			}
			st := o.state(string(buf))
			o.putVersion(st, temporalRow{time: ts, kind: kind, row: bt.Row(i)})
			continue
		}
		o.seq++
		o.next = min(o.next, ts)
		r := temporalRow{seq: o.seq, time: ts, kind: kind, row: bt.Row(i)}
		if !keyed {
			o.unkeyd = append(o.unkeyd, r)
			continue
		}
		st := o.state(string(buf))
		st.left = append(st.left, r)
	}
	return nil
}

func (o *temporalJoinOp) state(key string) *temporalKey {
	st := o.keys[key]
	if st == nil {
		st = &temporalKey{}
		o.keys[key] = st
	}
	return st
}

// putVersion adds a version in time order, replacing one of the same
// time.
func (o *temporalJoinOp) putVersion(st *temporalKey, r temporalRow) {
	i := sort.Search(len(st.versions), func(j int) bool { return st.versions[j].time >= r.time })
	if i < len(st.versions) && st.versions[i].time == r.time {
		st.versions[i] = r
		return
	}
	st.versions = append(st.versions, temporalRow{})
	copy(st.versions[i+1:], st.versions[i:])
	st.versions[i] = r
}

// pending is a left row due for output and the version it meets (nil
// row: none).
type pending struct {
	left    temporalRow
	version []any
}

// emit outputs the left rows the watermark wm has passed and drops the
// versions no later left row can meet.
func (o *temporalJoinOp) emit(ctx context.Context, wm int64) error {
	var due []pending
	o.next = maxWatermark
	take := func(rows []temporalRow, st *temporalKey) []temporalRow {
		kept := rows[:0]
		for _, r := range rows {
			if r.time > wm {
				kept = append(kept, r)
				o.next = min(o.next, r.time)
				continue
			}
			p := pending{left: r}
			if st != nil {
				if v, ok := latestVersion(st.versions, r.time); ok && v.kind.IsAccumulate() {
					p.version = v.row
				}
			}
			due = append(due, p)
		}
		return kept
	}
	o.unkeyd = take(o.unkeyd, nil)
	for k, st := range o.keys {
		st.left = take(st.left, st)
		keep := firstVersionToKeep(st.versions, wm)
		st.versions = st.versions[keep:]
		if len(st.left) == 0 && len(st.versions) == 0 {
			delete(o.keys, k)
		}
	}
	if len(due) == 0 {
		return nil
	}
	sort.Slice(due, func(i, j int) bool { return due[i].left.seq < due[j].left.seq })
	pass, err := o.check(ctx, due)
	if err != nil {
		return err
	}
	out := vector.NewBatch(o.outTypes, len(due))
	nRight := len(o.types[1])
	for i, p := range due {
		right := p.version
		if right == nil || !pass[i] {
			if o.n.Kind != plan.LeftJoin {
				continue
			}
			right = make([]any, nRight)
		}
		out.AppendRow(p.left.kind, append(append(make([]any, 0, len(p.left.row)+nRight), p.left.row...), right...))
	}
	if out.N > 0 {
		o.out = append(o.out, out)
	}
	return nil
}

// check evaluates the rest of the ON condition over each due row and its
// version.
func (o *temporalJoinOp) check(ctx context.Context, due []pending) ([]bool, error) {
	pass := make([]bool, len(due))
	if o.cond.residual == nil {
		for i := range due {
			pass[i] = due[i].version != nil
		}
		return pass, nil
	}
	pairs := vector.NewBatch(append(append([]*types.Type(nil), o.types[0]...), o.types[1]...), len(due))
	var at []int
	for i, p := range due {
		if p.version == nil {
			continue
		}
		pairs.AppendRow(types.Insert, append(append([]any(nil), p.left.row...), p.version...))
		at = append(at, i)
	}
	if len(at) == 0 {
		return pass, nil
	}
	cond, err := o.cond.residual(ctx, pairs)
	if err != nil {
		return nil, err
	}
	for j, i := range at {
		pass[i] = !cond.IsNull(j) && cond.Bools[j]
	}
	return pass, nil
}

// latestVersion returns the version with the largest time at or before
// t.
func latestVersion(versions []temporalRow, t int64) (temporalRow, bool) {
	i := sort.Search(len(versions), func(j int) bool { return versions[j].time > t })
	if i == 0 {
		return temporalRow{}, false
	}
	return versions[i-1], true
}

// firstVersionToKeep returns the index of the latest version at or
// before wm (0 when there is none): the ones before it are dropped.
func firstVersionToKeep(versions []temporalRow, wm int64) int {
	i := sort.Search(len(versions), func(j int) bool { return versions[j].time > wm })
	return max(i-1, 0)
}
