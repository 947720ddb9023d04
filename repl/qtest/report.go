package qtest

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// FileRun is one script's run under its baseline key.
type FileRun struct {
	File   string      // the key's file part ("flink/sql-client/set.q")
	Result *FileResult // nil when the file could not be run
	Err    error       // why the file could not be run
}

// Check compares runs with the baseline. Regressions are baseline records
// of the files run that did not pass (all of a file's baseline records when
// the file could not run); newly passing records passed without being in
// the baseline.
func Check(b Baseline, runs []FileRun) (regressions, newlyPassing []Key) {
	for _, run := range runs {
		passed := map[int]bool{}
		if run.Result != nil {
			for _, o := range run.Result.Outcomes {
				if o.Status == Passed {
					passed[o.Record.Num] = true
					if k := (Key{run.File, o.Record.Num}); !b[k] {
						newlyPassing = append(newlyPassing, k)
					}
				}
			}
		}
		for k, ok := range b {
			if ok && k.File == run.File && !passed[k.Record] {
				regressions = append(regressions, k)
			}
		}
	}
	slices.SortFunc(regressions, compareKeys)
	slices.SortFunc(newlyPassing, compareKeys)
	return regressions, newlyPassing
}

// Updated returns the baseline after adding every record that passed.
func (b Baseline) Updated(runs []FileRun) Baseline {
	nb := Baseline{}
	for k, ok := range b {
		if ok {
			nb[k] = true
		}
	}
	for _, run := range runs {
		if run.Result == nil {
			continue
		}
		for _, o := range run.Result.Outcomes {
			if o.Status == Passed {
				nb[Key{run.File, o.Record.Num}] = true
			}
		}
	}
	return nb
}

// Tally counts records.
type Tally struct{ Passed, Failed, Skipped int }

// Total is the number of records counted.
func (t Tally) Total() int { return t.Passed + t.Failed + t.Skipped }

func (t *Tally) add(u Tally) {
	t.Passed += u.Passed
	t.Failed += u.Failed
	t.Skipped += u.Skipped
}

// String returns "N passed, N failed, N skipped".
func (t Tally) String() string {
	return fmt.Sprintf("%d passed, %d failed, %d skipped", t.Passed, t.Failed, t.Skipped)
}

func tallyOf(r *FileResult) Tally {
	p, f, s := r.Counts()
	return Tally{p, f, s}
}

// WriteSummary prints a per-file table (file, dialect, passed/total,
// skipped) and the closing lines "conformance client: ...", "conformance
// gateway: ..." and "conformance: N passed, N failed, N skipped" (all
// dialects). Every line starts with "conformance", so none can be taken for
// a line of go test's own summary ("ok", "PASS", "FAIL", "--- ").
func WriteSummary(w io.Writer, runs []FileRun) error {
	width := len("file")
	for _, run := range runs {
		width = max(width, len(run.File))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "conformance | %-*s | %-7s | %13s | %7s\n", width, "file", "dialect", "passed/total", "skipped")
	var per [2]Tally
	var total Tally
	for _, run := range runs {
		if run.Result == nil {
			fmt.Fprintf(&b, "conformance | %-*s | %-7s | %13s | %7s\n", width, run.File, "-", "not run", "-")
			continue
		}
		t := tallyOf(run.Result)
		per[run.Result.Dialect].add(t)
		total.add(t)
		fmt.Fprintf(&b, "conformance | %-*s | %-7s | %13s | %7d\n", width, run.File, run.Result.Dialect,
			fmt.Sprintf("%d/%d", t.Passed, t.Total()), t.Skipped)
	}
	fmt.Fprintf(&b, "conformance client: %s\n", per[Client])
	fmt.Fprintf(&b, "conformance gateway: %s\n", per[Gateway])
	fmt.Fprintf(&b, "conformance: %s\n", total)
	_, err := io.WriteString(w, b.String())
	return err
}

// Describe explains one failed record: where it is, its SQL, the expected
// and the actual answer.
func Describe(file string, o *Outcome) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s #%d (line %d):\n", file, o.Record.Num, o.Record.Line)
	b.WriteString(indent(strings.TrimRight(o.Record.SQL, "\n")))
	b.WriteString("  expected:\n")
	b.WriteString(indent(o.Expected + o.ExpectedTag))
	b.WriteString("  actual:\n")
	b.WriteString(indent(o.Actual + o.ActualTag))
	return b.String()
}

func indent(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(s, "\n") {
		b.WriteString("    " + l + "\n")
	}
	return b.String()
}
