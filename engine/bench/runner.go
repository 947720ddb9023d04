package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"time"
)

// engine names a system under test.
type engine int

const (
	eddyEngine engine = iota
	sqliteEngine
	duckEngine
	// baseEngine is another eddy binary (-baseline), an earlier build to
	// compare with, run with the same workloads in the same rounds.
	baseEngine
	numEngines
)

func (e engine) String() string {
	return [...]string{"eddy", "sqlite3", "duckdb", "baseline"}[e]
}

// sample is one timed run.
type sample struct {
	d   time.Duration
	rss int64 // peak resident set in bytes; 0 when not measured (in process)
	// cpu is the process's user and system time; 0 when not measured
	// (in process). Unlike d it barely moves with the machine's load.
	cpu time.Duration
}

// runFunc runs a workload once; i is the run number (0-based), for
// workloads that must use fresh names each run.
type runFunc func(i int) (sample, error)

// caseDef is one workload row of the table.
type caseDef struct {
	name string
	runs [numEngines]runFunc // nil: the engine has no counterpart
	// per is the number of operations one run performs; >0 turns the
	// median into a rate (per/second) in the table.
	per    int
	unit   string // what per counts: "rows", "statements"
	target func(s *stats) (string, verdict)
}

// verdict is a target's outcome.
type verdict int

const (
	noTarget verdict = iota
	met
	missed
	unknown // the run failed, so the target cannot be judged
)

// stats holds the medians of one workload.
type stats struct {
	med  [numEngines]time.Duration
	cpu  [numEngines]time.Duration // median CPU time; 0 when not measured
	rss  [numEngines]int64         // peak over the runs
	ok   [numEngines]bool
	err  [numEngines]string
	per  int
	unit string
}

// rate is per operations divided by engine e's median, per second.
func (s *stats) rate(e engine) float64 {
	if s.med[e] <= 0 {
		return 0
	}
	return float64(s.per) / s.med[e].Seconds()
}

// ratio is eddy's median over peer's, 0 when either is missing.
func (s *stats) ratio(peer engine) float64 {
	if !s.ok[eddyEngine] || !s.ok[peer] || s.med[peer] <= 0 {
		return 0
	}
	return float64(s.med[eddyEngine]) / float64(s.med[peer])
}

// cpuRatio is eddy's median CPU time over peer's, 0 when either is
// missing or not measured.
func (s *stats) cpuRatio(peer engine) float64 {
	if !s.ok[eddyEngine] || !s.ok[peer] || s.cpu[peer] <= 0 || s.cpu[eddyEngine] <= 0 {
		return 0
	}
	return float64(s.cpu[eddyEngine]) / float64(s.cpu[peer])
}

// result is one row of the report.
type result struct {
	group, name string
	st          stats
	target      string
	verdict     verdict
	note        string // a setup failure
}

// measure runs cs runs times on every engine, engines alternating within
// each round, and keeps the medians.
func measure(group string, cs caseDef, runs int) result {
	var st stats
	st.per, st.unit = cs.per, cs.unit
	var samples, cpus [numEngines][]time.Duration
	for i := range runs {
		for e := range numEngines {
			f := cs.runs[e]
			if f == nil || st.err[e] != "" {
				continue
			}
			// What the engine before wrote is written out first: a
			// run must not wait for another engine's dirty pages
			// when it syncs its own files.
			syscall.Sync()
			s, err := f(i)
			if err != nil {
				st.err[e] = oneLine(err.Error())
				continue
			}
			samples[e] = append(samples[e], s.d)
			if s.cpu > 0 {
				cpus[e] = append(cpus[e], s.cpu)
			}
			st.rss[e] = max(st.rss[e], s.rss)
		}
	}
	for e := range numEngines {
		if st.err[e] == "" && len(samples[e]) > 0 {
			st.ok[e] = true
			st.med[e] = median(samples[e])
			if len(cpus[e]) == len(samples[e]) {
				st.cpu[e] = median(cpus[e])
			}
		}
	}
	r := result{group: group, name: cs.name, st: st}
	if cs.target != nil {
		if !st.ok[eddyEngine] {
			r.target, r.verdict = targetText(cs, &st), unknown
		} else {
			r.target, r.verdict = cs.target(&st)
		}
	}
	return r
}

