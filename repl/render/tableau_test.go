package render

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"eddy/engine/result"
)

// TestTableauPadding: cells are right-aligned however much padding they
// need (more than one run of the space buffer too), and wide characters
// count two columns.
func TestTableauPadding(t *testing.T) {
	long := strings.Repeat("x", 150)
	var b strings.Builder
	writeTable(&b, []string{"n"}, [][]string{{long}, {"a"}, {"日本"}}, unlimited, "")
	lines := strings.Split(b.String(), "\n")
	want := []string{
		"+" + strings.Repeat("-", 152) + "+",
		"|" + strings.Repeat(" ", 150) + "n |",
		"+" + strings.Repeat("-", 152) + "+",
		"| " + long + " |",
		"|" + strings.Repeat(" ", 150) + "a |",
		"|" + strings.Repeat(" ", 147) + "日本 |",
		"+" + strings.Repeat("-", 152) + "+",
		"3 rows in set",
		"",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got:\n%s\nwant:\n%s", b.String(), strings.Join(want, "\n"))
	}
}

// TestLongAnswer: an answer of several thousand rows (read in chunks)
// prints every row once, in order, sized by its widest cell.
func TestLongAnswer(t *testing.T) {
	const n = 2500
	rows := make([][]any, n)
	for i := range rows {
		rows[i] = []any{fmt.Sprintf("t%d", i)}
	}
	var b strings.Builder
	if _, err := Result(context.Background(), &b, result.StringTable([]string{"table name"}, rows), Options{}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != n+5 || lines[len(lines)-1] != "2500 rows in set" || lines[0] != "+------------+" {
		t.Fatalf("%d lines, first %q, last %q", len(lines), lines[0], lines[len(lines)-1])
	}
	for i := range n {
		if want := fmt.Sprintf("| %10s |", fmt.Sprintf("t%d", i)); lines[3+i] != want {
			t.Fatalf("line %d = %q, want %q", 3+i, lines[3+i], want)
		}
	}
}

// TestTableauSpill: a batch answer whose cells pass the memory budget is
// held in a temporary file, printed byte for byte as the answer held in
// memory is (wide characters, cut cells, NULL, cells with line breaks,
// empty cells), and the file is gone when printing ends, also when the
// query is cancelled part way.
func TestTableauSpill(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	const n = 3000
	rows := make([][]any, n)
	for i := range rows {
		rows[i] = []any{fmt.Sprintf("r%d", i), strings.Repeat("日", i%40), nil, ""}
		switch i % 7 {
		case 3:
			rows[i][1] = "a\nb"
		case 5:
			rows[i][2] = strings.Repeat("x", i%90)
		}
	}
	answer := func(budget int64, cancelAfter int) string {
		t.Helper()
		res := result.StringTable([]string{"id", "wide", "maybe", "empty"}, rows)
		res.IsQuery, res.Bounded = true, true
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		if cancelAfter >= 0 {
			var rs []result.Row
			for {
				r, ok, err := res.Rows.Next(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if !ok {
					break
				}
				rs = append(rs, r)
			}
			res.Rows = &scriptedRows{rows: rs, cancelAfter: cancelAfter, failAfter: -1, cancel: cancel}
		}
		var b strings.Builder
		opt := Options{ResultMode: ModeTableau, MaxColumnWidth: 60, MemoryBudget: budget}
		if _, err := Result(ctx, &b, res, opt); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	whole := answer(0, -1)
	if !strings.HasSuffix(whole, "\n3000 rows in set\n") || !strings.Contains(whole, "| r2999 |") {
		t.Fatalf("unexpected answer without a budget:\n%.400s", whole)
	}
	for _, budget := range []int64{1, 4 << 10, 64 << 10} {
		if got := answer(budget, -1); got != whole {
			t.Errorf("budget %d: the answer differs from the one held in memory", budget)
		}
	}
	if got, want := answer(1, 1500), answer(0, 1500); got != want || !strings.Contains(got, "1500") {
		t.Errorf("cancelled with a one-byte budget:\n%s\nwithout one:\n%s", got, want)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("temporary files left behind: %v", left)
	}

	// The spool does spill past its budget, keeping only the widths.
	s := newCellSpool(2, 100)
	defer s.Close()
	for i := range 10 {
		if err := s.add([]string{"abc", strings.Repeat("y", i)}); err != nil {
			t.Fatal(err)
		}
	}
	if s.f == nil || s.chunks != nil || s.widths[1] != 9 {
		t.Fatalf("after 10 rows over a 100-byte budget: spilled %v, %d chunks held, widths %v", s.f != nil, len(s.chunks), s.widths)
	}
}
