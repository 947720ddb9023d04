package repl

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"eddy/engine"
	"eddy/engine/types"
	"eddy/repl/render"
)

func TestHighlight(t *testing.T) {
	h := newHighlighter(nil, nil)
	got := h.paint("SELECT 'a;b', 42, x FROM t -- note", 0)
	want := styleKeyword + "SELECT" + styleReset + " " + styleString + "'a;b'" + styleReset + ", " +
		styleNumber + "42" + styleReset + ", x " + styleKeyword + "FROM" + styleReset + " t " +
		styleComment + "-- note" + styleReset
	if got != want {
		t.Errorf("paint:\n%q\nwant\n%q", got, want)
	}
	// A literal opened on an earlier line goes on on this one; an open one
	// runs to the end.
	got = h.paint("SELECT 'first\nsecond' from t where s = 'op", len("SELECT 'first\n"))
	want = styleString + "second'" + styleReset + " " + styleKeyword + "from" + styleReset + " t " +
		styleKeyword + "where" + styleReset + " s = " + styleString + "'op" + styleReset
	if got != want {
		t.Errorf("paint across lines:\n%q\nwant\n%q", got, want)
	}
	if got := h.paint("/* open comment", 0); got != styleComment+"/* open comment"+styleReset {
		t.Errorf("open comment: %q", got)
	}
	// Names are not keywords; the plain text comes back unchanged.
	plain := h.paint("orders.amount", 0)
	if plain != "orders.amount" {
		t.Errorf("names painted: %q", plain)
	}
	off := newHighlighter(nil, func() bool { return false })
	if got := string(off.Paint([]rune("SELECT 1"), 8)); got != "SELECT 1" {
		t.Errorf("highlighting off: %q", got)
	}
}

func TestPrompt(t *testing.T) {
	for _, tc := range []struct{ tmpl, want string }{
		{"", "cat.db> "},
		{"%c.%d> ", "cat.db> "},
		{"[%d]%% ", "[db]% "},
		{"eddy %x> ", "eddy %x> "},
		{"end%", "end%"},
		{"%c.%d [%m]> ", "cat.db [batch]> "},
	} {
		if got := expandPrompt(tc.tmpl, "cat", "db", "batch"); got != tc.want {
			t.Errorf("expandPrompt(%q) = %q, want %q", tc.tmpl, got, tc.want)
		}
	}
	sess := &fakeSession{opts: render.Options{Prompt: "%d> "}}
	sh := New(sess, Config{})
	if got := sh.prompt(1); got != "default_database> " {
		t.Errorf("prompt = %q", got)
	}
	if got := sh.prompt(2); got != "               -> " || len(got) != len("default_database> ") {
		t.Errorf("continuation = %q", got)
	}
	sess.opts.ShowLineNumbers = true
	if got := sh.prompt(12); got != "             12-> " {
		t.Errorf("numbered continuation = %q", got)
	}
}

// TestPromptLines drives the loop: the continuation prompts count the
// statement's lines.
func TestPromptLines(t *testing.T) {
	sess := &fakeSession{opts: render.Options{ResultMode: render.ModeTableau, Prompt: "sql> ", ShowLineNumbers: true}}
	sh := New(sess, Config{Out: &bytes.Buffer{}, Interactive: true})
	src := &scriptedSource{lines: []string{"SELECT", "1,", "2;", "SHOW TABLES;"}}
	sh.runLines(context.Background(), src, true)
	want := []string{"sql> ", " 2-> ", " 3-> ", "sql> ", "sql> "}
	if !reflect.DeepEqual(src.prompts, want) {
		t.Errorf("prompts %q, want %q", src.prompts, want)
	}
}

// timedSession counts as a session whose print-time-cost was set
// explicitly when explicit is true.
type timedSession struct {
	fakeSession
	explicit bool
}

func (s *timedSession) OptionIsSet(key string) bool {
	return s.explicit && key == "sql-client.display.print-time-cost"
}

