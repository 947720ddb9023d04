package connectors

import (
	"fmt"
	"io"
	"math/big"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/encoding"
	"github.com/shopspring/decimal"

	"eddy/engine/types"
)

// The parquet format (Flink's flink-parquet) is a bulk format of the
// filesystem connector: a file is a Parquet file, read column by column
// (format_parquet_read.go) and written through parquet-go with the schema
// Flink's ParquetSchemaConverter gives a row type: every field OPTIONAL,
// CHAR/VARCHAR as UTF8 BINARY, TINYINT and SMALLINT as INT32 with INT_8
// and INT_16, DECIMAL as a FIXED_LEN_BYTE_ARRAY of the fewest bytes its
// precision needs, DATE as INT32 DATE, TIME as INT32 TIME_MILLIS,
// TIMESTAMP and TIMESTAMP_LTZ as INT96 (or INT64 with
// 'parquet.write.int64.timestamp'), ARRAY as a three-level LIST of
// 'element', MAP and MULTISET as a MAP of 'key_value' groups, ROW as a
// group. A map's keys are REQUIRED, as the Parquet specification has
// them (Flink writes them OPTIONAL, which readers such as Arrow's refuse),
// so a NULL map key is an error. Flink hands every 'parquet.*' option to parquet-java's Hadoop
// configuration; eddy takes the ones it has a meaning for
// (parquetOptions).

// parquetOptions are the options of the parquet format.
func parquetOptions() []string {
	return []string{
		"parquet.utc-timezone", "parquet.timestamp.time.unit", "parquet.write.int64.timestamp",
		"parquet.compression", "parquet.block.size", "parquet.page.size", "parquet.writer.version",
		"parquet.enable.dictionary", "parquet.batch-size",
	}
}

func parquetFormat() *Format {
	return &Format{
		Identifier: "parquet",
		Options:    parquetOptions(),
		Configure: func(o map[string]string) (Codec, error) {
			// parquet-java's defaults: SNAPPY, row groups of 128 MiB.
			c := &parquetCodec{compression: &parquet.Snappy, unit: time.Microsecond, blockSize: 128 << 20}
			if err := boolOption(o, "parquet.utc-timezone", &c.utc); err != nil {
				return nil, err
			}
			if err := boolOption(o, "parquet.write.int64.timestamp", &c.int64TS); err != nil {
				return nil, err
			}
			if u, ok := o["parquet.timestamp.time.unit"]; ok {
				switch strings.ToLower(u) {
				case "millis":
					c.unit = time.Millisecond
				case "micros":
					c.unit = time.Microsecond
				case "nanos":
					c.unit = time.Nanosecond
				default:
					return nil, validationError("Invalid value for option 'parquet.timestamp.time.unit': '%s'. Supported values are [millis, micros, nanos].", u)
				}
			}
			if s, ok := o["parquet.compression"]; ok {
				codec, ok := parquetCodecs()[strings.ToUpper(s)]
				if !ok {
					return nil, validationError("Unsupported value '%s' of option 'parquet.compression'. Supported values are [%s].",
						s, strings.Join(sortedKeys(parquetCodecs()), ", "))
				}
				c.compression = codec
			}
			if s, ok := o["parquet.block.size"]; ok {
				n, err := strconv.ParseInt(s, 10, 64)
				if err != nil || n <= 0 {
					return nil, validationError("Invalid value for option 'parquet.block.size': '%s'. It must be a positive number of bytes.", s)
				}
				c.blockSize = n
			}
			if s, ok := o["parquet.page.size"]; ok {
				n, err := strconv.Atoi(s)
				if err != nil || n <= 0 {
					return nil, validationError("Invalid value for option 'parquet.page.size': '%s'. It must be a positive number of bytes.", s)
				}
				c.pageSize = n
			}
			return c, nil
		},
	}
}

