package connectors

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hamba/avro/v2"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"

	"eddy/engine/types"
)

// Columns from the files (an eddy extension): a filesystem table created
// without a column list takes its columns from its data, read once, when
// the table is created — a Parquet file's schema, an Avro container's
// schema, a CSV file's header (with 'csv.ignore-first-line'), a sample of
// JSON lines — and the partition keys of its k=v/ directories as STRING
// columns. The table then stores these columns as if they had been
// written out, so SHOW CREATE TABLE prints a statement Flink runs.

// inferSample is how many records of a CSV or JSON file are read to
// choose the columns' types.
const inferSample = 1000

// InferColumns returns the columns of a filesystem table's data, for a
// CREATE TABLE without columns, and the partition keys of its
// directories (the last columns); ok is false for a table of another
// connector. options' path must be absolute (ResolvePath).
func InferColumns(options map[string]string) (cols []Column, partitionKeys []string, ok bool, err error) {
	if options["connector"] != "filesystem" {
		return nil, nil, false, nil
	}
	root := localPath(options["path"])
	files, err := dataFiles(root)
	if err != nil {
		return nil, nil, true, err
	}
	if len(files) == 0 {
		return nil, nil, true, validationError("Cannot take the columns of the filesystem table from its data: there is no data file under '%s'. Give the columns in CREATE TABLE.", options["path"])
	}
	file := files[0]
	f, err := os.Open(file)
	if err != nil {
		return nil, nil, true, err
	}
	defer f.Close()
	switch id := options["format"]; id {
	case "parquet":
		cols, err = inferParquet(f)
	case "avro":
		cols, err = inferAvro(f, !strings.EqualFold(options["avro.timestamp_mapping.legacy"], "false"))
	case "csv":
		if !strings.EqualFold(options["csv.ignore-first-line"], "true") {
			return nil, nil, true, validationError("Cannot take the columns of a csv table from its data without a header: set 'csv.ignore-first-line' = 'true' when the first line of each file names the columns, or give the columns in CREATE TABLE.")
		}
		var c *csvOptions
		if c, err = newCSVOptions(options); err == nil {
			cols, err = inferCSV(f, c)
		}
	case "json":
		cols, err = inferJSON(f)
	default:
		return nil, nil, true, validationError("Cannot take the columns of a '%s' table from its data; give the columns in CREATE TABLE.", id)
	}
	if err != nil {
		return nil, nil, true, &Error{Exception: "ValidationException", Msg: fmt.Sprintf(
			"Cannot take the columns of the filesystem table from '%s': %v", file, err)}
	}
	// The partition keys of the file's directories.
	if rel, err := filepath.Rel(root, filepath.Dir(file)); err == nil && rel != "." {
		for _, seg := range strings.Split(filepath.ToSlash(rel), "/") {
			if k, _, found := strings.Cut(seg, "="); found {
				k = unescapePartition(k)
				if !slices.ContainsFunc(cols, func(c Column) bool { return c.Name == k }) {
					cols = append(cols, Column{Name: k, Type: types.NewString()})
					partitionKeys = append(partitionKeys, k)
				}
			}
		}
	}
	return cols, partitionKeys, true, nil
}

func inferParquet(f *os.File) ([]Column, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	pf, err := parquet.OpenFile(f, st.Size(), parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return nil, err
	}
	var cols []Column
	for _, c := range pf.Root().Columns() {
		t, err := parquetFlinkType(c)
		if err != nil {
			return nil, err
		}
		cols = append(cols, Column{Name: c.Name(), Type: t})
	}
	return cols, nil
}

// parquetFlinkType is the Flink type a Parquet field reads as (the
// converse of the parquet format's schema).
func parquetFlinkType(c *parquet.Column) (*types.Type, error) {
	if c.Repeated() {
		elem, err := parquetRequiredType(c)
		if err != nil {
			return nil, err
		}
		return types.NewArray(elem.WithNullable(false)), nil
	}
	t, err := parquetRequiredType(c)
	if err != nil {
		return nil, err
	}
	return t.WithNullable(c.Optional()), nil
}

