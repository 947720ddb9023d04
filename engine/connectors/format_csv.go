package connectors

import (
	"bytes"
	"io"
	"strings"

	"eddy/engine/types"
	"eddy/engine/vector"
)

// csvFormat is the csv format (connectors.md §4a, Flink's CsvFormatFactory).
func csvFormat() *Format {
	return &Format{
		Identifier: "csv",
		Options: []string{
			"csv.field-delimiter", "csv.disable-quote-character", "csv.quote-character", "csv.allow-comments",
			"csv.ignore-parse-errors", "csv.array-element-delimiter", "csv.escape-character", "csv.null-literal",
			"csv.write-bigdecimal-in-scientific-notation", "csv.ignore-first-line",
		},
		Configure: func(o map[string]string) (Codec, error) { return newCSVOptions(o) },
	}
}

// csvOptions is a configured csv format.
type csvOptions struct {
	delim         rune
	quote         rune
	noQuote       bool // 'csv.disable-quote-character'
	escape        rune // 'csv.escape-character', 0 for none
	allowComments bool
	ignoreErrors  bool
	nullLiteral   *string
	arrayDelim    string // 'csv.array-element-delimiter'
	// ignoreFirstLine skips the first record of each file, a header of
	// column names ('csv.ignore-first-line', an eddy extension: Flink's
	// csv format has no such option and its gateway refuses the key).
	ignoreFirstLine bool
}

func newCSVOptions(o map[string]string) (*csvOptions, error) {
	f := &csvOptions{delim: ',', quote: '"', arrayDelim: ";"}
	if d, ok := o["csv.array-element-delimiter"]; ok {
		f.arrayDelim = d
	}
	if d, ok := o["csv.field-delimiter"]; ok {
		d = strings.ReplaceAll(d, `\t`, "\t")
		r := []rune(d)
		if len(r) != 1 {
			return nil, validationError("Option 'csv.field-delimiter' must be a string with single character, but was: %s", o["csv.field-delimiter"])
		}
		f.delim = r[0]
	}
	if err := boolOption(o, "csv.disable-quote-character", &f.noQuote); err != nil {
		return nil, err
	}
	_, hasQuote := o["csv.quote-character"]
	if f.noQuote && hasQuote {
		return nil, validationError("Format cannot define a quote character and disabled quote character at the same time.")
	}
	if q, ok := o["csv.quote-character"]; ok {
		r := []rune(q)
		if len(r) != 1 {
			return nil, validationError("Option 'csv.quote-character' must be a string with single character, but was: %s", q)
		}
		f.quote = r[0]
	}
	if e, ok := o["csv.escape-character"]; ok {
		r := []rune(e)
		if len(r) != 1 {
			return nil, validationError("Option 'csv.escape-character' must be a string with single character, but was: %s", e)
		}
		f.escape = r[0]
	}
	if err := boolOption(o, "csv.ignore-parse-errors", &f.ignoreErrors); err != nil {
		return nil, err
	}
	if err := boolOption(o, "csv.allow-comments", &f.allowComments); err != nil {
		return nil, err
	}
	if err := boolOption(o, "csv.ignore-first-line", &f.ignoreFirstLine); err != nil {
		return nil, err
	}
	if n, ok := o["csv.null-literal"]; ok {
		f.nullLiteral = &n
	}
	return f, nil
}

// Decoder implements Codec with encoding/csv, which takes any delimiter.
// A UTF-8 byte-order mark at the start is not data.
func (f *csvOptions) Decoder(r io.Reader, name string, cols []Column) RowDecoder {
	d := newCSVDecoder(skipBOM(r), name, f, columnTypes(cols))
	d.header = f.ignoreFirstLine
	return d
}

// Encoder implements Codec.
func (f *csvOptions) Encoder(w io.Writer, cols []Column) RowEncoder {
	return newCSVEncoder(w, f, columnTypes(cols))
}

// ReadBulk implements BulkCodec: straight into vectors when the
// delimiter, quote and escape characters are single bytes.
func (f *csvOptions) ReadBulk(r io.Reader, name string, cols []Column, needed []bool) BulkReader {
	if !f.byteOptions() {
		return NewBulkReader(f.Decoder(r, name, cols), len(cols))
	}
	d := newCSVBatchDecoder(skipBOM(r), name, f, columnTypes(cols), needed)
	d.header = f.ignoreFirstLine
	return d
}

// DecodeMessage implements MessageDecoder: a message is read by the same
// scanner as a file (quote and escape characters included) when the
// options are single bytes.
func (f *csvOptions) DecodeMessage(msg []byte, cols []Column) ([][]any, []types.RowKind, error) {
	if !f.byteOptions() {
		return decodeAll(f.Decoder(bytes.NewReader(msg), "message", cols), len(cols))
	}
	br := newCSVBatchDecoder(bytes.NewReader(msg), "message", f, columnTypes(cols), nil)
	vecs := make([]*vector.Vec, len(cols))
	for i, c := range cols {
		vecs[i] = vector.New(c.Type, 1)
	}
	total := 0
	for {
		n, eof, err := br.Read(vecs, vector.BatchSize)
		if err != nil {
			return nil, nil, err
		}
		total += n
		if eof {
			break
		}
	}
	rows := make([][]any, total)
	kinds := make([]types.RowKind, total)
	for i := range rows {
		rows[i] = make([]any, len(cols))
		for j, v := range vecs {
			rows[i][j] = v.Get(i)
		}
	}
	return rows, kinds, nil
}

// boolOption reads an optional Boolean option into dst.
func boolOption(o map[string]string, key string, dst *bool) error {
	if v, ok := o[key]; ok {
		b, err := parseBool(key, v)
		if err != nil {
			return err
		}
		*dst = b
	}
	return nil
}

func columnTypes(cols []Column) []*types.Type {
	ts := make([]*types.Type, len(cols))
	for i, c := range cols {
		ts[i] = c.Type
	}
	return ts
}
