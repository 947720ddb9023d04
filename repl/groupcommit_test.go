package repl

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"eddy/engine"
	"eddy/repl/render"
)

// groupSession is a fake session that defers statements starting with
// "ins" (and the failing "bad") into a shared transaction, as
// engine.Session does INSERTs; other statements are refused with
// ErrCommitFirst while one is open.
type groupSession struct {
	fakeSession
	out       *bytes.Buffer // the shell's answer stream
	log       []string
	open      int
	maxOpen   int
	commitErr error
	// early counts commits that found an answer of their own group
	// printed already; committed counts the answers of committed groups.
	early, committed int
}

func (g *groupSession) ExecuteDeferred(ctx context.Context, sql string) (*engine.Result, bool, error) {
	deferrable := strings.HasPrefix(sql, "ins") || strings.HasPrefix(sql, "bad")
	if g.open > 0 && !deferrable {
		return nil, false, engine.ErrCommitFirst
	}
	g.log = append(g.log, sql)
	if !deferrable {
		res, err := g.fakeSession.Execute(ctx, sql)
		return res, false, err
	}
	g.open++
	g.maxOpen = max(g.maxOpen, g.open)
	if strings.HasPrefix(sql, "bad") {
		return nil, true, &engine.Error{Class: "NumberFormatException", Message: "cannot cast " + sql}
	}
	return engine.Info("done " + sql), true, nil
}

// BeginGroup implements groupingSession.
func (g *groupSession) BeginGroup() Group { return fakeGroup{g} }

// fakeGroup is the write group of a groupSession.
type fakeGroup struct{ g *groupSession }

func (f fakeGroup) Execute(ctx context.Context, sql string) (*engine.Result, bool, error) {
	return f.g.ExecuteDeferred(ctx, sql)
}

func (f fakeGroup) Commit(ctx context.Context) error { return f.g.CommitDeferred(ctx) }

func (g *groupSession) CommitDeferred(context.Context) error {
	if g.open == 0 {
		return nil
	}
	g.log = append(g.log, "commit")
	if strings.Count(g.out.String(), "[INFO] done ") > g.committed {
		g.early++
	}
	g.committed += g.open
	g.open = 0
	return g.commitErr
}

func runGrouped(t *testing.T, input string, keepGoing bool, commitErr error) (*groupSession, string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	g := &groupSession{fakeSession: fakeSession{opts: render.Options{ResultMode: render.ModeTableau}}, out: &out, commitErr: commitErr}
	// A wait far longer than the test: a slow machine must not commit a
	// group early, so the commits come where the statements put them.
	sh := New(g, Config{In: strings.NewReader(input), Out: &out, Err: &errb, KeepGoing: keepGoing, GroupMaxWait: time.Hour})
	code := sh.Run(context.Background())
	return g, out.String(), errb.String(), code
}

func TestGroupHoldsAnswersUntilCommit(t *testing.T) {
	g, out, errs, code := runGrouped(t, "ins 1;\nins 2;\nSET x;\nins 3;\n", false, nil)
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if got := strings.Join(g.log, ", "); got != "ins 1, ins 2, commit, SET x, ins 3, commit" {
		t.Errorf("engine calls: %s", got)
	}
	want := "[INFO] done ins 1\n\n[INFO] done ins 2\n\n[INFO] Execute statement succeeded.\n\n[INFO] done ins 3\n\n"
	if out != want {
		t.Errorf("output:\n%q\nwant\n%q", out, want)
	}
	if g.early != 0 {
		t.Errorf("%d commits found answers of their statements printed before them", g.early)
	}
}

func TestGroupBounded(t *testing.T) {
	var in strings.Builder
	for i := range 2500 {
		fmt.Fprintf(&in, "ins %d;\n", i)
	}
	g, out, _, code := runGrouped(t, in.String(), false, nil)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	if g.maxOpen > groupMaxStatements {
		t.Errorf("%d statements shared a commit, the bound is %d", g.maxOpen, groupMaxStatements)
	}
	commits := strings.Count(strings.Join(g.log, "\n"), "commit")
	if commits < 3 {
		t.Errorf("%d commits for 2500 statements", commits)
	}
	if n := strings.Count(out, "[INFO] done ins "); n != 2500 {
		t.Errorf("%d answers, want 2500", n)
	}
	if g.early != 0 {
		t.Errorf("%d commits found answers of their statements printed before them", g.early)
	}
}

func TestGroupFailingStatement(t *testing.T) {
	// Without --keep-going: the statements before it are committed and
	// answered, then its error, and nothing after it runs.
	g, out, errs, code := runGrouped(t, "ins 1;\nbad 2;\nins 3;\n", false, nil)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	if got := strings.Join(g.log, ", "); got != "ins 1, bad 2, commit" {
		t.Errorf("engine calls: %s", got)
	}
	if out != "[INFO] done ins 1\n\n" || !strings.Contains(errs, "cannot cast bad 2") {
		t.Errorf("stdout %q\nstderr %q", out, errs)
	}
	// With --keep-going the group goes on past it.
	g, out, errs, code = runGrouped(t, "ins 1;\nbad 2;\nins 3;\n", true, nil)
	if code != 1 {
		t.Errorf("--keep-going: exit %d, want 1", code)
	}
	if got := strings.Join(g.log, ", "); got != "ins 1, bad 2, ins 3, commit" {
		t.Errorf("--keep-going: engine calls: %s", got)
	}
	if out != "[INFO] done ins 1\n\n[INFO] done ins 3\n\n" || strings.Count(errs, "cannot cast") != 1 {
		t.Errorf("--keep-going: stdout %q\nstderr %q", out, errs)
	}
}

func TestGroupCommitFails(t *testing.T) {
	failure := &engine.Error{Class: "CatalogException", Message: "disk full"}
	g, out, errs, code := runGrouped(t, "ins 1;\nins 2;\nSET x;\nins 3;\n", false, failure)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	if strings.Contains(out, "done") {
		t.Errorf("a statement of a failed commit was acknowledged:\n%s", out)
	}
	if n := strings.Count(errs, "disk full"); n != 2 {
		t.Errorf("%d statements report the failed commit, want 2:\n%s", n, errs)
	}
	if got := strings.Join(g.log, ", "); got != "ins 1, ins 2, commit" {
		t.Errorf("the script went on after the failed commit: %s", got)
	}
}
