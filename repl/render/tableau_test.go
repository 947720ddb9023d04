package render

import (
	"strings"
	"testing"
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
