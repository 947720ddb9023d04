package exec

import (
	"context"
	"sort"

	"eddy/engine/plan"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// Window Top-N: a Top-N partitioned by window_start and window_end of a
// windowing table function, directly or through a window aggregate. As
// Flink's WindowRank, it emits each window's ranks once, as +I in rank
// order, when the window is complete, and nothing else:
//
//   - over the table function, a window is complete when the watermark
//     (the largest event time seen minus the WATERMARK clause's delay)
//     passes its end; rows of a window that has fired are late and
//     dropped; at the end of a bounded input every window fires, in order
//     of window end;
//   - over a window aggregate, which emits each window's rows together
//     when the window fires, a window is complete when its last batch has
//     arrived (a batch shorter than a full one, or the next window's rows).
//
// Partitions inside a window are emitted in order of first appearance.

// windowCols finds the window_start, window_end and event-time columns of
// a plan's output; timeCol is -1 after a window aggregate (agg true).
func windowCols(n plan.Node) (start, end, timeCol int, agg, ok bool) {
	switch x := n.(type) {
	case *plan.WindowTVF:
		in0 := len(x.Input.Schema())
		return in0, in0 + 1, x.TimeCol, false, true
	case *plan.Filter:
		return windowCols(x.Input)
	case *plan.Project:
		s, e, t, a, ok := windowCols(x.Input)
		if !ok {
			return 0, 0, 0, false, false
		}
		ns, ne, nt := -1, -1, -1
		for i, ex := range x.Exprs {
			if r, ok := ex.(*plan.ColumnRef); ok {
				switch r.Index {
				case s:
					ns = i
				case e:
					ne = i
				case t:
					if t >= 0 {
						nt = i
					}
				}
			}
		}
		if ns < 0 || ne < 0 || (!a && nt < 0) {
			return 0, 0, 0, false, false
		}
		return ns, ne, nt, a, true
	case *plan.Aggregate:
		w, ok := x.Input.(*plan.WindowTVF)
		if !ok || x.GroupingSets != nil {
			return 0, 0, 0, false, false
		}
		in0 := len(w.Input.Schema())
		ns, ne := -1, -1
		for i, g := range x.Group {
			if r, ok := g.(*plan.ColumnRef); ok {
				switch r.Index {
				case in0:
					ns = i
				case in0 + 1:
					ne = i
				}
			}
		}
		return ns, ne, -1, true, ns >= 0 && ne >= 0
	}
	return 0, 0, 0, false, false
}

// windowColumns are the window columns of a window Top-N's input.
type windowColumns struct {
	start, end, timeCol int
	agg                 bool
}

// windowRankCols returns the window columns of input when the partition
// holds both window_start and window_end (a window Top-N); ok is false
// otherwise.
func windowRankCols(input plan.Node, part []plan.Expr) (windowColumns, bool) {
	start, end, timeCol, agg, ok := windowCols(input)
	if !ok {
		return windowColumns{}, false
	}
	hasStart, hasEnd := false, false
	for _, p := range part {
		if r, ok := p.(*plan.ColumnRef); ok {
			hasStart = hasStart || r.Index == start
			hasEnd = hasEnd || r.Index == end
		}
	}
	return windowColumns{start: start, end: end, timeCol: timeCol, agg: agg}, hasStart && hasEnd
}

// windowRank returns the window Top-N over in, the rows of input, whose
// window columns are cols.
func (b *Builder) windowRank(in Operator, input plan.Node, cols windowColumns, spec rankSpec, rankType *types.Type) Operator {
	delay, hasWM := watermarkDelay(input)
	inTypes := input.Schema().Types()
	out := append([]*types.Type(nil), inTypes...)
	if spec.withRankCol {
		out = append(out, rankType)
	}
	return &windowRankOp{in: in, spec: spec, startCol: cols.start, endCol: cols.end, timeCol: cols.timeCol, agg: cols.agg,
		delay: delay, hasWM: hasWM, wm: minWatermark, inTypes: inTypes, outTypes: out,
		windows: map[[2]int64]*vector.Batch{}}
}

type windowRankOp struct {
	in                        Operator
	spec                      rankSpec
	startCol, endCol, timeCol int
	agg                       bool
	delay                     int64
	hasWM                     bool
	wm                        int64
	inTypes, outTypes         []*types.Type
	windows                   map[[2]int64]*vector.Batch
	firing
}

func (o *windowRankOp) Next(ctx context.Context) (*vector.Batch, error) {
	return o.next(ctx, o.in, o.consume, o.fire, maxWatermark)
}

// firing is the output side of an operator that buffers rows by window
// and emits a window's result when the watermark passes its end.
type firing struct {
	out  []*vector.Batch
	done bool
}

// dueWindows returns the [start, end) keys of the windows whose end is at
// or before wm+1, in order of end, then start.
func dueWindows(windows map[[2]int64]*vector.Batch, wm int64) [][2]int64 {
	var due [][2]int64
	for k := range windows {
		if k[1]-1 <= wm {
			due = append(due, k)
		}
	}
	sort.Slice(due, func(i, j int) bool {
		if due[i][1] != due[j][1] {
			return due[i][1] < due[j][1]
		}
		return due[i][0] < due[j][0]
	})
	return due
}

// next returns the next fired batch: it feeds the input's batches to
// consume, which fires the windows the watermark closes, until a batch is
// out; at the input's end it fires everything up to end.
func (f *firing) next(ctx context.Context, in Operator, consume func(context.Context, *vector.Batch) error,
	fire func(context.Context, int64) error, end int64) (*vector.Batch, error) {
	for len(f.out) == 0 {
		if f.done {
			return nil, nil
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		bt, err := in.Next(ctx)
		if err != nil {
			return nil, err
		}
		if bt == nil {
			f.done = true
			if err := fire(ctx, end); err != nil {
				return nil, err
			}
			continue
		}
		if err := consume(ctx, bt); err != nil {
			return nil, err
		}
	}
	b := f.out[0]
	f.out = f.out[1:]
	return b, nil
}

func (o *windowRankOp) consume(ctx context.Context, bt *vector.Batch) error {
	maxTs := o.wm
	var last [2]int64
	for i := range bt.N {
		s, ok1 := eventTime(bt.Cols[o.startCol].Get(i))
		e, ok2 := eventTime(bt.Cols[o.endCol].Get(i))
		if !ok1 || !ok2 {
			continue
		}
		key := [2]int64{s, e}
		if !o.agg && o.hasWM && key[1]-1 <= o.wm {
			continue // late: its window has fired
		}
		if o.agg && len(o.windows) > 0 && o.windows[key] == nil {
			// The aggregate has moved on to the next window: the ones
			// before are complete.
			if err := o.fire(ctx, e-2); err != nil {
				return err
			}
		}
		wb := o.windows[key]
		if wb == nil {
			wb = vector.NewBatch(o.inTypes, 16)
			o.windows[key] = wb
		}
		wb.AppendFrom(bt, i, types.Insert)
		last = key
		if !o.agg && o.timeCol >= 0 {
			if ts, ok := eventTime(bt.Cols[o.timeCol].Get(i)); ok {
				maxTs = max(maxTs, ts-o.delay)
			}
		}
	}
	switch {
	case o.agg && bt.N < vector.BatchSize:
		return o.fire(ctx, last[1]-1)
	case !o.agg && o.hasWM && maxTs > o.wm:
		o.wm = maxTs
		return o.fire(ctx, o.wm)
	}
	return nil
}

// fire ranks and emits every window whose end is at or before wm+1, in
// order of window end.
func (o *windowRankOp) fire(ctx context.Context, wm int64) error {
	for _, k := range dueWindows(o.windows, wm) {
		rows := o.windows[k]
		delete(o.windows, k)
		out, err := o.rank(ctx, rows)
		if err != nil {
			return err
		}
		if out.N > 0 {
			o.out = append(o.out, out)
		}
	}
	return nil
}

// rank emits the ranks start..end of each partition of one window.
func (o *windowRankOp) rank(ctx context.Context, rows *vector.Batch) (*vector.Batch, error) {
	parts, keys, err := o.spec.eval(ctx, rows)
	if err != nil {
		return nil, err
	}
	groups := partitionRows(parts, rows.N)
	keyOf := func(i int) []any {
		k := make([]any, len(keys))
		for c, v := range keys {
			k[c] = v.Get(i)
		}
		return k
	}
	out := vector.NewBatch(o.outTypes, rows.N)
	for _, g := range groups {
		sort.SliceStable(g, func(x, y int) bool {
			return compareSortValues(o.spec.keys, keyOf(g[x]), keyOf(g[y])) < 0
		})
		for r, i := range g {
			rank := int64(r + 1)
			if rank > o.spec.end {
				break
			}
			if rank < o.spec.start {
				continue
			}
			row := rows.Row(i)
			if o.spec.withRankCol {
				row = append(row, rank)
			}
			out.AppendRow(types.Insert, row)
		}
	}
	return out, nil
}

func (o *windowRankOp) Close() error {
	o.windows = nil
	return o.in.Close()
}

var _ Operator = (*windowRankOp)(nil)
