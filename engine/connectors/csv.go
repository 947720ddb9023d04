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

	"github.com/cockroachdb/apd/v3"

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
		line, _ := d.r.FieldPos(0)
		if len(rec) != len(d.ts) && !d.f.ignoreErrors {
			return types.Insert, false, d.parseError(line, fmt.Errorf("expected %d fields, found %d", len(d.ts), len(rec)))
		}
		for i, t := range d.ts {
			if i >= len(rec) {
				row[i] = nil
				continue
			}
			v, err := parseCSVField(rec[i], t, d.f.nullLiteral)
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
	if nullLiteral != nil && s == *nullLiteral {
		return nil, nil
	}
	if s == "" && !t.Kind.IsCharacterString() {
		return nil, nil
	}
	switch t.Kind {
	case types.Char, types.VarChar:
		return s, nil
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
	case *apd.Decimal:
		return x.Text('f')
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

type csvEncoder struct {
	buf *bufio.Writer
	w   *csv.Writer
	ts  []*types.Type
	rec []string
}

func newCSVEncoder(out io.Writer, f *csvOptions, ts []*types.Type) *csvEncoder {
	buf := bufio.NewWriterSize(out, bufferSize(out))
	w := csv.NewWriter(buf)
	w.Comma = f.delim
	return &csvEncoder{buf: buf, w: w, ts: ts, rec: make([]string, len(ts))}
}

// Write implements RowEncoder: csv rows carry no row kind.
func (e *csvEncoder) Write(_ types.RowKind, row []any) error {
	for i, v := range row {
		e.rec[i] = formatCSVField(v, e.ts[i])
	}
	return e.w.Write(e.rec)
}

// Flush implements RowEncoder.
func (e *csvEncoder) Flush() error {
	e.w.Flush()
	if err := e.w.Error(); err != nil {
		return err
	}
	return e.buf.Flush()
}
