package render

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/jedib0t/go-pretty/v6/table"
	"github.com/jedib0t/go-pretty/v6/text"

	"eddy/engine/result"
	"eddy/engine/types"
)

// The output formats other than tableau print a result's rows and nothing
// else a program would have to strip: csv, tsv, json and jsonl have no
// footer, so `eddy -e 'SELECT ...' --output csv > out.csv` is a clean
// export. markdown is a GitHub table; vertical prints one "column: value"
// block per row, for results too wide for a terminal, and the usual
// footer.
//
// A changelog result (a streaming query) is shown as its final rows when it
// is bounded: retractions (-U, -D) remove the rows they retract. An
// unbounded changelog, or any changelog in the changelog result mode, keeps
// every change and gains a leading op column.

// rowWriter prints rows in one format.
type rowWriter interface {
	begin(cols []result.Column)
	row(cells []any) // the values, nil for NULL
	// end finishes the output after n rows; cancelled means Ctrl-C stopped
	// the query.
	end(n int64, cancelled bool)
}

func newRowWriter(format string, w io.Writer, res *result.Result, opt Options) rowWriter {
	null := ""
	if res.IsQuery {
		null = nullValue
	}
	switch format {
	case FormatCSV:
		return &delimitedWriter{w: w, sep: ',', opt: opt}
	case FormatTSV:
		return &delimitedWriter{w: w, sep: '\t', opt: opt}
	case FormatJSON:
		return &jsonWriter{w: w, array: true, opt: opt}
	case FormatJSONL:
		return &jsonWriter{w: w, opt: opt}
	case FormatMarkdown:
		return &markdownWriter{w: w, null: null, opt: opt}
	}
	return &verticalWriter{w: w, null: null, opt: opt}
}

// formatted writes a row result in opt's output format.
func formatted(ctx context.Context, w io.Writer, res *result.Result, opt Options) error {
	cols := res.Columns
	withOp := res.Changelog && (opt.mode() == ModeChangelog || !res.Bounded)
	if withOp {
		cols = append([]result.Column{{Name: opColumn, Type: types.NewString()}}, cols...)
	}
	rw := newRowWriter(opt.format(), w, res, opt)
	rw.begin(cols)
	if res.Changelog && !withOp {
		rows, cancelled, err := collect(ctx, res)
		if err != nil {
			return err
		}
		final := applyChangelog(res.Columns, rows, opt)
		for _, r := range final {
			rw.row(r.Values)
		}
		rw.end(int64(len(final)), cancelled)
		return nil
	}
	var n int64
	for res.Rows != nil {
		r, ok, err := res.Rows.Next(ctx)
		if err != nil {
			if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
				rw.end(n, true)
				return nil
			}
			return err
		}
		if !ok {
			break
		}
		vals := r.Values
		if withOp {
			vals = append([]any{r.Kind.String()}, vals...)
		}
		rw.row(vals)
		n++
		if !res.Bounded {
			flush(w)
		}
	}
	rw.end(n, false)
	return nil
}

// applyChangelog returns the rows a changelog leaves: every -U or -D
// removes the row it retracts.
func applyChangelog(cols []result.Column, rows []result.Row, opt Options) []result.Row {
	var final []result.Row
	var keys [][]string
	for _, r := range rows {
		c := cells(cols, r, nullValue, opt)
		if r.Kind.IsAccumulate() {
			final, keys = append(final, r), append(keys, c)
			continue
		}
		for i := range keys {
			if equalCells(keys[i], c) {
				final, keys = append(final[:i], final[i+1:]...), append(keys[:i], keys[i+1:]...)
				break
			}
		}
	}
	return final
}

// text returns a value as the tableau view prints it, null for NULL.
func textCell(t *types.Type, v any, null string, opt Options) string {
	if v == nil {
		return null
	}
	return FormatValue(t, v, opt.Location)
}

// delimitedWriter writes CSV (RFC 4180) or, with a tab separator, TSV: a
// header line, then one line per row. A field is quoted when it holds the
// separator, a quote, a line break or surrounding blanks, or is an empty
// string; NULL is an empty unquoted field, so the two stay apart.
//
// The header waits for the first row, or for the end of a result without
// rows: a query that fails before its first row prints no header, only
// its error.
type delimitedWriter struct {
	w      io.Writer
	sep    byte
	opt    Options
	cols   []result.Column
	b      strings.Builder
	headed bool
}

