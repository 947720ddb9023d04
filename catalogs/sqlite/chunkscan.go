package sqlite

import (
	"context"
	"encoding/binary"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"sync"

	"eddy/catalogs"
	"eddy/engine/types"
)

// A scan of a managed table reads its column chunks, then its delta (see
// chunks.go), in one read transaction on a read connection of its own:
// one snapshot of the table. Opening the scan reads the chunks'
// statistics of the filtered columns and keeps the chunks no filter
// rules out. The scan is a list of units, each read as one: the chunks
// in their order and, when there are chunks, the delta (which the fold
// keeps below a chunk's rows). Reading a unit takes the connection (the
// blobs of the needed columns only; the delta's rows stepped from C) and
// decoding it does not, so that units are decoded at the same time: by
// the callers of Next that find the next unit unread, and, with
// ScanSpec.Workers above 1, by that many goroutines less one that read
// ahead of the callers. Next hands the units' rows out strictly in the
// scan's order, in pieces of at most the rows it is asked for, under the
// cursor's lock: callers at once get the pieces in turn, and the end
// only once every piece was handed out. A table without chunks (one
// with a primary key, or a small one) is one delta, stepped in Next.

// chunkMeta is a chunk a scan reads.
type chunkMeta struct {
	no   int64
	rows int
}

// scanUnit is a chunk or the delta, read and decoded as one.
type scanUnit struct {
	meta  chunkMeta
	delta bool
	state unitState
	// ch is a decoded chunk, off the rows of it handed out; pieces are
	// the delta's, off of them handed out.
	ch     *catalogs.ColumnChunk
	pieces []*catalogs.ColumnChunk
	off    int
	// bufs are the number arrays ch's pieces share, nil when none may
	// be recycled.
	bufs *chunkBufs
}

// chunkBufs are the arrays of a decoded chunk's integer and DOUBLE
// columns, which its pieces share: once every piece was handed out and
// recycled (catalogs.ChunkRecycler), later chunks decode into them.
type chunkBufs struct {
	arrays []numArray
	refs   int  // pieces handed out and not recycled
	done   bool // every piece handed out
}

// numArray is the values array of physical column p.
type numArray struct {
	p      int
	ints   []int64
	floats []float64
}

type unitState uint8

const (
	unitWaiting unitState = iota
	unitReading
	unitReady
)

// chunkCursor is the cursor of a scan (catalogs.ConcurrentCursor).
type chunkCursor struct {
	store   *Store
	path    catalogs.ObjectPath
	all     []*types.Type // the table's physical columns
	read    []int         // the physical columns returned, in order
	types   []*types.Type // their types
	filters []boundFilter
	// filtersOn are the filters of each filtered column.
	filtersOn map[int][]*boundFilter
	need      []int // the columns whose blobs are read: read and the filtered ones
	// delta is the statement over the delta (generated text) and its
	// parameters and column kinds.
	deltaQuery string
	deltaArgs  []cArg
	deltaKinds []cColumnKind
	tblID      int64
	stop       func() bool
	// skip is the number of leading rows the scan may pass over; skipped
	// the rows of the whole chunks it passed over.
	skip, skipped int64
	// workers is ScanSpec.Workers: the goroutines that read ahead are
	// one fewer, and no unit is read more than workers units ahead of
	// the one being handed out.
	workers int
	chunks  []chunkMeta
	rctx    context.Context // the context the scan was opened with

	// connMu serialises the uses of the read connection.
	connMu   sync.Mutex
	conn     readConn
	inTx     bool
	blobs    *cStmt     // the rowids of a chunk's blobs
	blob     *chunkBlob // reads them
	delta    *cCursor
	readDone int // units whose reads from the connection are done
	// bufMu guards spare and scratch, apart from the connection, so that
	// a decoding goroutine does not wait for another's read.
	bufMu sync.Mutex
	// spare holds blob buffers whose decoded values do not point into
	// them (numbers, booleans, times), for the next chunks' blobs.
	spare [][]byte
	// scratch holds the decoding buffers of columns only filtered on.
	scratch []*catalogs.ColumnValues
	// filterBufs holds the buffers of the filters, per decoding goroutine.
	filterBufs []*filterBufs
	// free holds number arrays of recycled chunks, by physical column.
	free map[int][]numArray

	mu      sync.Mutex
	cond    *sync.Cond
	started bool
	step    int // rows a piece, fixed by the first Next
	units   []*scanUnit
	total   int // len(units), kept after Close drops them
	// pieceOf is the arrays each piece handed out and not recycled
	// shares.
	pieceOf     map[*catalogs.ColumnChunk]*chunkBufs
	cur         int // the unit being handed out
	claimed     int // units taken for reading, in order
	deltaDone   bool
	interrupted bool
	err         error
	closed      bool
	wg          sync.WaitGroup
}