func TestTimeCostPiped(t *testing.T) {
	for _, explicit := range []bool{false, true} {
		sess := &timedSession{fakeSession{opts: render.Options{ResultMode: render.ModeTableau, PrintTimeCost: true}}, explicit}
		var out bytes.Buffer
		sh := New(sess, Config{In: strings.NewReader("query;\n"), Out: &out})
		sh.Run(context.Background())
		if got := strings.Contains(out.String(), "1 row in set ("); got != explicit {
			t.Errorf("explicit=%v: time cost shown %v:\n%s", explicit, got, out.String())
		}
	}
	// At a terminal the default (on) applies.
	sess := &timedSession{fakeSession: fakeSession{opts: render.Options{ResultMode: render.ModeTableau, PrintTimeCost: true}}}
	var b bytes.Buffer
	New(sess, Config{}).ExecStatement(context.Background(), "query", &b)
	if !strings.Contains(b.String(), "1 row in set (0.") {
		t.Errorf("interactive: no time cost:\n%s", b.String())
	}
}

func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestSource(t *testing.T) {
	dir := t.TempDir()
	inner := writeFile(t, dir, "inner.sql", "SET 'inner' = '1';\r\nrows")
	outer := writeFile(t, dir, "outer.sql", "\uFEFFSET 'a' = 'b';\nSOURCE '"+inner+"';\n-- done\n")
	bad := writeFile(t, dir, "bad.sql", "SET 'x' = 'y';\nfail here;\nSET 'never' = 'run';\n")
	loop := writeFile(t, dir, "loop.sql", "")
	writeFile(t, dir, "loop.sql", "SOURCE '"+loop+"';\n")

	r := runPiped(t, "source '"+outer+"';\nSET 'after' = 'x';\n", false)
	wantGot := []string{"SET 'a' = 'b'", "SET 'inner' = '1'", "rows", "SET 'after' = 'x'"}
	if !reflect.DeepEqual(r.sess.got, wantGot) || r.code != 0 {
		t.Errorf("executed %q (exit %d, stderr %q), want %q", r.sess.got, r.code, r.err.String(), wantGot)
	}
	wantOut := "[INFO] Execute statement succeeded.\n\n[INFO] Execute statement succeeded.\n\n" +
		"+-----+\n| key |\n+-----+\n| a.b |\n|     |\n+-----+\n2 rows in set\n\n" +
		"[INFO] Execute statement succeeded.\n\n"
	if r.out.String() != wantOut {
		t.Errorf("output:\n%s\nwant:\n%s", r.out.String(), wantOut)
	}

	// The first failure stops the file, as -f does; piped, it stops the run.
	r = runPiped(t, "SOURCE '"+bad+"';\nSET 'after' = 'x';\n", false)
	if want := []string{"SET 'x' = 'y'", "fail here"}; !reflect.DeepEqual(r.sess.got, want) || r.code != 1 {
		t.Errorf("bad file: executed %q, exit %d", r.sess.got, r.code)
	}
	// At a terminal the session goes on.
	sess := &fakeSession{opts: render.Options{ResultMode: render.ModeTableau}}
	var out bytes.Buffer
	sh := New(sess, Config{Out: &out, Interactive: true})
	src := &scriptedSource{lines: []string{"SOURCE '" + bad + "';", "SET 'after' = 'x';"}}
	sh.runLines(context.Background(), src, true)
	if want := []string{"SET 'x' = 'y'", "fail here", "SET 'after' = 'x'"}; !reflect.DeepEqual(sess.got, want) {
		t.Errorf("interactive: executed %q", sess.got)
	}
	if !strings.Contains(out.String(), "ValidationException: no such thing: fail here") {
		t.Errorf("interactive: %s", out.String())
	}

	r = runPiped(t, "SOURCE '"+filepath.Join(dir, "missing.sql")+"';\n", false)
	if r.code != 1 || !strings.Contains(r.err.String(), "SqlExecutionException: Could not read file '"+filepath.Join(dir, "missing.sql")+"': no such file or directory") {
		t.Errorf("missing file: exit %d, %q", r.code, r.err.String())
	}
	r = runPiped(t, "SOURCE '"+loop+"';\n", false)
	if r.code != 1 || !strings.Contains(r.err.String(), "nested more than 16 files deep") {
		t.Errorf("a file that sources itself: exit %d, %q", r.code, r.err.String())
	}
	// SOURCE with another shape is SQL for the engine.
	r = runPiped(t, "SOURCE x;\n", false)
	if want := []string{"SOURCE x"}; !reflect.DeepEqual(r.sess.got, want) {
		t.Errorf("SOURCE x: executed %q", r.sess.got)
	}
}

