package qtest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"eddy/engine"
)

// Target is the fresh session one script runs against.
type Target interface {
	// ExecClient runs one statement text (client command or SQL, without
	// its ';') and writes its complete answer to w exactly as the
	// interactive client shows it, without the blank line that follows an
	// answer; it returns the tag the answer's colour stands for.
	ExecClient(ctx context.Context, stmt string, w io.Writer) Tag
	// Execute runs one statement through the engine (gateway dialect).
	Execute(ctx context.Context, stmt string) (*engine.Result, error)
	// Streaming reports whether the session's execution.runtime-mode is
	// streaming: the gateway harness adds the op column to a SELECT
	// answer only then.
	Streaming() bool
	// Close ends the session and releases its store.
	Close() error
}

// NewTargetFunc opens a fresh Target whose store lives in the empty
// directory dir, set up as the harness of dialect d sets up its session
// (Flink's client harness forces two session options the gateway harness
// does not).
type NewTargetFunc func(ctx context.Context, dir string, d Dialect) (Target, error)

// DefaultTimeout bounds one statement when a Runner sets no Timeout.
const DefaultTimeout = 30 * time.Second

// Runner runs scripts, each against a fresh Target.
type Runner struct {
	NewTarget NewTargetFunc
	Env       Env           // placeholder values; zero means DefaultEnv()
	Timeout   time.Duration // per statement; zero means DefaultTimeout
	WorkDir   string        // base of relative placeholder paths; "" means the working directory
}

// Status is the outcome of one record.
type Status uint8

// The outcomes of a record.
const (
	Passed Status = iota
	Failed
	Skipped
)

// String returns "passed", "failed" or "skipped".
func (s Status) String() string {
	switch s {
	case Passed:
		return "passed"
	case Failed:
		return "failed"
	}
	return "skipped"
}

// Outcome is the result of one record. The blocks are normalised (see
// Normalize); the tags are tag lines ("!ok").
type Outcome struct {
	Record      Record
	Status      Status
	Expected    string
	Actual      string
	ExpectedTag string
	ActualTag   string
	SkipReason  string
}

// FileResult is the outcome of every record of one script.
type FileResult struct {
	Path     string
	Dialect  Dialect
	Outcomes []Outcome
}

// Counts returns how many records passed, failed and were skipped.
func (f *FileResult) Counts() (passed, failed, skipped int) {
	for _, o := range f.Outcomes {
		switch o.Status {
		case Passed:
			passed++
		case Failed:
			failed++
		default:
			skipped++
		}
	}
	return passed, failed, skipped
}

// FirstFailure returns the first failed record, or nil.
func (f *FileResult) FirstFailure() *Outcome {
	for i := range f.Outcomes {
		if f.Outcomes[i].Status == Failed {
			return &f.Outcomes[i]
		}
	}
	return nil
}

// Run runs the script at path: placeholders substituted with fresh
// directories, one fresh Target, the records in order. skip maps record
// numbers to the reason they are not run; a skipped record keeps its place.
func (r *Runner) Run(ctx context.Context, path string, skip map[int]string) (res *FileResult, err error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "eddy-qtest-")
	if err != nil {
		return nil, err
	}
	defer func() {
		if rmErr := os.RemoveAll(tmp); err == nil && rmErr != nil {
			err = rmErr
		}
	}()
	workDir := r.WorkDir
	if workDir == "" {
		if workDir, err = os.Getwd(); err != nil {
			return nil, err
		}
	}
	env := r.Env
	if env == (Env{}) {
		env = DefaultEnv()
	}
	vars, err := NewVars(tmp, workDir, env)
	if err != nil {
		return nil, err
	}
	script, err := Parse(vars.Substitute(string(raw)))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	store := filepath.Join(tmp, "store")
	if err := os.Mkdir(store, 0o755); err != nil {
		return nil, err
	}
	target, err := r.NewTarget(ctx, store, script.Dialect)
	if err != nil {
		return nil, fmt.Errorf("%s: opening a session: %w", path, err)
	}
	res = &FileResult{Path: path, Dialect: script.Dialect}
	stuck := false
	for _, rec := range script.Records {
		o := Outcome{
			Record:      rec,
			Expected:    Normalize(rec.Expected),
			ExpectedTag: rec.TagLine,
		}
		switch reason, ok := skip[rec.Num]; {
		case ok:
			o.Status, o.SkipReason = Skipped, reason
		case stuck:
			o.Status, o.Actual = Failed, "(not run: an earlier statement did not stop)\n"
		default:
			var block string
			var tag Tag
			block, tag, stuck = r.exec(ctx, target, script.Dialect, rec)
			o.Actual, o.ActualTag = Normalize(block), tag.String()
			o.Status = Failed
			if o.Actual == o.Expected && o.ActualTag == o.ExpectedTag {
				o.Status = Passed
			}
		}
		res.Outcomes = append(res.Outcomes, o)
	}
	if !stuck { // a statement still running owns the session
		if err := target.Close(); err != nil {
			return res, fmt.Errorf("%s: closing the session: %w", path, err)
		}
	}
	return res, nil
}

// ClientStatement is the text the client dialect sends for a record: its
// SQL lines with the final ';' removed (comment lines included).
func ClientStatement(sql string) string {
	return strings.TrimSuffix(strings.TrimRight(sql, " \t\r\n"), ";")
}

// GatewayStatement is the text the gateway harness executes: the SQL
// trimmed, one trailing ';' removed.
func GatewayStatement(sql string) string {
	return strings.TrimSuffix(strings.TrimSpace(sql), ";")
}

// exec runs one record and returns its answer block and tag. A panic in the
// session becomes the record's answer, so that one broken statement fails
// one record, not the whole run. A statement that outlives its timeout by a
// grace period (the timeout again, at most five seconds) is abandoned and
// reported as stuck.
func (r *Runner) exec(ctx context.Context, target Target, d Dialect, rec Record) (block string, tag Tag, stuck bool) {
	timeout := r.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	sctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	type answer struct {
		block string
		tag   Tag
	}
	done := make(chan answer, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- answer{fmt.Sprintf("(panic: %v)\n%s", p, debug.Stack()), TagUnknown}
			}
		}()
		if d == Gateway {
			stmt := GatewayStatement(rec.SQL)
			res, err := target.Execute(sctx, stmt)
			b, t := RenderGateway(sctx, stmt, res, err, target.Streaming())
			done <- answer{b, t}
			return
		}
		var buf bytes.Buffer
		t := target.ExecClient(sctx, ClientStatement(rec.SQL), &buf)
		done <- answer{stripTrailingSpaces(buf.String()), t}
	}()
	select {
	case a := <-done:
		return a.block, a.tag, false
	case <-time.After(timeout + min(timeout, 5*time.Second)):
		return fmt.Sprintf("(no answer after %s)\n", timeout), TagUnknown, true
	}
}