func (d *delimitedWriter) begin(cols []result.Column) { d.cols = cols }

// header writes the header line once.
func (d *delimitedWriter) header() {
	if d.headed {
		return
	}
	d.headed = true
	names := make([]any, len(d.cols))
	for i, c := range d.cols {
		names[i] = c.Name
	}
	d.line(names, true)
}

func (d *delimitedWriter) row(vals []any) {
	d.header()
	d.line(vals, false)
}

func (d *delimitedWriter) line(vals []any, header bool) {
	d.b.Reset()
	for i := range d.cols {
		if i > 0 {
			d.b.WriteByte(d.sep)
		}
		var v any
		if i < len(vals) {
			v = vals[i]
		}
		if v == nil {
			continue
		}
		s, ok := v.(string)
		if !ok || !header {
			s = FormatValue(d.cols[i].Type, v, d.opt.Location)
		}
		d.field(s)
	}
	d.b.WriteByte('\n')
	io.WriteString(d.w, d.b.String())
}

func (d *delimitedWriter) field(s string) {
	quote := s == "" || strings.ContainsAny(s, "\"\r\n"+string(d.sep)) ||
		s[0] == ' ' || s[0] == '\t' || s[len(s)-1] == ' ' || s[len(s)-1] == '\t'
	if !quote {
		d.b.WriteString(s)
		return
	}
	d.b.WriteByte('"')
	d.b.WriteString(strings.ReplaceAll(s, `"`, `""`))
	d.b.WriteByte('"')
}

func (d *delimitedWriter) end(int64, bool) { d.header() }

// jsonWriter writes one JSON object per row, keys in column order: as one
// array (json) or one object per line (jsonl). Numbers and booleans are
// JSON numbers and booleans, ARRAY and MULTISET arrays, MAP and ROW
// objects, NULL null; other values are the strings the tableau view shows.
type jsonWriter struct {
	w     io.Writer
	array bool
	opt   Options
	cols  []result.Column
	keys  []string
	n     int
	b     strings.Builder
}

func (j *jsonWriter) begin(cols []result.Column) {
	j.cols = cols
	j.keys = make([]string, len(cols))
	for i, c := range cols {
		j.keys[i] = jsonString(c.Name)
	}
	if j.array {
		io.WriteString(j.w, "[")
	}
}

func (j *jsonWriter) row(vals []any) {
	j.b.Reset()
	if j.array {
		if j.n > 0 {
			j.b.WriteByte(',')
		}
		j.b.WriteByte('\n')
	}
	j.b.WriteByte('{')
	for i, c := range j.cols {
		if i > 0 {
			j.b.WriteByte(',')
		}
		j.b.WriteString(j.keys[i])
		j.b.WriteByte(':')
		var v any
		if i < len(vals) {
			v = vals[i]
		}
		j.b.WriteString(jsonValue(c.Type, v, j.opt))
	}
	j.b.WriteByte('}')
	if !j.array {
		j.b.WriteByte('\n')
	}
	io.WriteString(j.w, j.b.String())
	j.n++
}

func (j *jsonWriter) end(int64, bool) {
	if !j.array {
		return
	}
	if j.n > 0 {
		io.WriteString(j.w, "\n")
	}
	io.WriteString(j.w, "]\n")
}

// jsonString returns s as a JSON string; <, > and & stay as they are.
func jsonString(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}

