package connectors

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"strings"
	"sync"
	"time"

	"github.com/hamba/avro/v2"
	"github.com/shopspring/decimal"

	"eddy/engine/types"
)

// The avro format (Flink's AvroFormatFactory and AvroFileFormatFactory).
// The Avro schema is derived from the table's columns as Flink's
// AvroSchemaConverter derives it: a record named
// org.apache.flink.avro.generated.record (nested rows record_<field>),
// every nullable type a union of null and the type with a null default,
// DECIMAL as bytes with the decimal logical type, DATE as date, TIME as
// time-millis, TIMESTAMP(p <= 3) as timestamp-millis (with
// 'avro.timestamp_mapping.legacy' = 'false': TIMESTAMP as
// local-timestamp-millis, -micros or -nanos, TIMESTAMP_LTZ as
// timestamp-millis, -micros or -nanos), ARRAY as array, MAP with string
// keys and MULTISET (counts by element) as map, ROW as record.
//
// A message (DecodeBytes, EncodeBytes) is one record in Avro's binary
// encoding, without a header, as Flink's AvroRowDataSerializationSchema
// writes it. A file is an Avro object container file: written with the
// derived schema and 'avro.codec' (snappy by default), read with the
// schema in its header, its record fields matched to the columns by
// name (a column the file lacks is NULL), so files written by other
// Avro writers are read too.
//
// The binary coding is github.com/hamba/avro/v2's Reader and Writer, its
// schema parser and its container encoder: it is maintained, fast, and
// exposes the encoding primitives, where linkedin/goavro converts through
// map[string]any values and a union-per-map convention that would have to
// be undone for every row.

const avroRecordName = "org.apache.flink.avro.generated.record"

// The nanosecond timestamps of Avro 1.12, which the schema parser does
// not name.
const (
	avroTimestampNanos      avro.LogicalType = "timestamp-nanos"
	avroLocalTimestampNanos avro.LogicalType = "local-timestamp-nanos"
)

func avroFormat() *Format {
	return &Format{
		Identifier: "avro",
		Options:    []string{"avro.codec", "avro.encoding", "avro.timestamp_mapping.legacy"},
		Configure:  func(o map[string]string) (Codec, error) { return newAvroOptions(o) },
	}
}

type avroOptions struct {
	codec  string // the container codec (format_avro_ocf.go)
	legacy bool   // avro.timestamp_mapping.legacy

	// last is the schema of the columns last asked for: a message
	// connector codes every message of a table with the same columns.
	mu   sync.Mutex
	last *avroTable
}

func newAvroOptions(o map[string]string) (*avroOptions, error) {
	f := &avroOptions{codec: avroSnappy, legacy: true}
	if c, ok := o["avro.codec"]; ok {
		switch strings.ToLower(c) {
		case avroNull, avroDeflate, avroSnappy, avroZstandard:
			f.codec = strings.ToLower(c)
		case avroBzip2, avroXZ:
			// Read by the codec in the file's header; a writer refuses it.
			f.codec = strings.ToLower(c)
		default:
			return nil, validationError("Unrecognized codec: %s", c)
		}
	}
	if e, ok := o["avro.encoding"]; ok && !strings.EqualFold(e, "binary") {
		if strings.EqualFold(e, "json") {
			return nil, validationError("The avro format reads and writes 'avro.encoding' = 'binary' only.")
		}
		return nil, validationError("Could not parse value '%s' for key 'avro.encoding'.", e)
	}
	if err := boolOption(o, "avro.timestamp_mapping.legacy", &f.legacy); err != nil {
		return nil, err
	}
	return f, nil
}

// AvroSchema returns the Avro schema Flink derives for a row of cols, as
// JSON.
func AvroSchema(cols []Column, legacyTimestamps bool) (string, error) {
	fields := make([]types.Field, len(cols))
	for i, c := range cols {
		fields[i] = types.Field{Name: c.Name, Type: c.Type}
	}
	v, err := avroSchemaOf(types.NewRow(fields...).WithNullable(false), avroRecordName, legacyTimestamps)
	if err != nil {
		return "", err
	}
	b, err := json.Marshal(v)
	return string(b), err
}