// targetText gives a target's wording when eddy's run failed.
func targetText(cs caseDef, st *stats) string {
	// The target function needs a measurement; show its wording with a
	// zero figure stripped of the verdict.
	probe := *st
	probe.ok[eddyEngine] = true
	t, _ := cs.target(&probe)
	if i := strings.Index(t, ":"); i > 0 {
		return t[:i]
	}
	return t
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// proc runs a command to completion with stdin from a file (or nothing),
// standard output discarded, and returns its wall time and peak RSS. A
// non-zero exit is an error carrying the first line of standard error.
func proc(stdin string, name string, args ...string) (sample, error) {
	cmd := exec.Command(name, args...)
	if stdin != "" {
		f, err := os.Open(stdin)
		if err != nil {
			return sample{}, err
		}
		defer f.Close()
		cmd.Stdin = f
	}
	var stderr bytes.Buffer
	cmd.Stdout = io.Discard
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return sample{}, fmt.Errorf("%s: %v", name, err)
	}
	peak := watchPeak(cmd.Process.Pid)
	err := cmd.Wait()
	d := time.Since(start)
	rss := peak()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return sample{}, fmt.Errorf("%s: %s", name, firstError(msg))
	}
	cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	return sample{d: d, rss: rss, cpu: cpu}, nil
}

// watchPeak follows the peak resident set of process pid (VmHWM in
// /proc/pid/status, the high-water mark of its own memory since its exec)
// until the returned function is called, after the process ended; that
// returns the last mark read. The rusage of the wait is no measure of the
// child: Linux's ru_maxrss keeps the high-water mark of the memory the
// child had before its exec, which a vfork shares with this process (and
// its in-process DuckDB).
func watchPeak(pid int) func() int64 {
	path := fmt.Sprintf("/proc/%d/status", pid)
	stop := make(chan struct{})
	done := make(chan int64)
	go func() {
		var peak int64
		t := time.NewTicker(2 * time.Millisecond)
		defer t.Stop()
		for {
			// A process whose parent is not this one is another that
			// took the number after the child was reaped.
			if b, err := os.ReadFile(path); err == nil && field(b, "PPid:") == int64(os.Getpid()) {
				peak = max(peak, field(b, "VmHWM:")*1024)
			}
			select {
			case <-stop:
				done <- peak
				return
			case <-t.C:
			}
		}
	}()
	return func() int64 {
		close(stop)
		return <-done
	}
}

// field returns the first number of the line of a /proc status file that
// starts with key (0 when there is none: VmHWM of a process that ended).
func field(status []byte, key string) int64 {
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, key); ok {
			var n int64
			fmt.Sscan(strings.TrimSpace(rest), &n)
			return n
		}
	}
	return 0
}

// output runs a command and returns its standard output, for checks.
func output(stdin string, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	if stdin != "" {
		f, err := os.Open(stdin)
		if err != nil {
			return "", err
		}
		defer f.Close()
		cmd.Stdin = f
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return stdout.String(), fmt.Errorf("%s: %s", name, firstError(msg))
	}
	return stdout.String(), nil
}

// firstError picks the most telling line of an error output: the line
// after eddy's "[ERROR] ... Reason:" header, else the first line.
func firstError(msg string) string {
	lines := strings.Split(msg, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "[ERROR]") && i+1 < len(lines) {
			return strings.TrimSpace(lines[i+1])
		}
	}
	return strings.TrimSpace(lines[0])
}

func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	s = strings.ReplaceAll(s, "|", "/")
	if len(s) > 140 {
		s = s[:140] + "..."
	}
	return s
}