var _ catalogs.ConcurrentCursor = (*chunkCursor)(nil)

// Concurrent implements catalogs.ConcurrentCursor.
func (c *chunkCursor) Concurrent() bool { return true }

// openChunkCursor starts the scan: it opens the read transaction and
// reads which chunks to read.
func (s *Store) openChunkCursor(ctx context.Context, cur *chunkCursor, filters []catalogs.RowFilter) error {
	cur.store = s
	cur.rctx = ctx
	cur.cond = sync.NewCond(&cur.mu)
	for _, f := range filters {
		cur.filters = append(cur.filters, bindFilter(f, cur.all))
	}
	need := slices.Clone(cur.read)
	cur.filtersOn = map[int][]*boundFilter{}
	for i := range cur.filters {
		f := &cur.filters[i]
		need = append(need, f.col)
		cur.filtersOn[f.col] = append(cur.filtersOn[f.col], f)
	}
	slices.Sort(need)
	cur.need = slices.Compact(need)
	conn, err := s.readers.conn(s.name)
	if err != nil {
		return err
	}
	cur.conn = conn
	cur.stop = context.AfterFunc(ctx, cur.interrupt)
	if err := conn.exec(`BEGIN`); err != nil {
		return err
	}
	cur.inTx = true
	// Which chunks there are, with their rows.
	st, err := conn.prepare(`SELECT chunk, rows, nulls, min, max FROM eddy_chunks WHERE tbl = ?1 AND col = ?2 ORDER BY chunk`)
	if err != nil {
		return err
	}
	defer st.finalize()
	stats := func(col int, fn func(no int64, s chunkStats)) error {
		if err := st.bind(cur.tblID, int64(col)); err != nil {
			return err
		}
		for {
			ok, err := st.step()
			if err != nil || !ok {
				return err
			}
			fn(st.int64(0), chunkStats{rows: int(st.int64(1)), nulls: int(st.int64(2)), min: st.value(3), max: st.value(4)})
		}
	}
	if err := stats(0, func(no int64, s chunkStats) {
		cur.chunks = append(cur.chunks, chunkMeta{no: no, rows: s.rows})
	}); err != nil {
		return err
	}
	// The delta is a unit when there are chunks, read before them only
	// when they are all skipped (it is never larger than a chunk).
	folded := len(cur.chunks) > 0
	if len(cur.filters) == 0 {
		for len(cur.chunks) > 0 && cur.skipped+int64(cur.chunks[0].rows) <= cur.skip {
			cur.skipped += int64(cur.chunks[0].rows)
			cur.chunks = cur.chunks[1:]
		}
	}
	if len(cur.chunks) > 0 && len(cur.filters) > 0 {
		skip := map[int64]bool{}
		for _, f := range cur.filters {
			if err := stats(f.col, func(no int64, s chunkStats) {
				if f.rulesOut(s) {
					skip[no] = true
				}
			}); err != nil {
				return err
			}
		}
		cur.chunks = slices.DeleteFunc(cur.chunks, func(m chunkMeta) bool { return skip[m.no] })
	}
	for _, m := range cur.chunks {
		cur.units = append(cur.units, &scanUnit{meta: m})
	}
	if folded {
		cur.units = append(cur.units, &scanUnit{delta: true})
	}
	cur.total = len(cur.units)
	if len(cur.chunks) > 0 && len(cur.need) > 0 {
		list := make([]string, len(cur.need))
		for i, p := range cur.need {
			list[i] = strconv.Itoa(p)
		}
		// Generated text: column positions only.
		cur.blob = &chunkBlob{db: conn.db}
		if cur.blobs, err = conn.prepare(`SELECT col, rowid FROM eddy_chunks WHERE tbl = ?1 AND chunk = ?2 AND col IN (` +
			strings.Join(list, ", ") + `)`); err != nil {
			return err
		}
	}
	return nil
}