// avroSchemaOf is AvroSchemaConverter.convertToSchema.
func avroSchemaOf(t *types.Type, name string, legacy bool) (any, error) {
	var s any
	switch t.Kind {
	case types.Boolean:
		s = "boolean"
	case types.TinyInt, types.SmallInt, types.Int:
		s = "int"
	case types.BigInt:
		s = "long"
	case types.Float:
		s = "float"
	case types.Double:
		s = "double"
	case types.Char, types.VarChar:
		s = "string"
	case types.Binary, types.VarBinary:
		s = "bytes"
	case types.Decimal:
		s = map[string]any{"type": "bytes", "logicalType": "decimal", "precision": t.Prec, "scale": t.Scale}
	case types.Date:
		s = map[string]any{"type": "int", "logicalType": "date"}
	case types.Time:
		if t.Prec > 3 {
			return nil, validationError("Avro does not support TIME type with precision: %d, it only supports precision less than 3.", t.Prec)
		}
		s = map[string]any{"type": "int", "logicalType": "time-millis"}
	case types.Timestamp, types.TimestampLTZ:
		var logical string
		switch {
		case legacy && t.Kind == types.TimestampLTZ:
			return nil, validationError("Unsupported to derive Schema for type: %s", t)
		case legacy && t.Prec > 3:
			return nil, validationError("Avro does not support TIMESTAMP type with precision: %d, it only supports precision less than 3.", t.Prec)
		case legacy:
			logical = "timestamp-millis"
		case t.Prec > 9 && t.Kind == types.Timestamp:
			return nil, validationError("Avro does not support LOCAL TIMESTAMP type with precision: %d, it only supports precision less than 9.", t.Prec)
		case t.Prec > 9:
			return nil, validationError("Avro does not support TIMESTAMP type with precision: %d, it only supports precision less than 9.", t.Prec)
		default:
			logical = "timestamp-" + [...]string{"millis", "micros", "nanos"}[(max(t.Prec, 1)-1)/3]
			if t.Kind == types.Timestamp {
				logical = "local-" + logical
			}
		}
		s = map[string]any{"type": "long", "logicalType": logical}
	case types.Array:
		// Flink derives elements and map values with the legacy
		// timestamp mapping whatever the option says.
		items, err := avroSchemaOf(t.Elem, name, true)
		if err != nil {
			return nil, err
		}
		s = map[string]any{"type": "array", "items": items}
	case types.Map, types.Multiset:
		if !t.Elem.Kind.IsCharacterString() {
			return nil, validationError("Avro format doesn't support non-string as key type of map. The key type is: %s", t.Elem)
		}
		values, err := avroSchemaOf(avroMapValue(t), name, true)
		if err != nil {
			return nil, err
		}
		s = map[string]any{"type": "map", "values": values}
	case types.Row:
		fields := make([]any, len(t.Fields))
		for i, f := range t.Fields {
			ft, err := avroSchemaOf(f.Type, name+"_"+f.Name, legacy)
			if err != nil {
				return nil, err
			}
			field := map[string]any{"name": f.Name, "type": ft}
			if f.Type.Nullable() {
				field["default"] = nil
			}
			fields[i] = field
		}
		s = map[string]any{"type": "record", "name": name, "fields": fields}
	default:
		return nil, validationError("Unsupported to derive Schema for type: %s", t)
	}
	if t.Nullable() {
		return []any{"null", s}, nil
	}
	return s, nil
}

// avroMapValue is the value type of the Avro map of a MAP or MULTISET
// (a nullable INT count).
func avroMapValue(t *types.Type) *types.Type {
	if t.Kind == types.Multiset {
		return types.New(types.Int)
	}
	return t.Val
}

// avroTable is the derived schema of a table's columns.
type avroTable struct {
	cols   []Column
	row    *types.Type // the columns as a NOT NULL row
	json   string
	schema avro.Schema
}

func (f *avroOptions) table(cols []Column) (*avroTable, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.last != nil && sameColumns(f.last.cols, cols) {
		return f.last, nil
	}
	at, err := f.derive(cols)
	if err != nil {
		return nil, err
	}
	f.last = at
	return at, nil
}

func sameColumns(a, b []Column) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || !a[i].Type.Equal(b[i].Type) {
			return false
		}
	}
	return true
}

