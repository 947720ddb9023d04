package sqlite

import (
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
// nothing, for an encoding it does not read in blocks (integers stored as
// deltas, and every class but integers and doubles): the caller decodes
// the column whole.
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
		return filterInts(r, n, nulls, fs, fb)
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

// filterInts is filterEncoded for an int stream (intsInto's format) in
// frame-of-reference form, the one whose values unpack in blocks.
func filterInts(r *reader, n int, nulls []uint64, fs []*boundFilter, fb *filterBufs) (bool, error) {
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
		bn := blockNulls(nulls, lo, k)
		zeroNulls(bn, k, func(i int) { block[i] = 0 })
		applyBlock(&catalogs.ColumnValues{Ints: block, Nulls: bn}, fs, fb.keep[lo:lo+k])
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