// slowSession answers "slow" with rows that take a while to come.
type slowSession struct{ fakeSession }

func (s *slowSession) Execute(ctx context.Context, sql string) (*engine.Result, error) {
	if sql != "slow" {
		return s.fakeSession.Execute(ctx, sql)
	}
	return &engine.Result{Kind: engine.ResultRows, IsQuery: true, Bounded: true,
		Columns: []engine.Column{{Name: "n", Type: types.New(types.Int)}},
		Rows:    &slowRows{left: 3, pause: 150 * time.Millisecond}}, nil
}

type slowRows struct {
	left  int
	pause time.Duration
}

func (r *slowRows) Next(ctx context.Context) (engine.Row, bool, error) {
	if r.left == 0 {
		return engine.Row{}, false, nil
	}
	select {
	case <-ctx.Done():
		return engine.Row{}, false, ctx.Err()
	case <-time.After(r.pause):
	}
	r.left--
	return engine.Row{Values: []any{int32(r.left)}}, true, nil
}

func (r *slowRows) Close() error { return nil }

// lockedBuffer is a buffer written by the status line's goroutine.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestProgress(t *testing.T) {
	sess := &slowSession{fakeSession{opts: render.Options{ResultMode: render.ModeTableau}}}
	var status lockedBuffer
	var out bytes.Buffer
	sh := New(sess, Config{Out: &out, Interactive: true, Progress: &status, ProgressDelay: 100 * time.Millisecond})
	w := sh.newWriters(true)
	sh.exec(context.Background(), "slow", w.out, w.err, true)
	w.flush()
	s := status.String()
	if !strings.Contains(s, "\rRunning for 0.") || !strings.Contains(s, " rows received so far (Ctrl-C cancels)") {
		t.Errorf("no status line: %q", s)
	}
	if !strings.HasSuffix(s, "\r"+eraseLine) {
		t.Errorf("status line not erased at the end: %q", s)
	}
	if !strings.Contains(s, "2 rows received") && !strings.Contains(s, "1 row received") {
		t.Errorf("rows not counted: %q", s)
	}
	if !strings.Contains(out.String(), "3 rows in set") || strings.Contains(out.String(), "Running") {
		t.Errorf("answer: %q", out.String())
	}
	// A quick statement shows none; neither does a shell without a
	// terminal for it.
	status = lockedBuffer{}
	sh.exec(context.Background(), "query", w.out, w.err, true)
	if status.String() != "" {
		t.Errorf("quick statement: %q", status.String())
	}
	var piped bytes.Buffer
	sh = New(sess, Config{In: strings.NewReader("slow;\n"), Out: &piped, Progress: &status, ProgressDelay: time.Millisecond})
	sh.cfg.In = strings.NewReader("SET 'sql-client.execution.result-mode' = 'tableau';\nslow;\n")
	sh.Run(context.Background())
	if status.String() != "" || strings.Contains(piped.String(), "Running") {
		t.Errorf("piped: status %q, output %q", status.String(), piped.String())
	}
}
