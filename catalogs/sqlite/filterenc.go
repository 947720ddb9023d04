package sqlite

import (
	"math"

	"eddy/catalogs"
	"eddy/engine/types"
)

// filterBlock is the number of values of a column only filtered on that
// are decoded at a time: the filters run on them while they are in cache,
// and no array of the chunk's rows is written. A multiple of 64, so that
// a block's NULL words are whole words of the column's.
const filterBlock = 1024

// filterEncoded applies fs, the filters on a column the scan does not
// return, to the column's encoded chunk blob block by block, clearing
// fb.keep[i] for each row they rule out. It reports false, having changed
// nothing, for an encoding it does not read in blocks (integers, or
// decimal doubles' integers, stored as deltas, and every class but
// integers and doubles): the caller decodes the column whole.
func filterEncoded(blob []byte, t *types.Type, fs []*boundFilter, fb *filterBufs) (bool, error) {
	class, err := classOf(t)
	if err != nil || fb == nil || (class != classInt && class != classFloat) {
		return false, nil
	}
	r := &reader{b: blob}
	tag, n, nulls, err := r.header()
	if err != nil {
		return false, err
	}
	if n != len(fb.keep) {
		return false, errCorrupt
	}
	switch {
	case tag == encInts && class == classInt:
		return forBlocks(r, n, fb, func(lo, k int, block []int64) {
			bn := blockNulls(nulls, lo, k)
			zeroNulls(bn, k, func(i int) { block[i] = 0 })
			applyBlock(&catalogs.ColumnValues{Ints: block, Nulls: bn}, fs, fb.keep[lo:lo+k])
		})
	case tag == encDecFloats && class == classFloat && t.Kind == types.Double:
		e := int(r.byte1())
		if r.err != nil || e > maxScale {
			return false, errCorrupt
		}
		sfs, ok := scaleFilters(fs, e)
		return forBlocks(r, n, fb, func(lo, k int, block []int64) {
			bn := blockNulls(nulls, lo, k)
			if ok {
				// The comparisons on the integers themselves.
				for _, sf := range sfs {
					sf.apply(block, bn, fb.keep[lo:lo+k])
				}
				return
			}
			floats := fb.floats[:k]
			scaledFloats(floats, block, e)
			zeroNulls(bn, k, func(i int) { floats[i] = 0 })
			applyBlock(&catalogs.ColumnValues{Floats: floats, Nulls: bn}, fs, fb.keep[lo:lo+k])
		})
	case tag == encFloats && class == classFloat:
		data := r.take(n * 8)
		if r.err != nil {
			return false, r.err
		}
		float32s := t.Kind == types.Float
		for lo := 0; lo < n; lo += filterBlock {
			k := min(filterBlock, n-lo)
			block := fb.floats[:k]
			readFloats(block, data[lo*8:(lo+k)*8], float32s)
			applyBlock(&catalogs.ColumnValues{Floats: block, Nulls: blockNulls(nulls, lo, k)}, fs, fb.keep[lo:lo+k])
		}
		return true, nil
	}
	return false, errCorrupt
}

// forBlocks reads an int stream (intsInto's format) in frame-of-reference
// form filterBlock values at a time, calling fn with each block's first
// row, its length and its values (in fb's buffer). It reports false,
// having read nothing, for a stream of deltas, whose values do not unpack
// in blocks.
func forBlocks(r *reader, n int, fb *filterBufs, fn func(lo, k int, block []int64)) (bool, error) {
	if got := int(r.uvarint()); r.err != nil || got != n {
		return false, errCorrupt
	}
	if n == 0 {
		return true, nil
	}
	if form := r.byte1(); form != intsFOR {
		return false, r.err
	}
	base := r.varint()
	width := int(r.byte1())
	if r.err != nil {
		return false, r.err
	}
	for lo := 0; lo < n; lo += filterBlock {
		k := min(filterBlock, n-lo)
		block := fb.ints[:k]
		// A whole block is filterBlock×width bits, whole words: each
		// block starts on a word, as unpack reads.
		r.unpack(block, base, width)
		if r.err != nil {
			return false, r.err
		}
		fn(lo, k, block)
	}
	return true, nil
}

