package repl

import (
	"bytes"
	"context"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"eddy/conf"
	"eddy/engine"
	"eddy/engine/types"
	"eddy/repl/render"
)

// fakeSession records the statements it gets. A statement starting with
// "fail" fails, "boom" panics, "rows" answers a one-column table, "query"
// a batch query result; anything else succeeds.
type fakeSession struct {
	got  []string
	opts render.Options
}

func (f *fakeSession) Execute(ctx context.Context, sql string) (*engine.Result, error) {
	f.got = append(f.got, sql)
	switch {
	case strings.HasPrefix(sql, "fail"):
		return nil, &engine.Error{Class: "ValidationException", Message: "no such thing: " + sql}
	case strings.HasPrefix(sql, "boom"):
		var m map[string]int
		m["x"]++ // a nil-map write panics, as a bug in the engine would
	case strings.HasPrefix(sql, "rows"):
		return engine.StringTable([]string{"key"}, [][]any{{"a.b"}, {nil}}), nil
	case strings.HasPrefix(sql, "query"):
		return &engine.Result{Kind: engine.ResultRows, IsQuery: true, Bounded: true,
			Columns: []engine.Column{{Name: "n", Type: types.New(types.Int)}},
			Rows:    engine.SliceRows([]engine.Row{{Values: []any{int32(1)}}})}, nil
	}
	return engine.Success(), nil
}

func (f *fakeSession) Prompt() (string, string) { return "default_catalog", "default_database" }

func (f *fakeSession) DisplayOptions() render.Options { return f.opts }

type run struct {
	sess     *fakeSession
	out, err bytes.Buffer
	code     int
}

func runPiped(t *testing.T, input string, keepGoing bool) *run {
	t.Helper()
	r := &run{sess: &fakeSession{opts: render.Options{ResultMode: render.ModeTableau}}}
	sh := New(r.sess, Config{In: strings.NewReader(input), Out: &r.out, Err: &r.err, KeepGoing: keepGoing})
	r.code = sh.Run(context.Background())
	return r
}

func TestSplitting(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"semicolon in a string", "SELECT 'a;b';\n", []string{"SELECT 'a;b'"}},
		{"semicolon in a quoted identifier", "SELECT `x;y` FROM t;\n", []string{"SELECT `x;y` FROM t"}},
		{"semicolon in a line comment", "SELECT 1 -- ;\n;\n", []string{"SELECT 1 -- ;"}},
		{"semicolon in a block comment", "SELECT /* ; */ 2;", []string{"SELECT /* ; */ 2"}},
		{"string across lines", "SELECT ';\n';\n", []string{"SELECT ';\n'"}},
		{"several on a line", "SET 'a' = 'b'; SET;\n", []string{"SET 'a' = 'b'", "SET"}},
		{"multi-line statement", "SELECT\n  1\nFROM t\n;\n", []string{"SELECT\n  1\nFROM t"}},
		{"last statement without semicolon", "SET 'a' = 'b';\nSHOW TABLES\n", []string{"SET 'a' = 'b'", "SHOW TABLES"}},
		{"last line without newline", "SHOW TABLES", []string{"SHOW TABLES"}},
		{"CRLF line ends", "SELECT 1;\r\nSELECT\r\n2;\r\n", []string{"SELECT 1", "SELECT\n2"}},
		{"byte-order mark", "\uFEFFSELECT 1;\n", []string{"SELECT 1"}},
		{"only comments and blanks", "-- nothing\n\n/* here */\n", nil},
		{"empty statements", ";;\n", nil},
		{"comment lines before a statement", "-- first\nSHOW TABLES;\n", []string{"-- first\nSHOW TABLES"}},
		{"comment after a semicolon", "SET 'a' = 'b'; -- of a\n-- of c\nSET 'c' = 'd';\n",
			[]string{"SET 'a' = 'b'", "-- of c\nSET 'c' = 'd'"}},
		{"trailing comment at the end", "SET 'a' = 'b'; -- done", []string{"SET 'a' = 'b'"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := runPiped(t, tc.in, false)
			if !reflect.DeepEqual(r.sess.got, tc.want) {
				t.Errorf("executed %q, want %q", r.sess.got, tc.want)
			}
			if r.code != 0 {
				t.Errorf("exit %d, stderr %q", r.code, r.err.String())
			}
		})
	}
}

