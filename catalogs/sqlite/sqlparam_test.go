package sqlite

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSQLIsNeverBuiltFromStrings checks that every query this package sends
// to SQLite is a constant text: a string literal, an element of the
// migrations list, or a parameter of a function that receives such a text.
// Values always travel as parameters.
func TestSQLIsNeverBuiltFromStrings(t *testing.T) {
	files, err := filepath.Glob("*.go")
	must(t, err)
	// method name -> position of the SQL text among the arguments
	sqlArg := map[string]int{"Exec": 0, "Query": 0, "QueryRow": 0, "Prepare": 0,
		"ExecContext": 1, "QueryContext": 1, "QueryRowContext": 1, "PrepareContext": 1,
		"names": 1, "exists": 1, "listObjects": 2}
	checked := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		must(t, err)
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, f, src, 0)
		must(t, err)
		ast.Inspect(file, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			pos, ok := sqlArg[sel.Sel.Name]
			if !ok || len(call.Args) <= pos {
				return true
			}
			arg := call.Args[pos]
			checked++
			switch a := arg.(type) {
			case *ast.BasicLit:
				return true
			case *ast.Ident:
				if a.Name == "query" || a.Name == "q" {
					return true
				}
				// A constant declared in the same file.
				if a.Obj != nil && a.Obj.Kind == ast.Con {
					return true
				}
			case *ast.IndexExpr:
				if id, ok := a.X.(*ast.Ident); ok && id.Name == "migrations" {
					return true
				}
			}
			t.Errorf("%s: SQL passed to %s is not a constant text", fset.Position(arg.Pos()), sel.Sel.Name)
			return true
		})
	}
	if checked < 20 {
		t.Fatalf("only %d SQL calls found; the check is not looking at the code", checked)
	}
}
