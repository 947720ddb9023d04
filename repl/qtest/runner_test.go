package qtest_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"eddy/engine"
	"eddy/repl/qtest"
)

// toySession is a small session with a few made-up statements, enough to
// drive the runner: SET 'k' = 'v', ECHO <text>, FAIL <msg>, JOB, LS '<dir>',
// PANIC and SLEEP (which ignores cancellation).
type toySession struct {
	mu     sync.Mutex
	dir    string
	seen   []string
	closed bool
	set    map[string]string
}

func (s *toySession) record(stmt string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seen = append(s.seen, stmt)
}

func (s *toySession) run(stmt string) (*engine.Result, error) {
	s.record(stmt)
	word, arg, _ := strings.Cut(strings.TrimSpace(lastLine(stmt)), " ")
	switch strings.ToUpper(word) {
	case "SET":
		k, v, _ := strings.Cut(arg, "=")
		s.mu.Lock()
		s.set[strings.Trim(strings.TrimSpace(k), "'")] = strings.Trim(strings.TrimSpace(v), "'")
		s.mu.Unlock()
		return engine.Success(), nil
	case "ECHO":
		return engine.StringTable([]string{"echo"}, [][]any{{arg}}), nil
	case "SELECT":
		res := engine.StringTable([]string{"v"}, [][]any{{arg}})
		res.IsQuery = true
		return res, nil
	case "FAIL":
		return nil, engine.Errorf("ValidationException", "%s", arg)
	case "JOB":
		return engine.Info("Complete execution of the SQL update statement."), nil
	case "LS":
		st, err := os.Stat(strings.Trim(arg, "'"))
		if err != nil || !st.IsDir() || !filepath.IsAbs(strings.Trim(arg, "'")) {
			return engine.StringTable([]string{"ls"}, [][]any{{"missing"}}), nil
		}
		return engine.StringTable([]string{"ls"}, [][]any{{"exists"}}), nil
	case "PANIC":
		panic("toy panic")
	case "SLEEP":
		time.Sleep(time.Second)
		return engine.Success(), nil
	}
	return nil, engine.Errorf("ParseException", "unknown statement %q", word)
}

func lastLine(s string) string { return s[strings.LastIndex(s, "\n")+1:] }

func (s *toySession) Execute(ctx context.Context, stmt string) (*engine.Result, error) {
	return s.run(stmt)
}

// ExecClient prints answers the way the client does for the statements the
// toy knows: the acknowledgement, an error, the single ECHO value with
// trailing spaces (the runner strips them) and a job submission.
func (s *toySession) ExecClient(ctx context.Context, stmt string, w io.Writer) qtest.Tag {
	res, err := s.run(stmt)
	if err != nil {
		fmt.Fprintf(w, "[ERROR] Could not execute SQL statement. Reason:\n%s\n", err)
		return qtest.TagError
	}
	switch res.Kind {
	case engine.ResultSuccess:
		fmt.Fprintln(w, "[INFO] Execute statement succeeded.")
		return qtest.TagInfo
	case engine.ResultInfo:
		fmt.Fprintln(w, "[INFO] Submitting SQL update statement to the cluster...")
		fmt.Fprintln(w, "Job ID: 0f3e1a")
		return qtest.TagInfo
	}
	row, _, _ := res.Rows.Next(ctx)
	fmt.Fprintf(w, "%v   \n", row.Values[0])
	return qtest.TagOK
}

// Streaming is true until SET 'execution.runtime-mode' = 'batch'.
func (s *toySession) Streaming() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.set["execution.runtime-mode"] != "batch"
}

func (s *toySession) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	return nil
}

// toyTargets opens toy sessions and remembers them.
type toyTargets struct {
	mu       sync.Mutex
	sessions []*toySession
	dialects []qtest.Dialect
}

func (f *toyTargets) open(ctx context.Context, dir string, d qtest.Dialect) (qtest.Target, error) {
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) != 0 {
		return nil, fmt.Errorf("store directory %s is not fresh: %v, %d entries", dir, err, len(entries))
	}
	s := &toySession{dir: dir, set: map[string]string{}}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sessions = append(f.sessions, s)
	f.dialects = append(f.dialects, d)
	return s, nil
}

