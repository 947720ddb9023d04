package connectors

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"unsafe"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/rle"
	"github.com/parquet-go/parquet-go/format"

	"eddy/engine/types"
	"eddy/engine/vector"
)

// flatCursor reads a top-level leaf column that is not repeated straight
// from its pages' decoded values into a vector: the typed array of a
// plain page, or a dictionary's values picked by a dictionary page's
// indexes, the definition levels marking NULLs. It serves the columns
// whose values a vector takes as they are (integers, DATE, DOUBLE, FLOAT,
// strings); the others take the general assembly (pqNode).
type flatCursor struct {
	col    int
	maxDef byte
	kind   parquet.Kind
	pages  parquet.Pages
	done   bool
	// page is the page being read, released to parquet-go's buffer pool
	// when the cursor moves on, unless a vector took its values as they
	// are (aliased; the garbage collector frees it with the vector).
	page    parquet.Page
	aliased bool
	// alias allows a vector to take a plain page's 64-bit values without
	// a copy: only while the cursor does not seek, since seeking may
	// serve the last page again from the library's cache.
	alias bool

	defs   []byte // the page's definition levels (nil: every value present)
	li, vi int    // next level and next value of the page
	n      int    // levels of the page

	// The page's values: a typed array, or indexes into the dictionary's.
	ints  []int64
	i32   []int32
	flts  []float64
	f32   []float32
	bytes []byte
	offs  []uint32
	idx   []int32

	dict  parquet.Dictionary // the dictionary the d* slices hold
	dInts []int64
	dFlts []float64
	dStrs []string

	// file and ra, when set, let open read a chunk's pages itself
	// (pqPages) instead of through parquet-go's page reader.
	file *parquet.File
	ra   io.ReaderAt
	// scratch marks a cursor whose vectors are reused batch after batch
	// (a filter column the caller does not read): they never alias a page.
	scratch bool
	// direct: the open chunk is read by pp; pending is its chunk until
	// the first page is read.
	direct  bool
	pending *format.ColumnChunk
	pp      pqPages
	pageRow int64 // the row of the current page's first level (direct)
	hasDict bool  // the chunk's dictionary is in the d* slices (direct)
	inBuf   bool  // the page's values are read in pp's decompression buffer
	// Buffers the direct reading decodes into, kept from page to page
	// (a 64-bit one is dropped when a vector took it).
	kI32  []int32
	kI64  []int64
	kF32  []float32
	kF64  []float64
	kB    []byte
	kOffs []uint32
	kIdx  []int32
	kDefs []byte
	// dictGen counts the dictionaries the cursor decoded; pass holds, for
	// dictionary passGen, whether each value passes the cursor's filter.
	dictGen, passGen int
	passOK           bool
	pass             []bool
}

// newFlatCursor returns a cursor for a leaf whose values a vector of t
// takes as they are, or nil.
func newFlatCursor(c *parquet.Column, t *types.Type) *flatCursor {
	if !c.Leaf() || c.MaxRepetitionLevel() != 0 || c.MaxDefinitionLevel() > 1 {
		return nil
	}
	plain, isStr := true, false
	if lt := c.Type().LogicalType(); lt != nil && lt.Value != nil {
		switch x := lt.Value.(type) {
		case *format.StringType:
			isStr = true
		case *format.DateType:
			plain = t.Kind == types.Date
		case *format.IntType:
			plain = x.IsSigned
		default:
			plain = false
		}
	} else if t.Kind == types.Date {
		plain = false
	}
	fc := &flatCursor{col: c.Index(), maxDef: byte(c.MaxDefinitionLevel()), kind: c.Type().Kind()}
	ok := false
	switch fc.kind {
	case parquet.Int32:
		ok = plain && (t.Kind == types.TinyInt || t.Kind == types.SmallInt || t.Kind == types.Int || t.Kind == types.BigInt || t.Kind == types.Date)
	case parquet.Int64:
		ok = plain && t.Kind == types.BigInt
	case parquet.Float:
		ok = plain && (t.Kind == types.Float || t.Kind == types.Double)
	case parquet.Double:
		ok = plain && t.Kind == types.Double
	case parquet.ByteArray:
		ok = isStr && (t.Kind == types.VarChar || t.Kind == types.Char)
	}
	if !ok {
		return nil
	}
	return fc
}

