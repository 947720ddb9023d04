package qtest_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"eddy/repl/qtest"
)

func TestBaselineRoundTrip(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "baseline.txt")
	b, err := qtest.ReadBaseline(p)
	if err != nil || len(b) != 0 {
		t.Fatalf("missing baseline: %v, %v", b, err)
	}
	b = qtest.Baseline{
		{File: "flink/sql-gateway/set.q", Record: 2}:   true,
		{File: "eddy/set_reset.q", Record: 10}:         true,
		{File: "eddy/set_reset.q", Record: 9}:          true,
		{File: "flink/sql-client/select.q", Record: 1}: true,
	}
	if err := b.Write(p); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(p)
	var lines []string
	for _, l := range strings.Split(string(raw), "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			lines = append(lines, l)
		}
	}
	want := []string{"eddy/set_reset.q 9", "eddy/set_reset.q 10", "flink/sql-client/select.q 1", "flink/sql-gateway/set.q 2"}
	if !slices.Equal(lines, want) {
		t.Errorf("written lines %q, want %q", lines, want)
	}
	back, err := qtest.ReadBaseline(p)
	if err != nil || len(back) != len(b) {
		t.Fatalf("read back %v, %v", back, err)
	}
	for k := range b {
		if !back[k] {
			t.Errorf("%s lost", k)
		}
	}
}

func TestListErrors(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name, text, want string
		skip             bool
	}{
		{"no reason", "flink/sql-client/function.q 1 needs the jar\nflink/sql-client/function.q 2\n", "function.q #2 has no reason", true},
		{"bad number", "flink/sql-client/function.q one reason\n", "want <file> <record number>", true},
		{"zero", "eddy/a.q 0 reason\n", "want <file> <record number>", true},
		{"duplicate skip", "eddy/a.q 1 r\neddy/a.q 1 r\n", "duplicate entry", true},
		{"baseline extra text", "eddy/a.q 1 passes\n", "unexpected text", false},
		{"duplicate baseline", "eddy/a.q 1\n\n# c\neddy/a.q 1\n", "duplicate entry", false},
	} {
		p := filepath.Join(dir, "list.txt")
		if err := os.WriteFile(p, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		var err error
		if c.skip {
			_, err = qtest.ReadSkipList(p)
		} else {
			_, err = qtest.ReadBaseline(p)
		}
		var le *qtest.ListError
		if err == nil || !errors.As(err, &le) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.name, err, c.want)
		}
	}
	p := filepath.Join(dir, "skip.txt")
	os.WriteFile(p, []byte("# comment\n\nflink/sql-client/set.q 6  needs the UDF jar \n"), 0o644)
	s, err := qtest.ReadSkipList(p)
	if err != nil || s[qtest.Key{File: "flink/sql-client/set.q", Record: 6}] != "needs the UDF jar" {
		t.Errorf("skip list %v, %v", s, err)
	}
	if m := s.ForFile("flink/sql-client/set.q"); len(m) != 1 || m[6] == "" {
		t.Errorf("ForFile = %v", m)
	}
}

// TestBaselineCatchesRegression runs a script whose baseline lists a record
// that now fails: Check must report it, and not the records that fail
// without being listed.
func TestBaselineCatchesRegression(t *testing.T) {
	path := writeFile(t, t.TempDir(), "toy.q", clientScript)
	targets := &toyTargets{}
	res, err := (&qtest.Runner{NewTarget: targets.open}).Run(context.Background(), path, map[int]string{5: "by design"})
	if err != nil {
		t.Fatal(err)
	}
	runs := []qtest.FileRun{{File: "eddy/toy.q", Result: res}, {File: "eddy/gone.q", Err: errors.New("cannot run")}}
	base := qtest.Baseline{
		{File: "eddy/toy.q", Record: 1}:   true,
		{File: "eddy/toy.q", Record: 4}:   true, // fails now: a regression
		{File: "eddy/gone.q", Record: 2}:  true, // its file could not run
		{File: "eddy/other.q", Record: 1}: true, // not run here: no verdict
	}
	regressions, newly := qtest.Check(base, runs)
	wantReg := []qtest.Key{{File: "eddy/gone.q", Record: 2}, {File: "eddy/toy.q", Record: 4}}
	if !slices.Equal(regressions, wantReg) {
		t.Errorf("regressions %v, want %v", regressions, wantReg)
	}
	wantNew := []qtest.Key{{File: "eddy/toy.q", Record: 2}, {File: "eddy/toy.q", Record: 3},
		{File: "eddy/toy.q", Record: 7}, {File: "eddy/toy.q", Record: 8}, {File: "eddy/toy.q", Record: 10}}
	if !slices.Equal(newly, wantNew) {
		t.Errorf("newly passing %v, want %v", newly, wantNew)
	}
	up := base.Updated(runs)
	if len(up) != len(base)+len(wantNew) || !up[qtest.Key{File: "eddy/toy.q", Record: 4}] {
		t.Errorf("updated baseline %v", up)
	}

	var out bytes.Buffer
	if err := qtest.WriteSummary(&out, runs); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{
		"conformance | eddy/toy.q  | client  |          6/10 |       1\n",
		"conformance | eddy/gone.q | -       |       not run |       -\n",
		"conformance client: 6 passed, 3 failed, 1 skipped\n",
		"conformance gateway: 0 passed, 0 failed, 0 skipped\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("summary lacks %q:\n%s", want, text)
		}
	}
	if !strings.HasSuffix(text, "\nconformance: 6 passed, 3 failed, 1 skipped\n") {
		t.Errorf("summary does not close with the total:\n%s", text)
	}
	for _, l := range strings.Split(strings.TrimSpace(text), "\n") {
		if !strings.HasPrefix(l, "conformance") {
			t.Errorf("summary line %q does not start with \"conformance\"", l)
		}
	}
}
