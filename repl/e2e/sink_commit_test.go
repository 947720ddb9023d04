package e2e

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// A streaming INSERT from an unbounded source commits at every checkpoint
// (execution.checkpointing.interval) and whenever its buffer outgrows its
// share of eddy.exec.memory-budget: its rows become visible to another
// shell while it runs, its memory stays bounded, and stopping it (STOP
// JOB, or Ctrl-C killing the piped shell) keeps every committed row.

// sinkBudget is the memory budget of the INSERTs below, in MiB; their
// resident memory must stay under sinkBudget + 64 MiB.
const sinkBudget = 64

// sinkSeconds is how long the unbounded INSERT runs: 10 s, or
// EDDY_SINK_SECONDS (the 60 s figure).
func sinkSeconds() time.Duration {
	if n, err := strconv.Atoi(os.Getenv("EDDY_SINK_SECONDS")); err == nil && n > 0 {
		return time.Duration(n) * time.Second
	}
	return 10 * time.Second
}

// unboundedInsert is the script of a shell that inserts an unbounded
// datagen stream into the managed table m.
func unboundedInsert(sync bool) string {
	return fmt.Sprintf(`SET 'sql-client.execution.result-mode' = 'tableau';
SET 'execution.checkpointing.interval' = '1s';
SET 'eddy.exec.memory-budget' = '%dmb';
SET 'table.dml-sync' = '%t';
CREATE TEMPORARY TABLE gen (a BIGINT, s STRING) WITH ('connector' = 'datagen', 'rows-per-second' = '200000',
  'fields.s.length' = '40');
INSERT INTO m SELECT * FROM gen;
`, sinkBudget, sync)
}

// rssMiB returns the peak resident memory of process pid so far in MiB,
// from /proc/<pid>/status (VmHWM: unlike getrusage's figure for a child,
// it does not count the memory of the test process it was forked from).
func rssMiB(pid int) (int, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, false
	}
	for _, l := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")))
			return kb >> 10, err == nil
		}
	}
	return 0, false
}

// runSampled starts cmd, samples its peak resident memory every 50 ms
// until it ends, and returns the peak in MiB (0 when never read), the
// time it ran and its exit error.
func runSampled(t *testing.T, cmd *exec.Cmd) (peak int, elapsed time.Duration, err error) {
	t.Helper()
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			return peak, time.Since(start), err
		case <-tick.C:
			if rss, ok := rssMiB(cmd.Process.Pid); ok {
				peak = max(peak, rss)
			}
		}
	}
}

// countRows counts the rows of m through another eddy process.
func countRows(t *testing.T, vars []string, st string) int {
	t.Helper()
	r := eddyEnv(t, vars, "SET 'sql-client.execution.result-mode' = 'tableau';\n"+
		"SET 'execution.runtime-mode' = 'batch';\nSELECT count(*) AS n FROM m;\n", "--store", st)
	n := column(r.stdout, "n")
	if r.code != 0 || len(n) != 1 {
		t.Fatalf("counting the rows of m: %s%s", r.stdout, r.stderr)
	}
	c, _ := strconv.Atoi(n[0])
	return c
}

// lockedBuffer collects a process's output for reading while it runs.
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

// watchInsert lets the INSERT of process pid run for d, sampling its
// resident memory and counting m's rows from another process. It fails
// the test when the rows do not grow while it runs or the memory passes
// the bound, and returns the last count.
func watchInsert(t *testing.T, vars []string, st string, pid int, d time.Duration) int {
	start := time.Now()
	peak, last, grew := 0, 0, 0
	for time.Since(start) < d {
		time.Sleep(time.Second)
		if rss, ok := rssMiB(pid); ok {
			peak = max(peak, rss)
		}
		n := countRows(t, vars, st)
		if n < last {
			t.Fatalf("m went from %d rows to %d while the INSERT ran", last, n)
		}
		if n > last {
			grew++
		}
		last = n
	}
	t.Logf("after %v: %d rows committed, visible %d times while running; peak RSS %d MiB (budget %d MiB)",
		d, last, grew, peak, sinkBudget)
	if grew < 2 {
		t.Errorf("the rows of the running INSERT became visible %d times in %v; want at least 2", grew, d)
	}
	if peak > sinkBudget+64 {
		t.Errorf("peak RSS %d MiB over the budget %d MiB + 64 MiB", peak, sinkBudget)
	}
	return last
}