func parquetRequiredType(c *parquet.Column) (*types.Type, error) {
	if c.Leaf() {
		_, t, err := naturalConverter(c, &parquetCodec{})
		if err != nil {
			return nil, err
		}
		if t.Kind == types.Timestamp && c.Type().Kind() == parquet.Int96 {
			t = types.NewTimestamp(9)
		}
		return t, nil
	}
	var lt format.LogicalTypeValue
	if l := c.Type().LogicalType(); l != nil {
		lt = l.Value
	}
	ct := c.Type().ConvertedType()
	kids := c.Columns()
	switch {
	case (isLogical[*format.ListType](lt) || ct != nil && *ct == 3) && len(kids) == 1 && kids[0].Repeated():
		rpt := kids[0]
		if !rpt.Leaf() && len(rpt.Columns()) == 1 && rpt.Name() != "array" && rpt.Name() != c.Name()+"_tuple" {
			elem, err := parquetFlinkType(rpt.Columns()[0])
			if err != nil {
				return nil, err
			}
			return types.NewArray(elem), nil
		}
		elem, err := parquetRequiredType(rpt)
		if err != nil {
			return nil, err
		}
		return types.NewArray(elem.WithNullable(false)), nil
	case (isLogical[*format.MapType](lt) || ct != nil && (*ct == 1 || *ct == 2)) && len(kids) == 1 && len(kids[0].Columns()) == 2:
		k, err := parquetFlinkType(kids[0].Columns()[0])
		if err != nil {
			return nil, err
		}
		v, err := parquetFlinkType(kids[0].Columns()[1])
		if err != nil {
			return nil, err
		}
		return types.NewMap(k, v), nil
	}
	var fields []types.Field
	for _, k := range kids {
		t, err := parquetFlinkType(k)
		if err != nil {
			return nil, err
		}
		fields = append(fields, types.Field{Name: k.Name(), Type: t})
	}
	return types.NewRow(fields...), nil
}

func isLogical[T format.LogicalTypeValue](v format.LogicalTypeValue) bool {
	_, ok := v.(T)
	return ok
}

// inferAvro reads the schema of an Avro container. legacy is
// 'avro.timestamp_mapping.legacy': the format then reads timestamps as
// TIMESTAMP(3) only.
func inferAvro(f *os.File, legacy bool) ([]Column, error) {
	r := avro.NewReader(bufio.NewReader(f), 4096)
	var magic [4]byte
	r.Read(magic[:])
	if r.Error != nil || magic != [4]byte{'O', 'b', 'j', 1} {
		return nil, errors.New("not an Avro object container file")
	}
	meta := map[string][]byte{}
	for {
		n, _ := r.ReadBlockHeader()
		if n == 0 || r.Error != nil {
			break
		}
		for range n {
			k := r.ReadString()
			meta[k] = r.ReadBytes()
		}
	}
	if r.Error != nil {
		return nil, r.Error
	}
	s, err := avro.ParseBytesWithCache(meta["avro.schema"], "", &avro.SchemaCache{})
	if err != nil {
		return nil, err
	}
	rec, ok := s.(*avro.RecordSchema)
	if !ok {
		return nil, fmt.Errorf("the file's schema is a %s, not a record", s.Type())
	}
	var cols []Column
	for _, fl := range rec.Fields() {
		t, err := avroFlinkType(fl.Type(), legacy)
		if err != nil {
			return nil, fmt.Errorf("field '%s': %w", fl.Name(), err)
		}
		cols = append(cols, Column{Name: fl.Name(), Type: t})
	}
	return cols, nil
}