func TestPipedOutput(t *testing.T) {
	r := runPiped(t, "SET 'a.b' = 'c';\nrows;\n", false)
	want := "[INFO] Execute statement succeeded.\n\n" +
		"+-----+\n| key |\n+-----+\n| a.b |\n|     |\n+-----+\n2 rows in set\n\n"
	if r.out.String() != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", r.out.String(), want)
	}
	if r.err.Len() != 0 || r.code != 0 {
		t.Errorf("exit %d, stderr %q", r.code, r.err.String())
	}
}

func TestFirstFailureStops(t *testing.T) {
	r := runPiped(t, "SET 'a' = 'b';\nfail one;\nSET 'c' = 'd';\n", false)
	if r.code != 1 {
		t.Errorf("exit %d, want 1", r.code)
	}
	if want := []string{"SET 'a' = 'b'", "fail one"}; !reflect.DeepEqual(r.sess.got, want) {
		t.Errorf("executed %q, want %q", r.sess.got, want)
	}
	wantErr := "[ERROR] Could not execute SQL statement. Reason:\nValidationException: no such thing: fail one\n" +
		"<stdin>:2:1: in this statement:\n    fail one\n\n"
	if r.err.String() != wantErr {
		t.Errorf("stderr %q, want %q", r.err.String(), wantErr)
	}
	if strings.Contains(r.out.String(), "ERROR") {
		t.Errorf("error on stdout: %q", r.out.String())
	}
}

func TestKeepGoing(t *testing.T) {
	r := runPiped(t, "fail one;\nSET 'c' = 'd';\nfail two;\nSET 'e' = 'f'", true)
	if r.code != 1 {
		t.Errorf("exit %d, want 1", r.code)
	}
	if len(r.sess.got) != 4 {
		t.Errorf("executed %q, want all four", r.sess.got)
	}
	if n := strings.Count(r.err.String(), "[ERROR]"); n != 2 {
		t.Errorf("%d errors on stderr, want 2: %q", n, r.err.String())
	}
	if n := strings.Count(r.out.String(), "succeeded"); n != 2 {
		t.Errorf("%d acknowledgements on stdout, want 2: %q", n, r.out.String())
	}
}

func TestKeepGoingAllSucceed(t *testing.T) {
	if r := runPiped(t, "SET 'a' = 'b';\nSET;\n", true); r.code != 0 {
		t.Errorf("exit %d, want 0", r.code)
	}
}

func TestFailingLastStatementWithoutSemicolon(t *testing.T) {
	if r := runPiped(t, "SET 'a' = 'b';\nfail at the end", false); r.code != 1 || len(r.sess.got) != 2 {
		t.Errorf("exit %d, executed %q", r.code, r.sess.got)
	}
}

func TestClientCommands(t *testing.T) {
	r := runPiped(t, "help;\n-- comment\nHELP ;\nQUIT;\nSET 'never' = 'run';\n", false)
	if len(r.sess.got) != 0 {
		t.Errorf("client commands reached the session: %q", r.sess.got)
	}
	if n := strings.Count(r.out.String(), "The following commands are available:"); n != 2 {
		t.Errorf("HELP answered %d times: %q", n, r.out.String())
	}
	if !strings.HasSuffix(r.out.String(), "[INFO] Exiting eddy...\n\n") {
		t.Errorf("no quit message: %q", r.out.String())
	}
	if r.code != 0 {
		t.Errorf("exit %d after QUIT", r.code)
	}
	if r := runPiped(t, "exit;\nSET 'x' = 'y';", false); len(r.sess.got) != 0 || r.code != 0 {
		t.Errorf("EXIT did not stop: executed %q, exit %d", r.sess.got, r.code)
	}
	if r := runPiped(t, "help me;\n", false); len(r.sess.got) != 1 {
		t.Errorf("'help me' is not a client command, executed %q", r.sess.got)
	}
}

func TestPanicIsReported(t *testing.T) {
	r := runPiped(t, "boom;\nSET 'a' = 'b';\n", false)
	if r.code != 1 || len(r.sess.got) != 1 {
		t.Errorf("exit %d, executed %q", r.code, r.sess.got)
	}
	want := "[ERROR] Could not execute SQL statement. Reason:\nInternalError: assignment to entry in nil map\n" +
		"<stdin>:1:1: in this statement:\n    boom\n\n"
	if r.err.String() != want {
		t.Errorf("stderr %q, want %q", r.err.String(), want)
	}
}

// modeSetSession is a session whose result mode was chosen by the user.
type modeSetSession struct{ *fakeSession }

func (modeSetSession) OptionIsSet(key string) bool { return key == conf.ResultMode }