// interrupt stops the connection's running statement (sqlite3_interrupt
// needs no lock of the connection); Close releases the connection only
// after it marked the cursor closed under c.mu.
func (c *chunkCursor) interrupt() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.closed && c.conn.db != nil {
		c.conn.interrupt()
		c.interrupted = true
	}
}

// Next implements catalogs.RowCursor; several goroutines may call it at
// once.
func (c *chunkCursor) Next(ctx context.Context, maxRows int) (*catalogs.ColumnChunk, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.started {
		c.started = true
		c.step = max(maxRows, 1)
		for range c.workers - 1 {
			c.wg.Add(1)
			go c.readAhead()
		}
	}
	for {
		if c.err != nil || c.closed {
			return nil, c.err
		}
		if c.cur == len(c.units) {
			if len(c.units) > 0 || c.deltaDone {
				return nil, nil
			}
			// No chunks: the delta is the whole scan, stepped here.
			c.connMu.Lock()
			ch, err := c.deltaNext(ctx, c.pieceRows(maxRows))
			c.connMu.Unlock()
			if err != nil {
				return nil, c.failLocked(ctx, err)
			}
			if ch == nil {
				c.deltaDone = true
				c.connMu.Lock()
				c.endTx()
				c.connMu.Unlock()
			}
			return ch, nil
		}
		u := c.units[c.cur]
		if u.state == unitReady {
			if ch := c.piece(u, c.pieceRows(maxRows)); ch != nil {
				return ch, nil
			}
			continue
		}
		if c.claimable() {
			c.readUnit(ctx)
			continue
		}
		c.cond.Wait()
	}
}

// pieceRows is the rows of a piece for a call of Next asked for at most
// maxRows.
func (c *chunkCursor) pieceRows(maxRows int) int {
	return max(min(maxRows, c.step), 1)
}

// piece hands out the next piece of at most step rows of the current unit
// u, which is read, and moves on to the next unit once u's rows are all
// out (c.mu held); nil when u had no more rows.
func (c *chunkCursor) piece(u *scanUnit, step int) *catalogs.ColumnChunk {
	var out *catalogs.ColumnChunk
	if u.delta {
		if u.off < len(u.pieces) {
			out = u.pieces[u.off]
			if out.N > step {
				u.pieces[u.off] = slicePiece(out, step, out.N)
				return slicePiece(out, 0, step)
			}
			u.pieces[u.off] = nil
			u.off++
		}
		if u.off >= len(u.pieces) {
			c.advance(u)
		}
		return out
	}
	if u.ch != nil && u.off < u.ch.N {
		hi := min(u.off+step, u.ch.N)
		out = slicePiece(u.ch, u.off, hi)
		u.off = hi
		if u.bufs != nil {
			if c.pieceOf == nil {
				c.pieceOf = map[*catalogs.ColumnChunk]*chunkBufs{}
			}
			c.pieceOf[out] = u.bufs
			u.bufs.refs++
		}
	}
	if u.ch == nil || u.off >= u.ch.N {
		c.advance(u)
	}
	return out
}

// advance moves on from the unit u, whose rows are all out (c.mu held).
func (c *chunkCursor) advance(u *scanUnit) {
	if b := u.bufs; b != nil {
		b.done = true
		if b.refs == 0 {
			c.putFree(b.arrays)
		}
	}
	u.ch, u.pieces, u.bufs = nil, nil, nil
	c.units[c.cur] = nil
	c.cur++
	c.cond.Broadcast()
}

// claimable reports whether the next unread unit may be read now: the
// one being handed out, or, with workers, no more than workers units
// ahead of it, so that a goroutine done with its unit starts the next
// while the one before is still decoding (c.mu held).
func (c *chunkCursor) claimable() bool {
	ahead := 0
	if c.workers > 1 {
		ahead = c.workers
	}
	return c.claimed < len(c.units) && c.claimed <= c.cur+ahead
}

// readUnit reads and decodes the next unread unit, without c.mu while it
// does (c.mu held on entry and on return).
func (c *chunkCursor) readUnit(ctx context.Context) {
	u := c.units[c.claimed]
	c.claimed++
	u.state = unitReading
	c.mu.Unlock()
	ch, pieces, bufs, err := c.load(ctx, u)
	c.mu.Lock()
	if err != nil {
		c.failLocked(ctx, err)
		c.cond.Broadcast()
		return
	}
	u.ch, u.pieces, u.bufs, u.state = ch, pieces, bufs, unitReady
	c.cond.Broadcast()
}

