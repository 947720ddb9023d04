package parser

import (
	"reflect"
	"strings"
	"sync"
	"testing"

	"eddy/engine/ast"
)

// TestTokenizeForParser checks the parser's token stream against its
// definition: all tokens of Tokenize, less the hints Flink reads as
// comments, with the identifier bound and comment flag of those tokens.
func TestTokenizeForParser(t *testing.T) {
	inputs := append(seedStatements(t), benchScript(1<<12),
		"SELECT /*+ a */ /*+ b */ x FROM t /*+ c */, u /* d */ WHERE 1 = /*+ e */ 1",
		"/*+ lead */ SELECT COUNT(*), `q`.x FROM t -- end",
		"SELECT 1", "")
	for _, in := range inputs {
		toks, err := Tokenize(in)
		p := &Parser{}
		perr := p.tokenize(in)
		if (err == nil) != (perr == nil) {
			t.Fatalf("%q: Tokenize error %v, tokenize error %v", in, err, perr)
		}
		if err != nil {
			continue
		}
		want := dropCommentHints(toks)
		if !reflect.DeepEqual(p.toks, want) {
			t.Fatalf("%q:\ngot  %+v\nwant %+v", in, p.toks, want)
		}
		idents := 0
		for i, tok := range want {
			if tok.Kind == QIdent || tok.Kind == Ident && (!tok.Reserved || i+1 < len(want) && want[i+1].IsOp("(")) {
				idents++
			}
		}
		if p.maxIdents != idents {
			t.Errorf("%q: maxIdents %d, want %d", in, p.maxIdents, idents)
		}
		gaps := false
		for i := 0; i+1 < len(want); i++ {
			gaps = gaps || gapHasComment(in[want[i].End:want[i+1].Pos.Offset])
		}
		// noComments may be false for a comment outside the gaps (before
		// the first token, or after the last).
		if p.noComments && gaps || !p.noComments && !strings.Contains(in, "--") && !strings.Contains(in, "/*") {
			t.Errorf("%q: noComments %v, but gaps with comments: %v", in, p.noComments, gaps)
		}
	}
}

// dropCommentHints keeps a hint only right after a word, a back-quoted
// name or another kept hint.
func dropCommentHints(toks []Token) []Token {
	var out []Token
	for _, t := range toks {
		if t.Kind == Hint {
			if len(out) == 0 {
				continue
			}
			if k := out[len(out)-1].Kind; k != Ident && k != QIdent && k != Hint {
				continue
			}
		}
		out = append(out, t)
	}
	return out
}

// TestCommentsInTypes checks that comments inside a data type, and hints
// read as comments there, do not change the statement.
func TestCommentsInTypes(t *testing.T) {
	for _, tc := range [][2]string{
		{"CREATE TABLE t (a DECIMAL(10, /*+ h */ 2), b INT)", "CREATE TABLE t (a DECIMAL(10, 2), b INT)"},
		{"CREATE TABLE t (a DECIMAL(10 /* p */, 2), b -- c\n INT)", "CREATE TABLE t (a DECIMAL(10, 2), b INT)"},
		{"SELECT CAST(x AS MAP<STRING, /* v */ INT>) FROM t", "SELECT CAST(x AS MAP<STRING, INT>) FROM t"},
	} {
		got, err := Parse(tc[0])
		if err != nil {
			t.Fatalf("%s: %v", tc[0], err)
		}
		want, err := Parse(tc[1])
		if err != nil {
			t.Fatalf("%s: %v", tc[1], err)
		}
		if ast.String(got) != ast.String(want) {
			t.Errorf("%s:\n got %s\nwant %s", tc[0], ast.String(got), ast.String(want))
		}
	}
}

// TestParserReuse checks that a parser taken back for reuse keeps no state
// of the statement before: parsing after a failed parse, and many
// statements in turn, gives the trees of fresh parses.
func TestParserReuse(t *testing.T) {
	stmts := []string{
		"SELECT a, b.c, `d` FROM t WHERE x IN (1, 2)",
		"SELECT FROM",
		"CREATE TABLE x.y.z (a INT, b STRING) WITH ('k' = 'v')",
		"INSERT INTO s SELECT COUNT(*) FROM t GROUP BY k",
	}
	var first []string
	for round := 0; round < 3; round++ {
		for i, s := range stmts {
			stmt, err := Parse(s)
			got := ""
			if err != nil {
				got = "error: " + err.Error()
			} else {
				got = ast.String(stmt)
			}
			if round == 0 {
				first = append(first, got)
			} else if got != first[i] {
				t.Errorf("round %d, %s: %s, first %s", round, s, got, first[i])
			}
		}
	}
	if first[1] == "" || first[1][:6] != "error:" {
		t.Errorf("SELECT FROM parsed: %s", first[1])
	}
}

// TestParseConcurrent checks that parsers shared through the pool give
// every goroutine the trees of a sequential parse.
func TestParseConcurrent(t *testing.T) {
	pieces, _ := Split(benchScript(1 << 13))
	want := make([]string, len(pieces))
	for i, pc := range pieces {
		stmt, err := Parse(pc.Text)
		if err != nil {
			t.Fatal(err)
		}
		want[i] = ast.String(stmt)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 4)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, pc := range pieces {
				stmt, err := Parse(pc.Text)
				if err != nil || ast.String(stmt) != want[i] {
					errs <- pc.Text
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Errorf("concurrent parse differs: %s", e)
	}
}

// TestReservedFlag checks that the lexer marks exactly the reserved words,
// in any case, so that the parser may test Token.Reserved instead of
// IsReserved(Token.Upper).
func TestReservedFlag(t *testing.T) {
	inputs := append(seedStatements(t), "select Select sElEcT frobnicate é ZONE zone current_timestamp")
	for _, in := range inputs {
		toks, err := Tokenize(in)
		if err != nil {
			continue
		}
		for _, tok := range toks {
			if tok.Kind != Ident {
				continue
			}
			if want := IsReserved(strings.ToUpper(tok.Text)); tok.Reserved != want || tok.Reserved != IsReserved(tok.Upper) {
				t.Errorf("%q: Reserved %v, want %v (Upper %q)", tok.Text, tok.Reserved, want, tok.Upper)
			}
		}
	}
}