// open points the cursor at its column's chunk in row group g (rg).
func (f *flatCursor) open(rg parquet.RowGroup, g int) {
	if f.pages != nil {
		f.pages.Close()
		f.pages = nil
	}
	f.release()
	f.done, f.direct, f.pending = false, false, nil
	f.li, f.n, f.vi, f.pageRow = 0, 0, 0, 0
	if f.file != nil && f.ra != nil && g >= 0 && g < len(f.file.Metadata().RowGroups) {
		if cols := f.file.Metadata().RowGroups[g].Columns; f.col < len(cols) && directChunk(&cols[f.col]) {
			f.direct, f.pending, f.hasDict, f.dict = true, &cols[f.col], false, nil
			return
		}
	}
	f.pages = rg.ColumnChunks()[f.col].Pages()
}

// release gives the page being read back to parquet-go.
func (f *flatCursor) release() {
	if f.page != nil && !f.aliased {
		parquet.Release(f.page)
	}
	if f.aliased && f.direct {
		// A vector holds the page's values.
		if f.inBuf {
			f.pp.buf = nil
		} else {
			f.kI64, f.kF64 = nil, nil
		}
	}
	f.page, f.aliased, f.inBuf = nil, false, false
	f.defs, f.ints, f.i32, f.flts, f.f32, f.bytes, f.offs, f.idx = nil, nil, nil, nil, nil, nil, nil, nil
}

// seek moves to a row of the open row group.
func (f *flatCursor) seek(row int64) error {
	if !f.direct {
		f.release()
		f.li, f.n, f.done = 0, 0, false
		return f.pages.SeekToRow(row)
	}
	if row < f.pageRow+int64(f.li) {
		// Backwards: the chunk is read again from its start.
		f.release()
		f.pp.pos, f.pageRow, f.li, f.n, f.vi, f.done = 0, 0, 0, 0, 0, false
	}
	if row >= f.pageRow+int64(f.n) {
		f.release()
		ok, err := f.nextDirect(row)
		if err != nil || !ok {
			return err
		}
	}
	f.advance(int(row-f.pageRow) - f.li)
	return nil
}

// advance moves past m levels of the current page.
func (f *flatCursor) advance(m int) {
	present := m
	if f.defs != nil {
		present = 0
		for _, d := range f.defs[f.li : f.li+m] {
			if d == f.maxDef {
				present++
			}
		}
	}
	f.vi += present
	f.li += m
}

// nextDirect reads the chunk's next data page whose rows reach past skipTo
// (-1: the next one), decoding the dictionary page on the way; false at
// the end of the chunk.
func (f *flatCursor) nextDirect(skipTo int64) (bool, error) {
	f.pageRow += int64(f.n)
	f.n, f.li, f.vi = 0, 0, 0
	if f.pending != nil {
		if err := f.pp.reset(f.ra, f.pending); err != nil {
			return false, err
		}
		f.pending = nil
	}
	for {
		h, body, err := f.pp.next()
		if err != nil {
			return false, err
		}
		if h == nil {
			f.done = true
			return false, nil
		}
		var n int
		switch h.Type {
		case format.DictionaryPage:
			if err := f.directDict(h, body); err != nil {
				return false, err
			}
			continue
		case format.DataPage:
			n = int(h.DataPageHeader.V.NumValues)
		case format.DataPageV2:
			n = int(h.DataPageHeaderV2.V.NumValues)
		default:
			continue
		}
		if skipTo >= 0 && f.pageRow+int64(n) <= skipTo {
			f.pageRow += int64(n)
			continue
		}
		pg, err := f.pp.dataPage(h, body, f.maxDef)
		if err != nil {
			return false, err
		}
		present := pg.n
		f.defs = nil
		if f.maxDef > 0 {
			defs, err := decodeDefs(reserve(f.kDefs, pg.n+8), pg.defs, pg.n, f.maxDef)
			if err != nil {
				return false, err
			}
			if defs != nil {
				f.kDefs, f.defs = defs, defs
				present = 0
				for _, d := range defs {
					if d == f.maxDef {
						present++
					}
				}
			}
		}
		if err := f.directValues(pg, present); err != nil {
			return false, err
		}
		f.n = pg.n
		return true, nil
	}
}