// avroFlinkType is the Flink type an Avro type reads as (Flink's
// AvroSchemaConverter.convertToDataType).
func avroFlinkType(s avro.Schema, legacy bool) (*types.Type, error) {
	if u, ok := s.(*avro.UnionSchema); ok {
		var other []avro.Schema
		for _, m := range u.Types() {
			if m.Type() != avro.Null {
				other = append(other, m)
			}
		}
		if len(other) != 1 {
			return nil, fmt.Errorf("a union of %d types other than null has no Flink type", len(other))
		}
		t, err := avroFlinkType(other[0], legacy)
		if err != nil {
			return nil, err
		}
		return t.WithNullable(len(other) < len(u.Types())), nil
	}
	var logical avro.LogicalType
	if ls, ok := s.(avro.LogicalTypeSchema); ok && ls.Logical() != nil {
		logical = ls.Logical().Type()
		if d, ok := ls.Logical().(*avro.DecimalLogicalSchema); ok {
			return types.NewDecimal(d.Precision(), d.Scale()).WithNullable(false), nil
		}
	}
	var t *types.Type
	switch s.Type() {
	case avro.Boolean:
		t = types.New(types.Boolean)
	case avro.Int:
		switch logical {
		case avro.Date:
			t = types.New(types.Date)
		case avro.TimeMillis:
			t = types.NewTime(3)
		default:
			t = types.New(types.Int)
		}
	case avro.Long:
		switch logical {
		case avro.TimestampMillis, avro.TimestampMicros, avroTimestampNanos,
			avro.LocalTimestampMillis, avro.LocalTimestampMicros, avroLocalTimestampNanos:
			p := map[avro.LogicalType]int{avro.TimestampMillis: 3, avro.TimestampMicros: 6, avroTimestampNanos: 9,
				avro.LocalTimestampMillis: 3, avro.LocalTimestampMicros: 6, avroLocalTimestampNanos: 9}[logical]
			local := logical == avro.LocalTimestampMillis || logical == avro.LocalTimestampMicros || logical == avroLocalTimestampNanos
			switch {
			case legacy:
				// The legacy mapping takes TIMESTAMP(3) only.
				t = types.NewTimestamp(3)
			case local:
				t = types.NewTimestamp(p)
			default:
				t = types.NewTimestampLTZ(p)
			}
		case avro.TimeMicros:
			t = types.NewTime(6)
		default:
			t = types.New(types.BigInt)
		}
	case avro.Float:
		t = types.New(types.Float)
	case avro.Double:
		t = types.New(types.Double)
	case avro.String, avro.Enum:
		t = types.NewString()
	case avro.Bytes:
		t = types.NewVarBinary(types.MaxLength)
	case avro.Fixed:
		t = types.NewVarBinary(types.MaxLength)
	case avro.Array:
		e, err := avroFlinkType(s.(*avro.ArraySchema).Items(), legacy)
		if err != nil {
			return nil, err
		}
		t = types.NewArray(e)
	case avro.Map:
		v, err := avroFlinkType(s.(*avro.MapSchema).Values(), legacy)
		if err != nil {
			return nil, err
		}
		t = types.NewMap(types.NewString().WithNullable(false), v)
	case avro.Record:
		var fields []types.Field
		for _, fl := range s.(*avro.RecordSchema).Fields() {
			ft, err := avroFlinkType(fl.Type(), legacy)
			if err != nil {
				return nil, err
			}
			fields = append(fields, types.Field{Name: fl.Name(), Type: ft})
		}
		t = types.NewRow(fields...)
	default:
		return nil, fmt.Errorf("the Avro type %s has no Flink type", s.Type())
	}
	return t.WithNullable(false), nil
}

// sampleType narrows the type of a column of text values as a sample is
// read: BIGINT, then DOUBLE, BOOLEAN, DATE, TIMESTAMP(3), else STRING.
type sampleType struct {
	seen                                       bool
	notInt, notDouble, notBool, notDate, notTS bool
}

func (s *sampleType) add(v string) {
	if v == "" {
		return
	}
	s.seen = true
	if _, err := strconv.ParseInt(v, 10, 64); err != nil {
		s.notInt = true
	}
	if _, err := strconv.ParseFloat(v, 64); err != nil {
		s.notDouble = true
	}
	if !strings.EqualFold(v, "true") && !strings.EqualFold(v, "false") {
		s.notBool = true
	}
	if _, err := time.Parse("2006-01-02", v); err != nil {
		s.notDate = true
	}
	if _, err := time.Parse("2006-01-02 15:04:05.999999999", v); err != nil {
		s.notTS = true
	}
}