// blockNulls returns the NULL words of rows lo to lo+k (lo a multiple of
// 64), nil when the column has none.
func blockNulls(nulls []uint64, lo, k int) []uint64 {
	if nulls == nil {
		return nil
	}
	return nulls[lo>>6 : (lo+k+63)>>6]
}

// applyBlock applies fs to a block of a column's values.
func applyBlock(cv *catalogs.ColumnValues, fs []*boundFilter, keep []uint8) {
	for _, f := range fs {
		f.apply(cv, keep)
	}
}

// scaledFilter is a filter on a column of decimal doubles (encDecFloats,
// the values n / 10^e) as a comparison of the integers n: lo is the least
// n whose double is at least the constant, hi the greatest whose double is
// at most it (lo > hi when no double equals it).
type scaledFilter struct {
	f      *boundFilter
	lo, hi int64
}

// scaleFilters turns the filters of a column stored as scaled integers of
// power e into comparisons of the integers; ok is false when a constant
// has none (NaN, or too large for the integers' range): the caller
// compares the doubles.
func scaleFilters(fs []*boundFilter, e int) ([]scaledFilter, bool) {
	out := make([]scaledFilter, 0, len(fs))
	for _, f := range fs {
		sf := scaledFilter{f: f}
		if f.kind == 'f' {
			var ok bool
			if sf.lo, sf.hi, ok = scaledBounds(f.f, e); !ok {
				return nil, false
			}
		}
		out = append(out, sf)
	}
	return out, true
}

// scaledBounds returns the least integer n whose double n / 10^e is at
// least c and the greatest whose double is at most c. Division by a
// power of ten rounds monotonically, so the integers whose doubles
// compare a given way with c form a run, and a guess from c × 10^e moves
// a step at a time to its end. ok is false for a NaN or a c whose
// integers would pass 2^52.
func scaledBounds(c float64, e int) (lo, hi int64, ok bool) {
	p := pow10[e]
	m := c * p
	if !(math.Abs(m) < 1<<52) {
		return 0, 0, false
	}
	q := func(n int64) float64 { return float64(n) / p }
	hi = int64(math.Floor(m))
	for steps := 0; ; steps++ {
		switch {
		case steps > 64:
			return 0, 0, false
		case q(hi+1) <= c:
			hi++
			continue
		case q(hi) > c:
			hi--
			continue
		}
		break
	}
	lo = int64(math.Ceil(m))
	for steps := 0; ; steps++ {
		switch {
		case steps > 64:
			return 0, 0, false
		case q(lo-1) >= c:
			lo--
			continue
		case q(lo) < c:
			lo++
			continue
		}
		break
	}
	return lo, hi, true
}

// apply clears keep[i] for the rows of block (the integers, NULL rows
// holding anything) whose doubles fail the filter.
func (s scaledFilter) apply(block []int64, nulls []uint64, keep []uint8) {
	f := s.f
	switch f.kind {
	case 0:
		return
	case 'n':
		f.apply(&catalogs.ColumnValues{Nulls: nulls}, keep)
		return
	}
	switch f.op {
	case catalogs.FilterGt:
		applyCmp(block, catalogs.FilterGt, s.hi, keep)
	case catalogs.FilterGe:
		applyCmp(block, catalogs.FilterGe, s.lo, keep)
	case catalogs.FilterLt:
		applyCmp(block, catalogs.FilterLt, s.lo, keep)
	case catalogs.FilterLe:
		applyCmp(block, catalogs.FilterLe, s.hi, keep)
	case catalogs.FilterEq:
		applyCmp(block, catalogs.FilterGe, s.lo, keep)
		applyCmp(block, catalogs.FilterLe, s.hi, keep)
	case catalogs.FilterNe:
		keep = keep[:len(block)]
		for i, n := range block {
			keep[i] &= b2u(n < s.lo || n > s.hi)
		}
	}
	clearNulls(nulls, keep)
}