// directDict decodes a dictionary page into the d* slices.
func (f *flatCursor) directDict(h *format.PageHeader, body []byte) error {
	dh, ok := h.DictionaryPageHeader.Get()
	if !ok {
		return fmt.Errorf("a dictionary page without its header: %w", parquet.ErrCorrupted)
	}
	data, err := f.pp.decompress(body, int(h.UncompressedPageSize))
	if err != nil {
		return err
	}
	enc := parquet.LookupEncoding(format.Plain)
	var n int
	switch f.kind {
	case parquet.Int32:
		f.kI32, err = enc.DecodeInt32(f.kI32[:0], data)
		f.dInts = append(f.dInts[:0], make([]int64, len(f.kI32))...)
		for i, x := range f.kI32 {
			f.dInts[i] = int64(x)
		}
		n = len(f.dInts)
	case parquet.Int64:
		f.dInts, err = enc.DecodeInt64(f.dInts[:0], data)
		n = len(f.dInts)
	case parquet.Float:
		f.kF32, err = enc.DecodeFloat(f.kF32[:0], data)
		f.dFlts = f.dFlts[:0]
		for _, x := range f.kF32 {
			f.dFlts = append(f.dFlts, float64(x))
		}
		n = len(f.dFlts)
	case parquet.Double:
		f.dFlts, err = enc.DecodeDouble(f.dFlts[:0], data)
		n = len(f.dFlts)
	case parquet.ByteArray:
		f.kB, f.kOffs, err = enc.DecodeByteArray(f.kB[:0], data, f.kOffs[:0])
		if err == nil && len(f.kOffs) > 0 {
			f.dStrs = make([]string, len(f.kOffs)-1)
			for i := range f.dStrs {
				f.dStrs[i] = string(f.kB[f.kOffs[i]:f.kOffs[i+1]])
			}
		}
		n = len(f.dStrs)
	}
	if err != nil {
		return fmt.Errorf("decoding a dictionary page: %w", err)
	}
	if n < int(dh.NumValues) {
		return fmt.Errorf("a dictionary page of %d values holds %d: %w", dh.NumValues, n, parquet.ErrCorrupted)
	}
	f.hasDict, f.dict = true, nil
	f.dictGen++
	return nil
}

// dictLen is the number of values of the chunk's dictionary.
func (f *flatCursor) dictLen() int {
	switch f.kind {
	case parquet.Int32, parquet.Int64:
		return len(f.dInts)
	case parquet.Float, parquet.Double:
		return len(f.dFlts)
	}
	return len(f.dStrs)
}

