package connectors

import (
	"sync"

	"github.com/parquet-go/parquet-go"

	"eddy/engine/vector"
)

// Decoding a Parquet file's row groups on several goroutines (when the
// process has more than one CPU): the file is read a few row groups
// ahead, each decoded by a goroutine of its own with cursors of its own (the pushed filters
// applied) into batches that Read hands out in the file's order. A row
// group's goroutine keeps at most pqTaskBatches batches that Read has not
// taken, so memory stays bounded whatever the size of the row groups; a
// file of one row group is decoded ahead of the operators above the scan,
// as a prefetching reader would. The
// decoding of a row group needs no lock: the file's metadata is only
// read, and each goroutine reads its own column chunks through the
// file's ReadAt.

// pqTaskBatches is how many decoded batches a row group's goroutine keeps
// ahead of Read: whole row groups of the common sizes (DuckDB's 122,880
// rows), a bounded part of larger ones.
const pqTaskBatches = 128

// pqParallel is the state of a reader decoding row groups ahead.
type pqParallel struct {
	ahead     int           // row groups being decoded at once
	running   int           // row groups whose goroutine has not ended
	ended     chan struct{} // a row group's goroutine ended (capacity 2×ahead)
	batches   int           // batches a row group's goroutine keeps ahead (pqTaskBatches)
	next      int           // the next row group to start
	tasks     []*pqTask     // started, in row group order
	cur       pqChunk       // the batch of tasks[0] being handed out
	off       int           // rows of cur already handed out
	stop      chan struct{}
	closeOnce sync.Once
	wg        sync.WaitGroup
	// idle are the cursors of finished row groups, which the next ones
	// take with the buffers they grew (a row group's pages are read
	// into buffers its cursors keep).
	mu   sync.Mutex
	idle []pqCursors
	// free are batches handed out whose consumer released them
	// (Recycle): the next batches are decoded into their vectors.
	free [][]*vector.Vec
}

// pqCursors are a row group reader's cursors and filter vectors.
type pqCursors struct {
	fields     []*pqNode
	filterVecs map[int]*vector.Vec
}

func (p *pqParallel) take() (pqCursors, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.idle) == 0 {
		return pqCursors{}, false
	}
	c := p.idle[len(p.idle)-1]
	p.idle = p.idle[:len(p.idle)-1]
	return c, true
}

func (p *pqParallel) put(c pqCursors) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.idle = append(p.idle, c)
}

// Recycle implements batchReader: the vectors of a batch ReadBatch handed
// out are filled again by a later batch.
func (r *parquetReader) Recycle(vecs []*vector.Vec) {
	p := r.par
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.free = append(p.free, vecs)
}

// reuse returns a released batch's vectors, emptied, when there is one
// with a vector for exactly the columns want marks.
func (p *pqParallel) reuse(want []bool) []*vector.Vec {
	p.mu.Lock()
	if len(p.free) == 0 {
		p.mu.Unlock()
		return nil
	}
	vecs := p.free[len(p.free)-1]
	p.free = p.free[:len(p.free)-1]
	p.mu.Unlock()
	if len(vecs) != len(want) {
		return nil
	}
	for i, v := range vecs {
		if (v != nil) != want[i] {
			return nil
		}
		if v != nil {
			resetVec(v)
		}
	}
	return vecs
}

// started reports whether row groups were started already.
func (p *pqParallel) started() bool { return p.next > 0 || len(p.tasks) > 0 }

