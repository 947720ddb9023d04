package exec

import (
	"context"
	"fmt"
	"time"

	"eddy/engine/plan"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// windowTVF assigns each row to its windows (TUMBLE, HOP, CUMULATE) and
// appends window_start, window_end and window_time, as Flink's windowing
// table-valued functions do; a row with a NULL time is dropped. Window
// bounds align to the epoch plus the offset.
func (b *Builder) windowTVF(n *plan.WindowTVF) (Operator, error) {
	if n.Kind == plan.Session {
		if !b.opts.Streaming && n.Legacy {
			return nil, &plannerError{msg: fmt.Sprintf("Window SessionGroupWindow('w$, %s, %d) is not supported right now.",
				n.Input.Schema()[n.TimeCol].Name, n.Size)}
		}
		if !b.opts.Streaming {
			return nil, &plannerError{msg: "Unaligned windows like session are not supported in batch mode yet."}
		}
		return nil, &UnsupportedError{What: "SESSION windows"}
	}
	if n.Size <= 0 || (n.Kind != plan.Tumble && n.Slide <= 0) {
		return nil, &RuntimeError{Msg: "Window size and slide must be positive"}
	}
	in, err := b.Build(n.Input)
	if err != nil {
		return nil, err
	}
	return &windowOp{n: n, in: in, types: n.Cols.Types(), loc: b.env.Loc}, nil
}

type windowOp struct {
	n     *plan.WindowTVF
	in    Operator
	types []*types.Type
	loc   *time.Location
}

// windows returns the [start, end) bounds in epoch milliseconds of the
// windows holding time ts.
func windows(n *plan.WindowTVF, ts int64) [][2]int64 {
	floor := func(x, size int64) int64 {
		r := (x - n.Offset) % size
		if r < 0 {
			r += size
		}
		return x - r
	}
	switch n.Kind {
	case plan.Tumble:
		s := floor(ts, n.Size)
		return [][2]int64{{s, s + n.Size}}
	case plan.Hop:
		var out [][2]int64
		last := floor(ts, n.Slide)
		for s := last; s > ts-n.Size; s -= n.Slide {
			out = append(out, [2]int64{s, s + n.Size})
		}
		// Flink emits hopping windows from the earliest start.
		for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
			out[i], out[j] = out[j], out[i]
		}
		return out
	case plan.Cumulate:
		var out [][2]int64
		s := floor(ts, n.Size)
		for e := s + n.Slide; e <= s+n.Size; e += n.Slide {
			if ts < e {
				out = append(out, [2]int64{s, e})
			}
		}
		return out
	}
	return nil
}

func (o *windowOp) Next(ctx context.Context) (*vector.Batch, error) {
	for {
		bt, err := o.in.Next(ctx)
		if err != nil || bt == nil {
			return nil, err
		}
		tcol := bt.Cols[o.n.TimeCol]
		ltz := tcol.T.Kind == types.TimestampLTZ
		out := vector.NewBatch(o.types, bt.N)
		nIn := len(bt.Cols)
		for i := range bt.N {
			if tcol.IsNull(i) {
				continue
			}
			t := tcol.Times[i]
			// A TIMESTAMP is a wall-clock reading: windows align on it as
			// if it were UTC; a TIMESTAMP_LTZ aligns in the session zone.
			wall := t
			if ltz {
				l := t.In(o.loc)
				y, m, d := l.Date()
				h, mi, s := l.Clock()
				wall = time.Date(y, m, d, h, mi, s, l.Nanosecond(), time.UTC)
			}
			ms := wall.UnixMilli()
			for _, w := range windows(o.n, ms) {
				for c := range nIn {
					out.Cols[c].AppendFrom(bt.Cols[c], i)
				}
				start, end := time.UnixMilli(w[0]).UTC(), time.UnixMilli(w[1]).UTC()
				if ltz {
					start, end = fromWall(start, o.loc), fromWall(end, o.loc)
				}
				out.Cols[nIn].Append(start)
				out.Cols[nIn+1].Append(end)
				out.Cols[nIn+2].Append(end.Add(-time.Millisecond))
				if bt.Kinds != nil {
					out.Kinds = append(out.Kinds, bt.Kind(i))
				}
				out.N++
			}
		}
		if out.N > 0 {
			return out, nil
		}
	}
}

// fromWall returns the instant whose wall clock in loc reads w (UTC
// fields).
func fromWall(w time.Time, loc *time.Location) time.Time {
	y, m, d := w.Date()
	h, mi, s := w.Clock()
	return time.Date(y, m, d, h, mi, s, w.Nanosecond(), loc).UTC()
}

func (o *windowOp) Close() error { return o.in.Close() }

// plannerError is a query Flink's planner refuses, with its message.
type plannerError struct{ msg string }

func (e *plannerError) Error() string { return e.msg }

// Class returns Flink's exception class.
func (e *plannerError) Class() string { return "TableException" }
