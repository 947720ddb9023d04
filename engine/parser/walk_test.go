package parser

import (
	"strings"
	"testing"

	"eddy/engine/ast"
)

func TestInspectAndEqual(t *testing.T) {
	q, err := ParseQuery("SELECT a, f(b + 1) FROM t WHERE c IN (SELECT d FROM u) ORDER BY a")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	ast.Inspect(q, func(n ast.Node) bool {
		if id, ok := n.(*ast.Identifier); ok {
			names = append(names, ast.String(id))
		}
		return true
	})
	want := []string{"`a`", "`b`", "`c`", "`d`", "`a`"}
	if len(names) != len(want) {
		t.Fatalf("identifiers %v, want %v", names, want)
	}
	for i := range want {
		if names[i] != want[i] {
			t.Fatalf("identifiers %v, want %v", names, want)
		}
	}
	// Pruning: not descending into the sub-query hides `d`.
	count := 0
	ast.Inspect(q, func(n ast.Node) bool {
		if _, ok := n.(*ast.InExpr); ok {
			return false
		}
		if _, ok := n.(*ast.Identifier); ok {
			count++
		}
		return true
	})
	if count != 3 {
		t.Errorf("pruned walk saw %d identifiers, want 3", count)
	}

	// Helper structs (CASE branches, aliases, window specs) are walked too.
	q2, err := ParseQuery("SELECT CASE WHEN w THEN x END, SUM(y) OVER (PARTITION BY z) FROM t AS u (v)")
	if err != nil {
		t.Fatal(err)
	}
	var seen []string
	ast.Inspect(q2, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			seen = append(seen, id.Name)
		}
		return true
	})
	if got := strings.Join(seen, " "); got != "w x SUM y z t u v" {
		t.Errorf("idents visited: %q", got)
	}

	// Equal ignores positions and quoting but not names or structure.
	a, _ := ParseExpr("x + `y`")
	b, _ := ParseExpr("\n  x   +\n y")
	c, _ := ParseExpr("x + z")
	d, _ := ParseExpr("x - y")
	if !ast.Equal(a, b) {
		t.Error("trees differing only in layout compare unequal")
	}
	if ast.Equal(a, c) || ast.Equal(a, d) {
		t.Error("different trees compare equal")
	}
}