// readAhead is a goroutine that reads and decodes units ahead of the
// callers of Next until every unit is read or the scan ends.
func (c *chunkCursor) readAhead() {
	defer c.wg.Done()
	c.mu.Lock()
	defer c.mu.Unlock()
	for {
		for c.err == nil && !c.closed && c.claimed < len(c.units) && !c.claimable() {
			c.cond.Wait()
		}
		if c.err != nil || c.closed || c.claimed >= len(c.units) {
			return
		}
		c.readUnit(c.rctx)
	}
}

// load reads unit u: a chunk's blobs, decoded, or the delta's rows.
func (c *chunkCursor) load(ctx context.Context, u *scanUnit) (*catalogs.ColumnChunk, []*catalogs.ColumnChunk, *chunkBufs, error) {
	c.connMu.Lock()
	if u.delta {
		defer c.connMu.Unlock()
		var pieces []*catalogs.ColumnChunk
		for {
			ch, err := c.deltaNext(ctx, c.step)
			if err != nil {
				return nil, nil, nil, err
			}
			if ch == nil {
				break
			}
			pieces = append(pieces, ch)
		}
		c.doneReading()
		return nil, pieces, nil, nil
	}
	blobs, err := c.fetch(u.meta)
	if err == nil {
		c.doneReading()
	}
	c.connMu.Unlock()
	if err != nil {
		return nil, nil, nil, err
	}
	ch, bufs, err := c.decode(u.meta, blobs)
	c.reuse(blobs)
	return ch, nil, bufs, err
}

// Recycle implements catalogs.ChunkRecycler: once the last piece of a
// chunk that was handed out comes back, the chunk's number arrays decode
// the next chunks.
func (c *chunkCursor) Recycle(ch *catalogs.ColumnChunk) {
	c.mu.Lock()
	b := c.pieceOf[ch]
	if b == nil {
		c.mu.Unlock()
		return
	}
	delete(c.pieceOf, ch)
	b.refs--
	free := b.done && b.refs == 0
	c.mu.Unlock()
	if free {
		c.putFree(b.arrays)
	}
}

// maxFree bounds the arrays kept per column: the chunks in flight.
const maxFree = 8

// putFree keeps number arrays for the next chunks' decoding.
func (c *chunkCursor) putFree(arrays []numArray) {
	c.bufMu.Lock()
	defer c.bufMu.Unlock()
	if c.free == nil {
		c.free = map[int][]numArray{}
	}
	for _, a := range arrays {
		if len(c.free[a.p]) < maxFree {
			c.free[a.p] = append(c.free[a.p], a)
		}
	}
}

// takeFree returns buffers holding a recycled array of column p to
// decode into, or nil.
func (c *chunkCursor) takeFree(p int) *catalogs.ColumnValues {
	c.bufMu.Lock()
	defer c.bufMu.Unlock()
	fs := c.free[p]
	if len(fs) == 0 {
		return nil
	}
	a := fs[len(fs)-1]
	c.free[p] = fs[:len(fs)-1]
	return &catalogs.ColumnValues{Ints: a.ints, Floats: a.floats}
}

// getScratch returns buffers to decode a column only filtered on into.
func (c *chunkCursor) getScratch() *catalogs.ColumnValues {
	c.bufMu.Lock()
	defer c.bufMu.Unlock()
	if k := len(c.scratch); k > 0 {
		cv := c.scratch[k-1]
		c.scratch = c.scratch[:k-1]
		return cv
	}
	return &catalogs.ColumnValues{}
}

// filterBufs are the buffers of a chunk's filtering: which rows are kept
// and their positions.
type filterBufs struct {
	keep []uint8
	idx  []int
	// ints and floats hold a block of a column filtered as it decodes.
	ints   [filterBlock]int64
	floats [filterBlock]float64
}

// getFilterBufs returns filter buffers for a chunk of rows rows.
func (c *chunkCursor) getFilterBufs(rows int) *filterBufs {
	c.bufMu.Lock()
	var fb *filterBufs
	if k := len(c.filterBufs); k > 0 {
		fb = c.filterBufs[k-1]
		c.filterBufs = c.filterBufs[:k-1]
	}
	c.bufMu.Unlock()
	if fb == nil || cap(fb.keep) < rows {
		return &filterBufs{keep: make([]uint8, rows), idx: make([]int, rows)}
	}
	fb.keep, fb.idx = fb.keep[:rows], fb.idx[:rows]
	return fb
}