func TestUnboundedInsertCommitsPeriodically(t *testing.T) {
	if testing.Short() {
		t.Skip("runs an unbounded INSERT for seconds")
	}
	t.Run("stop_job", func(t *testing.T) {
		vars, _ := env(t)
		st := store(t)
		if r := eddyEnv(t, vars, "CREATE TABLE m (a BIGINT, s STRING);\n", "--store", st); r.code != 0 {
			t.Fatalf("setup: %s%s", r.stdout, r.stderr)
		}
		cmd := exec.Command(binary, "--store", st)
		cmd.Env = vars
		in, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		out := &lockedBuffer{}
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer cmd.Process.Kill()
		if _, err := io.WriteString(in, unboundedInsert(false)); err != nil {
			t.Fatal(err)
		}
		id := waitJobID(t, out)
		last := watchInsert(t, vars, st, cmd.Process.Pid, sinkSeconds())
		if _, err := io.WriteString(in, "STOP JOB '"+id+"';\n"); err != nil {
			t.Fatal(err)
		}
		in.Close()
		if err := cmd.Wait(); err != nil {
			t.Fatalf("%v\n%s", err, out.String())
		}
		if n := countRows(t, vars, st); n < last || n == 0 {
			t.Fatalf("after STOP JOB m holds %d rows; %d were committed before", n, last)
		}
	})
	t.Run("ctrl_c", func(t *testing.T) {
		vars, _ := env(t)
		st := store(t)
		if r := eddyEnv(t, vars, "CREATE TABLE m (a BIGINT, s STRING);\n", "--store", st); r.code != 0 {
			t.Fatalf("setup: %s%s", r.stdout, r.stderr)
		}
		cmd := exec.Command(binary, "--store", st)
		cmd.Env = vars
		cmd.Stdin = strings.NewReader(unboundedInsert(true))
		out := &lockedBuffer{}
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer cmd.Process.Kill()
		last := watchInsert(t, vars, st, cmd.Process.Pid, 4*time.Second)
		if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
		_ = cmd.Wait()
		if n := countRows(t, vars, st); n < last || n == 0 {
			t.Fatalf("after Ctrl-C m holds %d rows; %d were committed before", n, last)
		}
	})
}

var jobIDLine = regexp.MustCompile(`Job ID: ([0-9a-f]+)`)

// waitJobID waits for the job id the shell prints for a background INSERT.
func waitJobID(t *testing.T, out *lockedBuffer) string {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if m := jobIDLine.FindStringSubmatch(out.String()); m != nil {
			return m[1]
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("no job id in:\n%s", out.String())
	return ""
}

// TestTenMillionRowInsertInBoundedMemory inserts 10 million rows with
// INSERT ... SELECT under a 64 MiB budget, in both modes: in streaming
// mode the sink commits whenever its buffer outgrows its share; in batch
// mode, which commits once (all or nothing), it stages the rows in the
// store's temporary file. Either way eddy's resident memory stays under
// the budget + 64 MiB.
func TestTenMillionRowInsertInBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("inserts 10 million rows")
	}
	for _, mode := range []string{"streaming", "batch"} {
		t.Run(mode, func(t *testing.T) { insertTenMillion(t, mode) })
	}
}

func insertTenMillion(t *testing.T, mode string) {
	vars, _ := env(t)
	st := store(t)
	const rows = 10_000_000
	script := fmt.Sprintf(`SET 'eddy.exec.memory-budget' = '%dmb';
SET 'table.dml-sync' = 'true';
SET 'execution.runtime-mode' = '%s';
CREATE TABLE m (a BIGINT, s STRING);
CREATE TEMPORARY TABLE gen (a BIGINT, s STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '%d',
  'rows-per-second' = '100000000', 'fields.a.kind' = 'sequence', 'fields.a.start' = '1', 'fields.a.end' = '%d',
  'fields.s.length' = '10');
INSERT INTO m SELECT * FROM gen;
`, sinkBudget, mode, rows, rows)
	cmd := exec.Command(binary, "--store", st)
	cmd.Env = vars
	cmd.Stdin = strings.NewReader(script)
	out := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	peak, elapsed, err := runSampled(t, cmd)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	t.Logf("%s mode: %d rows inserted in %v; peak RSS %d MiB (VmHWM; budget %d MiB)",
		mode, rows, elapsed.Round(time.Second), peak, sinkBudget)
	if n := countRows(t, vars, st); n != rows {
		t.Fatalf("m holds %d rows, want %d", n, rows)
	}
	if peak == 0 {
		t.Fatal("no memory figure was read from /proc")
	}
	if peak > sinkBudget+64 {
		t.Errorf("peak RSS %d MiB over the budget %d MiB + 64 MiB", peak, sinkBudget)
	}
}
