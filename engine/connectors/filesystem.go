package connectors

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/cockroachdb/apd/v3"

	"eddy/engine/types"
	"eddy/engine/vector"
)

// The filesystem connector with the csv format (connectors.md §4, §4a):
// 'path' is a directory of part files (or one file), read in name order;
// an INSERT writes one new part file, first under a hidden in-progress
// name, renamed into place at Commit, so a failed INSERT leaves the
// directory as it was. INSERT OVERWRITE removes the old part files at
// Commit.

func localPath(p string) string {
	return strings.TrimPrefix(p, "file://")
}

func csvOptions(t *Table) (delim rune, ignoreErrors bool, nullLiteral *string, err error) {
	if f := strings.ToLower(t.Options["format"]); f != "csv" {
		return 0, false, nil, &Error{Exception: "ValidationException", Msg: fmt.Sprintf(
			"Could not find any format factory for identifier '%s' in the classpath.", t.Options["format"])}
	}
	delim = ','
	if d, ok := t.Options["csv.field-delimiter"]; ok {
		d = strings.ReplaceAll(d, `\t`, "\t")
		r := []rune(d)
		if len(r) != 1 {
			return 0, false, nil, &Error{Exception: "ValidationException", Msg: "Option 'csv.field-delimiter' must be a string with single character, but was: " + d}
		}
		delim = r[0]
	}
	ignoreErrors = strings.EqualFold(t.Options["csv.ignore-parse-errors"], "true")
	if n, ok := t.Options["csv.null-literal"]; ok {
		nullLiteral = &n
	}
	return delim, ignoreErrors, nullLiteral, nil
}

// dataFiles lists the visible data files under a path.
func dataFiles(root string) ([]string, error) {
	st, err := os.Stat(root)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, nil
		}
		return nil, err
	}
	if !st.IsDir() {
		return []string{root}, nil
	}
	var files []string
	err = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if p != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.IsDir() {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	return files, err
}

type fileReader struct {
	t            *Table
	files        []string
	delim        rune
	ignoreErrors bool
	nullLiteral  *string
	cur          *os.File
	r            *csv.Reader
	name         string
	line         int
}

func openFileReader(_ context.Context, t *Table) (Reader, error) {
	delim, ignore, null, err := csvOptions(t)
	if err != nil {
		return nil, err
	}
	p, ok := t.Options["path"]
	if !ok {
		return nil, &Error{Exception: "ValidationException", Msg: "Missing required options are:\n\npath"}
	}
	files, err := dataFiles(localPath(p))
	if err != nil {
		return nil, err
	}
	return &fileReader{t: t, files: files, delim: delim, ignoreErrors: ignore, nullLiteral: null}, nil
}

func (f *fileReader) Next(ctx context.Context) (*vector.Batch, error) {
	ts := f.t.Types()
	out := vector.NewBatch(ts, vector.BatchSize)
	row := make([]any, len(ts))
	for out.N < vector.BatchSize {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if f.r == nil {
			if len(f.files) == 0 {
				break
			}
			file, err := os.Open(f.files[0])
			if err != nil {
				return nil, err
			}
			f.cur, f.name, f.line = file, f.files[0], 0
			f.files = f.files[1:]
			f.r = csv.NewReader(bufio.NewReader(file))
			f.r.Comma = f.delim
			f.r.FieldsPerRecord = -1
		}
		rec, err := f.r.Read()
		if err == io.EOF {
			f.cur.Close()
			f.r, f.cur = nil, nil
			continue
		}
		f.line++
		if err != nil {
			if f.ignoreErrors {
				continue
			}
			return nil, &Error{Exception: "IOException", Msg: fmt.Sprintf("Failed to deserialize CSV row '%s' (line %d): %v", f.name, f.line, err)}
		}
		ok, perr := f.parse(rec, ts, row)
		if perr != nil {
			return nil, perr
		}
		if ok {
			out.AppendRow(types.Insert, row)
		}
	}
	if out.N == 0 {
		return nil, nil
	}
	return out, nil
}