// directValues decodes a data page's present values into the cursor's
// typed slices (or dictionary indexes).
func (f *flatCursor) directValues(pg pqPage, present int) error {
	if pg.enc == format.PlainDictionary || pg.enc == format.RLEDictionary {
		if !f.hasDict {
			return fmt.Errorf("a dictionary-encoded page without a dictionary: %w", parquet.ErrCorrupted)
		}
		idx, err := (&rle.DictionaryEncoding{}).DecodeInt32(reserve(f.kIdx, pg.n+8), pg.values)
		if err != nil {
			return fmt.Errorf("decoding dictionary indexes: %w", err)
		}
		f.kIdx = idx
		if len(idx) < present {
			return fmt.Errorf("%d dictionary indexes for %d values: %w", len(idx), present, parquet.ErrCorrupted)
		}
		nd := uint32(f.dictLen())
		for _, d := range idx[:present] {
			if uint32(d) >= nd {
				return fmt.Errorf("dictionary index %d out of %d values: %w", d, nd, parquet.ErrCorrupted)
			}
		}
		f.idx = idx
		return nil
	}
	if pg.enc == format.Plain && pg.owned && (f.kind == parquet.Int64 || f.kind == parquet.Double) {
		// The decompressed page's values are read where they are, when
		// aligned; a vector that takes them takes the buffer (release).
		if v, ok := plainView[int64](pg.values); ok {
			if len(v) < present {
				return fmt.Errorf("a page of %d values holds %d: %w", present, len(v), parquet.ErrCorrupted)
			}
			if f.kind == parquet.Int64 {
				f.ints = v
			} else {
				f.flts = unsafe.Slice((*float64)(unsafe.Pointer(unsafe.SliceData(v))), len(v))
			}
			f.inBuf = true
			return nil
		}
	}
	enc := parquet.LookupEncoding(pg.enc)
	var err error
	var n int
	switch f.kind {
	case parquet.Int32:
		f.kI32, err = enc.DecodeInt32(reserve(f.kI32, pg.n+8), pg.values)
		f.i32, n = f.kI32, len(f.kI32)
	case parquet.Int64:
		f.kI64, err = enc.DecodeInt64(reserve(f.kI64, pg.n+8), pg.values)
		f.ints, n = f.kI64, len(f.kI64)
	case parquet.Float:
		f.kF32, err = enc.DecodeFloat(reserve(f.kF32, pg.n+8), pg.values)
		f.f32, n = f.kF32, len(f.kF32)
	case parquet.Double:
		f.kF64, err = enc.DecodeDouble(reserve(f.kF64, pg.n+8), pg.values)
		f.flts, n = f.kF64, len(f.kF64)
	case parquet.ByteArray:
		f.kB, f.kOffs, err = enc.DecodeByteArray(f.kB[:0], pg.values, f.kOffs[:0])
		f.bytes, f.offs, n = f.kB, f.kOffs, max(len(f.kOffs)-1, 0)
	}
	if err != nil {
		return fmt.Errorf("decoding a page's values: %w", err)
	}
	if n < present {
		return fmt.Errorf("a page of %d values holds %d: %w", present, n, parquet.ErrCorrupted)
	}
	return nil
}

// nextPage loads the next page; false at the end of the row group.
func (f *flatCursor) nextPage() (bool, error) {
	f.release()
	if f.direct {
		return f.nextDirect(-1)
	}
	p, err := f.pages.ReadPage()
	if errors.Is(err, io.EOF) {
		f.done = true
		return false, nil
	}
	if err != nil {
		return false, err
	}
	f.page = p
	f.n = int(p.NumValues())
	f.li, f.vi = 0, 0
	f.defs = nil
	if f.maxDef > 0 {
		f.defs = p.DefinitionLevels()
	}
	data := p.Data()
	f.idx = nil
	if d := p.Dictionary(); d != nil {
		f.idx = data.Int32()
		if d != f.dict {
			f.dict = d
			f.dictGen++
			dv := d.Page().Data()
			switch f.kind {
			case parquet.Int32:
				f.dInts = widen(dv.Int32())
			case parquet.Int64:
				f.dInts = append(f.dInts[:0], dv.Int64()...)
			case parquet.Float:
				f.dFlts = f.dFlts[:0]
				for _, x := range dv.Float() {
					f.dFlts = append(f.dFlts, float64(x))
				}
			case parquet.Double:
				f.dFlts = append(f.dFlts[:0], dv.Double()...)
			case parquet.ByteArray:
				b, offs := dv.ByteArray()
				f.dStrs = make([]string, len(offs)-1)
				for i := range f.dStrs {
					f.dStrs[i] = string(b[offs[i]:offs[i+1]])
				}
			}
		}
		return true, nil
	}
	switch f.kind {
	case parquet.Int32:
		f.i32 = data.Int32()
	case parquet.Int64:
		f.ints = data.Int64()
	case parquet.Float:
		f.f32 = data.Float()
	case parquet.Double:
		f.flts = data.Double()
	case parquet.ByteArray:
		f.bytes, f.offs = data.ByteArray()
	}
	return true, nil
}