// putFilterBufs takes back the buffers of getFilterBufs.
func (c *chunkCursor) putFilterBufs(fb *filterBufs) {
	c.bufMu.Lock()
	defer c.bufMu.Unlock()
	c.filterBufs = append(c.filterBufs, fb)
}

// putScratch takes back the buffers of getScratch.
func (c *chunkCursor) putScratch(cvs []*catalogs.ColumnValues) {
	if len(cvs) == 0 {
		return
	}
	c.bufMu.Lock()
	defer c.bufMu.Unlock()
	c.scratch = append(c.scratch, cvs...)
}

// reuse keeps the blob buffers of a decoded chunk that its values do not
// point into for the next chunks (strings and bytes share their blob's
// memory).
func (c *chunkCursor) reuse(blobs map[int][]byte) {
	c.bufMu.Lock()
	defer c.bufMu.Unlock()
	for p, b := range blobs {
		switch class, _ := classOf(c.all[p]); class {
		case classInt, classBool, classFloat, classTime:
			if len(c.spare) < 2*len(c.need)*max(c.workers, 1) {
				c.spare = append(c.spare, b)
			}
		}
	}
}

// doneReading counts a unit read from the connection and ends the read
// transaction after the last (c.connMu held).
func (c *chunkCursor) doneReading() {
	c.readDone++
	if c.readDone == c.total {
		c.endTx()
	}
}

// failLocked records err as the scan's error (c.mu held).
func (c *chunkCursor) failLocked(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		err = ctx.Err()
	} else {
		err = storeErr(err, "cannot read the rows of %s", c.path.FullName())
	}
	if c.err == nil {
		c.err = err
	}
	return c.err
}

// fetch reads the blobs of chunk m's needed columns (c.connMu held).
func (c *chunkCursor) fetch(m chunkMeta) (map[int][]byte, error) {
	c.store.chunkReads.Add(1)
	if c.blobs == nil {
		return nil, nil
	}
	if err := c.blobs.bind(c.tblID, m.no); err != nil {
		return nil, err
	}
	out := make(map[int][]byte, len(c.need))
	for {
		ok, err := c.blobs.step()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		var buf []byte
		c.bufMu.Lock()
		if k := len(c.spare); k > 0 {
			buf, c.spare = c.spare[k-1], c.spare[:k-1]
		}
		c.bufMu.Unlock()
		if buf, err = c.blob.readInto(c.blobs.int64(1), buf); err != nil {
			return nil, err
		}
		out[int(c.blobs.int64(0))] = buf
	}
	if len(out) != len(c.need) {
		return nil, errCorrupt
	}
	return out, nil
}

// decode decodes a chunk's blobs, applies the filters and keeps the
// columns the scan returns.
func (c *chunkCursor) decode(m chunkMeta, blobs map[int][]byte) (*catalogs.ColumnChunk, *chunkBufs, error) {
	cols := make(map[int]*catalogs.ColumnValues, len(c.need))
	// The filters' buffers are the scan's, reused chunk after chunk.
	var fb *filterBufs
	if len(c.filters) > 0 {
		fb = c.getFilterBufs(m.rows)
		defer c.putFilterBufs(fb)
		keepAll(fb.keep)
	}
	// The columns only filtered on are filtered block by block as they
	// decode, when their encoding allows (filterEncoded); else they are
	// decoded into buffers of the scan's, taken back once the filters
	// ran. The integer and DOUBLE columns returned read into the arrays
	// of chunks recycled, when there are some.
	var scratch []*catalogs.ColumnValues
	defer func() { c.putScratch(scratch) }()
	bufs := &chunkBufs{}
	for _, p := range c.need {
		var into *catalogs.ColumnValues
		class, _ := classOf(c.all[p])
		number := class == classInt || class == classFloat
		switch {
		case !slices.Contains(c.read, p):
			done, err := filterEncoded(blobs[p], c.all[p], c.filtersOn[p], fb)
			if err != nil {
				return nil, nil, err
			}
			if done {
				continue
			}
			into = c.getScratch()
			scratch = append(scratch, into)
		case number:
			into = c.takeFree(p)
		}
		cv, n, err := decodeColumnInto(blobs[p], c.all[p], false, into)
		if err != nil {
			return nil, nil, err
		}
		if into != nil && cv.Ints != nil {
			into.Ints = cv.Ints
		}
		if into != nil && cv.Floats != nil {
			into.Floats = cv.Floats
		}
		if n != m.rows {
			return nil, nil, errCorrupt
		}
		cols[p] = &cv
		if number && slices.Contains(c.read, p) {
			bufs.arrays = append(bufs.arrays, numArray{p: p, ints: cv.Ints, floats: cv.Floats})
		}
	}
	out := &catalogs.ColumnChunk{N: m.rows, Cols: make([]catalogs.ColumnValues, len(c.read))}
	for i, p := range c.read {
		out.Cols[i] = *cols[p]
	}
	if len(bufs.arrays) == 0 {
		bufs = nil
	}
	if len(c.filters) == 0 {
		return out, bufs, nil
	}
	keep := fb.keep
	for _, f := range c.filters {
		if cv := cols[f.col]; cv != nil {
			f.apply(cv, keep)
		}
	}
	if len(out.Cols) == 0 {
		// No column to gather (COUNT(*)): the rows kept are a count.
		out.N = countKept(keep)
		return out, bufs, nil
	}
	idx := fb.idx
	k := 0
	for i, b := range keep {
		idx[k] = i
		k += int(b)
	}
	idx = idx[:k]
	if len(idx) == m.rows {
		return out, bufs, nil
	}
	for i := range out.Cols {
		out.Cols[i] = gather(&out.Cols[i], idx)
	}
	out.N = len(idx)
	// The rows kept are copies: the arrays decoded are free again.
	if bufs != nil {
		c.putFree(bufs.arrays)
	}
	return out, nil, nil
}