func (f *fileReader) parse(rec []string, ts []*types.Type, row []any) (bool, error) {
	if len(rec) != len(ts) && !f.ignoreErrors {
		return false, &Error{Exception: "IOException", Msg: fmt.Sprintf(
			"Failed to deserialize CSV row '%s' (line %d): expected %d fields, found %d", f.name, f.line, len(ts), len(rec))}
	}
	for i, t := range ts {
		if i >= len(rec) {
			row[i] = nil
			continue
		}
		v, err := parseField(rec[i], t, f.nullLiteral)
		if err != nil {
			if f.ignoreErrors {
				row[i] = nil
				continue
			}
			return false, &Error{Exception: "IOException", Msg: fmt.Sprintf(
				"Failed to deserialize CSV row '%s' (line %d): %v", f.name, f.line, err)}
		}
		row[i] = v
	}
	return true, nil
}

// parseField reads one CSV field as a value of type t. An empty field is
// NULL for every type but strings, as Flink's CSV format reads it.
func parseField(s string, t *types.Type, nullLiteral *string) (any, error) {
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
	}
	return types.CastValue(strings.TrimSpace(s), types.NewString(), t)
}

func (f *fileReader) Close() error {
	if f.cur != nil {
		f.cur.Close()
		f.cur, f.r = nil, nil
	}
	return nil
}

// formatField writes a value as Flink's CSV format does.
func formatField(v any, t *types.Type) string {
	switch x := v.(type) {
	case nil:
		return ""
	case []byte:
		return base64.StdEncoding.EncodeToString(x)
	case bool:
		return strconv.FormatBool(x)
	case *apd.Decimal:
		return x.Text('f')
	case time.Time:
		if t.Kind == types.TimestampLTZ {
			return x.UTC().Format("2006-01-02 15:04:05.999999999") + "Z"
		}
		return x.Format("2006-01-02 15:04:05.999999999")
	}
	return types.ValueString(v, t)
}

type fileWriter struct {
	t         *Table
	dir       string
	delim     rune
	overwrite bool
	tmp       *os.File
	buf       *bufio.Writer
	w         *csv.Writer
	final     string
}

func openFileWriter(t *Table, spec WriteSpec) (Writer, error) {
	delim, _, _, err := csvOptions(t)
	if err != nil {
		return nil, err
	}
	p, ok := t.Options["path"]
	if !ok {
		return nil, &Error{Exception: "ValidationException", Msg: "Missing required options are:\n\npath"}
	}
	if spec.Overwrite && spec.Streaming {
		return nil, &Error{Exception: "IllegalStateException", Msg: "Streaming mode not support overwrite."}
	}
	return &fileWriter{t: t, dir: localPath(p), delim: delim, overwrite: spec.Overwrite}, nil
}

func (w *fileWriter) open() error {
	if err := os.MkdirAll(w.dir, 0o755); err != nil {
		return err
	}
	name := fmt.Sprintf("part-%d-0-0", time.Now().UnixNano())
	w.final = filepath.Join(w.dir, name)
	f, err := os.Create(filepath.Join(w.dir, "."+name+".inprogress"))
	if err != nil {
		return err
	}
	w.tmp = f
	w.buf = bufio.NewWriter(f)
	w.w = csv.NewWriter(w.buf)
	w.w.Comma = w.delim
	return nil
}

func (w *fileWriter) Write(ctx context.Context, b *vector.Batch) error {
	if w.tmp == nil {
		if err := w.open(); err != nil {
			return err
		}
	}
	ts := w.t.Types()
	rec := make([]string, len(ts))
	for i := range b.N {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		for c, v := range b.Cols {
			rec[c] = formatField(v.Get(i), ts[c])
		}
		if err := w.w.Write(rec); err != nil {
			return err
		}
	}
	return nil
}

func (w *fileWriter) Commit(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	var old []string
	if w.overwrite {
		files, err := dataFiles(w.dir)
		if err != nil {
			return err
		}
		old = files
	}
	if w.tmp != nil {
		w.w.Flush()
		if err := w.w.Error(); err != nil {
			return err
		}
		if err := w.buf.Flush(); err != nil {
			return err
		}
		if err := w.tmp.Close(); err != nil {
			return err
		}
		if err := os.Rename(w.tmp.Name(), w.final); err != nil {
			return err
		}
		w.tmp = nil
	}
	for _, f := range old {
		if err := os.Remove(f); err != nil {
			return err
		}
	}
	return nil
}

func (w *fileWriter) Abort() error {
	if w.tmp == nil {
		return nil
	}
	w.tmp.Close()
	err := os.Remove(w.tmp.Name())
	w.tmp = nil
	return err
}
