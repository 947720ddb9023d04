package exec

import (
	"container/heap"
	"context"
	"fmt"
	"sort"
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
		if n.Size <= 0 {
			return nil, &RuntimeError{Msg: "Window gap must be positive"}
		}
		in, err := b.Build(n.Input)
		if err != nil {
			return nil, err
		}
		delay, hasWM := watermarkDelay(n.Input)
		return &sessionOp{n: n, in: in, types: n.Cols.Types(), loc: b.env.Loc, delay: delay, hasWM: hasWM,
			wm: minWatermark, parts: map[string][]*session{}}, nil
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

// sessionOp is the SESSION window table function in streaming mode: per
// partition (the PARTITION BY columns' values), a row at time t opens the
// window [t, t+gap), which merges with every window of its partition it
// touches (bounds included, as Flink's TimeWindow.intersects); a window
// closes when the watermark reaches its end - 1, and then its rows leave,
// in arrival order, with window_start, window_end and window_time (end - 1
// ms). Windows closing together leave in order of end, then start. A row
// whose own window would already be closed is late and dropped, as is a
// row with a NULL time. Without a watermark every window closes when the
// input ends, as all open ones do then.
type sessionOp struct {
	n     *plan.WindowTVF
	in    Operator
	types []*types.Type
	loc   *time.Location
	delay int64
	hasWM bool
	wm    int64
	parts map[string][]*session
	// ends orders the open sessions by end, for the watermark to find
	// the ones it closes without visiting every partition; an entry whose
	// session has since moved its end, merged into another or closed is
	// stale and skipped.
	ends sessionEnds
	key  []byte
	seq  int64 // arrival number of the next row
	firing
}

// session is one open window of a partition and its rows.
type session struct {
	start, end int64 // wall-clock milliseconds
	rows       *vector.Batch
	seq        []int64 // each row's arrival number
	key        string  // its partition's key
	done       bool    // merged into another session, or closed
}

// sessionEnd is an entry of sessionOp.ends.
type sessionEnd struct {
	end int64
	s   *session
}

// sessionEnds is a min-heap of session ends (container/heap).
type sessionEnds []sessionEnd

func (h sessionEnds) Len() int           { return len(h) }
func (h sessionEnds) Less(i, j int) bool { return h[i].end < h[j].end }
func (h sessionEnds) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *sessionEnds) Push(x any)        { *h = append(*h, x.(sessionEnd)) }
func (h *sessionEnds) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

func (o *sessionOp) Next(ctx context.Context) (*vector.Batch, error) {
	return o.next(ctx, o.in, o.consume, o.fire, int64(1<<62))
}

// consume adds a batch's rows to their sessions and fires the sessions
// the watermark closes.
func (o *sessionOp) consume(ctx context.Context, bt *vector.Batch) error {
	tcol := bt.Cols[o.n.TimeCol]
	ltz := tcol.T.Kind == types.TimestampLTZ
	inTypes := o.n.Input.Schema().Types()
	for i := range bt.N {
		if tcol.IsNull(i) {
			continue
		}
		ms := o.wall(tcol.Times[i], ltz)
		if o.hasWM && ms+o.n.Size-1 <= o.wm {
			continue // late
		}
		o.key = o.key[:0]
		for _, c := range o.n.Partition {
			o.key = vector.AppendKey(o.key, bt.Cols[c], i)
		}
		k := string(o.key)
		cur := &session{start: ms, end: ms + o.n.Size}
		kept := o.parts[k][:0]
		var merged []*session
		for _, s := range o.parts[k] {
			if s.start <= cur.end && s.end >= cur.start {
				merged = append(merged, s)
				cur.start, cur.end = min(cur.start, s.start), max(cur.end, s.end)
				continue
			}
			kept = append(kept, s)
		}
		if len(merged) == 1 {
			// The usual case: the row extends one window, in place.
			m := merged[0]
			if cur.end != m.end {
				heap.Push(&o.ends, sessionEnd{cur.end, m})
			}
			m.start, m.end = cur.start, cur.end
			m.rows.AppendFrom(bt, i, bt.Kind(i))
			m.seq = append(m.seq, o.seq)
			o.seq++
			o.parts[k] = append(kept, m)
			if err := o.advance(ctx, ms); err != nil {
				return err
			}
			continue
		}
		// A new window, or one joining several: the merged window keeps
		// its parts' rows in arrival order.
		type at struct {
			s *session
			r int
		}
		var all []at
		for _, s := range merged {
			s.done = true
			for r := range s.rows.N {
				all = append(all, at{s, r})
			}
		}
		sort.Slice(all, func(a, b int) bool { return all[a].s.seq[all[a].r] < all[b].s.seq[all[b].r] })
		cur.rows = vector.NewBatch(inTypes, len(all)+1)
		for _, x := range all {
			cur.rows.AppendFrom(x.s.rows, x.r, x.s.rows.Kind(x.r))
			cur.seq = append(cur.seq, x.s.seq[x.r])
		}
		cur.rows.AppendFrom(bt, i, bt.Kind(i))
		cur.seq = append(cur.seq, o.seq)
		cur.key = k
		o.seq++
		o.parts[k] = append(kept, cur)
		heap.Push(&o.ends, sessionEnd{cur.end, cur})
		if err := o.advance(ctx, ms); err != nil {
			return err
		}
	}
	return nil
}

