package sqlite

import (
	"context"
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
// rules out; each chunk is then read (the blobs of the needed columns
// only, under the cursor's lock) and decoded (outside it), so that
// workers calling Next at once decode chunks at the same time. A decoded
// chunk is handed out in pieces of at most the rows Next is asked for.
// The delta is stepped from C as before, its filters in its statement.

// chunkMeta is a chunk a scan reads.
type chunkMeta struct {
	no   int64
	rows int
}

// chunkCursor is the cursor of a scan (catalogs.ConcurrentCursor).
type chunkCursor struct {
	store   *Store
	path    catalogs.ObjectPath
	all     []*types.Type // the table's physical columns
	read    []int         // the physical columns returned, in order
	types   []*types.Type // their types
	filters []boundFilter
	need    []int // the columns whose blobs are read: read and the filtered ones
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

	mu          sync.Mutex
	conn        readConn
	inTx        bool
	blobs       *cStmt
	chunks      []chunkMeta
	next        int
	ready       []*pieceSource
	delta       *cCursor
	deltaDone   bool
	interrupted bool
	err         error
	closed      bool
}

// pieceSource is a decoded chunk whose rows from off on are not handed
// out yet.
type pieceSource struct {
	ch  *catalogs.ColumnChunk
	off int
}

var _ catalogs.ConcurrentCursor = (*chunkCursor)(nil)

// Concurrent implements catalogs.ConcurrentCursor.
func (c *chunkCursor) Concurrent() bool { return true }

// openChunkCursor starts the scan: it opens the read transaction and
// reads which chunks to read.
func (s *Store) openChunkCursor(ctx context.Context, cur *chunkCursor, filters []catalogs.RowFilter) error {
	cur.store = s
	for _, f := range filters {
		cur.filters = append(cur.filters, bindFilter(f, cur.all))
	}
	need := slices.Clone(cur.read)
	for _, f := range cur.filters {
		need = append(need, f.col)
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
	if len(cur.chunks) > 0 && len(cur.need) > 0 {
		list := make([]string, len(cur.need))
		for i, p := range cur.need {
			list[i] = strconv.Itoa(p)
		}
		// Generated text: column positions only.
		if cur.blobs, err = conn.prepare(`SELECT col, data FROM eddy_chunks WHERE tbl = ?1 AND chunk = ?2 AND col IN (` +
			strings.Join(list, ", ") + `)`); err != nil {
			return err
		}
	}
	return nil
}

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
	step := max(maxRows, 1)
	for {
		c.mu.Lock()
		if c.err != nil || c.closed {
			err := c.err
			c.mu.Unlock()
			return nil, err
		}
		if len(c.ready) > 0 {
			src := c.ready[0]
			lo, hi := src.off, min(src.off+step, src.ch.N)
			src.off = hi
			if hi == src.ch.N {
				c.ready = c.ready[1:]
			}
			c.mu.Unlock()
			return slicePiece(src.ch, lo, hi), nil
		}
		if c.next < len(c.chunks) {
			m := c.chunks[c.next]
			c.next++
			blobs, err := c.fetch(m)
			c.mu.Unlock()
			if err != nil {
				return nil, c.fail(ctx, err)
			}
			ch, err := c.decode(m, blobs)
			if err != nil {
				return nil, c.fail(ctx, err)
			}
			if ch.N == 0 {
				continue
			}
			if ch.N <= step {
				return ch, nil
			}
			c.mu.Lock()
			// Handed out before the chunks read after it: one caller
			// gets the rows in order.
			c.ready = append([]*pieceSource{{ch: ch, off: step}}, c.ready...)
			c.mu.Unlock()
			return slicePiece(ch, 0, step), nil
		}
		ch, err := c.deltaNext(ctx, step)
		c.mu.Unlock()
		if err != nil {
			return nil, c.fail(ctx, err)
		}
		return ch, nil
	}
}

// fail records err as the scan's error (c.mu not held).
func (c *chunkCursor) fail(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		err = ctx.Err()
	} else {
		err = storeErr(err, "cannot read the rows of %s", c.path.FullName())
	}
	c.mu.Lock()
	if c.err == nil {
		c.err = err
	}
	c.mu.Unlock()
	return err
}

// fetch reads the blobs of chunk m's needed columns (c.mu held).
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
		out[int(c.blobs.int64(0))] = c.blobs.blob(1)
	}
	if len(out) != len(c.need) {
		return nil, errCorrupt
	}
	return out, nil
}

// decode decodes a chunk's blobs, applies the filters and keeps the
// columns the scan returns.
func (c *chunkCursor) decode(m chunkMeta, blobs map[int][]byte) (*catalogs.ColumnChunk, error) {
	cols := make(map[int]*catalogs.ColumnValues, len(c.need))
	for _, p := range c.need {
		cv, n, err := decodeColumn(blobs[p], c.all[p], false)
		if err != nil {
			return nil, err
		}
		if n != m.rows {
			return nil, errCorrupt
		}
		cols[p] = &cv
	}
	out := &catalogs.ColumnChunk{N: m.rows, Cols: make([]catalogs.ColumnValues, len(c.read))}
	for i, p := range c.read {
		out.Cols[i] = *cols[p]
	}
	if len(c.filters) == 0 {
		return out, nil
	}
	keep := make([]uint8, m.rows)
	for i := range keep {
		keep[i] = 1
	}
	for _, f := range c.filters {
		f.apply(cols[f.col], keep)
	}
	idx := make([]int, m.rows)
	k := 0
	for i, b := range keep {
		idx[k] = i
		k += int(b)
	}
	idx = idx[:k]
	if len(idx) == m.rows {
		return out, nil
	}
	for i := range out.Cols {
		out.Cols[i] = gather(&out.Cols[i], idx)
	}
	out.N = len(idx)
	return out, nil
}

// deltaNext returns the next rows of the delta, or nil at the end of the
// scan (c.mu held).
func (c *chunkCursor) deltaNext(ctx context.Context, maxRows int) (*catalogs.ColumnChunk, error) {
	if c.deltaDone {
		return nil, nil
	}
	if c.delta == nil {
		cur, err := c.conn.cursor(ctx, &c.store.readers, c.deltaQuery, c.deltaArgs, c.deltaKinds)
		if err != nil {
			return nil, err
		}
		c.delta = cur
	}
	ch, err := c.delta.fill(ctx, max(maxRows, 1))
	if err != nil {
		return nil, err
	}
	if ch.n == 0 {
		c.deltaDone = true
		c.endTx()
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

// endTx ends the read transaction once every row is read (c.mu held), so
// the scan holds no snapshot while the query goes on.
func (c *chunkCursor) endTx() {
	if c.delta != nil {
		c.delta.Close()
		c.delta = nil
	}
	c.blobs.finalize()
	if c.inTx {
		_ = c.conn.exec(`COMMIT`)
		c.inTx = false
	}
}

// Close implements catalogs.RowCursor.
func (c *chunkCursor) Close() error {
	if c.stop != nil {
		c.stop()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil
	}
	c.closed = true
	if c.conn.db == nil {
		return nil
	}
	if c.delta != nil {
		c.delta.Close()
		c.delta = nil
	}
	c.blobs.finalize()
	broken := c.interrupted
	if c.inTx {
		broken = broken || c.conn.exec(`ROLLBACK`) != nil
		c.inTx = false
	}
	c.store.readers.release(c.conn, broken)
	c.conn = readConn{}
	c.ready = nil
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
	// A comparison with NULL is never TRUE.
	for w, bits := range cv.Nulls {
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

func b2u(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

func tz(x uint64) int { return bits.TrailingZeros64(x) }
