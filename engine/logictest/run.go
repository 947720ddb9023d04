package logictest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"eddy/engine"
	"eddy/engine/types"
)

// statementTimeout bounds one statement, rows included, so that a query
// that never ends fails its file instead of the whole test binary.
const statementTimeout = 2 * time.Minute

// Config says how files run.
type Config struct {
	// Open returns a fresh session for one file, over a real store. The
	// runner sets where its print sinks write.
	Open func(t *testing.T) *engine.Session
	// Rewrite writes the actual answers back into the files.
	Rewrite bool
}

// RunDir runs every file of dir (names starting with '.' aside) as a
// subtest named after it.
func RunDir(t *testing.T, dir string, cfg Config) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var n int
	for _, e := range entries {
		if e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		n++
		t.Run(e.Name(), func(t *testing.T) {
			RunFile(t, filepath.Join(dir, e.Name()), cfg)
		})
	}
	if n == 0 {
		t.Fatalf("no test files in %s", dir)
	}
}

// RunFile runs one file in a fresh session.
func RunFile(t *testing.T, path string, cfg Config) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	chunks, err := parse(path, string(src))
	if err != nil {
		t.Fatal(err)
	}
	r := &runner{t: t, path: path, dir: t.TempDir(), rewrite: cfg.Rewrite}
	r.s = cfg.Open(t)
	r.s.SetPrintOutput(&r.stdout, &r.stderr)
	for _, c := range chunks {
		if c.rec != nil {
			r.run(c.rec)
		}
	}
	if cfg.Rewrite {
		if out := format(chunks); out != string(src) {
			if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// runner runs the records of one file against one session.
type runner struct {
	t       *testing.T
	path    string
	s       *engine.Session
	dir     string // the file's temporary directory, $DIR
	rewrite bool

	stdout, stderr syncBuffer // what print sinks wrote
}

// answer is what a statement gave: its column types, its printed rows,
// or the error that ended it.
type answer struct {
	letters string
	lines   []string
	err     error
}

func (r *runner) run(rec *record) {
	r.t.Helper()
	switch {
	case rec.fields[0] == "statement" && len(rec.fields) == 2 && rec.fields[1] == "ok":
		r.noExpected(rec)
		if a := r.exec(rec, false); a.err != nil {
			r.t.Fatalf("%s: %s\nfailed: %s", r.pos(rec), r.sql(rec), r.errText(a.err))
		}
	case (rec.fields[0] == "statement" || rec.fields[0] == "query") && len(rec.fields) >= 2 && rec.fields[1] == "error":
		r.runError(rec)
	case rec.fields[0] == "query" && len(rec.fields) >= 2:
		r.runQuery(rec)
	case rec.fields[0] == "file" && len(rec.fields) == 2:
		r.noExpected(rec)
		p := filepath.Join(r.dir, rec.fields[1])
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			r.t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(strings.Join(rec.input, "\n")+"\n"), 0o644); err != nil {
			r.t.Fatal(err)
		}
	case rec.fields[0] == "print-output" && len(rec.fields) == 1:
		out := r.stdout.take()
		for _, l := range strings.SplitAfter(r.stderr.take(), "\n") {
			if l != "" {
				out += "stderr: " + l
			}
		}
		r.check(rec, out)
	default:
		r.t.Fatalf("%s: unknown directive %q", r.pos(rec), rec.header)
	}
}

func (r *runner) runError(rec *record) {
	r.t.Helper()
	a := r.exec(rec, false)
	if a.err == nil {
		r.t.Errorf("%s: %s\nsucceeded, want an error", r.pos(rec), r.sql(rec))
		return
	}
	got := r.errText(a.err)
	pattern := strings.TrimSpace(strings.SplitN(strings.TrimSpace(rec.header), " error", 2)[1])
	if pattern == "" {
		r.check(rec, got+"\n")
		return
	}
	r.noExpected(rec)
	if strings.Contains(got, pattern) {
		return
	}
	re, err := regexp.Compile(pattern)
	if err != nil || !re.MatchString(got) {
		r.t.Errorf("%s: %s\nerror: %s\nwant an error matching %q", r.pos(rec), r.sql(rec), got, pattern)
	}
}

func (r *runner) runQuery(rec *record) {
	r.t.Helper()
	var sortRows, materialized bool
	for _, opt := range rec.fields[2:] {
		switch opt {
		case "rowsort":
			sortRows = true
		case "materialize":
			materialized = true
		default:
			r.t.Fatalf("%s: unknown query option %q", r.pos(rec), opt)
		}
	}
	a := r.exec(rec, materialized)
	if a.err != nil {
		r.t.Errorf("%s: %s\nfailed: %s", r.pos(rec), r.sql(rec), r.errText(a.err))
		return
	}
	if want := rec.fields[1]; want != "any" && want != a.letters {
		if r.rewrite {
			rec.fields[1] = a.letters
			rec.header = strings.Join(rec.fields, " ")
		} else {
			r.t.Errorf("%s: %s\ncolumn types %s, want %s", r.pos(rec), r.sql(rec), a.letters, want)
		}
	}
	if sortRows {
		slices.Sort(a.lines)
	}
	var out strings.Builder
	for _, l := range a.lines {
		out.WriteString(l + "\n")
	}
	r.check(rec, out.String())
}

// noExpected fails on a record that has an expected output it cannot
// have, which would otherwise be ignored.
func (r *runner) noExpected(rec *record) {
	r.t.Helper()
	if rec.hasExpected {
		r.t.Fatalf("%s: %s takes no %q section", r.pos(rec), rec.header, separator)
	}
}

// check compares a record's output with the expected one, or records it
// when rewriting.
func (r *runner) check(rec *record, got string) {
	r.t.Helper()
	if r.rewrite {
		rec.hasExpected, rec.expected = true, got
		return
	}
	if !rec.hasExpected {
		r.t.Errorf("%s: %s\nno expected output (a %q line) for:\n%s", r.pos(rec), rec.header, separator, got)
		return
	}
	if got != rec.expected {
		r.t.Errorf("%s: %s\ngot:\n%s\nwant:\n%s", r.pos(rec), r.sql(rec), got, rec.expected)
	}
}

// exec runs a record's statement and reads all its rows.
func (r *runner) exec(rec *record, materialized bool) answer {
	ctx, cancel := context.WithTimeout(r.t.Context(), statementTimeout)
	defer cancel()
	res, err := r.s.Execute(ctx, r.sql(rec))
	if err != nil {
		return answer{err: err}
	}
	defer res.Close()
	a := answer{letters: typeLetters(res.Columns)}
	if res.Rows == nil {
		if res.Message != "" {
			a.lines = []string{r.untemp(res.Message)}
		}
		return a
	}
	var kinds []types.RowKind
	var rows [][]string
	for {
		row, ok, err := res.Rows.Next(ctx)
		if err != nil {
			return answer{err: err}
		}
		if !ok {
			break
		}
		kinds = append(kinds, row.Kind)
		rows = append(rows, formatCells(res.Columns, row.Values))
	}
	if materialized {
		lines, bad, ok := materialize(kinds, rows)
		if !ok {
			r.t.Errorf("%s: %s\nretracts %s, a row that is not there", r.pos(rec), r.sql(rec), bad)
		}
		a.lines = lines
	} else {
		for i, cells := range rows {
			a.lines = append(a.lines, formatRow(res.Changelog, kinds[i], cells))
		}
	}
	for i, l := range a.lines {
		a.lines[i] = r.untemp(l)
	}
	return a
}

// sql is a record's statement with $DIR replaced.
func (r *runner) sql(rec *record) string {
	return strings.ReplaceAll(strings.Join(rec.input, "\n"), "$DIR", r.dir)
}

// untemp prints the file's temporary directory as $DIR.
func (r *runner) untemp(s string) string { return strings.ReplaceAll(s, r.dir, "$DIR") }

// errText is an error as the shell prints it after its [ERROR] line.
func (r *runner) errText(err error) string { return r.untemp(engine.AsError(err).Error()) }

func (r *runner) pos(rec *record) string { return fmt.Sprintf("%s:%d", r.path, rec.line) }

// syncBuffer is a bytes.Buffer that print sinks may write to from the
// goroutines of background jobs.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// take returns what was written and empties the buffer.
func (b *syncBuffer) take() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := b.buf.String()
	b.buf.Reset()
	return s
}