func TestQueryNeedsTableauWhenPiped(t *testing.T) {
	r := &run{sess: &fakeSession{opts: render.Options{ResultMode: render.ModeTable}}}
	sh := New(modeSetSession{r.sess}, Config{In: strings.NewReader("query;\n"), Out: &r.out, Err: &r.err})
	if code := sh.Run(context.Background()); code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	if !strings.Contains(r.err.String(), "SqlExecutionException: In non-interactive mode, it only supports to use TABLEAU") {
		t.Errorf("stderr %q", r.err.String())
	}
}

func TestInitThenStdin(t *testing.T) {
	sess := &fakeSession{opts: render.Options{ResultMode: render.ModeTableau}}
	var out, errw bytes.Buffer
	sh := New(sess, Config{In: strings.NewReader("SET 'from' = 'stdin';\n"), Out: &out, Err: &errw})
	if code := sh.RunScript(context.Background(), "SET 'from' = 'init';\nSET 'second' = 'init'"); code != 0 {
		t.Fatalf("init exit %d: %s", code, errw.String())
	}
	if code := sh.Run(context.Background()); code != 0 {
		t.Fatalf("exit %d: %s", code, errw.String())
	}
	want := []string{"SET 'from' = 'init'", "SET 'second' = 'init'", "SET 'from' = 'stdin'"}
	if !reflect.DeepEqual(sess.got, want) {
		t.Errorf("executed %q, want %q", sess.got, want)
	}
	if n := strings.Count(out.String(), "[INFO] Execute statement succeeded."); n != 3 {
		t.Errorf("%d acknowledgements: %q", n, out.String())
	}
}

func TestRunScriptFailure(t *testing.T) {
	sess := &fakeSession{}
	var out, errw bytes.Buffer
	sh := New(sess, Config{Out: &out, Err: &errw})
	if code := sh.RunScript(context.Background(), "fail here; SET 'a' = 'b'"); code != 1 || len(sess.got) != 1 {
		t.Errorf("exit %d, executed %q", code, sess.got)
	}
}

func TestExecStatement(t *testing.T) {
	sess := &fakeSession{opts: render.Options{ResultMode: render.ModeTableau}}
	sh := New(sess, Config{})
	ctx := context.Background()
	cases := []struct {
		stmt string
		tag  render.Tag
		want string
	}{
		{"SET 'a' = 'b'", render.TagInfo, "[INFO] Execute statement succeeded.\n"},
		{"fail x", render.TagError, "[ERROR] Could not execute SQL statement. Reason:\nValidationException: no such thing: fail x\n"},
		{"rows", render.TagOK, "+-----+\n| key |\n+-----+\n| a.b |\n|     |\n+-----+\n2 rows in set\n"},
		{"query", render.TagOK, "+---+\n| n |\n+---+\n| 1 |\n+---+\n1 row in set\n"},
		{"-- a comment\nhelp", render.TagOK, render.Help(backslashHelp()...)},
	}
	for _, c := range cases {
		var b bytes.Buffer
		if tag := sh.ExecStatement(ctx, c.stmt, &b); tag != c.tag || b.String() != c.want {
			t.Errorf("ExecStatement(%q) = %v %q, want %v %q", c.stmt, tag, b.String(), c.tag, c.want)
		}
	}
	// ExecStatement answers as the interactive client: table mode is allowed.
	sess.opts.ResultMode = render.ModeTable
	var b bytes.Buffer
	if tag := sh.ExecStatement(ctx, "query", &b); tag != render.TagOK || !strings.Contains(b.String(), "1 row in set") {
		t.Errorf("query in table mode: %v %q", tag, b.String())
	}
	if sh.Exited() {
		t.Fatal("exited before QUIT")
	}
	b.Reset()
	if tag := sh.ExecStatement(ctx, "quit", &b); tag != render.TagInfo || b.String() != "[INFO] Exiting eddy...\n" || !sh.Exited() {
		t.Errorf("quit: %v %q, exited %v", tag, b.String(), sh.Exited())
	}
}

// scriptedSource plays lines as a terminal user would type them; an
// interrupt entry stands for Ctrl-C.
type scriptedSource struct {
	lines   []string
	prompts []string
	history []string
}

const ctrlC = "\x03"

func (s *scriptedSource) ReadLine(prompt string) (string, error) {
	s.prompts = append(s.prompts, prompt)
	if len(s.lines) == 0 {
		return "", io.EOF
	}
	l := s.lines[0]
	s.lines = s.lines[1:]
	if l == ctrlC {
		return "", errInterrupt
	}
	return l, nil
}

