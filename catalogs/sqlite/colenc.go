package sqlite

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strings"
	"time"
	"unsafe"

	"eddy/catalogs"
	"eddy/engine/types"
)

// The encodings of column chunks (see chunks.go). A column of a chunk is
// one blob:
//
//	tag     byte: the encoding of the values (enc*)
//	rows    uvarint
//	nulls   byte 0, or 1 followed by the null bitmap: (rows+63)/64 words,
//	        little-endian, bit i of word i/64 set for a NULL row
//	values  by tag
//
// Integer streams (ints, below) are frame-of-reference bit-packed, either
// the values themselves or their differences (whichever packs narrower:
// ids and times that grow by small steps pack to a few bits). Doubles are
// plain, or, when every one of a chunk's is a decimal of at most 18
// places (prices, measurements: x = n / 10^e exactly as a double, as
// parsing "769.37" gives it), encDecFloats: the power e as one byte, then
// the integers n as an int stream (NULL rows hold the first value's),
// which decode back to the same doubles bit for bit. Booleans are
// bit-packed, strings dictionary-encoded when a chunk has
// few distinct values and otherwise lengths and bytes, timestamps two
// integer streams (seconds and nanoseconds since the epoch, UTC).
// DECIMAL and the nested types keep the text the row-wise data tables
// hold, encoded as strings. A NULL row holds a filler value that decoding
// replaces by the zero value.

// Encoding tags.
const (
	encInts       byte = 1
	encFloats     byte = 2
	encBools      byte = 3
	encStrings    byte = 4
	encStringDict byte = 5
	encBytes      byte = 6
	encTimes      byte = 7
	encDecFloats  byte = 8
)

// maxScale is the largest power of ten encDecFloats scales doubles by, and
// maxScaledWidth the widest its integers may pack to (wider, the plain
// doubles take little more room and decode faster).
const (
	maxScale       = 18
	maxScaledWidth = 40
)

// pow10 holds the powers of ten up to maxScale, each exact in a double.
var pow10 = [maxScale + 1]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
	1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18}

// Int stream forms.
const (
	intsFOR   byte = 0 // base, width, packed (value - base)
	intsDelta byte = 1 // first, base, width, packed (delta - base)
)

// colClass is how a type's values are encoded and held.
type colClass uint8

const (
	classInt colClass = iota + 1
	classBool
	classFloat
	classString // Strs: CHAR, VARCHAR
	classText   // Strs when raw, Anys when decoded: DECIMAL, nested types, VARIANT
	classBytes
	classTime
)

func classOf(t *types.Type) (colClass, error) {
	switch t.Kind {
	case types.TinyInt, types.SmallInt, types.Int, types.BigInt, types.Date, types.Time,
		types.IntervalYearMonth, types.IntervalDayTime:
		return classInt, nil
	case types.Boolean:
		return classBool, nil
	case types.Float, types.Double:
		return classFloat, nil
	case types.Char, types.VarChar:
		return classString, nil
	case types.Decimal, types.Array, types.Multiset, types.Map, types.Row, types.Variant:
		return classText, nil
	case types.Binary, types.VarBinary:
		return classBytes, nil
	case types.Timestamp, types.TimestampLTZ:
		return classTime, nil
	}
	return 0, fmt.Errorf("cannot store a %s in a column chunk", t)
}

// chunkStats are the statistics of one column of a chunk: min and max
// are the smallest and largest non-NULL value (int64, float64 or string;
// nil when the column keeps none or every value is NULL).
type chunkStats struct {
	rows, nulls int
	min, max    any
}

var errCorrupt = errors.New("a column chunk is damaged")

// isNull reports bit i of a null bitmap.
func isNull(nulls []uint64, i int) bool {
	return nulls != nil && nulls[i>>6]&(1<<(uint(i)&63)) != 0
}

