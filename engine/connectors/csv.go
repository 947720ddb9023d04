package connectors

import (
	"bufio"
	"encoding/base64"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"eddy/engine/types"
)

// The csv format (connectors.md §4a): RFC 4180 records, fields by
// position, BINARY as base64, temporal values in their SQL text form. A
// row that cannot be read fails the statement with an error naming the
// file and line, unless 'csv.ignore-parse-errors' is set: then a bad field
// is NULL and a malformed record is skipped.

type csvDecoder struct {
	name string
	f    *csvOptions
	ts   []*types.Type
	r    *csv.Reader
	// header is a first record still to skip ('csv.ignore-first-line').
	header bool
}

func newCSVDecoder(in io.Reader, name string, f *csvOptions, ts []*types.Type) *csvDecoder {
	r := csv.NewReader(bufio.NewReaderSize(in, bufferSize(in)))
	r.Comma = f.delim
	r.FieldsPerRecord = -1
	r.ReuseRecord = true
	if f.allowComments {
		r.Comment = '#'
	}
	return &csvDecoder{name: name, f: f, ts: ts, r: r}
}

func (d *csvDecoder) parseError(line int, err error) error {
	return &Error{Exception: "IOException", Msg: fmt.Sprintf("Failed to deserialize CSV row '%s' (line %d): %v", d.name, line, err)}
}

// Next implements RowDecoder.
func (d *csvDecoder) Next(row []any) (types.RowKind, bool, error) {
	for {
		rec, err := d.r.Read()
		if err == io.EOF {
			return types.Insert, false, nil
		}
		if err != nil {
			if d.f.ignoreErrors {
				continue
			}
			line := 0
			var pe *csv.ParseError
			if ok := asParseError(err, &pe); ok {
				line = pe.StartLine
				err = pe.Err
			}
			return types.Insert, false, d.parseError(line, err)
		}
		if d.header {
			d.header = false
			continue
		}
		line, _ := d.r.FieldPos(0)
		if len(rec) != len(d.ts) && !d.f.ignoreErrors {
			return types.Insert, false, d.parseError(line, fmt.Errorf("expected %d fields, found %d", len(d.ts), len(rec)))
		}
		for i, t := range d.ts {
			if i >= len(rec) {
				row[i] = nil
				continue
			}
			v, err := parseCSVValue(rec[i], t, d.f.nullLiteral, d.f.arrayDelim)
			if err != nil {
				if d.f.ignoreErrors {
					row[i] = nil
					continue
				}
				return types.Insert, false, d.parseError(line, err)
			}
			row[i] = v
		}
		return types.Insert, true, nil
	}
}

func asParseError(err error, pe **csv.ParseError) bool {
	e, ok := err.(*csv.ParseError)
	if ok {
		*pe = e
	}
	return ok
}

// parseCSVField reads one CSV field as a value of type t. An empty field
// is NULL for every type but strings, as Flink's CSV format reads it.
func parseCSVField(s string, t *types.Type, nullLiteral *string) (any, error) {
	return parseCSVValue(s, t, nullLiteral, ";")
}