func (f *avroOptions) derive(cols []Column) (*avroTable, error) {
	js, err := AvroSchema(cols, f.legacy)
	if err != nil {
		return nil, err
	}
	s, err := avro.ParseWithCache(js, "", &avro.SchemaCache{})
	if err != nil {
		return nil, err
	}
	fields := make([]types.Field, len(cols))
	for i, c := range cols {
		fields[i] = types.Field{Name: c.Name, Type: c.Type}
	}
	return &avroTable{cols: append([]Column(nil), cols...), row: types.NewRow(fields...).WithNullable(false), json: js, schema: s}, nil
}

// DecodeMessage implements MessageDecoder: one binary record.
func (f *avroOptions) DecodeMessage(msg []byte, cols []Column) ([][]any, []types.RowKind, error) {
	at, err := f.table(cols)
	if err != nil {
		return nil, nil, err
	}
	if len(msg) == 0 {
		return nil, nil, nil
	}
	r := avro.NewReader(bytes.NewReader(msg), len(msg))
	v, err := readAvro(r, at.schema, at.row)
	if err == nil {
		err = r.Error
	}
	if err != nil {
		return nil, nil, &Error{Exception: "IOException", Msg: fmt.Sprintf("Failed to deserialize Avro record. %v", err)}
	}
	return [][]any{v.([]any)}, []types.RowKind{types.Insert}, nil
}