func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const clientScript = `# toy client script
SET 'a' = 'b';
[INFO] Execute statement succeeded.
!info

-- a comment line goes with the statement
ECHO hello;
hello
!ok

FAIL oops;
[ERROR] Could not execute SQL statement. Reason:
org.apache.flink.table.api.ValidationException: oops
!error

ECHO wrong;
right
!ok

ECHO skipped;
whatever
!ok

PANIC;
x
!ok

JOB;
[INFO] Submitting SQL update statement to the cluster...
Job ID:
!info

LS '$VAR_STREAMING_PATH';
exists
!ok

ECHO tag;
tag
!info

FAIL again;
[ERROR] Could not execute SQL statement. Reason:
org.apache.flink.table.api.ValidationException: again
!error
`

func TestRunnerClient(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "toy.q", clientScript)
	targets := &toyTargets{}
	r := &qtest.Runner{NewTarget: targets.open}
	res, err := r.Run(context.Background(), path, map[int]string{5: "not run by design"})
	if err != nil {
		t.Fatal(err)
	}
	want := []qtest.Status{qtest.Passed, qtest.Passed, qtest.Passed, qtest.Failed, qtest.Skipped,
		qtest.Failed, qtest.Passed, qtest.Passed, qtest.Failed, qtest.Passed}
	if len(res.Outcomes) != len(want) {
		t.Fatalf("%d outcomes, want %d", len(res.Outcomes), len(want))
	}
	for i, o := range res.Outcomes {
		if o.Status != want[i] {
			t.Errorf("#%d: %s, want %s\n%s", i+1, o.Status, want[i], qtest.Describe("toy.q", &o))
		}
	}
	if p, f, s := res.Counts(); p != 6 || f != 3 || s != 1 {
		t.Errorf("counts %d/%d/%d", p, f, s)
	}
	if o := res.FirstFailure(); o == nil || o.Record.Num != 4 || o.Actual != "wrong\n" || o.Expected != "right\n" {
		t.Errorf("first failure = %+v", o)
	}
	if o := res.Outcomes[8]; o.ActualTag != "!ok" || o.ExpectedTag != "!info" {
		t.Errorf("#9 tags: actual %s expected %s", o.ActualTag, o.ExpectedTag)
	}
	if o := res.Outcomes[5]; !strings.HasPrefix(o.Actual, "(panic: toy panic)") {
		t.Errorf("#6 actual %q", o.Actual)
	}
	if o := res.Outcomes[4]; o.SkipReason != "not run by design" {
		t.Errorf("#5 skip reason %q", o.SkipReason)
	}
	if len(targets.sessions) != 1 || targets.dialects[0] != qtest.Client {
		t.Fatalf("%d sessions, dialects %v", len(targets.sessions), targets.dialects)
	}
	s := targets.sessions[0]
	if !s.closed {
		t.Error("session not closed")
	}
	for _, stmt := range s.seen {
		if strings.Contains(stmt, "skipped") {
			t.Errorf("skipped record was run: %q", stmt)
		}
		if strings.HasSuffix(stmt, ";") || strings.Contains(stmt, "$VAR_") {
			t.Errorf("statement sent as %q", stmt)
		}
	}
	if s.seen[1] != "-- a comment line goes with the statement\nECHO hello" {
		t.Errorf("second statement sent as %q", s.seen[1])
	}
	// The placeholder directory is gone with the run.
	ls := s.seen[7]
	if _, err := os.Stat(strings.Trim(strings.TrimPrefix(ls, "LS "), "'")); !os.IsNotExist(err) {
		t.Errorf("%s: placeholder directory left behind (%v)", ls, err)
	}
}

const gatewayScript = `SET 'a' = 'b';
!output
+--------+
| result |
+--------+
|     OK |
+--------+
1 row in set
!ok

FAIL at line 3;
!output
org.apache.flink.table.api.ValidationException: at line 0
!error

JOB;
!output
Job ID:
!info

ECHO x;
!output
+------+
| echo |
+------+
|    x |
+------+
1 row in set
!ok

ECHO trailing ;
!output
+-----------+
|      echo |
+-----------+
| trailing  |
+-----------+
1 row in set
!ok

SELECT a;
!output
+----+---+
| op | v |
+----+---+
| +I | a |
+----+---+
1 row in set
!ok

SET 'execution.runtime-mode' = 'batch';
!output
+--------+
| result |
+--------+
|     OK |
+--------+
1 row in set
!ok

SELECT b;
!output
+---+
| v |
+---+
| b |
+---+
1 row in set
!ok
`