// parseCSVValue is parseCSVField with the 'csv.array-element-delimiter'
// that separates the elements of an ARRAY and the fields of a ROW.
func parseCSVValue(s string, t *types.Type, nullLiteral *string, arrayDelim string) (any, error) {
	if nullLiteral != nil && s == *nullLiteral {
		return nil, nil
	}
	if s == "" && !t.Kind.IsCharacterString() {
		return nil, nil
	}
	switch t.Kind {
	case types.Char, types.VarChar:
		return s, nil
	case types.Array, types.Multiset, types.Row:
		parts := strings.Split(s, arrayDelim)
		if t.Kind == types.Row && len(parts) != len(t.Fields) {
			return nil, fmt.Errorf("expected %d fields of %s, found %d", len(t.Fields), t, len(parts))
		}
		out := make([]any, len(parts))
		for i, p := range parts {
			et := t.Elem
			if t.Kind == types.Row {
				et = t.Fields[i].Type
			}
			v, err := parseCSVValue(p, et, nullLiteral, arrayDelim)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	case types.Binary, types.VarBinary:
		return base64.StdEncoding.DecodeString(s)
	case types.TimestampLTZ:
		s = strings.TrimSuffix(strings.TrimSpace(s), "Z")
		v, err := types.CastValue(s, types.NewString(), types.NewTimestamp(t.Prec))
		if err != nil {
			return nil, err
		}
		return v, nil
	}
	return types.CastValue(strings.TrimSpace(s), types.NewString(), t)
}

// formatCSVField writes a value as Flink's CSV format does.
func formatCSVField(v any, t *types.Type) string {
	switch x := v.(type) {
	case nil:
		return ""
	case []byte:
		return base64.StdEncoding.EncodeToString(x)
	case bool:
		return strconv.FormatBool(x)
	case *decimal.Decimal:
		return types.DecimalText(x)
	case string:
		return x
	case time.Time:
		if t.Kind == types.TimestampLTZ {
			return x.UTC().Format("2006-01-02 15:04:05.999999999") + "Z"
		}
		return x.Format("2006-01-02 15:04:05.999999999")
	}
	return types.ValueString(v, t)
}

// csvEncoder writes records as Flink's CSV format (Jackson's CSV
// generator) does: numbers and Booleans as they are, a DECIMAL without
// trailing zeros in Java's BigDecimal form (1E+5, 1.5), NULL as
// 'csv.null-literal' (empty by default), ARRAY and ROW values as their
// elements joined by 'csv.array-element-delimiter', and a text value
// quoted only when it holds the quote character, the delimiter, a
// character below both of them and the line end, or starts with '#'.
type csvEncoder struct {
	buf     *bufio.Writer
	f       *csvOptions
	ts      []*types.Type
	minSafe rune
	line    []byte
}

func newCSVEncoder(out io.Writer, f *csvOptions, ts []*types.Type) *csvEncoder {
	minSafe := max(f.delim, '\n')
	if !f.noQuote {
		minSafe = max(minSafe, f.quote)
	}
	return &csvEncoder{buf: bufio.NewWriterSize(out, bufferSize(out)), f: f, ts: ts, minSafe: minSafe + 1}
}

// Write implements RowEncoder: csv rows carry no row kind.
func (e *csvEncoder) Write(_ types.RowKind, row []any) error {
	b := e.line[:0]
	for i, v := range row {
		if i > 0 {
			b = utf8.AppendRune(b, e.f.delim)
		}
		b = e.appendField(b, v, e.ts[i])
	}
	b = append(b, '\n')
	e.line = b
	_, err := e.buf.Write(b)
	return err
}

func (e *csvEncoder) appendField(b []byte, v any, t *types.Type) []byte {
	if v == nil {
		if e.f.nullLiteral != nil {
			return append(b, *e.f.nullLiteral...)
		}
		return b
	}
	switch x := v.(type) {
	case bool, int8, int16, int32, int64, float32, float64:
		if t.Kind != types.Date && t.Kind != types.IntervalYearMonth && t.Kind != types.IntervalDayTime {
			return append(b, formatCSVField(v, t)...)
		}
	case *decimal.Decimal:
		return append(b, types.DecimalJavaString(types.DecimalStripped(x))...)
	}
	return e.appendText(b, e.f.csvText(v, t))
}

// csvText is a value's text in a CSV field before quoting.
func (f *csvOptions) csvText(v any, t *types.Type) string {
	var elems []any
	var ets []*types.Type
	switch t.Kind {
	case types.Array, types.Multiset:
		elems = v.([]any)
		for range elems {
			ets = append(ets, t.Elem)
		}
	case types.Row:
		elems = v.([]any)
		for _, fl := range t.Fields {
			ets = append(ets, fl.Type)
		}
	default:
		if d, ok := v.(*decimal.Decimal); ok {
			return types.DecimalJavaString(types.DecimalStripped(d))
		}
		return formatCSVField(v, t)
	}
	parts := make([]string, len(elems))
	for i, e := range elems {
		if e == nil {
			if f.nullLiteral != nil {
				parts[i] = *f.nullLiteral
			}
			continue
		}
		parts[i] = f.csvText(e, ets[i])
	}
	return strings.Join(parts, f.arrayDelim)
}

func (e *csvEncoder) appendText(b []byte, s string) []byte {
	if e.f.noQuote || !e.needsQuotes(s) {
		return append(b, s...)
	}
	b = utf8.AppendRune(b, e.f.quote)
	for _, r := range s {
		if r == e.f.quote {
			b = utf8.AppendRune(b, r)
		}
		b = utf8.AppendRune(b, r)
	}
	return utf8.AppendRune(b, e.f.quote)
}

func (e *csvEncoder) needsQuotes(s string) bool {
	if strings.HasPrefix(s, "#") {
		return true
	}
	for _, r := range s {
		if r < e.minSafe || r == e.f.quote || r == e.f.delim {
			return true
		}
	}
	return false
}

// Flush implements RowEncoder.
func (e *csvEncoder) Flush() error { return e.buf.Flush() }
