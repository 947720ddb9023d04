package connectors

import (
	"errors"
	"fmt"
	"io"

	"github.com/parquet-go/parquet-go"
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

func (f *flatCursor) open(rg parquet.RowGroup) {
	if f.pages != nil {
		f.pages.Close()
	}
	f.release()
	f.pages, f.done = rg.ColumnChunks()[f.col].Pages(), false
	f.li, f.n = 0, 0
}

// release gives the page being read back to parquet-go.
func (f *flatCursor) release() {
	if f.page != nil {
		if !f.aliased {
			parquet.Release(f.page)
		}
		f.page, f.aliased = nil, false
		f.defs, f.ints, f.i32, f.flts, f.f32, f.bytes, f.offs, f.idx = nil, nil, nil, nil, nil, nil, nil, nil
	}
}

// seek moves to a row of the open row group.
func (f *flatCursor) seek(row int64) error {
	f.release()
	f.li, f.n, f.done = 0, 0, false
	return f.pages.SeekToRow(row)
}

// nextPage loads the next page; false at the end of the row group.
func (f *flatCursor) nextPage() (bool, error) {
	f.release()
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

func widen(xs []int32) []int64 {
	out := make([]int64, len(xs))
	for i, x := range xs {
		out[i] = int64(x)
	}
	return out
}

// readInto appends the next k values of the column to vec.
func (f *flatCursor) readInto(vec *vector.Vec, k int) error {
	for k > 0 {
		if f.li >= f.n {
			ok, err := f.nextPage()
			if err != nil {
				return err
			}
			if !ok {
				return fmt.Errorf("column %d ended before its row group", f.col)
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
		for _, d := range f.idx[lo:hi] {
			vec.Ints = append(vec.Ints, f.dInts[d])
		}
	case f.idx != nil && (f.kind == parquet.Float || f.kind == parquet.Double):
		for _, d := range f.idx[lo:hi] {
			vec.Floats = append(vec.Floats, f.dFlts[d])
		}
	case f.idx != nil:
		for _, d := range f.idx[lo:hi] {
			vec.Strs = append(vec.Strs, f.dStrs[d])
		}
	case f.kind == parquet.Int32:
		for _, x := range f.i32[lo:hi] {
			vec.Ints = append(vec.Ints, int64(x))
		}
	case f.kind == parquet.Int64:
		if f.alias && len(vec.Ints) == 0 {
			// The page's values become the vector's (capacity cut, so
			// an append copies them first).
			vec.Ints, f.aliased = f.ints[lo:hi:hi], true
			return
		}
		vec.Ints = append(vec.Ints, f.ints[lo:hi]...)
	case f.kind == parquet.Float:
		for _, x := range f.f32[lo:hi] {
			vec.Floats = append(vec.Floats, float64(x))
		}
	case f.kind == parquet.Double:
		if f.alias && len(vec.Floats) == 0 {
			vec.Floats, f.aliased = f.flts[lo:hi:hi], true
			return
		}
		vec.Floats = append(vec.Floats, f.flts[lo:hi]...)
	default:
		for i := lo; i < hi; i++ {
			vec.Strs = append(vec.Strs, string(f.bytes[f.offs[i]:f.offs[i+1]]))
		}
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
