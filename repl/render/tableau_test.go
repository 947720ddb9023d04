package render

import (
	"context"
	"fmt"
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
