package like

import (
	"regexp"
	"strings"
	"testing"
)

func TestMatch(t *testing.T) {
	tests := []struct {
		s, pattern string
		escape     rune
		fold       bool
		want       bool
	}{
		{"orders", "ord%", Backslash, false, true},
		{"orders", "%ers", Backslash, false, true},
		{"orders", "o_ders", Backslash, false, true},
		{"orders", "o_ers", Backslash, false, false},
		{"orders", "ORD%", Backslash, false, false},
		{"orders", "ORD%", Backslash, true, true},
		{"a%b", `a\%b`, Backslash, false, true},
		{"axb", `a\%b`, Backslash, false, false},
		{"a_b", `a\_b`, Backslash, false, true},
		{"axb", `a\_b`, Backslash, false, false},
		{`a\b`, `a\\b`, Backslash, false, true},
		{`ab\`, `ab\`, Backslash, false, true},
		{"", "%", Backslash, false, true},
		{"", "_", Backslash, false, false},
		{"", "", Backslash, false, true},
		{"x", "", Backslash, false, false},
		{"aaa", "%%a%%", Backslash, false, true},
		{"mississippi", "%iss%ppi", NoEscape, false, true},
		{"mississippi", "%iss%ipp", NoEscape, false, false},
		{"mississippi", "m%i%i%i%i", NoEscape, false, true},
		{"line\nbreak", "line_break", NoEscape, false, true},
		{"line\nbreak", "%break", NoEscape, false, true},
		{"über", "_ber", NoEscape, false, true},
		{"ÜBER", "über", NoEscape, true, true},
		{"a\\b", `a\_`, NoEscape, false, true},
		{"a%", "a!%", '!', false, true},
		{"ab", "a!%", '!', false, false},
		{"a!", "a!", '!', false, true},
		{"100%", "100%%", '%', false, true},
		{"K", "k", NoEscape, true, true},
		{"\u212a", "k", NoEscape, true, true}, // KELVIN SIGN folds to k
		{"\u212a", "k", NoEscape, false, false},
	}
	for _, tt := range tests {
		if got := Compile(tt.pattern, tt.escape, tt.fold).Match(tt.s); got != tt.want {
			t.Errorf("Match(%q, %q, %q, %v) = %v, want %v", tt.s, tt.pattern, tt.escape, tt.fold, got, tt.want)
		}
	}
}

// The matcher agrees with the regular expression a LIKE pattern
// translates into, on every pattern and subject drawn from a small
// alphabet.
func TestMatchAgreesWithRegexp(t *testing.T) {
	alphabet := []string{"a", "b", "%", "_", "\\"}
	var patterns []string
	var grow func(prefix string, n int)
	grow = func(prefix string, n int) {
		patterns = append(patterns, prefix)
		if n == 0 {
			return
		}
		for _, c := range alphabet {
			grow(prefix+c, n-1)
		}
	}
	grow("", 4)
	subjects := []string{"", "a", "b", "ab", "ba", "aab", "abab", "bbba", "a%", "_b", "\\", "a\\b"}
	for _, p := range patterns {
		re := regexp.MustCompile(toRegexp(p))
		compiled := Compile(p, Backslash, false)
		for _, s := range subjects {
			if got, want := compiled.Match(s), re.MatchString(s); got != want {
				t.Errorf("Match(%q, %q) = %v, regexp says %v", s, p, got, want)
			}
		}
	}
}

func toRegexp(p string) string {
	var b strings.Builder
	b.WriteString("(?s)^")
	rs := []rune(p)
	for i := 0; i < len(rs); i++ {
		switch r := rs[i]; {
		case r == '\\' && i+1 < len(rs):
			i++
			b.WriteString(regexp.QuoteMeta(string(rs[i])))
		case r == '%':
			b.WriteString(".*")
		case r == '_':
			b.WriteString(".")
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteString("$")
	return b.String()
}

func BenchmarkMatch(b *testing.B) {
	p := Compile("%order%2024%", NoEscape, false)
	s := strings.Repeat("x", 200) + "order_2024_final"
	for b.Loop() {
		p.Match(s)
	}
}
