package engine

import (
	"context"
	"errors"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// submittedAnswer is Flink's answer to a submitted job (the client prints
// each line after "[INFO] " but the job id line).
var submittedAnswer = regexp.MustCompile(`^Submitting SQL update statement to the cluster\.\.\.\n\[INFO\] SQL update statement has been successfully submitted to the cluster:\nJob ID: ([0-9a-f]{32})\n$`)

func promptOf(s *Session) []string {
	c, d := s.Prompt()
	return []string{c, d}
}

// jobID submits a statement and returns the id of its job.
func jobID(t *testing.T, s *Session, sql string) string {
	t.Helper()
	res, err := s.Execute(context.Background(), sql)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	m := submittedAnswer.FindStringSubmatch(res.Message)
	if m == nil {
		t.Fatalf("%s answered %q", sql, res.Message)
	}
	return m[1]
}

func jobStatus(s *Session, id string) (JobInfo, bool) {
	for _, j := range s.Jobs() {
		if j.ID == id {
			return j, true
		}
	}
	return JobInfo{}, false
}

func heapBytes() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// An INSERT from an unbounded source is a background job: the statement
// answers at once, SHOW JOBS lists the job RUNNING while the session runs
// other statements, STOP JOB cancels it promptly.
func TestBackgroundJob(t *testing.T) {
	s := openQuerySession(t)
	mustExec(t, s, `CREATE TEMPORARY TABLE gen (id BIGINT, s STRING) WITH ('connector' = 'datagen', 'rows-per-second' = '100000000', 'fields.s.length' = '10')`)
	mustExec(t, s, `CREATE TEMPORARY TABLE sink (id BIGINT, s STRING) WITH ('connector' = 'blackhole')`)
	start := time.Now()
	id := jobID(t, s, "INSERT INTO sink SELECT id, s FROM gen WHERE id % 2 = 0")
	if el := time.Since(start); el > time.Second {
		t.Fatalf("submitting took %v", el)
	}
	// The session stays usable while the job runs.
	mustExec(t, s, "CREATE TEMPORARY VIEW v AS SELECT 1 AS x")
	got := collect(t, s, "SHOW JOBS")
	prefix := "+I " + id + " insert-into_" + strings.Join(promptOf(s), ".") + ".sink RUNNING "
	if len(got) != 1 || !strings.HasPrefix(got[0], prefix) {
		t.Fatalf("SHOW JOBS: %v, want a row starting %q", got, prefix)
	}
	time.Sleep(300 * time.Millisecond)
	h1 := heapBytes()
	time.Sleep(700 * time.Millisecond)
	h2 := heapBytes()
	if h2 > h1+16<<20 {
		t.Errorf("heap grew from %d to %d bytes while the job ran", h1, h2)
	}
	if j, _ := jobStatus(s, id); j.Status != JobRunning {
		t.Fatalf("job after 1 s: %+v", j)
	}
	start = time.Now()
	mustExec(t, s, "STOP JOB '"+strings.ToUpper(id)+"'")
	if el := time.Since(start); el > 100*time.Millisecond {
		t.Errorf("STOP JOB took %v", el)
	}
	if j, _ := jobStatus(s, id); j.Status != JobCanceled {
		t.Fatalf("job after STOP JOB: %+v", j)
	}
	// Stopping a job that has ended succeeds, as in Flink.
	mustExec(t, s, "STOP JOB '"+id+"'")
	for stmt, want := range map[string]string{
		"STOP JOB '0123456789abcdef0123456789abcdef'": "FlinkJobNotFoundException: Could not find Flink job (0123456789abcdef0123456789abcdef)",
		"STOP JOB 'nothex'":                           `NumberFormatException: For input string: "no" under radix 16`,
		"STOP JOB 'abcd'":                             "IllegalArgumentException: Argument bytes must by an array of 16 bytes",
		"STOP JOB '" + id + "' WITH DRAIN":            "SqlParserException: WITH DRAIN could only be used after WITH SAVEPOINT.",
		"STOP JOB '" + id + "' WITH SAVEPOINT":        "RestHandlerException: Config key [execution.checkpointing.savepoint-dir] is not set. Property [targetDirectory] must be provided.",
	} {
		_, err := s.Execute(context.Background(), stmt)
		if e := AsError(err); err == nil || e.Class+": "+e.Message != want {
			t.Errorf("%s: %v, want %s", stmt, err, want)
		}
	}
}

// A background job that fails is FAILED in SHOW JOBS, and the failure
// handler hears of it.
func TestBackgroundJobFails(t *testing.T) {
	s := openQuerySession(t)
	failed := make(chan JobInfo, 1)
	s.SetJobFailureHandler(func(j JobInfo) { failed <- j })
	mustExec(t, s, `CREATE TEMPORARY TABLE gen (id BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '100000000', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '100000000000', 'number-of-rows' = '100000000000')`)
	mustExec(t, s, `CREATE TEMPORARY TABLE sink (id BIGINT) WITH ('connector' = 'blackhole')`)
	// 'number-of-rows' bounds the table, so this job runs in place and its
	// failure is the statement's.
	if msg := execErr(t, s, "INSERT INTO sink SELECT 10 / (id - 5000) FROM gen"); !strings.Contains(msg, "zero") {
		t.Fatalf("bounded failing INSERT: %q", msg)
	}
	if jobs := s.Jobs(); len(jobs) != 1 || jobs[0].Status != JobFailed {
		t.Fatalf("jobs: %+v", jobs)
	}
	mustExec(t, s, `CREATE TEMPORARY TABLE ugen (id BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '100000000', 'fields.id.min' = '0', 'fields.id.max' = '3')`)
	id := jobID(t, s, "INSERT INTO sink SELECT 10 / id FROM ugen")
	select {
	case j := <-failed:
		if j.ID != id || j.Status != JobFailed || j.Err == nil || !strings.Contains(j.Err.Error(), "zero") {
			t.Fatalf("failure reported: %+v", j)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the failing job did not fail")
	}
	if j, _ := jobStatus(s, id); j.Status != JobFailed {
		t.Fatalf("SHOW JOBS after the failure: %+v", j)
	}
}

// Closing the session cancels its unbounded jobs and leaves no job
// goroutine behind; table.dml-sync = true runs an INSERT in the
// foreground.
func TestCloseEndsJobs(t *testing.T) {
	s := openQuerySession(t)
	before := runtime.NumGoroutine()
	mustExec(t, s, `CREATE TEMPORARY TABLE gen (id BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '1000')`)
	mustExec(t, s, `CREATE TEMPORARY TABLE sink (id BIGINT) WITH ('connector' = 'blackhole')`)
	a := jobID(t, s, "INSERT INTO sink SELECT * FROM gen")
	b := jobID(t, s, "INSERT INTO sink SELECT id + 1 FROM gen")
	got := s.CloseJobs()
	if len(got) != 2 || got[0] != a || got[1] != b {
		t.Fatalf("CloseJobs cancelled %v, want [%s %s]", got, a, b)
	}
	for _, id := range []string{a, b} {
		if j, _ := jobStatus(s, id); j.Status != JobCanceled {
			t.Fatalf("job %s after close: %+v", id, j)
		}
	}
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines after close, %d before the jobs", n, before)
	}
	mustExec(t, s, "SET 'table.dml-sync' = 'true'")
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if _, err := s.Execute(ctx, "INSERT INTO sink SELECT * FROM gen"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a foreground unbounded INSERT ended with %v", err)
	}
}

// A bounded INSERT under table.dml-sync = false has finished when the
// statement answers: the next statement reads its rows.
func TestBoundedInsertVisibleToNextStatement(t *testing.T) {
	s := openQuerySession(t)
	mustExec(t, s, "CREATE TABLE t (a INT)")
	id := jobID(t, s, "INSERT INTO t VALUES (1), (2)")
	if got := strings.Join(collect(t, s, "SELECT * FROM t"), ","); got != "+I 1,+I 2" {
		t.Fatalf("rows after the INSERT: %s", got)
	}
	if j, _ := jobStatus(s, id); j.Status != JobFinished {
		t.Fatalf("job: %+v", j)
	}
	mustExec(t, s, "SET 'pipeline.name' = 'my job'")
	mustExec(t, s, "BEGIN STATEMENT SET")
	mustExec(t, s, "INSERT INTO t VALUES (3)")
	mustExec(t, s, "INSERT INTO t VALUES (4)")
	id = jobID(t, s, "END")
	if j, _ := jobStatus(s, id); j.Name != "my job" || j.Status != JobFinished {
		t.Fatalf("statement set job: %+v", j)
	}
	mustExec(t, s, "RESET 'pipeline.name'")
	mustExec(t, s, "CREATE TABLE t2 (a INT)")
	mustExec(t, s, "BEGIN STATEMENT SET")
	mustExec(t, s, "INSERT INTO t VALUES (5)")
	mustExec(t, s, "INSERT INTO t2 VALUES (6)")
	id = jobID(t, s, "END")
	ns := strings.Join(promptOf(s), ".")
	if j, _ := jobStatus(s, id); j.Name != "insert-into_"+ns+".t,"+ns+".t2" {
		t.Fatalf("statement set job: %+v", j)
	}
}

// lockedBuffer is an io.Writer safe for a job's goroutine and the test.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
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

// A statement set over unbounded sources is one background job whose
// sinks all make progress.
func TestBackgroundStatementSet(t *testing.T) {
	s := openQuerySession(t)
	var out lockedBuffer
	s.SetPrintOutput(&out, &out)
	mustExec(t, s, `CREATE TEMPORARY TABLE gen (id BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '1000')`)
	mustExec(t, s, `CREATE TEMPORARY TABLE p1 (id BIGINT) WITH ('connector' = 'print', 'print-identifier' = 'one')`)
	mustExec(t, s, `CREATE TEMPORARY TABLE p2 (id BIGINT) WITH ('connector' = 'print', 'print-identifier' = 'two')`)
	mustExec(t, s, "BEGIN STATEMENT SET")
	mustExec(t, s, "INSERT INTO p1 SELECT id FROM gen")
	mustExec(t, s, "INSERT INTO p2 SELECT id FROM gen")
	id := jobID(t, s, "END")
	deadline := time.Now().Add(5 * time.Second)
	for !(strings.Contains(out.String(), "one> +I[") && strings.Contains(out.String(), "two> +I[")) {
		if time.Now().After(deadline) {
			t.Fatalf("after 5 s the sinks printed %q", out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	ns := strings.Join(promptOf(s), ".")
	if j, _ := jobStatus(s, id); j.Status != JobRunning || j.Name != "insert-into_"+ns+".p1,"+ns+".p2" {
		t.Fatalf("job: %+v", j)
	}
	if got := s.CloseJobs(); len(got) != 1 || got[0] != id {
		t.Fatalf("CloseJobs: %v", got)
	}
}