func (s *sampleType) typ() *types.Type {
	switch {
	case !s.seen:
		return types.NewString()
	case !s.notInt:
		return types.New(types.BigInt)
	case !s.notDouble:
		return types.New(types.Double)
	case !s.notBool:
		return types.New(types.Boolean)
	case !s.notDate:
		return types.New(types.Date)
	case !s.notTS:
		return types.NewTimestamp(3)
	}
	return types.NewString()
}

func inferCSV(f io.Reader, c *csvOptions) ([]Column, error) {
	plain := *c
	plain.ignoreFirstLine = false
	dec := newCSVDecoder(skipBOM(f), "", &plain, nil)
	header, err := dec.r.Read()
	if err != nil {
		return nil, fmt.Errorf("reading the header: %w", err)
	}
	names := slices.Clone(header)
	samples := make([]sampleType, len(names))
	for range inferSample {
		rec, err := dec.r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		for i := range min(len(rec), len(samples)) {
			if c.nullLiteral == nil || rec[i] != *c.nullLiteral {
				samples[i].add(rec[i])
			}
		}
	}
	cols := make([]Column, len(names))
	for i, n := range names {
		if n = strings.TrimSpace(n); n == "" {
			n = fmt.Sprintf("f%d", i)
		}
		cols[i] = Column{Name: n, Type: samples[i].typ()}
	}
	return cols, nil
}

func inferJSON(f io.Reader) ([]Column, error) {
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	var names []string
	seen := map[string]*types.Type{}
	for n := 0; n < inferSample && sc.Scan(); {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		n++
		var obj map[string]json.RawMessage
		if err := json.Unmarshal([]byte(line), &obj); err != nil {
			return nil, fmt.Errorf("line %d is not a JSON object: %w", n, err)
		}
		keys := orderedKeys(line)
		for _, k := range keys {
			t := jsonType(obj[k])
			old, ok := seen[k]
			if !ok {
				names = append(names, k)
				seen[k] = t
				continue
			}
			seen[k] = widenJSON(old, t)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, errors.New("no JSON object in the first lines")
	}
	cols := make([]Column, len(names))
	for i, n := range names {
		t := seen[n]
		if t == nil {
			t = types.NewString()
		}
		cols[i] = Column{Name: n, Type: t}
	}
	return cols, nil
}

// orderedKeys returns the keys of a JSON object in the order written.
func orderedKeys(obj string) []string {
	dec := json.NewDecoder(strings.NewReader(obj))
	var keys []string
	if _, err := dec.Token(); err != nil {
		return nil
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return keys
		}
		k, _ := tok.(string)
		keys = append(keys, k)
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return keys
		}
	}
	return keys
}

// jsonType is the Flink type of a JSON value (nil for null).
func jsonType(raw json.RawMessage) *types.Type {
	s := strings.TrimSpace(string(raw))
	switch {
	case s == "" || s == "null":
		return nil
	case s == "true" || s == "false":
		return types.New(types.Boolean)
	case s[0] == '"':
		return types.NewString()
	case s[0] == '[':
		var elems []json.RawMessage
		if json.Unmarshal(raw, &elems) != nil {
			return types.NewString()
		}
		var et *types.Type
		for _, e := range elems {
			et = widenJSON(et, jsonType(e))
		}
		if et == nil {
			et = types.NewString()
		}
		return types.NewArray(et)
	case s[0] == '{':
		var obj map[string]json.RawMessage
		if json.Unmarshal(raw, &obj) != nil {
			return types.NewString()
		}
		var fields []types.Field
		for _, k := range orderedKeys(s) {
			ft := jsonType(obj[k])
			if ft == nil {
				ft = types.NewString()
			}
			fields = append(fields, types.Field{Name: k, Type: ft})
		}
		return types.NewRow(fields...)
	}
	if _, err := strconv.ParseInt(s, 10, 64); err == nil {
		return types.New(types.BigInt)
	}
	return types.New(types.Double)
}

// widenJSON is the type of a column holding values of both types.
func widenJSON(a, b *types.Type) *types.Type {
	switch {
	case a == nil:
		return b
	case b == nil || a.Equal(b):
		return a
	case a.Kind == types.BigInt && b.Kind == types.Double || a.Kind == types.Double && b.Kind == types.BigInt:
		return types.New(types.Double)
	}
	return types.NewString()
}
