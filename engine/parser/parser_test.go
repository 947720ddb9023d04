package parser

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"eddy/engine/ast"
)

// TestDataDriven runs every file under testdata/ (fuzz corpora excluded).
// Directives:
//
//	parse    input: one statement; output: its canonical text. The test
//	         also checks that parsing the output gives an equal tree.
//	expr     the same for a scalar expression.
//	error    input: a statement that must not parse; output: the message
//	         followed by the offending line and a caret under the column.
//	lex      input: text; output: one token per line (kind, position, text).
//
// Regenerate expectations with: go test ./engine/parser -run TestDataDriven -rewrite
func TestDataDriven(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		if strings.Contains(path, "fuzz") {
			return
		}
		datadriven.RunTest(t, path, func(t *testing.T, td *datadriven.TestData) string {
			switch td.Cmd {
			case "parse":
				stmt, err := Parse(td.Input)
				if err != nil {
					t.Fatalf("%s: %s", td.Pos, err)
				}
				out := ast.String(stmt)
				checkRoundTrip(t, td.Pos, stmt, out, func(s string) (ast.Node, error) { return Parse(s) })
				return out + "\n"
			case "expr":
				e, err := ParseExpr(td.Input)
				if err != nil {
					t.Fatalf("%s: %s", td.Pos, err)
				}
				out := ast.String(e)
				checkRoundTrip(t, td.Pos, e, out, func(s string) (ast.Node, error) { return ParseExpr(s) })
				return out + "\n"
			case "error":
				var err error
				if td.HasArg("expr") {
					_, err = ParseExpr(td.Input)
				} else {
					_, err = Parse(td.Input)
				}
				if err == nil {
					t.Fatalf("%s: expected an error", td.Pos)
				}
				return caretError(td.Input, err)
			case "lex":
				return lexDump(td.Input)
			}
			t.Fatalf("%s: unknown directive %q", td.Pos, td.Cmd)
			return ""
		})
	})
}

// checkRoundTrip parses the formatted text again and compares the trees.
func checkRoundTrip(t *testing.T, where string, orig ast.Node, text string, parse func(string) (ast.Node, error)) {
	t.Helper()
	again, err := parse(text)
	if err != nil {
		t.Fatalf("%s: formatted text does not parse: %s\n%s", where, err, text)
	}
	if !ast.Equal(orig, again) {
		t.Fatalf("%s: round trip changed the tree:\n%s\n%s", where, text, ast.String(again))
	}
}

// caretError renders an error with the line it points at and a caret.
func caretError(src string, err error) string {
	var e *Error
	if !errors.As(err, &e) {
		return "not a *parser.Error: " + err.Error() + "\n"
	}
	var b strings.Builder
	b.WriteString(e.Msg)
	b.WriteByte('\n')
	lines := strings.Split(src, "\n")
	if e.Pos.Line >= 1 && e.Pos.Line <= len(lines) {
		line := lines[e.Pos.Line-1]
		b.WriteString(line)
		b.WriteByte('\n')
		col := e.Pos.Col
		if col < 1 {
			col = 1
		}
		b.WriteString(strings.Repeat(" ", col-1))
		b.WriteString("^\n")
	}
	return b.String()
}

func lexDump(src string) string {
	l := NewLexer(src)
	l.KeepComments = true
	var b strings.Builder
	for {
		tok, err := l.Next()
		if err != nil {
			fmt.Fprintf(&b, "error: %s\n", err)
			return b.String()
		}
		fmt.Fprintf(&b, "%d:%d %s %q", tok.Pos.Line, tok.Pos.Col, tok.Kind, tok.Text)
		if tok.Raw != tok.Text {
			fmt.Fprintf(&b, " raw=%q", tok.Raw)
		}
		b.WriteByte('\n')
		if tok.Kind == EOF {
			return b.String()
		}
	}
}
