package connectors

import (
	"encoding/binary"
	"math"
	"time"

	"eddy/engine/types"
	"eddy/engine/vector"
)

// avroMaxBytes is the longest string the general decoder reads (its
// reader's default limit); a longer one is left to it.
const avroMaxBytes = 1 << 20

// avroFields reads a binary Avro record of the schema derived from its
// columns (as the avro format writes it) straight into column vectors,
// for columns of scalar types whose Avro form it knows: BOOLEAN, INT,
// BIGINT, FLOAT, DOUBLE, CHAR, VARCHAR and TIMESTAMP. Each nullable column
// is a union of null and its type. What it cannot read (a bad union
// index, a truncated record) it declines, and the message is decoded the
// general way (readAvro), which words the error.
type avroFields struct {
	cols []avroCol
	// vals are the values of the record being read, one per column.
	vals []avroVal
	strs stringArena
}

type avroCol struct {
	t        *types.Type
	nullable bool
	unit     time.Duration // TIMESTAMP: the unit of its long (ms, µs or ns)
}

type avroVal struct {
	null bool
	i    int64
	f    float64
	s    string
	t    time.Time
}

// newAvroFields returns the fast reader of cols, or nil when a column's
// type is not one it reads.
func newAvroFields(cols []Column, legacy bool) *avroFields {
	a := &avroFields{vals: make([]avroVal, len(cols))}
	for _, c := range cols {
		ac := avroCol{t: c.Type, nullable: c.Type.Nullable()}
		switch c.Type.Kind {
		case types.Boolean, types.Int, types.BigInt, types.Float, types.Double, types.Char, types.VarChar:
		case types.Timestamp, types.TimestampLTZ:
			if legacy && (c.Type.Kind == types.TimestampLTZ || c.Type.Prec > 3) || c.Type.Prec > 9 {
				return nil // no schema: the general way words the error
			}
			ac.unit = time.Millisecond
			if !legacy {
				ac.unit = [...]time.Duration{time.Millisecond, time.Microsecond, time.Nanosecond}[(max(c.Type.Prec, 1)-1)/3]
			}
		default:
			return nil
		}
		a.cols = append(a.cols, ac)
	}
	return a
}

// appendRecord reads msg, one record, appending its values to vecs; ok is
// false when it declines the message (vecs are then unchanged).
func (a *avroFields) appendRecord(msg []byte, vecs []*vector.Vec) bool {
	r := avroBytes{b: msg}
	for i := range a.cols {
		c, v := &a.cols[i], &a.vals[i]
		v.null = false
		if c.nullable {
			switch branch, ok := r.long(); {
			case !ok || branch < 0 || branch > 1:
				return false
			case branch == 0:
				v.null = true
				continue
			}
		}
		var ok bool
		switch c.t.Kind {
		case types.Boolean:
			var b byte
			if b, ok = r.byte(); ok {
				v.i = int64(b)
				ok = b <= 1
			}
		case types.Int:
			start := r.i
			v.i, ok = r.long()
			ok = ok && r.i-start <= 5 && v.i >= math.MinInt32 && v.i <= math.MaxInt32
		case types.BigInt:
			v.i, ok = r.long()
		case types.Float:
			var bits []byte
			if bits, ok = r.next(4); ok {
				v.f = float64(math.Float32frombits(binary.LittleEndian.Uint32(bits)))
			}
		case types.Double:
			var bits []byte
			if bits, ok = r.next(8); ok {
				v.f = math.Float64frombits(binary.LittleEndian.Uint64(bits))
			}
		case types.Char, types.VarChar:
			var n int64
			if n, ok = r.long(); ok && n >= 0 && n <= avroMaxBytes {
				var b []byte
				if b, ok = r.next(int(n)); ok {
					v.s = a.strs.str(b)
				}
			} else {
				ok = false
			}
		default: // TIMESTAMP
			var n int64
			if n, ok = r.long(); ok {
				var t time.Time
				switch c.unit {
				case time.Millisecond:
					t = time.UnixMilli(n)
				case time.Microsecond:
					t = time.UnixMicro(n)
				default:
					t = time.Unix(0, n)
				}
				// An instant (TIMESTAMP_LTZ) keeps its unit's precision,
				// as the general way keeps it.
				v.t = t.UTC()
				if c.t.Kind == types.Timestamp {
					v.t = types.TruncateTime(v.t, c.t.Prec)
				}
			}
		}
		if !ok {
			return false
		}
	}
	for i, v := range vecs {
		x := &a.vals[i]
		if x.null {
			v.AppendNull()
			continue
		}
		switch v.Class {
		case vector.Bool:
			v.Bools = append(v.Bools, x.i != 0)
		case vector.Int:
			v.Ints = append(v.Ints, x.i)
		case vector.Float:
			v.Floats = append(v.Floats, x.f)
		case vector.String:
			v.Strs = append(v.Strs, x.s)
		case vector.Time:
			v.Times = append(v.Times, x.t)
		}
		v.Len++
	}
	return true
}

// avroBytes reads Avro's binary encoding.
type avroBytes struct {
	b []byte
	i int
}

// long reads a zig-zag variable-length long.
func (r *avroBytes) long() (int64, bool) {
	var u uint64
	for shift := uint(0); shift < 64; shift += 7 {
		if r.i >= len(r.b) {
			return 0, false
		}
		c := r.b[r.i]
		r.i++
		if shift == 63 && c > 1 {
			return 0, false // more than 64 bits
		}
		u |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return int64(u>>1) ^ -int64(u&1), true //nolint:gosec // zig-zag decoding
		}
	}
	return 0, false
}

func (r *avroBytes) byte() (byte, bool) {
	if r.i >= len(r.b) {
		return 0, false
	}
	r.i++
	return r.b[r.i-1], true
}

// next returns the next n bytes.
func (r *avroBytes) next(n int) ([]byte, bool) {
	if n > len(r.b)-r.i {
		return nil, false
	}
	r.i += n
	return r.b[r.i-n : r.i], true
}

// avroMessageReader is the avro format's MessageReader.
type avroMessageReader struct {
	f    *avroOptions
	cols []Column
	fast *avroFields
}

// messageReader implements messageReaderMaker.
func (f *avroOptions) messageReader(cols []Column) MessageReader {
	return &avroMessageReader{f: f, cols: cols, fast: newAvroFields(cols, f.legacy)}
}

func (r *avroMessageReader) Decode(msg []byte) ([][]any, []types.RowKind, error) {
	return r.f.DecodeMessage(msg, r.cols)
}

// Append implements MessageAppender.
func (r *avroMessageReader) Append(msg []byte, vecs []*vector.Vec) (int, error) {
	if r.fast != nil && len(msg) > 0 && r.fast.appendRecord(msg, vecs) {
		return 1, nil
	}
	rows, _, err := r.f.DecodeMessage(msg, r.cols)
	if err != nil {
		return 0, err
	}
	for _, row := range rows {
		for i, v := range vecs {
			v.Append(row[i])
		}
	}
	return len(rows), nil
}