// parquetCodecs are parquet-java's CompressionCodecName values eddy
// writes (LZO is not among them).
func parquetCodecs() map[string]compress.Codec {
	return map[string]compress.Codec{
		"UNCOMPRESSED": &parquet.Uncompressed, "SNAPPY": &parquet.Snappy, "GZIP": &parquet.Gzip,
		"BROTLI": &parquet.Brotli, "ZSTD": &parquet.Zstd, "LZ4_RAW": &parquet.Lz4Raw,
	}
}

// parquetCodec is the configured parquet format.
type parquetCodec struct {
	utc         bool          // parquet.utc-timezone
	int64TS     bool          // parquet.write.int64.timestamp
	unit        time.Duration // parquet.timestamp.time.unit
	compression compress.Codec
	blockSize   int64 // bytes of a row group (estimated as rows are shredded)
	pageSize    int
}

var _ BulkCodec = (*parquetCodec)(nil)

// Decoder reads a Parquet file row by row.
func (c *parquetCodec) Decoder(r io.Reader, name string, cols []Column) RowDecoder {
	return &bulkRowDecoder{bulk: c.ReadBulk(r, name, cols, nil), cols: cols}
}

// Encoder writes a Parquet file; Flush writes its footer, so it is called
// once, when the file is complete.
func (c *parquetCodec) Encoder(w io.Writer, cols []Column) RowEncoder {
	root := &parquetGroup{typ: parquet.Group{}.Type()}
	for _, col := range cols {
		root.fields = append(root.fields, parquetField{Node: c.node(col.Type), name: col.Name})
	}
	// Strings and bytes PLAIN-encoded, as parquet-java writes them: Flink's
	// vectorized Parquet reader (the filesystem and Hive connectors') does
	// not read the DELTA_LENGTH_BYTE_ARRAY encoding parquet-go would pick.
	opts := []parquet.WriterOption{parquet.NewSchema("flink_schema", root), parquet.Compression(c.compression),
		parquet.CreatedBy("eddy", "", ""), parquet.DefaultEncodingFor(parquet.ByteArray, &parquet.Plain)}
	if c.pageSize > 0 {
		opts = append(opts, parquet.PageBufferSize(c.pageSize))
	}
	e := &parquetEncoder{c: c, cols: cols, w: parquet.NewWriter(w, opts...)}
	if c.blockSize > 0 {
		e.blockSize = c.blockSize
	}
	e.leaves = make([][]parquet.Value, countLeaves(root))
	return e
}

// node returns the Parquet schema node of a Flink type, as Flink's
// ParquetSchemaConverter writes it (every node OPTIONAL).
func (c *parquetCodec) node(t *types.Type) parquet.Node {
	var n parquet.Node
	switch t.Kind {
	case types.Char, types.VarChar:
		n = parquet.String()
	case types.Boolean:
		n = parquet.Leaf(parquet.BooleanType)
	case types.Binary, types.VarBinary:
		n = parquet.Leaf(parquet.ByteArrayType)
	case types.Decimal:
		n = parquet.Decimal(t.Scale, t.Prec, parquet.FixedLenByteArrayType(decimalBytes(t.Prec)))
	case types.TinyInt:
		n = parquet.Int(8)
	case types.SmallInt:
		n = parquet.Int(16)
	case types.Int:
		n = parquet.Leaf(parquet.Int32Type)
	case types.BigInt:
		n = parquet.Leaf(parquet.Int64Type)
	case types.Float:
		n = parquet.Leaf(parquet.FloatType)
	case types.Double:
		n = parquet.Leaf(parquet.DoubleType)
	case types.Date:
		n = parquet.Date()
	case types.Time:
		n = parquet.Time(parquet.Millisecond)
	case types.Timestamp, types.TimestampLTZ:
		if c.int64TS {
			n = parquet.TimestampAdjusted(parquetUnit(c.unit), c.utc || t.Kind == types.TimestampLTZ)
		} else {
			n = parquet.Leaf(parquet.Int96Type)
		}
	case types.Array:
		n = &parquetGroup{typ: parquet.List(parquet.Leaf(parquet.Int32Type)).Type(), fields: []parquetField{{
			name: "list", Node: parquet.Repeated(&parquetGroup{typ: parquet.Group{}.Type(),
				fields: []parquetField{{name: "element", Node: c.node(t.Elem)}}})}}}
	case types.Map, types.Multiset:
		key, val := t.Elem, t.Val
		if t.Kind == types.Multiset {
			val = types.New(types.Int).WithNullable(false)
		}
		n = &parquetGroup{typ: parquet.Map(parquet.String(), parquet.String()).Type(), fields: []parquetField{{
			name: "key_value", Node: parquet.Repeated(&parquetGroup{typ: parquet.Group{}.Type(),
				fields: []parquetField{{name: "key", Node: parquet.Required(c.node(key))}, {name: "value", Node: c.node(val)}}})}}}
	case types.Row:
		g := &parquetGroup{typ: parquet.Group{}.Type()}
		for _, f := range t.Fields {
			g.fields = append(g.fields, parquetField{name: f.Name, Node: c.node(f.Type)})
		}
		n = g
	default:
		// Flink's converter refuses the other types; eddy writes their
		// text so no row is lost (Validate refuses them first).
		n = parquet.String()
	}
	return parquet.Optional(n)
}