// deltaNext returns the next rows of the delta, at most a piece, or nil
// at its end (c.connMu held).
func (c *chunkCursor) deltaNext(ctx context.Context, maxRows int) (*catalogs.ColumnChunk, error) {
	if c.delta == nil {
		cur, err := c.conn.cursor(ctx, &c.store.readers, c.deltaQuery, c.deltaArgs, c.deltaKinds)
		if err != nil {
			return nil, err
		}
		c.delta = cur
	}
	ch, err := c.delta.fill(ctx, maxRows)
	if err != nil {
		return nil, err
	}
	if ch.n == 0 {
		return nil, nil
	}
	out := &catalogs.ColumnChunk{N: ch.n, Cols: make([]catalogs.ColumnValues, len(c.types))}
	var text string
	if ch.arena != nil {
		text = string(ch.arena)
	}
	var blob []byte
	for i, t := range c.types {
		if err := convertColumn(&out.Cols[i], &ch.cols[i], ch.n, t, text, &blob, ch.arena); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// endTx ends the read transaction once every row is read (c.connMu
// held), so the scan holds no snapshot while the query goes on.
func (c *chunkCursor) endTx() {
	if c.delta != nil {
		c.delta.Close()
		c.delta = nil
	}
	c.blob.close()
	c.blobs.finalize()
	if c.inTx {
		_ = c.conn.exec(`COMMIT`)
		c.inTx = false
	}
}

// Close implements catalogs.RowCursor: it stops the goroutines reading
// ahead and returns the connection.
func (c *chunkCursor) Close() error {
	if c.stop != nil {
		c.stop()
	}
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	c.units = nil
	c.cond.Broadcast()
	c.mu.Unlock()
	c.wg.Wait()
	c.connMu.Lock()
	defer c.connMu.Unlock()
	if c.conn.db == nil {
		return nil
	}
	if c.delta != nil {
		c.delta.Close()
		c.delta = nil
	}
	c.blob.close()
	c.blobs.finalize()
	c.mu.Lock()
	broken := c.interrupted
	c.mu.Unlock()
	if c.inTx {
		broken = broken || c.conn.exec(`ROLLBACK`) != nil
		c.inTx = false
	}
	c.store.readers.release(c.conn, broken)
	c.conn = readConn{}
	return nil
}

// slicePiece returns rows lo to hi of a decoded chunk, sharing its
// slices (capped, so that appending to a piece cannot reach the next).
func slicePiece(ch *catalogs.ColumnChunk, lo, hi int) *catalogs.ColumnChunk {
	if lo == 0 && hi == ch.N {
		return ch
	}
	out := &catalogs.ColumnChunk{N: hi - lo, Cols: make([]catalogs.ColumnValues, len(ch.Cols))}
	for i := range ch.Cols {
		in, o := &ch.Cols[i], &out.Cols[i]
		if in.Nulls != nil {
			var words []uint64
			for r := lo; r < hi; r++ {
				if isNull(in.Nulls, r) {
					if words == nil {
						words = make([]uint64, (hi-lo+63)>>6)
					}
					k := r - lo
					words[k>>6] |= 1 << (uint(k) & 63)
				}
			}
			o.Nulls = words
		}
		if in.Bools != nil {
			o.Bools = in.Bools[lo:hi:hi]
		}
		if in.Ints != nil {
			o.Ints = in.Ints[lo:hi:hi]
		}
		if in.Floats != nil {
			o.Floats = in.Floats[lo:hi:hi]
		}
		if in.Strs != nil {
			o.Strs = in.Strs[lo:hi:hi]
		}
		if in.Bytes != nil {
			o.Bytes = in.Bytes[lo:hi:hi]
		}
		if in.Times != nil {
			o.Times = in.Times[lo:hi:hi]
		}
		if in.Anys != nil {
			o.Anys = in.Anys[lo:hi:hi]
		}
	}
	return out
}

// gather returns the rows idx of a column.
func gather(in *catalogs.ColumnValues, idx []int) catalogs.ColumnValues {
	var o catalogs.ColumnValues
	if in.Nulls != nil {
		for k, r := range idx {
			if isNull(in.Nulls, r) {
				if o.Nulls == nil {
					o.Nulls = make([]uint64, (len(idx)+63)>>6)
				}
				o.Nulls[k>>6] |= 1 << (uint(k) & 63)
			}
		}
	}
	o.Bools = pick(in.Bools, idx)
	o.Ints = pick(in.Ints, idx)
	o.Floats = pick(in.Floats, idx)
	o.Strs = pick(in.Strs, idx)
	o.Bytes = pick(in.Bytes, idx)
	o.Times = pick(in.Times, idx)
	o.Anys = pick(in.Anys, idx)
	return o
}

func pick[T any](in []T, idx []int) []T {
	if in == nil {
		return nil
	}
	out := make([]T, len(idx))
	for k, r := range idx {
		out[k] = in[r]
	}
	return out
}

// boundFilter is a catalogs.RowFilter bound to its column's storage:
// kind says how values compare ('i' integers, 'f' doubles, 's' strings),
// 'n' marks a NULL test and 0 a comparison the chunks cannot decide,
// which they leave to the engine.
type boundFilter struct {
	col   int
	op    catalogs.FilterOp
	kind  byte
	class colClass
	i     int64
	f     float64
	s     string
}

func bindFilter(f catalogs.RowFilter, cols []*types.Type) boundFilter {
	b := boundFilter{col: f.Column, op: f.Op}
	if f.Column < 0 || f.Column >= len(cols) {
		return b
	}
	b.class, _ = classOf(cols[f.Column])
	if f.Op == catalogs.FilterIsNull || f.Op == catalogs.FilterIsNotNull {
		b.kind = 'n'
		return b
	}
	switch v := f.Value.(type) {
	case int64:
		switch b.class {
		case classInt, classBool:
			b.kind, b.i = 'i', v
		case classFloat:
			b.kind, b.f = 'f', float64(v)
		}
	case float64:
		switch b.class {
		case classInt, classFloat:
			b.kind, b.f = 'f', v
		}
	case string:
		if b.class == classString {
			b.kind, b.s = 's', v
		}
	}
	return b
}

// holds reports whether comparison result c (value against the
// constant) satisfies the operator.
func (f *boundFilter) holds(c int) bool {
	switch f.op {
	case catalogs.FilterEq:
		return c == 0
	case catalogs.FilterNe:
		return c != 0
	case catalogs.FilterLt:
		return c < 0
	case catalogs.FilterLe:
		return c <= 0
	case catalogs.FilterGt:
		return c > 0
	case catalogs.FilterGe:
		return c >= 0
	}
	return true
}

func cmp3[T int64 | float64 | string](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// compareStat compares a statistic (as SQLite returns it) with the
// constant; ok is false when it cannot.
func (f *boundFilter) compareStat(v any) (int, bool) {
	switch f.kind {
	case 'i':
		if x, ok := v.(int64); ok {
			return cmp3(x, f.i), true
		}
	case 'f':
		switch x := v.(type) {
		case int64:
			return cmp3(float64(x), f.f), true
		case float64:
			return cmp3(x, f.f), true
		}
	case 's':
		if x, ok := v.(string); ok {
			return cmp3(x, f.s), true
		}
	}
	return 0, false
}

// rulesOut reports whether a chunk's statistics prove the filter false
// for every row of the chunk.
func (f *boundFilter) rulesOut(s chunkStats) bool {
	switch f.kind {
	case 0:
		return false
	case 'n':
		if f.op == catalogs.FilterIsNull {
			return s.nulls == 0
		}
		return s.nulls == s.rows
	}
	if s.nulls == s.rows {
		return true // a comparison with NULL is never TRUE
	}
	lo, ok1 := f.compareStat(s.min)
	hi, ok2 := f.compareStat(s.max)
	if !ok1 || !ok2 {
		return false
	}
	switch f.op {
	case catalogs.FilterEq:
		return lo > 0 || hi < 0
	case catalogs.FilterNe:
		return lo == 0 && hi == 0
	case catalogs.FilterLt:
		return lo >= 0
	case catalogs.FilterLe:
		return lo > 0
	case catalogs.FilterGt:
		return hi <= 0
	case catalogs.FilterGe:
		return hi < 0
	}
	return false
}

// apply clears keep[i] (1: kept) for every row of cv the filter drops.
func (f *boundFilter) apply(cv *catalogs.ColumnValues, keep []uint8) {
	switch f.kind {
	case 0:
		return
	case 'n':
		want := f.op == catalogs.FilterIsNull
		for i := range keep {
			if isNull(cv.Nulls, i) != want {
				keep[i] = 0
			}
		}
		return
	}
	switch {
	case f.kind == 's':
		applyCmp(cv.Strs[:len(keep)], f.op, f.s, keep)
	case f.class == classBool:
		for i, b := range cv.Bools[:len(keep)] {
			x := int64(0)
			if b {
				x = 1
			}
			if !f.holds(cmp3(x, f.i)) {
				keep[i] = 0
			}
		}
	case f.kind == 'i':
		applyCmp(cv.Ints[:len(keep)], f.op, f.i, keep)
	case f.class == classInt:
		for i, v := range cv.Ints[:len(keep)] {
			if !f.holds(cmp3(float64(v), f.f)) {
				keep[i] = 0
			}
		}
	default:
		applyCmp(cv.Floats[:len(keep)], f.op, f.f, keep)
	}
	clearNulls(cv.Nulls, keep)
}

// clearNulls clears keep[i] for every NULL row: a comparison with NULL is
// never TRUE.
func clearNulls(nulls []uint64, keep []uint8) {
	for w, bits := range nulls {
		for bits != 0 {
			i := w<<6 + tz(bits)
			if i < len(keep) {
				keep[i] = 0
			}
			bits &= bits - 1
		}
	}
}

// applyCmp clears keep[i] where vals[i] op c is false, one loop per
// operator, without a branch per row.
func applyCmp[T int64 | float64 | string](vals []T, op catalogs.FilterOp, c T, keep []uint8) {
	keep = keep[:len(vals)]
	switch op {
	case catalogs.FilterEq:
		for i, v := range vals {
			keep[i] &= b2u(v == c)
		}
	case catalogs.FilterNe:
		for i, v := range vals {
			keep[i] &= b2u(v != c)
		}
	case catalogs.FilterLt:
		for i, v := range vals {
			keep[i] &= b2u(v < c)
		}
	case catalogs.FilterLe:
		for i, v := range vals {
			keep[i] &= b2u(v <= c)
		}
	case catalogs.FilterGt:
		for i, v := range vals {
			keep[i] &= b2u(v > c)
		}
	case catalogs.FilterGe:
		for i, v := range vals {
			keep[i] &= b2u(v >= c)
		}
	}
}

// keepAll sets every byte of keep to 1, by doubling copies.
func keepAll(keep []uint8) {
	if len(keep) == 0 {
		return
	}
	keep[0] = 1
	for j := 1; j < len(keep); j *= 2 {
		copy(keep[j:], keep[:j])
	}
}

// countKept counts the rows keep keeps: its bytes are 0 or 1, so a word's
// set bits are its rows kept.
func countKept(keep []uint8) int {
	k := 0
	for len(keep) >= 8 {
		k += bits.OnesCount64(binary.LittleEndian.Uint64(keep))
		keep = keep[8:]
	}
	for _, b := range keep {
		k += int(b)
	}
	return k
}

func b2u(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

func tz(x uint64) int { return bits.TrailingZeros64(x) }
