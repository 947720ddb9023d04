package parser

import (
	"reflect"
	"strings"
	"testing"
)

func TestSplit(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
		rest string
	}{
		{"simple", "SELECT 1; SELECT 2;", []string{"SELECT 1", "SELECT 2"}, ""},
		{"string", "SELECT 'a;b'; x", []string{"SELECT 'a;b'"}, " x"},
		{"backtick", "SELECT `x;y` FROM t;", []string{"SELECT `x;y` FROM t"}, ""},
		{"line comment", "SELECT -- ;\n1;", []string{"SELECT -- ;\n1"}, ""},
		{"block comment", "SELECT /* ; */ 1;", []string{"SELECT /* ; */ 1"}, ""},
		{"hint", "SELECT /*+ OPTIONS('a'=';') */ 1;", []string{"SELECT /*+ OPTIONS('a'=';') */ 1"}, ""},
		{"open string", "SELECT 'a;", nil, "SELECT 'a;"},
		{"open comment", "SELECT /* ;", nil, "SELECT /* ;"},
		{"last without semicolon", "SET;\nSELECT 1", []string{"SET"}, "\nSELECT 1"},
		{"crlf", "SELECT 1;\r\nSELECT 2;\r\n", []string{"SELECT 1", "SELECT 2"}, "\r\n"},
		{"bom", "\uFEFFSELECT 1;", []string{"SELECT 1"}, ""},
		{"empty statements", ";;  ; -- c\n;", nil, ""},
		{"multi-line quote", "SELECT ';\n';", []string{"SELECT ';\n'"}, ""},
		{"statement set", "EXECUTE STATEMENT SET\nBEGIN\nINSERT INTO t VALUES (1);\nINSERT INTO u VALUES (2);\nEND;\nSELECT 1;",
			[]string{"EXECUTE STATEMENT SET\nBEGIN\nINSERT INTO t VALUES (1);\nINSERT INTO u VALUES (2);\nEND", "SELECT 1"}, ""},
		{"explain statement set", "EXPLAIN CHANGELOG_MODE STATEMENT SET BEGIN INSERT INTO t VALUES (1); end ;",
			[]string{"EXPLAIN CHANGELOG_MODE STATEMENT SET BEGIN INSERT INTO t VALUES (1); end"}, ""},
		{"open statement set", "EXECUTE STATEMENT SET BEGIN INSERT INTO t VALUES (1);\n",
			nil, "EXECUTE STATEMENT SET BEGIN INSERT INTO t VALUES (1);\n"},
		{"begin statement set", "BEGIN STATEMENT SET; INSERT INTO t VALUES (1); END;",
			[]string{"BEGIN STATEMENT SET", "INSERT INTO t VALUES (1)", "END"}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, rest := Split(tc.in)
			var texts []string
			for _, p := range got {
				texts = append(texts, p.Text)
			}
			if !reflect.DeepEqual(texts, tc.want) || rest != tc.rest {
				t.Errorf("Split(%q) = %q, rest %q; want %q, rest %q", tc.in, texts, rest, tc.want, tc.rest)
			}
		})
	}
}

func TestSplitLines(t *testing.T) {
	got, _ := Split("SELECT 1;\n\n  -- c\nSELECT\n2;")
	if len(got) != 2 || got[0].Line != 1 || got[1].Line != 3 {
		t.Fatalf("lines: %+v", got)
	}
}

func TestIsComplete(t *testing.T) {
	for in, want := range map[string]bool{
		"SELECT 1;":         true,
		"SELECT 1":          false,
		"SELECT ';'":        false,
		"SELECT 1; -- done": true,
		"SELECT 1; SELECT":  false,
		"":                  false,
	} {
		if got := IsComplete(in); got != want {
			t.Errorf("IsComplete(%q) = %v, want %v", in, got, want)
		}
	}
}

// splitByLexer is Split written with the Lexer, token by token: the
// definition Split's byte scanner must agree with.
func splitByLexer(src string) (stmts []Piece, rest string) {
	l := NewLexer(src)
	l.KeepComments = true
	start := l.off
	startLine := 1
	inSet, last := false, 0
	for {
		tok, err := l.Next()
		if err != nil {
			if e, ok := err.(*Error); ok && e.Incomplete {
				break
			}
			continue
		}
		if tok.Kind == EOF {
			break
		}
		if tok.IsOp(";") {
			switch {
			case inSet && !isEnd(src[last:tok.Pos.Offset]):
				last = tok.End
				continue
			case !inSet && opensStatementSet(src[start:tok.Pos.Offset]):
				inSet, last = true, tok.End
				continue
			}
			inSet = false
			if p, ok := makePiece(src[start:tok.Pos.Offset], startLine); ok {
				stmts = append(stmts, p)
			}
			start, startLine = tok.End, tok.Pos.Line
		}
	}
	return stmts, src[start:]
}

var splitSeeds = []string{
	"SELECT 1; SELECT 2;", "a--b;\nc;", "a-->b;c", "x->-- ;\n;", "1e--5;2e-5;", "1e-;", "/*/;*/;", "/*+;*/;",
	"'it''s;';", "'a'';", "`a``;`;`", "U&'\\0041;';", "X'0G;'; N'a;'", "\"a;b\";", "é;ü'x;'", "\uFEFF;a;",
	"--;", "-- x\n", "a /* ; */ b; /* open ;", "x'", "''''; '''", "\r\n;\r\n a;\n\n", "-;-;--", "/;/*",
	"SELECT ';\n'; SELECT `\n;`;\nx", "a\x80;\xff'b;'",
	"EXECUTE STATEMENT SET\nBEGIN\nINSERT INTO t VALUES (1);\nINSERT INTO t VALUES (';');\nEND;\nSELECT 1;",
	"explain statement set begin insert into t values (1); end ;", "EXECUTE STATEMENT SET BEGIN x; -- END;\n",
}

func TestSplitMatchesLexer(t *testing.T) {
	inputs := append([]string{benchScript(1 << 14)}, splitSeeds...)
	seeds := seedStatements(t)
	inputs = append(inputs, strings.Join(seeds, ";\n"))
	for _, s := range seeds {
		inputs = append(inputs, s, s+";"+s)
	}
	for _, in := range inputs {
		checkSplit(t, in)
	}
}

// FuzzSplit checks Split against splitByLexer.
func FuzzSplit(f *testing.F) {
	for _, s := range splitSeeds {
		f.Add(s)
	}
	f.Fuzz(checkSplit)
}

func checkSplit(t *testing.T, in string) {
	got, gotRest := Split(in)
	want, wantRest := splitByLexer(in)
	if !reflect.DeepEqual(got, want) || gotRest != wantRest {
		t.Fatalf("Split(%q)\n = %+v, rest %q\nwant %+v, rest %q", in, got, gotRest, want, wantRest)
	}
}