// parquetUnsupported returns Flink's error for a column type the parquet
// format cannot write, or nil.
func parquetUnsupported(cols []Column) error {
	var check func(t *types.Type) *types.Type
	check = func(t *types.Type) *types.Type {
		switch t.Kind {
		case types.Array, types.Multiset:
			return check(t.Elem)
		case types.Map:
			if b := check(t.Elem); b != nil {
				return b
			}
			return check(t.Val)
		case types.Row:
			for _, f := range t.Fields {
				if b := check(f.Type); b != nil {
					return b
				}
			}
			return nil
		case types.TimestampTZ, types.IntervalYearMonth, types.IntervalDayTime, types.Raw, types.Null:
			return t
		}
		return nil
	}
	for _, c := range cols {
		if b := check(c.Type); b != nil {
			return &Error{Exception: "UnsupportedOperationException", Msg: "Unsupported type: " + b.String()}
		}
	}
	return nil
}

func parquetUnit(d time.Duration) parquet.TimeUnit {
	switch d {
	case time.Millisecond:
		return parquet.Millisecond
	case time.Nanosecond:
		return parquet.Nanosecond
	}
	return parquet.Microsecond
}

// decimalBytes is the fewest bytes whose two's complement holds every
// unscaled value of a precision (Flink's computeMinBytesForDecimalPrecision).
func decimalBytes(prec int) int {
	limit := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(prec)), nil)
	n := 1
	for new(big.Int).Lsh(big.NewInt(1), uint(8*n-1)).Cmp(limit) < 0 {
		n++
	}
	return n
}

// parquetGroup is a group node whose fields keep their order (parquet-go's
// Group sorts them by name; Flink writes a row's fields in order).
type parquetGroup struct {
	typ    parquet.Type
	fields []parquetField
}

type parquetField struct {
	parquet.Node
	name string
}

func (f parquetField) Name() string                           { return f.name }
func (f parquetField) Value(base reflect.Value) reflect.Value { return base }

func (g *parquetGroup) ID() int { return 0 }
func (g *parquetGroup) String() string {
	var b strings.Builder
	b.WriteString("group {")
	for _, f := range g.fields {
		fmt.Fprintf(&b, " %s: %s;", f.name, f.Node)
	}
	b.WriteString(" }")
	return b.String()
}
func (g *parquetGroup) Type() parquet.Type { return g.typ }
func (g *parquetGroup) Optional() bool     { return false }
func (g *parquetGroup) Repeated() bool     { return false }
func (g *parquetGroup) Required() bool     { return true }
func (g *parquetGroup) Leaf() bool         { return false }
func (g *parquetGroup) Fields() []parquet.Field {
	out := make([]parquet.Field, len(g.fields))
	for i, f := range g.fields {
		out[i] = f
	}
	return out
}
func (g *parquetGroup) Encoding() encoding.Encoding { return nil }
func (g *parquetGroup) Compression() compress.Codec { return nil }
func (g *parquetGroup) GoType() reflect.Type        { return reflect.TypeOf(map[string]any{}) }