// advance moves the watermark after a row at wall time ms, and fires the
// sessions it closes: the watermark follows every row, so a later row
// behind it is late.
func (o *sessionOp) advance(ctx context.Context, ms int64) error {
	if !o.hasWM || ms-o.delay <= o.wm {
		return nil
	}
	o.wm = ms - o.delay
	return o.fire(ctx, o.wm)
}

// wall is a time's wall-clock reading in milliseconds: a TIMESTAMP's as
// if UTC, a TIMESTAMP_LTZ's in the session zone.
func (o *sessionOp) wall(t time.Time, ltz bool) int64 {
	if !ltz {
		return t.UnixMilli()
	}
	l := t.In(o.loc)
	y, m, d := l.Date()
	h, mi, s := l.Clock()
	return time.Date(y, m, d, h, mi, s, l.Nanosecond(), time.UTC).UnixMilli()
}

// fire emits the rows of every session whose end - 1 is at or before wm.
func (o *sessionOp) fire(_ context.Context, wm int64) error {
	var due []*session
	for len(o.ends) > 0 && o.ends[0].end-1 <= wm {
		e := heap.Pop(&o.ends).(sessionEnd)
		if e.s.done || e.end != e.s.end {
			continue // stale
		}
		e.s.done = true
		due = append(due, e.s)
		ss := o.parts[e.s.key]
		kept := ss[:0]
		for _, s := range ss {
			if s != e.s {
				kept = append(kept, s)
			}
		}
		if len(kept) == 0 {
			delete(o.parts, e.s.key)
		} else {
			o.parts[e.s.key] = kept
		}
	}
	sort.SliceStable(due, func(i, j int) bool {
		if due[i].end != due[j].end {
			return due[i].end < due[j].end
		}
		return due[i].start < due[j].start
	})
	ltz := o.n.Input.Schema()[o.n.TimeCol].Type.Kind == types.TimestampLTZ
	nIn := len(o.n.Input.Schema())
	for _, s := range due {
		out := vector.NewBatch(o.types, s.rows.N)
		start, end := time.UnixMilli(s.start).UTC(), time.UnixMilli(s.end).UTC()
		if ltz {
			start, end = fromWall(start, o.loc), fromWall(end, o.loc)
		}
		for r := range s.rows.N {
			for c := range nIn {
				out.Cols[c].AppendFrom(s.rows.Cols[c], r)
			}
			out.Cols[nIn].Append(start)
			out.Cols[nIn+1].Append(end)
			out.Cols[nIn+2].Append(end.Add(-time.Millisecond))
			if s.rows.Kinds != nil {
				out.Kinds = append(out.Kinds, s.rows.Kind(r))
			}
			out.N++
		}
		if out.N > 0 {
			o.out = append(o.out, out)
		}
	}
	return nil
}

func (o *sessionOp) Close() error {
	o.parts, o.ends = nil, nil
	return o.in.Close()
}