// plainView returns PLAIN-encoded fixed-width values as a slice over
// their bytes, when the bytes are aligned for T and the machine is
// little-endian, as PLAIN is.
func plainView[T int64 | float64](b []byte) ([]T, bool) {
	var zero T
	size := int(unsafe.Sizeof(zero))
	if len(b) == 0 || len(b)%size != 0 || uintptr(unsafe.Pointer(unsafe.SliceData(b)))%uintptr(size) != 0 || !littleEndian() {
		return nil, false
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/size), true
}

// littleEndian reports whether the machine stores integers little-endian.
func littleEndian() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}

func widen(xs []int32) []int64 {
	out := make([]int64, len(xs))
	for i, x := range xs {
		out[i] = int64(x)
	}
	return out
}

// morePage moves to the next page of a cursor whose rows are not all read
// yet: an error when the column has no more pages.
func (f *flatCursor) morePage() error {
	ok, err := f.nextPage()
	if err == nil && !ok {
		err = fmt.Errorf("column %d ended before its row group", f.col)
	}
	return err
}

// readInto appends the next k values of the column to vec.
func (f *flatCursor) readInto(vec *vector.Vec, k int) error {
	for k > 0 {
		if f.li >= f.n {
			if err := f.morePage(); err != nil {
				return err
			}
			continue
		}
		m := min(k, f.n-f.li)
		f.appendRun(vec, m)
		k -= m
	}
	return nil
}

// appendRun appends the m values of the page from level f.li on: the
// present ones are the next values of the page's array.
func (f *flatCursor) appendRun(vec *vector.Vec, m int) {
	start := vec.Len
	var nulls []int
	present := m
	if f.defs != nil {
		for j, d := range f.defs[f.li : f.li+m] {
			if d < f.maxDef {
				nulls = append(nulls, start+j)
			}
		}
		present = m - len(nulls)
	}
	lo, hi := f.vi, f.vi+present
	if len(nulls) == 0 {
		f.appendPresent(vec, lo, hi)
		vec.Len += m
		f.vi, f.li = hi, f.li+m
		return
	}
	// The present values, in order; NULL slots get a zero among them.
	switch {
	case f.idx != nil && f.dInts != nil && (f.kind == parquet.Int32 || f.kind == parquet.Int64):
		vals := make([]int64, 0, m)
		for _, d := range f.idx[lo:hi] {
			vals = append(vals, f.dInts[d])
		}
		vec.Ints = append(vec.Ints, spread(vals, nulls, start, m)...)
	case f.idx != nil && (f.kind == parquet.Float || f.kind == parquet.Double):
		vals := make([]float64, 0, m)
		for _, d := range f.idx[lo:hi] {
			vals = append(vals, f.dFlts[d])
		}
		vec.Floats = append(vec.Floats, spread(vals, nulls, start, m)...)
	case f.idx != nil:
		vals := make([]string, 0, m)
		for _, d := range f.idx[lo:hi] {
			vals = append(vals, f.dStrs[d])
		}
		vec.Strs = append(vec.Strs, spread(vals, nulls, start, m)...)
	case f.kind == parquet.Int32:
		vals := make([]int64, 0, m)
		for _, x := range f.i32[lo:hi] {
			vals = append(vals, int64(x))
		}
		vec.Ints = append(vec.Ints, spread(vals, nulls, start, m)...)
	case f.kind == parquet.Int64:
		vec.Ints = append(vec.Ints, spread(f.ints[lo:hi], nulls, start, m)...)
	case f.kind == parquet.Float:
		vals := make([]float64, 0, m)
		for _, x := range f.f32[lo:hi] {
			vals = append(vals, float64(x))
		}
		vec.Floats = append(vec.Floats, spread(vals, nulls, start, m)...)
	case f.kind == parquet.Double:
		vec.Floats = append(vec.Floats, spread(f.flts[lo:hi], nulls, start, m)...)
	default:
		vals := make([]string, 0, m)
		for i := lo; i < hi; i++ {
			vals = append(vals, string(f.bytes[f.offs[i]:f.offs[i+1]]))
		}
		vec.Strs = append(vec.Strs, spread(vals, nulls, start, m)...)
	}
	vec.Len += m
	for _, i := range nulls {
		vec.SetNull(i)
	}
	f.vi, f.li = hi, f.li+m
}