func countLeaves(n parquet.Node) int {
	if n.Leaf() {
		return 1
	}
	k := 0
	for _, f := range n.Fields() {
		k += countLeaves(f)
	}
	return k
}

// parquetEncoder shreds rows into the leaf columns of the file's schema
// (Dremel's repetition and definition levels) and hands them to
// parquet-go, which writes row groups of about blockSize bytes.
type parquetEncoder struct {
	c         *parquetCodec
	cols      []Column
	w         *parquet.Writer
	leaves    [][]parquet.Value // per leaf column, the values of the row being shredded
	rows      []parquet.Row
	blockSize int64
	written   int64 // estimated bytes since the last row group
	closed    bool
}

// parquetBatchRows is how many shredded rows the encoder hands parquet-go
// at once.
const parquetBatchRows = 1024

func (e *parquetEncoder) Write(kind types.RowKind, row []any) error {
	if kind != types.Insert && kind != types.UpdateAfter {
		return fmt.Errorf("the parquet format writes insert-only rows, got a %s row", kind)
	}
	for i := range e.leaves {
		e.leaves[i] = e.leaves[i][:0]
	}
	leaf := 0
	for i, col := range e.cols {
		var err error
		if leaf, err = e.shred(col.Type, row[i], leaf, 0, 0, 0); err != nil {
			return fmt.Errorf("column '%s': %w", col.Name, err)
		}
	}
	n := 0
	for _, vs := range e.leaves {
		n += len(vs)
	}
	out := make(parquet.Row, 0, n)
	for c, vs := range e.leaves {
		for _, v := range vs {
			out = append(out, v.Level(v.RepetitionLevel(), v.DefinitionLevel(), c))
		}
	}
	e.rows = append(e.rows, out)
	if e.blockSize > 0 {
		for _, v := range out {
			e.written += 8
			if !v.IsNull() && (v.Kind() == parquet.ByteArray || v.Kind() == parquet.FixedLenByteArray) {
				e.written += int64(len(v.ByteArray()))
			}
		}
	}
	if len(e.rows) >= parquetBatchRows {
		return e.flushRows()
	}
	return nil
}

func (e *parquetEncoder) flushRows() error {
	if len(e.rows) == 0 {
		return nil
	}
	if _, err := e.w.WriteRows(e.rows); err != nil {
		return err
	}
	e.rows = e.rows[:0]
	if e.blockSize > 0 && e.written >= e.blockSize {
		e.written = 0
		return e.w.Flush()
	}
	return nil
}

// shred appends the values of v (of type t, an OPTIONAL node) to the
// leaves from leaf on and returns the next leaf. rep is the repetition
// level of v's first value, def the definition level of v's parent, rl
// the repetition depth of v.
func (e *parquetEncoder) shred(t *types.Type, v any, leaf, rep, def, rl int) (int, error) {
	if v == nil {
		n := leavesOf(t)
		for k := range n {
			e.leaves[leaf+k] = append(e.leaves[leaf+k], parquet.NullValue().Level(rep, def, 0))
		}
		return leaf + n, nil
	}
	d := def + 1
	switch t.Kind {
	case types.Row:
		vals, ok := v.([]any)
		if !ok || len(vals) != len(t.Fields) {
			return 0, fmt.Errorf("a %s value is a %T", t, v)
		}
		var err error
		for i, f := range t.Fields {
			if leaf, err = e.shred(f.Type, vals[i], leaf, rep, d, rl); err != nil {
				return 0, err
			}
		}
		return leaf, nil
	case types.Array, types.Multiset, types.Map:
		var elems [][2]any
		switch x := v.(type) {
		case []any:
			for _, el := range x {
				elems = append(elems, [2]any{el, nil})
			}
			if t.Kind == types.Multiset {
				elems = multisetCounts(x)
			}
		case map[any]any:
			for k, val := range x {
				elems = append(elems, [2]any{k, val})
			}
			sort.Slice(elems, func(i, j int) bool {
				return fmt.Sprint(elems[i][0]) < fmt.Sprint(elems[j][0])
			})
		default:
			return 0, fmt.Errorf("a %s value is a %T", t, v)
		}
		n := leavesOf(t)
		if len(elems) == 0 {
			for k := range n {
				e.leaves[leaf+k] = append(e.leaves[leaf+k], parquet.NullValue().Level(rep, d, 0))
			}
			return leaf + n, nil
		}
		for i, el := range elems {
			r := rep
			if i > 0 {
				r = rl + 1
			}
			var err error
			if t.Kind == types.Array {
				_, err = e.shred(t.Elem, el[0], leaf, r, d+1, rl+1)
			} else {
				var next int
				val := t.Val
				if t.Kind == types.Multiset {
					val = types.New(types.Int)
				}
				if el[0] == nil {
					return 0, fmt.Errorf("a map key is NULL, which a Parquet map cannot hold")
				}
				// The key is REQUIRED: its level is the key_value group's.
				if next, err = e.shred(t.Elem, el[0], leaf, r, d, rl+1); err == nil {
					_, err = e.shred(val, el[1], next, r, d+1, rl+1)
				}
			}
			if err != nil {
				return 0, err
			}
		}
		return leaf + n, nil
	}
	pv, err := e.leafValue(t, v)
	if err != nil {
		return 0, err
	}
	e.leaves[leaf] = append(e.leaves[leaf], pv.Level(rep, d, 0))
	return leaf + 1, nil
}

