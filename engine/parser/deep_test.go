package parser

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestDeepNesting checks that hostile nesting is an error, never a stack
// overflow, and that long flat chains parse.
func TestDeepNesting(t *testing.T) {
	const n = 20000
	deep := []struct {
		name string
		sql  string
	}{
		{"parens", "SELECT " + strings.Repeat("(", n) + "1" + strings.Repeat(")", n)},
		{"unary minus", "SELECT " + strings.Repeat("- ", n) + "1"},
		{"not", "SELECT " + strings.Repeat("NOT ", n) + "TRUE"},
		{"calls", "SELECT " + strings.Repeat("f(", n) + "1" + strings.Repeat(")", n)},
		{"arrays", "SELECT " + strings.Repeat("ARRAY[", n) + "1" + strings.Repeat("]", n)},
		{"sub-queries", strings.Repeat("SELECT * FROM (", n) + "SELECT 1" + strings.Repeat(")", n)},
		{"query parens", strings.Repeat("(", n) + "SELECT 1" + strings.Repeat(")", n)},
		{"case", "SELECT " + strings.Repeat("CASE WHEN ", n) + "a" + strings.Repeat(" THEN 1 END", n)},
		{"types", "SELECT CAST(a AS " + strings.Repeat("ARRAY<", n) + "INT" + strings.Repeat(">", n) + ")"},
	}
	for _, tc := range deep {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			_, err := Parse(tc.sql)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("want a *parser.Error, got %v", err)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
	flat := []struct {
		name string
		sql  string
	}{
		{"and chain", "SELECT 1 FROM t WHERE " + strings.Repeat("a = 1 AND ", n) + "TRUE"},
		{"plus chain", "SELECT " + strings.Repeat("1 + ", n) + "1"},
		{"concat chain", "SELECT " + strings.Repeat("'a' || ", n) + "'b'"},
		{"union chain", strings.Repeat("SELECT 1 UNION ALL ", n/10) + "SELECT 1"},
		{"joins", "SELECT * FROM t" + strings.Repeat(" JOIN t ON TRUE", n/10)},
		{"moderate nesting", "SELECT " + strings.Repeat("(", 100) + "1" + strings.Repeat(")", 100)},
	}
	for _, tc := range flat {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Parse(tc.sql); err != nil {
				t.Fatal(err)
			}
		})
	}
}