// appendPresent appends the page's values lo to hi, a run without NULLs,
// to vec's storage (the caller counts them in vec.Len).
func (f *flatCursor) appendPresent(vec *vector.Vec, lo, hi int) {
	switch {
	case f.idx != nil && (f.kind == parquet.Int32 || f.kind == parquet.Int64):
		var out []int64
		vec.Ints, out = extend(vec.Ints, hi-lo)
		pick(out, f.dInts, f.idx[lo:hi])
	case f.idx != nil && (f.kind == parquet.Float || f.kind == parquet.Double):
		var out []float64
		vec.Floats, out = extend(vec.Floats, hi-lo)
		pick(out, f.dFlts, f.idx[lo:hi])
	case f.idx != nil:
		var out []string
		vec.Strs, out = extend(vec.Strs, hi-lo)
		pick(out, f.dStrs, f.idx[lo:hi])
	case f.kind == parquet.Int32:
		var out []int64
		vec.Ints, out = extend(vec.Ints, hi-lo)
		for j, x := range f.i32[lo:hi] {
			out[j] = int64(x)
		}
	case f.kind == parquet.Int64:
		if f.alias && len(vec.Ints) == 0 && cap(vec.Ints) < hi-lo {
			// A vector without room of its own (a recycled one has it)
			// takes the page's values as they are (capacity cut, so an
			// append copies them first).
			vec.Ints, f.aliased = f.ints[lo:hi:hi], true
			return
		}
		if cap(vec.Ints) == 0 {
			vec.Ints = make([]int64, 0, max(hi-lo, vector.BatchSize))
		}
		vec.Ints = append(vec.Ints, f.ints[lo:hi]...)
	case f.kind == parquet.Float:
		for _, x := range f.f32[lo:hi] {
			vec.Floats = append(vec.Floats, float64(x))
		}
	case f.kind == parquet.Double:
		if f.alias && len(vec.Floats) == 0 && cap(vec.Floats) < hi-lo {
			vec.Floats, f.aliased = f.flts[lo:hi:hi], true
			return
		}
		if cap(vec.Floats) == 0 {
			vec.Floats = make([]float64, 0, max(hi-lo, vector.BatchSize))
		}
		vec.Floats = append(vec.Floats, f.flts[lo:hi]...)
	default:
		for i := lo; i < hi; i++ {
			vec.Strs = append(vec.Strs, string(f.bytes[f.offs[i]:f.offs[i+1]]))
		}
	}
}

// extend lengthens xs by n elements (growing it to at least a batch) and
// returns it and the new elements.
func extend[T any](xs []T, n int) ([]T, []T) {
	k := len(xs)
	if cap(xs)-k < n {
		xs = slices.Grow(xs, max(n, vector.BatchSize-k))
	}
	xs = xs[:k+n]
	return xs, xs[k:]
}

// pick sets out[j] to the dictionary's value of index idx[j].
func pick[T any](out, dict []T, idx []int32) {
	out = out[:len(idx)]
	for j, d := range idx {
		out[j] = dict[d]
	}
}

// spread returns the m slots of a run: vals in order, with a zero at each
// NULL position (nulls are vector positions from start on).
func spread[T any](vals []T, nulls []int, start, m int) []T {
	if len(nulls) == 0 {
		return vals
	}
	out := make([]T, 0, m)
	k := 0
	for j := range m {
		if k < len(nulls) && nulls[k] == start+j {
			var zero T
			out = append(out, zero)
			k++
			continue
		}
		out = append(out, vals[0])
		vals = vals[1:]
	}
	return out
}