// jsonValue returns the JSON text of a value of type t.
func jsonValue(t *types.Type, v any, opt Options) string {
	if v == nil {
		return "null"
	}
	kind := types.Kind(0)
	if t != nil {
		kind = t.Kind
	}
	switch kind {
	case types.Boolean:
		if b, ok := v.(bool); ok {
			if b {
				return "true"
			}
			return "false"
		}
	case types.TinyInt, types.SmallInt, types.Int, types.BigInt, types.Decimal:
		return FormatValue(t, v, opt.Location)
	case types.Float, types.Double:
		if f, ok := asFloat(v); ok && (math.IsNaN(f) || math.IsInf(f, 0)) {
			return jsonString(FormatValue(t, v, opt.Location))
		}
		return FormatValue(t, v, opt.Location)
	case types.Array, types.Multiset:
		if xs, ok := v.([]any); ok {
			parts := make([]string, len(xs))
			for i, x := range xs {
				parts[i] = jsonValue(t.Elem, x, opt)
			}
			return "[" + strings.Join(parts, ",") + "]"
		}
	case types.Row:
		if xs, ok := v.([]any); ok {
			var b strings.Builder
			b.WriteByte('{')
			for i, x := range xs {
				if i > 0 {
					b.WriteByte(',')
				}
				name, ft := "", (*types.Type)(nil)
				if i < len(t.Fields) {
					name, ft = t.Fields[i].Name, t.Fields[i].Type
				}
				b.WriteString(jsonString(name) + ":" + jsonValue(ft, x, opt))
			}
			b.WriteByte('}')
			return b.String()
		}
	case types.Map:
		if m, ok := v.(map[any]any); ok {
			entries := make([]string, 0, len(m))
			for k, x := range m {
				entries = append(entries, jsonString(FormatValue(t.Elem, k, opt.Location))+":"+jsonValue(t.Val, x, opt))
			}
			sort.Strings(entries)
			return "{" + strings.Join(entries, ",") + "}"
		}
	}
	return jsonString(FormatValue(t, v, opt.Location))
}

func asFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case float32:
		return float64(x), true
	}
	return 0, false
}

// markdownWriter collects the rows and writes a GitHub-flavoured Markdown
// table; numeric columns are right-aligned.
type markdownWriter struct {
	w    io.Writer
	null string
	opt  Options
	cols []result.Column
	tw   table.Writer
}

func (m *markdownWriter) begin(cols []result.Column) {
	m.cols = cols
	m.tw = table.NewWriter()
	header := make(table.Row, len(cols))
	var configs []table.ColumnConfig
	for i, c := range cols {
		header[i] = c.Name
		if isNumeric(c.Type) {
			configs = append(configs, table.ColumnConfig{Number: i + 1, Align: text.AlignRight})
		}
	}
	m.tw.AppendHeader(header)
	m.tw.SetColumnConfigs(configs)
}

func (m *markdownWriter) row(vals []any) {
	r := make(table.Row, len(m.cols))
	for i, c := range m.cols {
		var v any
		if i < len(vals) {
			v = vals[i]
		}
		r[i] = textCell(c.Type, v, m.null, m.opt)
	}
	m.tw.AppendRow(r)
}

func (m *markdownWriter) end(n int64, cancelled bool) {
	io.WriteString(m.w, m.tw.RenderMarkdown()+"\n")
	if cancelled {
		io.WriteString(m.w, queryTerminated(n)+"\n")
	}
}

func isNumeric(t *types.Type) bool {
	if t == nil {
		return false
	}
	switch t.Kind {
	case types.TinyInt, types.SmallInt, types.Int, types.BigInt, types.Decimal, types.Float, types.Double:
		return true
	}
	return false
}

// verticalWriter prints each row as a block of "column: value" lines under
// a numbered rule, names right-aligned (MySQL's \G layout), then the
// tableau footer.
type verticalWriter struct {
	w     io.Writer
	null  string
	opt   Options
	cols  []result.Column
	names []string
	n     int64
	b     strings.Builder
}

func (v *verticalWriter) begin(cols []result.Column) {
	v.cols = cols
	width := 0
	for _, c := range cols {
		width = max(width, displayWidth(c.Name))
	}
	v.names = make([]string, len(cols))
	for i, c := range cols {
		v.names[i] = strings.Repeat(" ", width-displayWidth(c.Name)) + c.Name
	}
}

func (v *verticalWriter) row(vals []any) {
	v.n++
	v.b.Reset()
	v.b.WriteString(verticalRule(v.n))
	v.b.WriteByte('\n')
	for i, c := range v.cols {
		var x any
		if i < len(vals) {
			x = vals[i]
		}
		v.b.WriteString(v.names[i] + ": " + textCell(c.Type, x, v.null, v.opt) + "\n")
	}
	io.WriteString(v.w, v.b.String())
}

func (v *verticalWriter) end(n int64, cancelled bool) {
	switch {
	case cancelled:
		io.WriteString(v.w, queryTerminated(n)+v.opt.elapsed()+"\n")
	case n == 0:
		io.WriteString(v.w, msgEmptySet+v.opt.elapsed()+"\n")
	default:
		io.WriteString(v.w, rowsInSet(n)+v.opt.elapsed()+"\n")
	}
}
