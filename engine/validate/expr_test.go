package validate

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"eddy/engine/ast"
	"eddy/engine/functions"
	"eddy/engine/parser"
	"eddy/engine/types"
)

// TestDataDriven runs the files under testdata/. Directives:
//
//	scope       input: one column a line, "[table.]name TYPE" (a
//	            serializable type string, optionally followed by *ROWTIME*
//	            or *PROCTIME*); replaces the scope of the following
//	            directives.
//	expr        input: expressions, one a line; output per expression:
//	            its type summary string, " | ", its rewritten text.
//	            With the argument agg, aggregates and OVER are allowed.
//	error       input: expressions, one a line; output per expression:
//	            "Class line:col: message".
//	watermark   arguments: the rowtime column; input: the expression;
//	            output: the expression's type and text, and the rowtime
//	            column's new type.
//
// Regenerate with: go test ./engine/validate -run TestDataDriven -rewrite
func TestDataDriven(t *testing.T) {
	reg := functions.NewRegistry()
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		scope := NewScope()
		datadriven.RunTest(t, path, func(t *testing.T, td *datadriven.TestData) string {
			switch td.Cmd {
			case "scope":
				scope = parseScope(t, td)
				return ""
			case "expr", "error":
				var b strings.Builder
				for _, line := range lines(td.Input) {
					v := New(reg)
					v.Source = line
					v.AllowAggregates = td.HasArg("agg")
					e, err := parser.ParseExpr(line)
					if err != nil {
						t.Fatalf("%s: %q does not parse: %v", td.Pos, line, err)
					}
					typed, err := v.Expr(scope, e)
					if td.Cmd == "expr" {
						if err != nil {
							t.Fatalf("%s: %q: unexpected error: %v", td.Pos, line, err)
						}
						checkReparse(t, td.Pos, typed.Expr)
						fmt.Fprintf(&b, "%s | %s\n", typed.Type, ast.String(typed.Expr))
						continue
					}
					if err == nil {
						t.Fatalf("%s: %q: expected an error, got %s", td.Pos, line, typed.Type)
					}
					b.WriteString(describeError(t, err) + "\n")
				}
				return b.String()
			case "watermark":
				var rowtime string
				td.ScanArgs(t, "col", &rowtime)
				e, err := parser.ParseExpr(strings.TrimSpace(td.Input))
				if err != nil {
					t.Fatalf("%s: %v", td.Pos, err)
				}
				typed, rt, err := New(reg).Watermark(scope, rowtime, e.Position(), e)
				if err != nil {
					return describeError(t, err) + "\n"
				}
				return fmt.Sprintf("%s | %s\nrowtime: %s\n", typed.Type, ast.String(typed.Expr), rt)
			}
			t.Fatalf("%s: unknown directive %q", td.Pos, td.Cmd)
			return ""
		})
	})
}

func lines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// describeError prints an error as the shell shows its class and where it
// points; every validation error must be an *Error with a position.
func describeError(t *testing.T, err error) string {
	t.Helper()
	var ve *Error
	if !errors.As(err, &ve) {
		t.Fatalf("error %v (%T) is not a *validate.Error", err, err)
	}
	if !ve.Pos.IsValid() {
		t.Fatalf("error %q has no position", err)
	}
	if !errors.Is(err, ve.Kind) {
		t.Fatalf("error %q does not match its own kind", err)
	}
	line, col := ve.Position()
	return fmt.Sprintf("%s %d:%d: %s", ve.Class(), line, col, strings.ReplaceAll(ve.Error(), "\n", "\\n"))
}

// checkReparse parses the rewritten text again: the expanded text must
// stay valid SQL.
func checkReparse(t *testing.T, where string, e ast.Expr) {
	t.Helper()
	text := ast.String(e)
	if _, err := parser.ParseExpr(text); err != nil {
		t.Fatalf("%s: rewritten text %q does not parse: %v", where, text, err)
	}
}

func parseScope(t *testing.T, td *datadriven.TestData) *Scope {
	s := NewScope()
	for _, l := range lines(td.Input) {
		name, typ, ok := strings.Cut(l, " ")
		if !ok {
			t.Fatalf("%s: bad scope line %q", td.Pos, l)
		}
		attr := types.Regular
		switch {
		case strings.HasSuffix(typ, " *ROWTIME*"):
			attr, typ = types.Rowtime, strings.TrimSuffix(typ, " *ROWTIME*")
		case strings.HasSuffix(typ, " *PROCTIME*"):
			attr, typ = types.Proctime, strings.TrimSuffix(typ, " *PROCTIME*")
		}
		ty, err := types.Parse(typ)
		if err != nil {
			t.Fatalf("%s: bad type %q: %v", td.Pos, typ, err)
		}
		c := Column{Name: name, Type: ty.WithTimeAttr(attr)}
		if tbl, col, ok := strings.Cut(name, "."); ok {
			c.Table, c.Name = tbl, col
		}
		c.Name = strings.Trim(c.Name, "`")
		s.Add(c)
	}
	return s
}