// EncodeMessage implements MessageEncoder: one binary record.
func (f *avroOptions) EncodeMessage(_ types.RowKind, row []any, cols []Column) ([]byte, error) {
	at, err := f.table(cols)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	w := avro.NewWriter(&b, 512)
	if err := writeAvro(w, row, at.row); err != nil {
		return nil, err
	}
	if err := w.Flush(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Decoder implements Codec: an object container file.
func (f *avroOptions) Decoder(r io.Reader, name string, cols []Column) RowDecoder {
	at, err := f.table(cols)
	return &avroFileDecoder{name: name, in: bufio.NewReaderSize(r, 64<<10), at: at, err: err}
}

type avroFileDecoder struct {
	name   string
	in     io.Reader
	at     *avroTable
	err    error
	header bool
	writer avro.Schema // the file's schema
	sync   [16]byte
	codec  func([]byte) ([]byte, error)
	block  *avro.Reader
	left   int64 // records left in block
	r      *avro.Reader
}

func (d *avroFileDecoder) fail(err error) error {
	d.err = &Error{Exception: "IOException", Msg: fmt.Sprintf("Failed to read Avro file '%s': %v", d.name, err)}
	return d.err
}

func (d *avroFileDecoder) readHeader() error {
	d.r = avro.NewReader(d.in, 64<<10)
	var magic [4]byte
	d.r.Read(magic[:])
	if d.r.Error != nil {
		return d.r.Error
	}
	if magic != [4]byte{'O', 'b', 'j', 1} {
		return errors.New("not an Avro object container file")
	}
	meta := map[string][]byte{}
	for {
		n, _ := d.r.ReadBlockHeader()
		if n == 0 || d.r.Error != nil {
			break
		}
		for range n {
			k := d.r.ReadString()
			meta[k] = d.r.ReadBytes()
			if d.r.Error != nil {
				return d.r.Error
			}
		}
	}
	d.r.Read(d.sync[:])
	if d.r.Error != nil {
		return d.r.Error
	}
	s, err := avro.ParseBytesWithCache(meta["avro.schema"], "", &avro.SchemaCache{})
	if err != nil {
		return err
	}
	d.writer = s
	if d.codec, err = avroBlockDecoder(string(meta["avro.codec"])); err != nil {
		return err
	}
	return nil
}

// Next implements RowDecoder.
func (d *avroFileDecoder) Next(row []any) (types.RowKind, bool, error) {
	if d.err != nil {
		return types.Insert, false, d.err
	}
	if !d.header {
		d.header = true
		if err := d.readHeader(); err != nil {
			return types.Insert, false, d.fail(err)
		}
	}
	for d.left == 0 {
		count := d.r.ReadLong()
		if errors.Is(d.r.Error, io.EOF) {
			return types.Insert, false, nil
		}
		size := d.r.ReadLong()
		if d.r.Error == nil && (count < 0 || size < 0 || size > 1<<30) {
			return types.Insert, false, d.fail(fmt.Errorf("invalid block of %d records in %d bytes", count, size))
		}
		if d.r.Error != nil {
			return types.Insert, false, d.fail(d.r.Error)
		}
		data := make([]byte, size)
		d.r.Read(data)
		var sync [16]byte
		d.r.Read(sync[:])
		if d.r.Error != nil {
			return types.Insert, false, d.fail(d.r.Error)
		}
		if sync != d.sync {
			return types.Insert, false, d.fail(errors.New("invalid sync marker"))
		}
		raw, err := d.codec(data)
		if err != nil {
			return types.Insert, false, d.fail(err)
		}
		d.block, d.left = avro.NewReader(bytes.NewReader(raw), len(raw)+1), count
	}
	v, err := readAvro(d.block, d.writer, d.at.row)
	if err == nil {
		err = d.block.Error
	}
	if err != nil {
		return types.Insert, false, d.fail(err)
	}
	d.left--
	copy(row, v.([]any))
	return types.Insert, true, nil
}

// readAvro reads a value written with schema s as a value of type t (nil:
// read and dropped).
func readAvro(r *avro.Reader, s avro.Schema, t *types.Type) (any, error) {
	var logical avro.LogicalType
	if ls, ok := s.(avro.LogicalTypeSchema); ok && ls.Logical() != nil {
		logical = ls.Logical().Type()
	} else if ps, ok := s.(*avro.PrimitiveSchema); ok {
		// Logical types the parser does not know (the nanosecond
		// timestamps) are kept as the schema's properties.
		if lt, ok := ps.Prop("logicalType").(string); ok {
			logical = avro.LogicalType(lt)
		}
	}
	var v any
	var from *types.Type
	switch s.Type() {
	case avro.Null:
		return nil, nil
	case avro.Boolean:
		v, from = r.ReadBool(), types.New(types.Boolean)
	case avro.Int:
		n := r.ReadInt()
		switch logical {
		case avro.Date:
			v, from = n, types.New(types.Date)
		case avro.TimeMillis:
			v, from = time.Duration(n)*time.Millisecond, types.NewTime(3)
		default:
			v, from = n, types.New(types.Int)
		}
	case avro.Long:
		n := r.ReadLong()
		switch logical {
		case avro.TimestampMillis, avro.LocalTimestampMillis:
			v, from = time.UnixMilli(n).UTC(), types.NewTimestamp(3)
		case avro.TimestampMicros, avro.LocalTimestampMicros:
			v, from = time.UnixMicro(n).UTC(), types.NewTimestamp(6)
		case avroTimestampNanos, avroLocalTimestampNanos:
			v, from = time.Unix(0, n).UTC(), types.NewTimestamp(9)
		case avro.TimeMicros:
			v, from = time.Duration(n)*time.Microsecond, types.NewTime(6)
		default:
			v, from = n, types.New(types.BigInt)
		}
	case avro.Float:
		v, from = r.ReadFloat(), types.New(types.Float)
	case avro.Double:
		v, from = r.ReadDouble(), types.New(types.Double)
	case avro.String:
		v, from = r.ReadString(), types.NewString()
	case avro.Enum:
		idx := int(r.ReadInt())
		syms := s.(*avro.EnumSchema).Symbols()
		if idx < 0 || idx >= len(syms) {
			return nil, fmt.Errorf("enum index %d out of range", idx)
		}
		v, from = syms[idx], types.NewString()
	case avro.Bytes, avro.Fixed:
		var b []byte
		if s.Type() == avro.Fixed {
			b = make([]byte, s.(*avro.FixedSchema).Size())
			r.Read(b)
		} else {
			b = r.ReadBytes()
		}
		if dl, ok := s.(avro.LogicalTypeSchema).Logical().(*avro.DecimalLogicalSchema); ok && logical == avro.Decimal {
			v, from = decimalFromAvro(b, dl.Scale()), types.NewDecimal(dl.Precision(), dl.Scale())
		} else {
			v, from = b, types.NewVarBinary(types.MaxLength)
		}
	case avro.Union:
		branches := s.(*avro.UnionSchema).Types()
		idx := int(r.ReadLong())
		if idx < 0 || idx >= len(branches) {
			return nil, fmt.Errorf("union index %d out of range", idx)
		}
		return readAvro(r, branches[idx], t)
	case avro.Ref:
		return readAvro(r, s.(*avro.RefSchema).Schema(), t)
	case avro.Array:
		var elem *types.Type
		if t != nil {
			if t.Kind != types.Array && t.Kind != types.Multiset {
				return nil, fmt.Errorf("cannot read an Avro array as %s", t)
			}
			elem = t.Elem
		}
		out := []any{}
		for {
			n, _ := r.ReadBlockHeader()
			if n == 0 || r.Error != nil {
				break
			}
			for range n {
				e, err := readAvro(r, s.(*avro.ArraySchema).Items(), elem)
				if err == nil {
					err = r.Error
				}
				if err != nil {
					return nil, err
				}
				out = append(out, e)
			}
		}
		if t == nil {
			return nil, nil
		}
		return out, nil
	case avro.Map:
		var key, val *types.Type
		if t != nil {
			if t.Kind != types.Map && t.Kind != types.Multiset {
				return nil, fmt.Errorf("cannot read an Avro map as %s", t)
			}
			key, val = t.Elem, avroMapValue(t)
		}
		out := map[any]any{}
		for {
			n, _ := r.ReadBlockHeader()
			if n == 0 || r.Error != nil {
				break
			}
			for range n {
				k := r.ReadString()
				e, err := readAvro(r, s.(*avro.MapSchema).Values(), val)
				if err == nil {
					err = r.Error
				}
				if err != nil {
					return nil, err
				}
				if key != nil {
					kv, err := types.CastValue(k, types.NewString(), key)
					if err != nil {
						return nil, err
					}
					out[kv] = e
				}
			}
		}
		if t == nil {
			return nil, nil
		}
		if t.Kind == types.Multiset {
			var elems []any
			for k, n := range out {
				c, _ := types.AsInt64(n)
				for range c {
					elems = append(elems, k)
				}
			}
			return elems, nil
		}
		return out, nil
	case avro.Record:
		var out []any
		pos := map[string]int{}
		if t != nil {
			if t.Kind != types.Row {
				return nil, fmt.Errorf("cannot read an Avro record as %s", t)
			}
			out = make([]any, len(t.Fields))
			for i, f := range t.Fields {
				pos[f.Name] = i
			}
		}
		for _, f := range s.(*avro.RecordSchema).Fields() {
			i, ok := pos[f.Name()]
			var ft *types.Type
			if ok {
				ft = t.Fields[i].Type
			}
			fv, err := readAvro(r, f.Type(), ft)
			if err != nil {
				return nil, err
			}
			if ok {
				out[i] = fv
			}
		}
		if t == nil {
			return nil, nil
		}
		return out, nil
	default:
		return nil, fmt.Errorf("unsupported Avro type %s", s.Type())
	}
	if t == nil || v == nil {
		return nil, nil
	}
	if from.Kind == t.Kind && (t.Kind != types.Decimal || from.Scale == t.Scale) {
		if t.Kind == types.Timestamp || t.Kind == types.TimestampLTZ {
			return types.TruncateTime(v.(time.Time), t.Prec), nil
		}
		return v, nil
	}
	if from.Kind == types.Timestamp && t.Kind == types.TimestampLTZ {
		return v, nil // the instant of an Avro timestamp
	}
	return types.CastValue(v, from, t)
}

// decimalFromAvro reads a big-endian two's complement unscaled value.
func decimalFromAvro(b []byte, scale int) *decimal.Decimal {
	x := new(big.Int).SetBytes(b)
	if len(b) > 0 && b[0]&0x80 != 0 {
		x.Sub(x, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
	}
	return types.DecimalValueBig(x, int32(-scale))
}

// decimalToAvro writes the unscaled value of d at scale as Java's
// BigInteger.toByteArray does.
func decimalToAvro(d *decimal.Decimal, prec, scale int) []byte {
	if int(-d.Exponent()) != scale {
		d = types.RoundDecimal(d, prec, scale)
	}
	x := d.Coefficient()
	m := x
	if x.Sign() < 0 {
		m = new(big.Int).Not(x)
	}
	n := m.BitLen()/8 + 1
	if x.Sign() < 0 {
		x = new(big.Int).Add(x, new(big.Int).Lsh(big.NewInt(1), uint(8*n)))
	}
	return x.FillBytes(make([]byte, n))
}

// writeAvro writes a value of type t in the derived schema of t.
func writeAvro(w *avro.Writer, v any, t *types.Type) error {
	if t.Nullable() {
		if v == nil {
			w.WriteLong(0)
			return nil
		}
		w.WriteLong(1)
	} else if v == nil {
		return &Error{Exception: "RuntimeException", Msg: fmt.Sprintf("Failed to serialize row: a NULL value for the NOT NULL type %s.", t)}
	}
	switch t.Kind {
	case types.Boolean:
		w.WriteBool(v.(bool))
	case types.TinyInt, types.SmallInt, types.Int:
		n, _ := types.AsInt64(v)
		w.WriteInt(int32(n))
	case types.BigInt:
		n, _ := types.AsInt64(v)
		w.WriteLong(n)
	case types.Float:
		w.WriteFloat(v.(float32))
	case types.Double:
		w.WriteDouble(v.(float64))
	case types.Char, types.VarChar:
		w.WriteString(v.(string))
	case types.Binary, types.VarBinary:
		w.WriteBytes(v.([]byte))
	case types.Decimal:
		w.WriteBytes(decimalToAvro(v.(*decimal.Decimal), t.Prec, t.Scale))
	case types.Date:
		w.WriteInt(v.(int32))
	case types.Time:
		w.WriteInt(int32(v.(time.Duration) / time.Millisecond))
	case types.Timestamp, types.TimestampLTZ:
		ts := v.(time.Time)
		switch {
		case t.Prec <= 3:
			w.WriteLong(ts.UnixMilli())
		case t.Prec <= 6:
			w.WriteLong(ts.UnixMicro())
		default:
			w.WriteLong(ts.UnixNano())
		}
	case types.Array:
		xs := v.([]any)
		if len(xs) > 0 {
			w.WriteLong(int64(len(xs)))
			for _, e := range xs {
				if err := writeAvro(w, e, t.Elem); err != nil {
					return err
				}
			}
		}
		w.WriteLong(0)
	case types.Multiset:
		counts := map[any]any{}
		for _, e := range v.([]any) {
			if e == nil {
				return &Error{Exception: "RuntimeException", Msg: "Failed to serialize row: Avro map keys cannot be NULL."}
			}
			n, _ := counts[e].(int32)
			counts[e] = n + 1
		}
		return writeAvro(w, counts, types.NewMap(t.Elem, types.New(types.Int)).WithNullable(false))
	case types.Map:
		m := v.(map[any]any)
		if len(m) > 0 {
			w.WriteLong(int64(len(m)))
			for k, e := range m {
				if k == nil {
					return &Error{Exception: "RuntimeException", Msg: "Failed to serialize row: Avro map keys cannot be NULL."}
				}
				w.WriteString(k.(string))
				if err := writeAvro(w, e, t.Val); err != nil {
					return err
				}
			}
		}
		w.WriteLong(0)
	case types.Row:
		xs := v.([]any)
		for i, f := range t.Fields {
			if err := writeAvro(w, xs[i], f.Type); err != nil {
				return err
			}
		}
	default:
		return validationError("Unsupported to derive Schema for type: %s", t)
	}
	return nil
}

// Encoder implements Codec: an object container file in 'avro.codec'.
func (f *avroOptions) Encoder(w io.Writer, cols []Column) RowEncoder {
	e := &avroFileEncoder{}
	at, err := f.table(cols)
	if err != nil {
		e.err = err
		return e
	}
	e.at = at
	if f.codec == avroBzip2 || f.codec == avroXZ {
		e.err = validationError("Avro codec '%s' is not supported for writing; supported codecs are [null, deflate, snappy, zstandard].", f.codec)
		return e
	}
	e.enc, e.err = newAvroContainer(w, at.json, f.codec)
	e.w = avro.NewWriter(&e.buf, 512)
	return e
}

type avroFileEncoder struct {
	at  *avroTable
	enc *avroContainer
	err error
	buf bytes.Buffer
	w   *avro.Writer
}

// Write implements RowEncoder.
func (e *avroFileEncoder) Write(_ types.RowKind, row []any) error {
	if e.err != nil {
		return e.err
	}
	e.buf.Reset()
	if err := writeAvro(e.w, row, e.at.row); err != nil {
		return err
	}
	if err := e.w.Flush(); err != nil {
		return err
	}
	return e.enc.Write(e.buf.Bytes())
}

// Flush implements RowEncoder: the file is complete after it.
func (e *avroFileEncoder) Flush() error {
	if e.err != nil {
		return e.err
	}
	return e.enc.Flush()
}