func (s *scriptedSource) SaveHistory(e string) { s.history = append(s.history, e) }
func (s *scriptedSource) Close() error         { return nil }

func TestInteractiveLoop(t *testing.T) {
	sess := &fakeSession{opts: render.Options{ResultMode: render.ModeTableau}}
	var out bytes.Buffer
	sh := New(sess, Config{Out: &out, Err: io.Discard, Interactive: true})
	src := &scriptedSource{lines: []string{
		"SELECT 1,",                              // a statement in progress...
		ctrlC,                                    // ...dropped by Ctrl-C
		"SHOW",                                   // continuation
		"TABLES; -- a comment of this statement", // runs
		"fail now;",                              // an error does not end an interactive session
		"",                                       // an empty line at the prompt
		"-- note",                                // a comment line belongs to the next statement
		"SELECT 'a",                              // a literal across lines
		"b';",                                    //
		"quit",                                   // no ';' needed for a bare quit
		"SET 'x' = 'y';",
	}}
	if code := sh.runLines(context.Background(), src, true); code != 0 {
		t.Errorf("exit %d", code)
	}
	want := []string{"SHOW\nTABLES", "fail now", "-- note\nSELECT 'a\nb'"}
	if !reflect.DeepEqual(sess.got, want) {
		t.Errorf("executed %q, want %q", sess.got, want)
	}
	fresh := "default_catalog.default_database> "
	cont := "                               -> "
	wantPrompts := []string{fresh, cont, fresh, cont, fresh, fresh, fresh, cont, cont, fresh}
	if !reflect.DeepEqual(src.prompts, wantPrompts) {
		t.Errorf("prompts %q, want %q", src.prompts, wantPrompts)
	}
	if len(cont) != len(fresh) {
		t.Errorf("continuation prompt %d wide, prompt %d", len(cont), len(fresh))
	}
	wantHistory := []string{"SHOW TABLES; -- a comment of this statement", "fail now;", "-- note", "SELECT 'a", "b';"}
	if !reflect.DeepEqual(src.history, wantHistory) {
		t.Errorf("history %q, want %q", src.history, wantHistory)
	}
	if !strings.Contains(out.String(), "[ERROR] Could not execute SQL statement.") {
		t.Errorf("interactive errors belong on the terminal: %q", out.String())
	}
}