// encodeColumn encodes n values of a column of type t held as the
// decoder's raw form gives them (DECIMAL and nested values as text in
// Strs) and returns the blob and the column's statistics.
func encodeColumn(cv *catalogs.ColumnValues, n int, t *types.Type) ([]byte, chunkStats, error) {
	class, err := classOf(t)
	if err != nil {
		return nil, chunkStats{}, err
	}
	st := chunkStats{rows: n}
	for i := range n {
		if isNull(cv.Nulls, i) {
			st.nulls++
		}
	}
	b := make([]byte, 0, 64)
	var tag byte
	switch class {
	case classInt:
		tag = encInts
	case classBool:
		tag = encBools
	case classFloat:
		tag = encFloats
	case classString, classText:
		tag = encStrings
	case classBytes:
		tag = encBytes
	case classTime:
		tag = encTimes
	}
	b = append(b, tag)
	b = binary.AppendUvarint(b, uint64(n))
	if st.nulls > 0 {
		b = append(b, 1)
		for _, w := range cv.Nulls[:(n+63)>>6] {
			b = binary.LittleEndian.AppendUint64(b, w)
		}
	} else {
		b = append(b, 0)
	}
	switch class {
	case classInt:
		vals := fillNulls(cv.Ints[:n], cv.Nulls, st.nulls)
		if st.nulls < n {
			lo, hi := minMax(vals)
			st.min, st.max = lo, hi
		}
		b = appendInts(b, vals)
	case classBool:
		words := make([]uint64, (n+63)>>6)
		for i, v := range cv.Bools[:n] {
			if v {
				words[i>>6] |= 1 << (uint(i) & 63)
			}
		}
		for _, w := range words {
			b = binary.LittleEndian.AppendUint64(b, w)
		}
	case classFloat:
		first := true
		var lo, hi float64
		for i, v := range cv.Floats[:n] {
			if !isNull(cv.Nulls, i) && !math.IsNaN(v) {
				if first || v < lo {
					lo = v
				}
				if first || v > hi {
					hi = v
				}
				first = false
			}
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
		if !first {
			st.min, st.max = lo, hi
		}
		if t.Kind == types.Double {
			if e, ints, ok := decimalScale(cv.Floats[:n], cv.Nulls, st.nulls); ok {
				b = b[:len(b)-8*n]
				b[0] = encDecFloats
				b = append(b, byte(e))
				b = appendInts(b, ints)
			}
		}
	case classString, classText:
		strs := cv.Strs[:n]
		if class == classString {
			first := true
			var lo, hi string
			for i, s := range strs {
				if isNull(cv.Nulls, i) {
					continue
				}
				if first || s < lo {
					lo = s
				}
				if first || s > hi {
					hi = s
				}
				first = false
			}
			if !first {
				st.min, st.max = lo, hi
			}
		}
		if dict, codes, ok := dictionary(strs); ok {
			b[0] = encStringDict
			b = appendStrings(b, dict)
			b = appendInts(b, codes)
		} else {
			b = appendStrings(b, strs)
		}
	case classBytes:
		lens := make([]int64, n)
		total := 0
		for i, v := range cv.Bytes[:n] {
			lens[i] = int64(len(v))
			total += len(v)
		}
		b = appendInts(b, lens)
		for _, v := range cv.Bytes[:n] {
			b = append(b, v...)
		}
	case classTime:
		secs := make([]int64, n)
		nanos := make([]int64, n)
		for i, v := range cv.Times[:n] {
			if isNull(cv.Nulls, i) {
				continue
			}
			secs[i] = v.Unix()
			nanos[i] = int64(v.Nanosecond())
		}
		b = appendInts(b, secs)
		b = appendInts(b, nanos)
	}
	return b, st, nil
}

// decimalScale finds the least power of ten e (up to maxScale) such that
// every non-NULL value of vals is float64(n) / 10^e for an integer n of
// at most 53 bits, and returns e and the integers (NULL slots hold the
// first value's); ok is false when there is none, when the integers
// would pack wider than maxScaledWidth, or for a NaN, an infinity or -0
// (which no such quotient gives). Decoding divides the same way, so
// every value comes back bit for bit.
func decimalScale(vals []float64, nulls []uint64, nullCount int) (e int, ints []int64, ok bool) {
	if nullCount == len(vals) {
		return 0, nil, false
	}
	ints = make([]int64, len(vals))
	for e = 0; e <= maxScale; e++ {
		p := pow10[e]
		ok = true
		for i, v := range vals {
			if isNull(nulls, i) {
				continue
			}
			m := math.Round(v * p)
			if !(math.Abs(m) <= 1<<53) || m/p != v || v == 0 && math.Signbit(v) {
				ok = false
				break
			}
			ints[i] = int64(m)
		}
		if ok {
			break
		}
	}
	if !ok {
		return 0, nil, false
	}
	ints = fillNulls(ints, nulls, nullCount)
	lo, hi := minMax(ints)
	if bits.Len64(uint64(hi)-uint64(lo)) > maxScaledWidth {
		return 0, nil, false
	}
	return e, ints, true
}

// scaledFloats sets dst[i] to float64(ints[i]) / 10^e (dst and ints may
// be the same memory).
func scaledFloats(dst []float64, ints []int64, e int) {
	p := pow10[e]
	ints = ints[:len(dst)]
	for i, n := range ints {
		dst[i] = float64(n) / p
	}
}

// fillNulls returns vals with every NULL slot holding a non-NULL value
// (the first), so the slots do not widen the frame of reference.
func fillNulls(vals []int64, nulls []uint64, count int) []int64 {
	if count == 0 || count == len(vals) {
		return vals
	}
	var fill int64
	for i, v := range vals {
		if !isNull(nulls, i) {
			fill = v
			break
		}
	}
	out := append([]int64(nil), vals...)
	for i := range out {
		if isNull(nulls, i) {
			out[i] = fill
		}
	}
	return out
}

func minMax(vals []int64) (lo, hi int64) {
	if len(vals) == 0 {
		return 0, 0
	}
	lo, hi = vals[0], vals[0]
	for _, v := range vals[1:] {
		lo = min(lo, v)
		hi = max(hi, v)
	}
	return lo, hi
}

// dictionary returns the distinct strings and each row's code when the
// strings have few distinct values (at most a quarter of the rows).
func dictionary(strs []string) ([]string, []int64, bool) {
	limit := len(strs) / 4
	if limit == 0 {
		return nil, nil, false
	}
	index := map[string]int64{}
	var dict []string
	codes := make([]int64, len(strs))
	for i, s := range strs {
		c, ok := index[s]
		if !ok {
			if len(dict) == limit {
				return nil, nil, false
			}
			c = int64(len(dict))
			index[s] = c
			dict = append(dict, s)
		}
		codes[i] = c
	}
	return dict, codes, true
}

// appendStrings appends a count, the lengths as an int stream and the
// bytes.
func appendStrings(b []byte, strs []string) []byte {
	b = binary.AppendUvarint(b, uint64(len(strs)))
	lens := make([]int64, len(strs))
	for i, s := range strs {
		lens[i] = int64(len(s))
	}
	b = appendInts(b, lens)
	for _, s := range strs {
		b = append(b, s...)
	}
	return b
}

// appendInts appends an int stream: a count, the form, then the packed
// values.
func appendInts(b []byte, vals []int64) []byte {
	b = binary.AppendUvarint(b, uint64(len(vals)))
	if len(vals) == 0 {
		return b
	}
	lo, hi := minMax(vals)
	width := bits.Len64(uint64(hi) - uint64(lo))
	dWidth := 65
	var dlo int64
	if len(vals) > 1 {
		dlo = vals[1] - vals[0]
		dhi := dlo
		for i := 2; i < len(vals); i++ {
			d := vals[i] - vals[i-1]
			dlo = min(dlo, d)
			dhi = max(dhi, d)
		}
		dWidth = bits.Len64(uint64(dhi) - uint64(dlo))
	}
	if dWidth < width {
		b = append(b, intsDelta)
		b = binary.AppendVarint(b, vals[0])
		b = binary.AppendVarint(b, dlo)
		b = append(b, byte(dWidth))
		return appendPacked(b, len(vals)-1, dWidth, func(i int) uint64 {
			return uint64(vals[i+1]-vals[i]) - uint64(dlo)
		})
	}
	b = append(b, intsFOR)
	b = binary.AppendVarint(b, lo)
	b = append(b, byte(width))
	return appendPacked(b, len(vals), width, func(i int) uint64 { return uint64(vals[i]) - uint64(lo) })
}

// appendPacked bit-packs n values of width bits into little-endian words.
func appendPacked(b []byte, n, width int, val func(i int) uint64) []byte {
	if width == 0 || n == 0 {
		return b
	}
	words := make([]uint64, (n*width+63)>>6)
	for i := range n {
		x := val(i)
		off := i * width
		w, s := off>>6, uint(off&63)
		words[w] |= x << s
		if int(s)+width > 64 {
			words[w+1] |= x >> (64 - s)
		}
	}
	for _, w := range words {
		b = binary.LittleEndian.AppendUint64(b, w)
	}
	return b
}

// reader reads a blob front to back; a read past its end sets err.
type reader struct {
	b   []byte
	err error
}

func (r *reader) uvarint() uint64 {
	v, k := binary.Uvarint(r.b)
	if k <= 0 {
		r.err = errCorrupt
		return 0
	}
	r.b = r.b[k:]
	return v
}

func (r *reader) varint() int64 {
	v, k := binary.Varint(r.b)
	if k <= 0 {
		r.err = errCorrupt
		return 0
	}
	r.b = r.b[k:]
	return v
}

func (r *reader) byte1() byte {
	if len(r.b) < 1 {
		r.err = errCorrupt
		return 0
	}
	v := r.b[0]
	r.b = r.b[1:]
	return v
}

func (r *reader) take(n int) []byte {
	if n < 0 || len(r.b) < n {
		r.err = errCorrupt
		return nil
	}
	v := r.b[:n:n]
	r.b = r.b[n:]
	return v
}

func (r *reader) words(n int) []uint64 {
	raw := r.take(n * 8)
	if raw == nil {
		return nil
	}
	out := make([]uint64, n)
	for i := range out {
		out[i] = binary.LittleEndian.Uint64(raw[i*8:])
	}
	return out
}

// ints reads an int stream into a new slice.
func (r *reader) ints() []int64 { return r.intsInto(nil) }

// intsInto reads an int stream into buf when it is large enough, else
// into a new slice.
func (r *reader) intsInto(buf []int64) []int64 {
	n := int(r.uvarint())
	if r.err != nil || n > 1<<30 {
		r.err = errCorrupt
		return nil
	}
	var out []int64
	if cap(buf) >= n {
		out = buf[:n]
	} else {
		out = make([]int64, n)
	}
	if n == 0 {
		return out
	}
	form := r.byte1()
	switch form {
	case intsFOR:
		base := r.varint()
		width := int(r.byte1())
		r.unpack(out, base, width)
	case intsDelta:
		first := r.varint()
		base := r.varint()
		width := int(r.byte1())
		out[0] = first
		r.unpack(out[1:], base, width)
		acc := first
		for i := 1; i < n; i++ {
			acc += out[i]
			out[i] = acc
		}
	default:
		r.err = errCorrupt
	}
	return out
}

// unpack reads len(out) packed values of width bits, each plus base.
func (r *reader) unpack(out []int64, base int64, width int) {
	if r.err != nil {
		return
	}
	if width > 64 {
		r.err = errCorrupt
		return
	}
	if width == 0 {
		for i := range out {
			out[i] = base
		}
		return
	}
	nw := (len(out)*width + 63) >> 6
	raw := r.take(nw * 8)
	if raw == nil {
		return
	}
	mask := uint64(1)<<uint(width) - 1
	if width == 64 {
		mask = ^uint64(0)
	}
	ub := uint64(base)
	// The words are read in turn: acc holds the have bits not yet taken
	// of the words read (a shift by 64 gives 0).
	wd := uint(width)
	var acc uint64
	var have uint
	for i := range out {
		var x uint64
		if have >= wd {
			x = acc & mask
			acc >>= wd
			have -= wd
		} else {
			next := binary.LittleEndian.Uint64(raw)
			raw = raw[8:]
			x = (acc | next<<have) & mask
			acc = next >> (wd - have)
			have = 64 - (wd - have)
		}
		out[i] = int64(x + ub)
	}
}

// strings reads strings written by appendStrings; they share data's
// memory, which nothing writes afterwards.
func (r *reader) strings() []string {
	n := int(r.uvarint())
	lens := r.ints()
	if r.err != nil || len(lens) != n {
		r.err = errCorrupt
		return nil
	}
	total := 0
	for _, l := range lens {
		if l < 0 {
			r.err = errCorrupt
			return nil
		}
		total += int(l)
	}
	data := r.take(total)
	if r.err != nil {
		return nil
	}
	out := make([]string, n)
	off := 0
	for i, l := range lens {
		if l > 0 {
			out[i] = unsafe.String(&data[off], int(l))
		}
		off += int(l)
	}
	return out
}

// header reads a column blob's header: its encoding's tag, its number of
// rows and its NULL words (nil when it has no NULLs).
func (r *reader) header() (tag byte, n int, nulls []uint64, err error) {
	tag = r.byte1()
	n = int(r.uvarint())
	if r.err != nil || n > 1<<24 {
		return 0, 0, nil, errCorrupt
	}
	if r.byte1() == 1 {
		nulls = r.words((n + 63) >> 6)
	}
	return tag, n, nulls, r.err
}

// readFloats fills dst with the len(dst) stored little-endian doubles of
// data, rounded to float32 when asFloat32 (as the row-wise scan reads a
// FLOAT).
func readFloats(dst []float64, data []byte, asFloat32 bool) {
	if len(dst) > 0 && binary.NativeEndian.Uint16([]byte{1, 0}) == 1 {
		// The stored little-endian doubles are the machine's.
		copy(unsafe.Slice((*byte)(unsafe.Pointer(&dst[0])), len(dst)*8), data)
	} else {
		for i := range dst {
			dst[i] = math.Float64frombits(binary.LittleEndian.Uint64(data[i*8:]))
		}
	}
	if asFloat32 {
		for i, v := range dst {
			dst[i] = float64(float32(v))
		}
	}
}

// decodeColumn decodes a column blob of type t. raw keeps DECIMAL and
// nested values as their stored text (in Strs) rather than parsing them
// into engine values (in Anys).
func decodeColumn(blob []byte, t *types.Type, raw bool) (catalogs.ColumnValues, int, error) {
	return decodeColumnInto(blob, t, raw, nil)
}

// decodeColumnInto is decodeColumn that decodes integers and doubles
// into the slices of scratch when they are large enough (a column only
// filtered on, whose values the scan does not return).
func decodeColumnInto(blob []byte, t *types.Type, raw bool, scratch *catalogs.ColumnValues) (catalogs.ColumnValues, int, error) {
	var cv catalogs.ColumnValues
	if scratch == nil {
		scratch = &catalogs.ColumnValues{}
	}
	class, err := classOf(t)
	if err != nil {
		return cv, 0, err
	}
	r := &reader{b: blob}
	tag, n, nulls, err := r.header()
	if err != nil {
		return cv, 0, err
	}
	cv.Nulls = nulls
	switch {
	case tag == encInts && class == classInt:
		cv.Ints = r.intsInto(scratch.Ints)
		if len(cv.Ints) != n {
			r.err = errCorrupt
		} else {
			zeroNulls(cv.Nulls, n, func(i int) { cv.Ints[i] = 0 })
		}
	case tag == encBools && class == classBool:
		words := r.words((n + 63) >> 6)
		if r.err == nil {
			cv.Bools = make([]bool, n)
			for i := range cv.Bools {
				cv.Bools[i] = words[i>>6]&(1<<(uint(i)&63)) != 0
			}
		}
	case tag == encFloats && class == classFloat:
		data := r.take(n * 8)
		if r.err == nil {
			cv.Floats = floatsInto(scratch, n)
			readFloats(cv.Floats, data, t.Kind == types.Float && !raw)
		}
	case tag == encDecFloats && class == classFloat:
		e := int(r.byte1())
		if r.err != nil || e > maxScale {
			return cv, 0, errCorrupt
		}
		cv.Floats = floatsInto(scratch, n)
		// The integers unpack into the doubles' own memory and turn into
		// doubles in place.
		var ints []int64
		if n > 0 {
			ints = unsafe.Slice((*int64)(unsafe.Pointer(&cv.Floats[0])), n)
		}
		if got := r.intsInto(ints); r.err == nil && len(got) != n {
			r.err = errCorrupt
		}
		if r.err == nil {
			scaledFloats(cv.Floats, ints, e)
			zeroNulls(cv.Nulls, n, func(i int) { cv.Floats[i] = 0 })
			if t.Kind == types.Float && !raw {
				for i, v := range cv.Floats {
					cv.Floats[i] = float64(float32(v))
				}
			}
		}
	case (tag == encStrings || tag == encStringDict) && (class == classString || class == classText):
		if tag == encStrings {
			cv.Strs = r.strings()
		} else {
			dict := r.strings()
			codes := r.ints()
			if r.err == nil {
				cv.Strs = make([]string, len(codes))
				for i, c := range codes {
					if c < 0 || c >= int64(len(dict)) {
						return cv, 0, errCorrupt
					}
					cv.Strs[i] = dict[c]
				}
			}
		}
		if r.err == nil && len(cv.Strs) != n {
			r.err = errCorrupt
		}
		if r.err == nil && class == classText && !raw {
			cv.Anys = make([]any, n)
			for i, s := range cv.Strs {
				if isNull(cv.Nulls, i) {
					continue
				}
				v, err := fromSQL(strings.Clone(s), t)
				if err != nil {
					return cv, 0, err
				}
				cv.Anys[i] = v
			}
			cv.Strs = nil
		}
	case tag == encBytes && class == classBytes:
		lens := r.ints()
		if len(lens) != n {
			r.err = errCorrupt
		}
		cv.Bytes = make([][]byte, n)
		for i, l := range lens {
			v := r.take(int(l))
			if r.err != nil {
				break
			}
			if !isNull(cv.Nulls, i) {
				cv.Bytes[i] = v
			}
		}
	case tag == encTimes && class == classTime:
		secs := r.ints()
		nanos := r.ints()
		if r.err == nil && (len(secs) != n || len(nanos) != n) {
			r.err = errCorrupt
		}
		if r.err == nil {
			cv.Times = make([]time.Time, n)
			for i := range cv.Times {
				if !isNull(cv.Nulls, i) {
					cv.Times[i] = time.Unix(secs[i], nanos[i]).UTC()
				}
			}
		}
	default:
		return cv, 0, errCorrupt
	}
	if r.err != nil {
		return cv, 0, r.err
	}
	return cv, n, nil
}

// floatsInto returns n doubles in scratch's array when it is large
// enough, else in a new one.
func floatsInto(scratch *catalogs.ColumnValues, n int) []float64 {
	if cap(scratch.Floats) >= n {
		return scratch.Floats[:n]
	}
	return make([]float64, n)
}

// zeroNulls calls zero for every NULL row.
func zeroNulls(nulls []uint64, n int, zero func(i int)) {
	if nulls == nil {
		return
	}
	for i := range n {
		if isNull(nulls, i) {
			zero(i)
		}
	}
}
