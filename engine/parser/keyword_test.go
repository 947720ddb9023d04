package parser

import (
	"slices"
	"strings"
	"testing"
)

// TestKeywordCase checks that keywords match in any case, including words
// the lexer does not intern.
func TestKeywordCase(t *testing.T) {
	for _, sql := range []string{
		"select a from t where a is not null",
		"SeLeCt a FrOm t ORDER by a desc nulls last",
		"select * from table(tumble(table t, descriptor(ts), interval '1' minutes))",
		"select extract(doy from ts), extract(millennium from ts) from t",
		"select json_value(j, '$' returning int) from t",
	} {
		if _, err := Parse(sql); err != nil {
			t.Errorf("%s: %v", sql, err)
		}
	}
	toks, err := Tokenize("frobnicate FROBNICATE Frobnicate select")
	if err != nil {
		t.Fatal(err)
	}
	for _, tok := range toks[:3] {
		if !tok.Is("FROBNICATE") || tok.Is("FROB") || tok.Reserved {
			t.Errorf("%q: Is(FROBNICATE) = %v, Reserved = %v", tok.Text, tok.Is("FROBNICATE"), tok.Reserved)
		}
	}
	if !toks[3].Is("SELECT") || !toks[3].Reserved || toks[3].Upper != "SELECT" {
		t.Errorf("select: %+v", toks[3])
	}
	p := &Parser{toks: toks}
	if !p.isKeyword("FROBNICATE") || !p.acceptKeyword("FROBNICATE", "FROBNICATE") {
		t.Error("isKeyword/acceptKeyword do not match a word in lower case")
	}
}

// TestKeywordTable checks that the hash table finds every keyword in any
// case, finds no other word, and needs few probes.
func TestKeywordTable(t *testing.T) {
	want := map[string]keywordInfo{}
	for _, w := range reservedWords {
		want[w] = keywordInfo{w, true}
		if !IsReserved(w) || IsReserved(strings.ToLower(w)) {
			t.Errorf("IsReserved is wrong for %q or its lower case", w)
		}
	}
	for _, w := range commonWords {
		if _, ok := want[w]; !ok {
			want[w] = keywordInfo{w, false}
			if IsReserved(w) {
				t.Errorf("IsReserved(%q) for a non-reserved keyword", w)
			}
		}
	}
	if len(keywords.words) != len(want) {
		t.Errorf("the table holds %d words, want %d", len(keywords.words), len(want))
	}
	if IsReserved("") || IsReserved("FROBNICATE") || IsReserved("SÉLECT") {
		t.Error("IsReserved holds a word that is not reserved")
	}
	maxProbes := 0
	for w, info := range want {
		for _, v := range []string{w, strings.ToLower(w), strings.ToUpper(w[:1]) + strings.ToLower(w[1:])} {
			got, exact := keywords.lookup(v)
			if got == nil || *got != info || exact != (v == w) {
				t.Errorf("lookup(%q) = %+v, %v; want %+v, %v", v, got, exact, info, v == w)
			}
		}
		probes := 1
		for h := keywordHash(w); keywords.words[keywords.slots[h]-1].text != w; h = (h + 1) & (1<<keywordBits - 1) {
			probes++
		}
		maxProbes = max(maxProbes, probes)
	}
	if maxProbes > 8 {
		t.Errorf("a keyword needs %d probes", maxProbes)
	}
	for _, w := range []string{"SELECTS", "SELEC", "frobnicate", "a", "_", "$x", "SELECT_", "order_id", "xselect"} {
		if info, _ := keywords.lookup(w); info != nil {
			t.Errorf("lookup(%q) = %+v, want no keyword", w, *info)
		}
	}
}

func TestIsIdentByte(t *testing.T) {
	for b := 0; b < 256; b++ {
		want := b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_' || b == '$'
		if got := isIdentByte(byte(b)); got != want {
			t.Errorf("isIdentByte(%q) = %v", rune(b), got)
		}
	}
}

// TestMatchOperatorPairs checks matchOperator on every pair of bytes
// against the list of operators.
func TestMatchOperatorPairs(t *testing.T) {
	two := []string{"<>", "<=", ">=", "!=", "||", "->", "=>", "::"}
	one := "()[]{},;.+-*/%=<>:^|&~!@#"
	for c := 0; c < 256; c++ {
		for d := 0; d < 256; d++ {
			s := string([]byte{byte(c), byte(d)})
			want := ""
			if slices.Contains(two, s) {
				want = s
			} else if strings.IndexByte(one, byte(c)) >= 0 {
				want = s[:1]
			}
			if got := matchOperator(s); got != want {
				t.Fatalf("matchOperator(%q) = %q, want %q", s, got, want)
			}
			if d == 0 {
				if got := matchOperator(s[:1]); got != want && len(want) < 2 {
					t.Fatalf("matchOperator(%q) = %q, want %q", s[:1], got, want)
				}
			}
		}
	}
}

func TestMatchOperator(t *testing.T) {
	for _, tc := range [][2]string{
		{"<>x", "<>"}, {"<=", "<="}, {">=1", ">="}, {"!=", "!="}, {"||a", "||"}, {"->", "->"}, {"=>", "=>"},
		{"::", "::"}, {"<", "<"}, {"(a", "("}, {");", ")"}, {"#", "#"}, {"!", "!"}, {"|", "|"},
		{"a", ""}, {"\"", ""}, {"\\", ""}, {"\x80", ""}, {"`", ""}, {"'", ""},
	} {
		if got := matchOperator(tc[0]); got != tc[1] {
			t.Errorf("matchOperator(%q) = %q, want %q", tc[0], got, tc[1])
		}
	}
}
