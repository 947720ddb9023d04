package parser

import (
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
	maxProbes := 0
	for w, info := range keywordText {
		for _, v := range []string{w, strings.ToLower(w), strings.ToUpper(w[:1]) + strings.ToLower(w[1:])} {
			got, ok := keywords.lookup(v)
			if !ok || got != info {
				t.Errorf("lookup(%q) = %+v, %v; want %+v", v, got, ok, info)
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
		if info, ok := keywords.lookup(w); ok {
			t.Errorf("lookup(%q) = %+v, want no keyword", w, info)
		}
	}
}
