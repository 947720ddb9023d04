package qtest_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"eddy/repl/qtest"
)

var updateBaseline = flag.Bool("update-baseline", false,
	"add the conformance records that newly pass to testdata/baseline.txt")

const updateCommand = "go test ./repl/qtest -run TestConformance -update-baseline"

const (
	baselinePath = "testdata/baseline.txt"
	skipPath     = "testdata/skip.txt"
)

// TestConformance runs Flink's .q scripts (shared/conformance/flink next to
// the repository), eddy's own (testdata/conformance) and those of the
// directory named by EDDY_QFILES, each file against a fresh session. It
// fails when a record listed in the baseline no longer passes.
func TestConformance(t *testing.T) {
	root := repoRoot(t)
	base, err := qtest.ReadBaseline(baselinePath)
	if err != nil {
		t.Fatal(err)
	}
	skips, err := qtest.ReadSkipList(skipPath)
	if err != nil {
		t.Fatal(err)
	}

	var files []qfile
	ran := map[string]bool{} // sources whose files are all present
	if dir, ok := flinkDir(t); ok {
		files = append(files, qfiles(t, "flink", dir)...)
		ran["flink"] = true
	} else {
		t.Logf("Flink's .q scripts are not at %s: the Flink part of the conformance run is skipped", dir)
	}
	files = append(files, qfiles(t, "eddy", filepath.Join(root, "testdata", "conformance"))...)
	ran["eddy"] = true
	if extra := os.Getenv("EDDY_QFILES"); extra != "" {
		files = append(files, qfiles(t, "extra", extra)...)
	}

	checkLists(t, files, ran, base, skips)

	probe, err := newTarget(context.Background(), t.TempDir(), qtest.Client)
	if err != nil {
		t.Fatalf("opening a session: %v", err)
	}
	if err := probe.Close(); err != nil {
		t.Fatalf("closing a session: %v", err)
	}

	runner := &qtest.Runner{NewTarget: newTarget}
	var runs, tracked []qtest.FileRun
	for _, f := range files {
		run := qtest.FileRun{File: f.key}
		started := false // false when -run leaves the file out
		t.Run(f.key, func(t *testing.T) {
			started = true
			run.Result, run.Err = runner.Run(context.Background(), f.path, skips.ForFile(f.key))
			if run.Err != nil {
				t.Errorf("%s: %v", f.key, run.Err)
				return
			}
			reportFile(t, base, run)
		})
		if !started {
			continue
		}
		runs = append(runs, run)
		if !strings.HasPrefix(f.key, "extra/") {
			tracked = append(tracked, run)
		}
	}

	regressions, newly := qtest.Check(base, tracked)
	if len(newly) > 0 {
		fmt.Printf("conformance baseline: %d records pass that are not in the baseline:\n%s", len(newly), groupByFile(newly))
		if !*updateBaseline {
			fmt.Printf("conformance baseline: add them with: %s\n", updateCommand)
		}
	}
	if *updateBaseline {
		switch {
		case len(regressions) > 0:
			t.Errorf("baseline not updated: %d baseline records fail; the baseline only moves up", len(regressions))
		case len(newly) > 0:
			if err := base.Updated(tracked).Write(baselinePath); err != nil {
				t.Fatal(err)
			}
			fmt.Printf("conformance baseline: %d records added to %s\n", len(newly), baselinePath)
		}
	}
	if err := qtest.WriteSummary(os.Stdout, runs); err != nil {
		t.Fatal(err)
	}
}

// reportFile fails the subtest on a regression (a baseline record that does
// not pass) and otherwise logs the first differing record and the count.
func reportFile(t *testing.T, base qtest.Baseline, run qtest.FileRun) {
	res := run.Result
	_, failed, _ := res.Counts()
	var regressed []*qtest.Outcome
	for i := range res.Outcomes {
		o := &res.Outcomes[i]
		if o.Status != qtest.Passed && base[qtest.Key{File: run.File, Record: o.Record.Num}] {
			regressed = append(regressed, o)
		}
	}
	if len(regressed) > 0 {
		nums := make([]string, len(regressed))
		for i, o := range regressed {
			nums[i] = fmt.Sprintf("#%d", o.Record.Num)
		}
		t.Errorf("regression: %d baseline records of %s fail (%s); the first:\n%s",
			len(regressed), run.File, strings.Join(nums, " "), qtest.Describe(run.File, regressed[0]))
		return
	}
	if o := res.FirstFailure(); o != nil {
		t.Logf("%d of %d records differ (none in the baseline); the first:\n%s",
			failed, len(res.Outcomes), qtest.Describe(run.File, o))
	}
}

// checkLists rejects baseline and skip entries that name no record: a file
// that is not there (for the sources that were found) or a record number
// past the file's end, and a record both skipped and in the baseline.
func checkLists(t *testing.T, files []qfile, ran map[string]bool, base qtest.Baseline, skips qtest.SkipList) {
	t.Helper()
	counts := map[string]int{}
	for _, f := range files {
		raw, err := os.ReadFile(f.path)
		if err != nil {
			t.Fatal(err)
		}
		s, err := qtest.Parse(string(raw))
		if err != nil {
			t.Errorf("%s: %v", f.key, err)
		}
		counts[f.key] = len(s.Records)
	}
	check := func(list string, k qtest.Key) {
		source, _, _ := strings.Cut(k.File, "/")
		n, ok := counts[k.File]
		switch {
		case !ok && ran[source]:
			t.Errorf("%s lists %s: no such .q file", list, k)
		case ok && k.Record > n:
			t.Errorf("%s lists %s: the file has %d records", list, k, n)
		}
	}
	for k := range base {
		check(baselinePath, k)
		if _, skipped := skips[k]; skipped {
			t.Errorf("%s is both in %s and in %s", k, baselinePath, skipPath)
		}
	}
	for k := range skips {
		check(skipPath, k)
	}
}

// groupByFile lists keys one line per file: "    file #1 #2 ...".
func groupByFile(keys []qtest.Key) string {
	var b strings.Builder
	for i, k := range keys {
		if i == 0 || keys[i-1].File != k.File {
			if i > 0 {
				b.WriteByte('\n')
			}
			b.WriteString("    " + k.File)
		}
		fmt.Fprintf(&b, " #%d", k.Record)
	}
	b.WriteByte('\n')
	return b.String()
}