// pqTask is one row group being decoded: its batches, then, when ch is
// closed, err and its counts.
type pqTask struct {
	ch  chan pqChunk
	err error
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

// nextChunk returns the next decoded batch, starting row groups as the
// window moves; ok is false at the end of the file.
func (r *parquetReader) nextChunk(want []bool) (c pqChunk, ok bool, err error) {
	p := r.par
	if p.ended == nil {
		p.ended = make(chan struct{}, 2*p.ahead)
	}
	for {
		// A row group starts as soon as a goroutine is free, while at
		// most twice as many as decode at once are not handed out yet:
		// the cores do not wait for Read to take a decoded group's
		// batches, and the memory held stays bounded.
		for p.running < p.ahead && len(p.tasks) < 2*p.ahead && p.next < r.stop {
			p.tasks = append(p.tasks, r.startGroup(p.next, want))
			p.next++
			p.running++
		}
		if len(p.tasks) == 0 {
			if p.next >= r.stop {
				return pqChunk{}, false, nil
			}
			// Every group started was handed out while goroutines
			// that decoded them are still ending.
			<-p.ended
			p.running--
			continue
		}
		t := p.tasks[0]
		var c pqChunk
		var ok bool
		select {
		case c, ok = <-t.ch:
		case <-p.ended:
			p.running--
			continue
		}
		if ok {
			return c, true, nil
		}
		p.tasks = p.tasks[1:]
		if t.err != nil {
			r.err = t.err
			return pqChunk{}, false, t.err
		}
		r.groupsRead += t.groupsRead
		r.rowsSkipped += t.rowsSkipped
	}
}

// atEnd reports whether every row group has been handed out.
func (r *parquetReader) atEnd() bool {
	p := r.par
	return p.off == p.cur.n && len(p.tasks) == 0 && p.next >= r.stop
}

// readParallel implements Read from the row groups decoded ahead.
func (r *parquetReader) readParallel(cols []*vector.Vec, n int) (int, bool, error) {
	p := r.par
	if p.off == p.cur.n {
		want := make([]bool, len(cols))
		for i, v := range cols {
			want[i] = v != nil
		}
		c, ok, err := r.nextChunk(want)
		if err != nil {
			return 0, false, err
		}
		if !ok {
			return 0, true, nil
		}
		p.cur, p.off = c, 0
	}
	c := p.cur
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
	return k, r.atEnd(), nil
}

// ReadBatch implements batchReader: the next batch decoded ahead, when
// the reader decodes ahead and is at the start of a batch.
func (r *parquetReader) ReadBatch(want []bool) (vecs []*vector.Vec, n int, end, ok bool, err error) {
	p := r.par
	if r.err != nil {
		return nil, 0, false, true, r.err
	}
	if p == nil || p.off != p.cur.n {
		return nil, 0, false, false, nil
	}
	c, more, err := r.nextChunk(want)
	if err != nil {
		return nil, 0, false, true, err
	}
	if !more {
		return nil, 0, true, true, nil
	}
	p.cur, p.off = pqChunk{}, 0
	return c.vecs, c.n, r.atEnd(), true, nil
}

// batchReader is a BulkReader that can hand over whole batches of its own
// vectors: vecs has a vector for each column want marks. ok is false
// when it has none to hand over now (Read gives the rows).
type batchReader interface {
	ReadBatch(want []bool) (vecs []*vector.Vec, n int, end, ok bool, err error)
	// Recycle takes back the vectors of a batch it handed out, once the
	// batch's consumer released it (vector.Batch.Release).
	Recycle(vecs []*vector.Vec)
}

// startGroup starts decoding row group g into batches with a vector for
// each column want marks.
func (r *parquetReader) startGroup(g int, want []bool) *pqTask {
	p := r.par
	t := &pqTask{ch: make(chan pqChunk, p.batches)}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		defer func() { p.ended <- struct{}{} }()
		defer close(t.ch)
		g := &parquetReader{c: r.c, name: r.name, cols: r.cols, needed: r.needed, filters: r.filters,
			exact: r.exact, file: r.file, ra: r.ra, group: g, stop: g + 1}
		if c, ok := p.take(); ok {
			g.fields, g.filterVecs = c.fields, c.filterVecs
		} else if err := g.buildFields(); err != nil {
			t.err = err
			return
		}
		for end := false; !end; {
			// A batch is filled up to its size, whatever the filters
			// leave out.
			vecs := p.reuse(want)
			if vecs == nil {
				vecs = make([]*vector.Vec, len(want))
				for i, w := range want {
					if w {
						vecs[i] = vector.New(r.cols[i].Type, g.batchCap(i))
					}
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
			if n == 0 {
				break
			}
			select {
			case t.ch <- pqChunk{vecs: vecs, n: n}:
			case <-p.stop:
				return
			}
		}
		t.groupsRead, t.rowsSkipped = g.groupsRead, g.rowsSkipped
		p.put(pqCursors{fields: g.fields, filterVecs: g.filterVecs})
	}()
	return t
}

// Close stops the row groups being decoded ahead and waits for them.
func (r *parquetReader) Close() error {
	if p := r.par; p != nil {
		p.closeOnce.Do(func() { close(p.stop) })
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

// batchCap is the capacity a batch's vector of column i starts with: none
// for a column whose pages' values the vector will likely take as they
// are (flatCursor.alias), a batch's worth for the others.
func (r *parquetReader) batchCap(i int) int {
	if f := r.fields[i]; f != nil && f.flat != nil && !f.flat.scratch && (f.flat.kind == parquet.Int64 || f.flat.kind == parquet.Double) {
		return 0
	}
	return vector.BatchSize
}
