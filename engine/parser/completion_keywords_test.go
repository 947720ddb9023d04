package parser

import (
	"slices"
	"strings"
	"testing"
)

// The phrases completion offers are made of keywords the lexer knows, are
// sorted (completion lists them in this order) and name every statement
// the parser dispatches on.
func TestCompletionKeywords(t *testing.T) {
	for name, list := range map[string][]string{"StatementStarts": StatementStarts(), "ClauseKeywords": ClauseKeywords()} {
		if !slices.IsSorted(list) {
			t.Errorf("%s is not sorted", name)
		}
		for _, phrase := range list {
			for _, w := range strings.Fields(phrase) {
				if k, exact := keywords.lookup(w); k == nil || !exact {
					t.Errorf("%s: %q in %q is not a keyword of the lexer", name, w, phrase)
				}
			}
		}
	}
	firsts := map[string]bool{}
	for _, phrase := range StatementStarts() {
		firsts[strings.Fields(phrase)[0]] = true
	}
	// DESC, REPLACE and UPSERT are other spellings of DESCRIBE, CREATE OR
	// REPLACE and INSERT; Tab offers the usual one.
	for _, kw := range statementKeywords {
		if !firsts[kw] && kw != "DESC" && kw != "REPLACE" && kw != "UPSERT" {
			t.Errorf("statement keyword %s is not offered at the start of a line", kw)
		}
	}
	if !slices.Contains(StatementStarts(), "STOP JOB") || !slices.Contains(ClauseKeywords(), "JOBS") {
		t.Error("STOP JOB and SHOW JOBS are not offered")
	}
}