// multisetCounts turns a multiset's elements (repeated by count) into
// (element, count) pairs in order of first appearance.
func multisetCounts(xs []any) [][2]any {
	var out [][2]any
	idx := map[string]int{}
	for _, x := range xs {
		k := fmt.Sprintf("%T:%v", x, x)
		if i, ok := idx[k]; ok {
			out[i][1] = out[i][1].(int32) + 1
			continue
		}
		idx[k] = len(out)
		out = append(out, [2]any{x, int32(1)})
	}
	return out
}

func leavesOf(t *types.Type) int {
	switch t.Kind {
	case types.Row:
		n := 0
		for _, f := range t.Fields {
			n += leavesOf(f.Type)
		}
		return n
	case types.Array:
		return leavesOf(t.Elem)
	case types.Multiset:
		return leavesOf(t.Elem) + 1
	case types.Map:
		return leavesOf(t.Elem) + leavesOf(t.Val)
	}
	return 1
}

// julianEpochDay is the Julian day of 1970-01-01 (INT96 timestamps).
const julianEpochDay = 2440588

func (e *parquetEncoder) leafValue(t *types.Type, v any) (parquet.Value, error) {
	bad := func() (parquet.Value, error) {
		return parquet.Value{}, fmt.Errorf("a %s value is a %T", t, v)
	}
	switch t.Kind {
	case types.Char, types.VarChar:
		s, ok := v.(string)
		if !ok {
			return bad()
		}
		return parquet.ByteArrayValue([]byte(s)), nil
	case types.Boolean:
		b, ok := v.(bool)
		if !ok {
			return bad()
		}
		return parquet.BooleanValue(b), nil
	case types.Binary, types.VarBinary:
		b, ok := v.([]byte)
		if !ok {
			return bad()
		}
		return parquet.ByteArrayValue(b), nil
	case types.Decimal:
		d, ok := v.(*decimal.Decimal)
		if !ok {
			return bad()
		}
		b, err := decimalTwos(d, t.Scale, decimalBytes(t.Prec))
		if err != nil {
			return parquet.Value{}, err
		}
		return parquet.FixedLenByteArrayValue(b), nil
	case types.TinyInt, types.SmallInt, types.Int, types.Date:
		n, ok := types.AsInt64(v)
		if !ok {
			return bad()
		}
		return parquet.Int32Value(int32(n)), nil
	case types.BigInt:
		n, ok := v.(int64)
		if !ok {
			return bad()
		}
		return parquet.Int64Value(n), nil
	case types.Float:
		f, ok := v.(float32)
		if !ok {
			return bad()
		}
		return parquet.FloatValue(f), nil
	case types.Double:
		f, ok := v.(float64)
		if !ok {
			return bad()
		}
		return parquet.DoubleValue(f), nil
	case types.Time:
		d, ok := v.(time.Duration)
		if !ok {
			return bad()
		}
		return parquet.Int32Value(int32(d / time.Millisecond)), nil
	case types.Timestamp, types.TimestampLTZ:
		ts, ok := v.(time.Time)
		if !ok {
			return bad()
		}
		inst := e.c.instant(ts)
		if e.c.int64TS {
			return parquet.Int64Value(inst.UnixNano() / int64(e.c.unit)), nil
		}
		secs := inst.Unix()
		day := secs / 86400
		if secs%86400 < 0 {
			day--
		}
		nanos := inst.Sub(time.Unix(day*86400, 0)).Nanoseconds()
		return parquet.Int96Value(deprecated.Int96{uint32(nanos), uint32(uint64(nanos) >> 32), uint32(day + julianEpochDay)}), nil
	}
	return parquet.ByteArrayValue([]byte(fmt.Sprint(v))), nil
}

