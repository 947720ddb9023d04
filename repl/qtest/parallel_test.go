package qtest_test

import (
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"eddy/conf"
	"eddy/repl/qtest"
)

// TestConformanceParallelism runs every .q file of the conformance suite
// (Flink's and eddy's) with eddy.exec.parallelism 1 and with 4, more
// workers than this machine's cores, and requires identical answers: each
// record passes or fails alike, with the same output (the run's temporary
// directory, and the table padding its length moves, aside).
func TestConformanceParallelism(t *testing.T) {
	if testing.Short() {
		t.Skip("the conformance suite at two parallelisms is skipped in -short mode")
	}
	root := repoRoot(t)
	var files []qfile
	if dir, ok := flinkDir(t); ok {
		files = append(files, qfiles(t, "flink", dir)...)
	} else {
		t.Logf("Flink's .q scripts are not at %s: only eddy's run", dir)
	}
	files = append(files, qfiles(t, "eddy", filepath.Join(root, "testdata", "conformance"))...)
	skips, err := qtest.ReadSkipList(skipPath)
	if err != nil {
		t.Fatal(err)
	}
	// The output with the run's temporary directory taken out, and the
	// table padding and borders that its length moves.
	tmpDir := regexp.MustCompile(`eddy-qtest-[0-9]+`)
	padding := strings.NewReplacer(" ", "", "-", "", "+", "")
	content := func(out string) string { return padding.Replace(tmpDir.ReplaceAllString(out, "")) }
	runner := &qtest.Runner{NewTarget: newTarget}
	run := func(t *testing.T, f qfile, parallelism string) *qtest.FileResult {
		t.Setenv(conf.ParallelismEnv, parallelism)
		if o, ok := conf.Options().Lookup(conf.ExecParallelism); !ok || o.Default != parallelism {
			t.Fatalf("%s's default is not %s under $%s", conf.ExecParallelism, parallelism, conf.ParallelismEnv)
		}
		res, err := runner.Run(context.Background(), f.path, skips.ForFile(f.key))
		if err != nil {
			t.Fatalf("parallelism %s: %v", parallelism, err)
		}
		return res
	}
	records := 0
	for _, f := range files {
		t.Run(f.key, func(t *testing.T) {
			one, four := run(t, f, "1"), run(t, f, "4")
			if len(one.Outcomes) != len(four.Outcomes) {
				t.Fatalf("%d records at parallelism 1, %d at 4", len(one.Outcomes), len(four.Outcomes))
			}
			for i := range one.Outcomes {
				a, b := &one.Outcomes[i], &four.Outcomes[i]
				records++
				if a.Status != b.Status || content(a.Actual) != content(b.Actual) {
					t.Errorf("record #%d differs between parallelism 1 and 4:\n%s\n-- at 4:\n%s",
						a.Record.Num, qtest.Describe(f.key, a), qtest.Describe(f.key, b))
				}
			}
		})
	}
	if records == 0 {
		t.Fatal("no record ran")
	}
	t.Logf("%d records of %d files answered alike at parallelism 1 and 4", records, len(files))
}