func TestHistoryEntries(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"SELECT 1;", []string{"SELECT 1;"}},
		{"SELECT a,\n  b\nFROM t;\n", []string{"SELECT a, b FROM t;"}},
		{"SELECT 1 -- c\n, 2;", []string{"SELECT 1 -- c", ", 2;"}},
		{"SELECT 'a\nb';", []string{"SELECT 'a", "b';"}},
		{"SELECT /* a\nb */ 1;", []string{"SELECT /* a", "b */ 1;"}},
		{"SELECT 1; -- done", []string{"SELECT 1; -- done"}},
		{"SELECT\n1; -- done", []string{"SELECT 1; -- done"}},
		{"  \n", nil},
	} {
		if got := historyEntries(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("historyEntries(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestCancelledStatement(t *testing.T) {
	sess := &blockingSession{}
	sh := New(sess, Config{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var b bytes.Buffer
	tag := sh.ExecStatement(ctx, "INSERT INTO t SELECT * FROM forever", &b)
	if tag != render.TagError || !strings.Contains(b.String(), "SqlExecutionException: The statement was cancelled.") {
		t.Errorf("cancelled: %v %q", tag, b.String())
	}
}

// blockingSession waits for its context, as a long statement would.
type blockingSession struct{ fakeSession }

func (b *blockingSession) Execute(ctx context.Context, sql string) (*engine.Result, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

func TestOptionsFromConfig(t *testing.T) {
	set := map[string]string{
		"sql-client.execution.result-mode":   "TABLEAU",
		"execution.runtime-mode":             "batch",
		"table.display.max-column-width":     "10",
		"sql-client.display.print-time-cost": "false",
		"sql-client.verbose":                 "true",
		"table.local-time-zone":              "Asia/Shanghai",
	}
	opt := OptionsFromConfig(func(k string) (string, bool) { v, ok := set[k]; return v, ok })
	if opt.ResultMode != render.ModeTableau || opt.Streaming || opt.MaxColumnWidth != 10 ||
		opt.PrintTimeCost || !opt.Verbose || opt.Location == nil || opt.Location.String() != "Asia/Shanghai" {
		t.Errorf("options %+v", opt)
	}
	def := OptionsFromConfig(func(string) (string, bool) { return "", false })
	if def.ResultMode != render.ModeTable || !def.Streaming || def.MaxColumnWidth != 30 || def.Verbose ||
		def.Format != render.FormatTableau || def.Prompt != render.DefaultPrompt || def.ShowLineNumbers ||
		!def.Highlight || def.MaxTableRows != 1000000 || !def.PrintTimeCost {
		t.Errorf("defaults %+v", def)
	}
	display := map[string]string{
		"sql-client.display.output-format":           "CSV",
		"sql-client.display.prompt":                  "%d> ",
		"sql-client.display.show-line-numbers":       "true",
		"sql-client.display.color-schema":            "default",
		"sql-client.execution.max-table-result.rows": "500",
	}
	got := OptionsFromConfig(func(k string) (string, bool) { v, ok := display[k]; return v, ok })
	if got.Format != render.FormatCSV || got.Prompt != "%d> " || !got.ShowLineNumbers || got.Highlight || got.MaxTableRows != 500 {
		t.Errorf("display options %+v", got)
	}
	old := OptionsFromConfig(func(k string) (string, bool) {
		if k == "sql-client.display.max-column-width" {
			return "40", true
		}
		return "", false
	})
	if old.MaxColumnWidth != 40 {
		t.Errorf("older width key ignored: %d", old.MaxColumnWidth)
	}
}

var _ Session = (*fakeSession)(nil)

// TestCtrlCCancelsStatement sends an interrupt while a statement runs at
// the terminal: the statement's context ends, the shell reports it and
// goes on.
func TestCtrlCCancelsStatement(t *testing.T) {
	sess := &blockingSession{fakeSession{opts: render.Options{ResultMode: render.ModeTableau}}}
	var out bytes.Buffer
	sh := New(sess, Config{Out: &out, Interactive: true})
	sh.interrupts = make(chan os.Signal, 1)
	sh.interrupts <- os.Interrupt // pressed before the statement: ignored
	done := make(chan render.Tag)
	w := sh.newWriters(true)
	go func() { done <- sh.execInterruptible(context.Background(), "INSERT INTO t SELECT * FROM forever", w) }()
	select {
	case tag := <-done:
		t.Fatalf("statement ended before Ctrl-C: %v", tag)
	case <-time.After(50 * time.Millisecond):
	}
	sh.interrupts <- os.Interrupt
	select {
	case tag := <-done:
		w.flush()
		if tag != render.TagError || !strings.Contains(out.String(), "The statement was cancelled.") {
			t.Errorf("after Ctrl-C: %v %q", tag, out.String())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Ctrl-C did not cancel the statement")
	}
	if sh.Exited() {
		t.Error("Ctrl-C ended the shell")
	}
}

// TestLongStatement pipes one statement of many lines: it must arrive
// whole, and reading it must not re-split the text on every line.
func TestLongStatement(t *testing.T) {
	var in strings.Builder
	in.WriteString("INSERT INTO t VALUES\n")
	const rows = 100000
	for range rows {
		in.WriteString("  (1, 'a-b'),\n")
	}
	in.WriteString("  (2, 'end');\nSET 'after' = 'it';\n")
	start := time.Now()
	r := runPiped(t, in.String(), false)
	if len(r.sess.got) != 2 || strings.Count(r.sess.got[0], "'a-b'") != rows || r.code != 0 {
		t.Fatalf("exit %d, %d statements", r.code, len(r.sess.got))
	}
	t.Logf("%d-line statement read in %v", rows, time.Since(start))
}

// TestLocationsOfFailuresAcrossLines: each failing statement of a script
// is located where it starts, whether it shares its line, follows a line
// whose ';' lies inside a string, or ends the input without its ';'.
func TestLocationsOfFailuresAcrossLines(t *testing.T) {
	r := runPiped(t, "SET 'a' = 'b'; fail two;\nSET 'x' = 'a;\nb';\n  fail four;\nfail at the end", true)
	var locs []string
	for _, l := range strings.Split(r.err.String(), "\n") {
		if strings.HasSuffix(l, "in this statement:") {
			locs = append(locs, l)
		}
	}
	want := []string{"<stdin>:1:16: in this statement:", "<stdin>:4:3: in this statement:", "<stdin>:5:1: in this statement:"}
	if !reflect.DeepEqual(locs, want) {
		t.Errorf("locations %q, want %q\nstderr: %s", locs, want, r.err.String())
	}
}