// instant is the instant a TIMESTAMP's wall clock (the time.Time read as
// UTC) stands for in the file: the same wall clock in UTC with
// 'parquet.utc-timezone', in the local time zone without (Flink's
// default, as Hive 0.x-2.x).
func (c *parquetCodec) instant(ts time.Time) time.Time {
	ts = ts.UTC()
	if c.utc {
		return ts
	}
	return time.Date(ts.Year(), ts.Month(), ts.Day(), ts.Hour(), ts.Minute(), ts.Second(), ts.Nanosecond(), time.Local)
}

// wall is instant's inverse: the wall clock, as a time.Time in UTC.
func (c *parquetCodec) wall(inst time.Time) time.Time {
	if c.utc {
		return inst.UTC()
	}
	l := inst.In(time.Local)
	return time.Date(l.Year(), l.Month(), l.Day(), l.Hour(), l.Minute(), l.Second(), l.Nanosecond(), time.UTC)
}

// decimalTwos returns the unscaled value of d at scale as a big-endian
// two's complement of n bytes.
func decimalTwos(d *decimal.Decimal, scale, n int) ([]byte, error) {
	u := types.DecimalCoefficient(d, scale)
	out := make([]byte, n)
	if u.Sign() >= 0 {
		b := u.Bytes()
		if len(b) > n || len(b) == n && b[0]&0x80 != 0 {
			return nil, fmt.Errorf("decimal %s does not fit in %d bytes", d, n)
		}
		copy(out[n-len(b):], b)
		return out, nil
	}
	// Two's complement of a negative value: 2^(8n) + u.
	m := new(big.Int).Lsh(big.NewInt(1), uint(8*n))
	m.Add(m, u)
	b := m.Bytes()
	if len(b) > n || b[0]&0x80 == 0 {
		return nil, fmt.Errorf("decimal %s does not fit in %d bytes", d, n)
	}
	copy(out[n-len(b):], b)
	return out, nil
}

// Flush writes the rows still buffered and the file's footer.
func (e *parquetEncoder) Flush() error {
	if e.closed {
		return nil
	}
	if err := e.flushRows(); err != nil {
		return err
	}
	e.closed = true
	return e.w.Close()
}

// errParquetMessage is the parquet format refusing to code a message: it
// is a bulk format of files (Flink's BulkReaderFormatFactory), which
// Flink's message connectors (kafka) do not find.
func errParquetMessage() error {
	return validationError("The 'parquet' format is a bulk format of files for the filesystem connector; a message connector cannot read or write it. Use 'avro', 'json' or 'csv'.")
}

// DecodeMessage implements MessageDecoder by refusing.
func (c *parquetCodec) DecodeMessage([]byte, []Column) ([][]any, []types.RowKind, error) {
	return nil, nil, errParquetMessage()
}

// EncodeMessage implements MessageEncoder by refusing.
func (c *parquetCodec) EncodeMessage(types.RowKind, []any, []Column) ([]byte, error) {
	return nil, errParquetMessage()
}
