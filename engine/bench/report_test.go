package main

import (
	"strings"
	"testing"
	"time"
)

func TestMedian(t *testing.T) {
	cases := []struct {
		in   []time.Duration
		want time.Duration
	}{
		{[]time.Duration{5, 1, 3}, 3},
		{[]time.Duration{4, 1, 3, 2}, 2}, // (2+3)/2 in integer nanoseconds
		{[]time.Duration{7}, 7},
	}
	for _, c := range cases {
		in := append([]time.Duration(nil), c.in...)
		if got := median(c.in); got != c.want {
			t.Errorf("median(%v) = %v, want %v", c.in, got, c.want)
		}
		for i := range in {
			if in[i] != c.in[i] {
				t.Fatalf("median reordered its input: %v", c.in)
			}
		}
	}
}

func TestFormats(t *testing.T) {
	for _, c := range []struct {
		got, want string
	}{
		{fmtCount(1000), "1,000"},
		{fmtCount(10_000_000), "10,000,000"},
		{fmtCount(4_712_345), "4.71M"},
		{fmtCount(471_234), "471K"},
		{fmtCount(12_345_678), "12.35M"},
		{fmtCount(999), "999"},
		{fmtDur(1500 * time.Microsecond), "1.5 ms"},
		{fmtDur(250 * time.Millisecond), "250 ms"},
		{fmtDur(2500 * time.Millisecond), "2.50 s"},
		{fmtDur(400 * time.Microsecond), "400 µs"},
		{fmtBytes(3 << 30), "3.00 GiB"},
		{fmtBytes(300 << 20), "300 MiB"},
		{fmtRatio(0), "—"},
		{fmtRatio(1.234), "1.23"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

func TestModulePath(t *testing.T) {
	if got := modulePath("// x\nmodule eddy\n\ngo 1.26.0\n"); got != "eddy" {
		t.Errorf("modulePath = %q", got)
	}
	if got := modulePath("go 1.26.0\n"); got != "" {
		t.Errorf("modulePath without a module line = %q", got)
	}
}

func TestFirstError(t *testing.T) {
	msg := "[ERROR] Could not execute SQL statement. Reason:\nValidationException: Object 't' not found\n"
	if got := firstError(msg); got != "ValidationException: Object 't' not found" {
		t.Errorf("firstError = %q", got)
	}
	if got := firstError("Error: near \"x\": syntax error\nmore"); got != `Error: near "x": syntax error` {
		t.Errorf("firstError = %q", got)
	}
}

// TestMeasureAndTable runs a fake workload through measure and the
// report: medians, ratios, a rate and a missed target must all show.
func TestMeasureAndTable(t *testing.T) {
	times := map[engine][]time.Duration{
		eddyEngine:   {30 * time.Millisecond, 10 * time.Millisecond, 20 * time.Millisecond},
		sqliteEngine: {10 * time.Millisecond, 10 * time.Millisecond, 10 * time.Millisecond},
	}
	var order []engine
	cs := caseDef{name: "w", per: 1000, unit: "rows", target: within(15 * time.Millisecond)}
	for _, e := range []engine{eddyEngine, sqliteEngine} {
		cs.runs[e] = func(i int) (sample, error) {
			order = append(order, e)
			return sample{d: times[e][i]}, nil
		}
	}
	r := measure("g", cs, 3)
	if got := r.st.med[eddyEngine]; got != 20*time.Millisecond {
		t.Errorf("eddy median %v", got)
	}
	if got := r.st.ratio(sqliteEngine); got != 2 {
		t.Errorf("ratio %v", got)
	}
	if r.verdict != missed {
		t.Errorf("verdict %v, want missed", r.verdict)
	}
	want := []engine{eddyEngine, sqliteEngine, eddyEngine, sqliteEngine, eddyEngine, sqliteEngine}
	if len(order) != len(want) {
		t.Fatalf("run order %v", order)
	}
	for i := range want {
		if order[i] != want[i] {
			t.Fatalf("runs do not alternate: %v", order)
		}
	}
	var b strings.Builder
	writeTable(&b, []result{r}, false)
	out := b.String()
	for _, s := range []string{"| g | w | 20.0 ms (50,000/s) | 10.0 ms (100,000/s) | — | 2.00 | — | ≤ 15.0 ms: 20.0 ms | **missed** |", "0 met, 1 missed"} {
		if !strings.Contains(out, s) {
			t.Errorf("table lacks %q:\n%s", s, out)
		}
	}
}

// TestBaselineColumns: with a baseline binary, its median, eddy's time
// over it and eddy's CPU time over its get columns of their own, and its
// runs alternate with eddy's.
func TestBaselineColumns(t *testing.T) {
	var order []engine
	cs := caseDef{name: "w"}
	for e, d := range map[engine]time.Duration{eddyEngine: 30 * time.Millisecond, baseEngine: 20 * time.Millisecond} {
		cs.runs[e] = func(int) (sample, error) {
			order = append(order, e)
			return sample{d: d, cpu: d / 4}, nil
		}
	}
	r := measure("g", cs, 2)
	if len(order) != 4 || order[0] != eddyEngine || order[1] != baseEngine || order[2] != eddyEngine {
		t.Fatalf("run order %v", order)
	}
	var b strings.Builder
	writeTable(&b, []result{r}, true)
	if want := "| g | w | 30.0 ms | — | — | — | — | 20.0 ms | 1.50 | 1.50 |  |  |"; !strings.Contains(b.String(), want) {
		t.Errorf("table lacks %q:\n%s", want, b.String())
	}
}
