package exec

import (
	"context"
	"time"

	"eddy/engine/plan"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// windowAggregate is a streaming aggregation grouped by window_start and
// window_end of a window table function: as in Flink's window aggregate,
// each window's rows are kept until the watermark passes the window's end,
// then the window emits its final rows once, as +I, and its state is
// dropped; rows of a window that has already fired are late and dropped.
// The watermark is the largest event time seen minus the delay of the
// source's WATERMARK clause (`rowtime - INTERVAL ...`); without one, windows
// fire when the input ends. At the end of a bounded input every open
// window fires, in order of window end.
//
// ok is false when n is not grouped by both window columns; the caller
// then runs a plain aggregation.
func (b *Builder) windowAggregate(n *plan.Aggregate, w *plan.WindowTVF) (Operator, bool, error) {
	if n.GroupingSets != nil || !n.GroupsByWindow(w) {
		return nil, false, nil
	}
	in0 := len(w.Input.Schema())
	delay, hasWM := watermarkDelay(w.Input)
	in, err := b.Build(w)
	if err != nil {
		return nil, true, err
	}
	// Compile once to report errors now; each window gets its own pass.
	probe, err := b.newAggOp(n, emptyOp{}, false)
	if err != nil {
		in.Close()
		return nil, true, err
	}
	probe.Close()
	return &windowAggOp{b: b, n: n, in: in, startCol: in0, endCol: in0 + 1, timeCol: w.TimeCol,
		delay: delay, hasWM: hasWM, wm: minWatermark, windows: map[[2]int64]*vector.Batch{},
		inTypes: w.Schema().Types()}, true, nil
}

const minWatermark = int64(-1 << 63)

// watermarkDelay finds the WATERMARK clause of the source under n and
// returns its delay in milliseconds.
func watermarkDelay(n plan.Node) (int64, bool) {
	var delay int64
	found := false
	plan.Walk(n, func(x plan.Node) {
		sc, ok := x.(*plan.Scan)
		if !ok || found {
			return
		}
		if sc.Watermark == nil {
			if sc.ComputedDelay != nil {
				delay, found = *sc.ComputedDelay, true
			}
			return
		}
		switch e := sc.Watermark.(type) {
		case *plan.ColumnRef:
			found = true
		case *plan.Call:
			if e.Name == plan.OpSub && len(e.Args) == 2 {
				if lit, ok := e.Args[1].(*plan.Literal); ok {
					if ms, ok := types.AsInt64(lit.Value); ok && lit.T.Kind == types.IntervalDayTime {
						delay, found = ms, true
					}
				}
			}
		}
	})
	return delay, found
}

type windowAggOp struct {
	b                         *Builder
	n                         *plan.Aggregate
	in                        Operator
	startCol, endCol, timeCol int
	delay                     int64
	hasWM                     bool
	wm                        int64
	windows                   map[[2]int64]*vector.Batch
	inTypes                   []*types.Type
	firing
}

func millis(t time.Time) int64 { return t.UnixMilli() }

func (o *windowAggOp) Next(ctx context.Context) (*vector.Batch, error) {
	return o.next(ctx, o.in, o.consume, o.fire, int64(1<<62))
}

// consume buffers a batch's rows by window and fires the windows the
// watermark passes.
func (o *windowAggOp) consume(ctx context.Context, bt *vector.Batch) error {
	starts, ends, times := bt.Cols[o.startCol], bt.Cols[o.endCol], bt.Cols[o.timeCol]
	for i := range bt.N {
		key := [2]int64{millis(starts.Times[i]), millis(ends.Times[i])}
		if o.hasWM && key[1]-1 <= o.wm {
			continue // late: its window has fired
		}
		wb := o.windows[key]
		if wb == nil {
			wb = vector.NewBatch(o.inTypes, 16)
			o.windows[key] = wb
		}
		wb.AppendFrom(bt, i, bt.Kind(i))
		// The watermark follows every row (a later row behind it is late),
		// and the windows it passes fire at once.
		if o.hasWM && !times.IsNull(i) {
			if ts := millis(times.Times[i]) - o.delay; ts > o.wm {
				o.wm = ts
				if err := o.fire(ctx, o.wm); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// fire emits every window whose end is at or before watermark+1.
func (o *windowAggOp) fire(ctx context.Context, wm int64) error {
	for _, k := range dueWindows(o.windows, wm) {
		agg, err := o.b.newAggOp(o.n, &sliceOp{b: o.windows[k]}, false)
		if err != nil {
			return err
		}
		delete(o.windows, k)
		for {
			bt, err := agg.Next(ctx)
			if err != nil {
				agg.Close()
				return err
			}
			if bt == nil {
				break
			}
			o.out = append(o.out, bt)
		}
		agg.Close()
	}
	return nil
}

func (o *windowAggOp) Close() error {
	o.windows = nil
	return o.in.Close()
}
