package connectors

import (
	"sync"
	"sync/atomic"

	"eddy/engine/vector"
)

// Decoding a Parquet file's row groups on several goroutines: a file with
// more than one row group is read a few row groups ahead, each decoded by
// a goroutine of its own with cursors of its own (the pushed filters
// applied) into batches that Read hands out in the file's order. The
// decoding of a row group needs no lock: the file's metadata is only
// read, and each goroutine reads its own column chunks through the
// file's ReadAt.

// pqParallel is the state of a reader decoding row groups ahead.
type pqParallel struct {
	ahead int       // row groups in flight, the one being read included
	next  int       // the next row group to start
	tasks []*pqTask // started, in row group order
	chunk int       // the next batch of tasks[0]
	off   int       // rows of that batch already handed out
	stop  atomic.Bool
	wg    sync.WaitGroup
}

// pqTask is one row group being decoded.
type pqTask struct {
	done   chan struct{}
	chunks []pqChunk
	err    error
	// The row group reader's counts, added to the file's when read.
	groupsRead  int
	rowsSkipped int64
}

// pqChunk is a batch of a row group's rows, one vector per column (nil
// for a column the caller does not read).
type pqChunk struct {
	vecs []*vector.Vec
	n    int
}

// readParallel implements Read from the row groups decoded ahead.
func (r *parquetReader) readParallel(cols []*vector.Vec, n int) (int, bool, error) {
	p := r.par
	want := make([]bool, len(cols))
	for i, v := range cols {
		want[i] = v != nil
	}
	for {
		for len(p.tasks) < p.ahead && p.next < r.stop {
			p.tasks = append(p.tasks, r.startGroup(p.next, want))
			p.next++
		}
		if len(p.tasks) == 0 {
			return 0, true, nil
		}
		t := p.tasks[0]
		<-t.done
		if t.err != nil {
			r.err = t.err
			return 0, false, t.err
		}
		if p.chunk < len(t.chunks) {
			c := t.chunks[p.chunk]
			k := min(n, c.n-p.off)
			for i, vec := range cols {
				if vec == nil {
					continue
				}
				if src := c.vecs[i]; src != nil {
					appendVecRange(vec, src, p.off, p.off+k)
				} else {
					for range k {
						vec.AppendNull()
					}
				}
			}
			p.off += k
			if p.off == c.n {
				p.chunk, p.off = p.chunk+1, 0
			}
			end := p.chunk == len(t.chunks) && len(p.tasks) == 1 && p.next >= r.stop
			if end {
				r.finishTask(t)
			}
			return k, end, nil
		}
		r.finishTask(t)
		if len(p.tasks) == 0 && p.next >= r.stop {
			return 0, true, nil
		}
	}
}

// ReadBatch implements batchReader: the next batch decoded ahead, when
// the reader decodes ahead and is at the start of a batch.
func (r *parquetReader) ReadBatch(want []bool) (vecs []*vector.Vec, n int, end, ok bool, err error) {
	p := r.par
	if r.err != nil {
		return nil, 0, false, true, r.err
	}
	if p == nil || p.off != 0 {
		return nil, 0, false, false, nil
	}
	for {
		for len(p.tasks) < p.ahead && p.next < r.stop {
			p.tasks = append(p.tasks, r.startGroup(p.next, want))
			p.next++
		}
		if len(p.tasks) == 0 {
			return nil, 0, true, true, nil
		}
		t := p.tasks[0]
		<-t.done
		if t.err != nil {
			r.err = t.err
			return nil, 0, false, true, t.err
		}
		if p.chunk < len(t.chunks) {
			c := t.chunks[p.chunk]
			t.chunks[p.chunk] = pqChunk{}
			p.chunk++
			end := p.chunk == len(t.chunks) && len(p.tasks) == 1 && p.next >= r.stop
			if end {
				r.finishTask(t)
			}
			return c.vecs, c.n, end, true, nil
		}
		r.finishTask(t)
		if len(p.tasks) == 0 && p.next >= r.stop {
			return nil, 0, true, true, nil
		}
	}
}

// batchReader is a BulkReader that can hand over whole batches of its own
// vectors: vecs has a vector for each column want marks. ok is
// false when it has none to hand over now (Read gives the rows).
type batchReader interface {
	ReadBatch(want []bool) (vecs []*vector.Vec, n int, end, ok bool, err error)
}

// finishTask drops the first task, counting its row groups.
func (r *parquetReader) finishTask(t *pqTask) {
	p := r.par
	r.groupsRead += t.groupsRead
	r.rowsSkipped += t.rowsSkipped
	p.tasks, p.chunk, p.off = p.tasks[1:], 0, 0
	t.chunks = nil
}

// startGroup starts decoding row group g into batches with a vector for
// each column want marks.
func (r *parquetReader) startGroup(g int, want []bool) *pqTask {
	t := &pqTask{done: make(chan struct{})}
	p := r.par
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		defer close(t.done)
		g := &parquetReader{c: r.c, name: r.name, cols: r.cols, needed: r.needed, filters: r.filters,
			exact: r.exact, file: r.file, group: g, stop: g + 1}
		if err := g.buildFields(); err != nil {
			t.err = err
			return
		}
		for end := false; !end && !p.stop.Load(); {
			// A batch is filled up to its size, whatever the filters
			// leave out.
			vecs := make([]*vector.Vec, len(want))
			for i, w := range want {
				if w {
					vecs[i] = vector.New(r.cols[i].Type, vector.BatchSize)
				}
			}
			n := 0
			for n < vector.BatchSize && !end {
				k, eof, err := g.Read(vecs, vector.BatchSize-n)
				if err != nil {
					t.err = err
					return
				}
				n, end = n+k, eof
			}
			if n > 0 {
				t.chunks = append(t.chunks, pqChunk{vecs: vecs, n: n})
			}
		}
		t.groupsRead, t.rowsSkipped = g.groupsRead, g.rowsSkipped
	}()
	return t
}

// Close stops the row groups being decoded ahead and waits for them.
func (r *parquetReader) Close() error {
	if p := r.par; p != nil {
		p.stop.Store(true)
		p.wg.Wait()
	}
	return nil
}

// appendVecRange appends the values lo to hi of src to vec (same class).
func appendVecRange(vec, src *vector.Vec, lo, hi int) {
	if lo == 0 && hi == src.Len {
		vec.AppendVec(src)
		return
	}
	if !src.HasNulls() {
		switch vec.Class {
		case vector.Int:
			vec.Ints = append(vec.Ints, src.Ints[lo:hi]...)
			vec.Len += hi - lo
			return
		case vector.Float:
			vec.Floats = append(vec.Floats, src.Floats[lo:hi]...)
			vec.Len += hi - lo
			return
		case vector.String:
			vec.Strs = append(vec.Strs, src.Strs[lo:hi]...)
			vec.Len += hi - lo
			return
		}
	}
	for i := lo; i < hi; i++ {
		vec.AppendFrom(src, i)
	}
}

// resetVec empties a vector for reuse.
func resetVec(v *vector.Vec) {
	v.Len = 0
	v.SetNulls(nil)
	v.Bools, v.Ints, v.Floats, v.Decs = v.Bools[:0], v.Ints[:0], v.Floats[:0], v.Decs[:0]
	v.Strs, v.Bytes, v.Times, v.Anys = v.Strs[:0], v.Bytes[:0], v.Times[:0], v.Anys[:0]
}