func TestRunnerGateway(t *testing.T) {
	path := writeFile(t, t.TempDir(), "toy.q", gatewayScript)
	targets := &toyTargets{}
	res, err := (&qtest.Runner{NewTarget: targets.open}).Run(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Dialect != qtest.Gateway || targets.dialects[0] != qtest.Gateway {
		t.Errorf("dialect %s / %v", res.Dialect, targets.dialects)
	}
	// #5: gateway answers keep trailing spaces (the value is "trailing "),
	// so the expected right-aligned cell does not match. #6-#8: the op
	// column follows the session's runtime mode.
	if len(res.Outcomes) != 8 {
		t.Fatalf("%d outcomes", len(res.Outcomes))
	}
	for i, o := range res.Outcomes {
		want := qtest.Passed
		if i == 4 {
			want = qtest.Failed
		}
		if o.Status != want {
			t.Errorf("#%d: %s, want %s\n%s", i+1, o.Status, want, qtest.Describe("toy.q", &o))
		}
	}
	if got := targets.sessions[0].seen; got[3] != "ECHO x" || got[4] != "ECHO trailing " {
		t.Errorf("statements sent: %q", got)
	}
}

func TestRunnerFreshSessionPerFile(t *testing.T) {
	dir := t.TempDir()
	a := writeFile(t, dir, "a.q", "SET 'k' = 'v';\n[INFO] Execute statement succeeded.\n!info\n")
	b := writeFile(t, dir, "b.q", "LS '$VAR_BATCH_PATH';\nexists\n!ok\n")
	targets := &toyTargets{}
	r := &qtest.Runner{NewTarget: targets.open}
	for _, p := range []string{a, b, a} {
		res, err := r.Run(context.Background(), p, nil)
		if err != nil {
			t.Fatal(err)
		}
		if o := res.FirstFailure(); o != nil {
			t.Errorf("%s", qtest.Describe(p, o))
		}
	}
	if len(targets.sessions) != 3 {
		t.Fatalf("%d sessions for 3 runs", len(targets.sessions))
	}
	dirs := map[string]bool{}
	for _, s := range targets.sessions {
		if dirs[s.dir] || !s.closed || len(s.seen) != 1 {
			t.Errorf("session on %s: reused directory, or closed=%v, statements %q", s.dir, s.closed, s.seen)
		}
		dirs[s.dir] = true
	}
	if v := targets.sessions[2].set["k"]; v != "v" || len(targets.sessions[1].set) != 0 {
		t.Errorf("state leaked between files: %v", targets.sessions[1].set)
	}
}

func TestRunnerAbandonsStuckStatement(t *testing.T) {
	path := writeFile(t, t.TempDir(), "stuck.q", "SLEEP;\n[INFO] Execute statement succeeded.\n!info\n\nECHO a;\na\n!ok\n")
	targets := &toyTargets{}
	r := &qtest.Runner{NewTarget: targets.open, Timeout: 20 * time.Millisecond}
	res, err := r.Run(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p, f, _ := res.Counts(); p != 0 || f != 2 {
		t.Errorf("passed %d failed %d", p, f)
	}
	if !strings.HasPrefix(res.Outcomes[0].Actual, "(no answer after") || !strings.HasPrefix(res.Outcomes[1].Actual, "(not run") {
		t.Errorf("outcomes %q / %q", res.Outcomes[0].Actual, res.Outcomes[1].Actual)
	}
	time.Sleep(1100 * time.Millisecond) // let the abandoned statement end
	s := targets.sessions[0]
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || len(s.seen) != 1 {
		t.Errorf("closed=%v statements %q: a stuck session must be left alone", s.closed, s.seen)
	}
}

func TestRunnerErrors(t *testing.T) {
	dir := t.TempDir()
	targets := &toyTargets{}
	r := &qtest.Runner{NewTarget: targets.open}
	if _, err := r.Run(context.Background(), filepath.Join(dir, "missing.q"), nil); err == nil {
		t.Error("missing file: no error")
	}
	p := writeFile(t, dir, "broken.q", "SET 'a' = 'b';\n[INFO] Execute statement succeeded.\n")
	if _, err := r.Run(context.Background(), p, nil); err == nil || !strings.Contains(err.Error(), "no closing tag") {
		t.Errorf("unfinished record: %v", err)
	}
	failing := &qtest.Runner{NewTarget: func(context.Context, string, qtest.Dialect) (qtest.Target, error) {
		return nil, fmt.Errorf("no store")
	}}
	p = writeFile(t, dir, "ok.q", "ECHO a;\na\n!ok\n")
	if _, err := failing.Run(context.Background(), p, nil); err == nil || !strings.Contains(err.Error(), "no store") {
		t.Errorf("session failure: %v", err)
	}
}
