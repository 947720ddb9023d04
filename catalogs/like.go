package catalogs

import (
	"slices"
	"strings"
)

// LikeFilter is the [NOT] {LIKE | ILIKE} '<pattern>' clause of SHOW
// statements. A nil *LikeFilter matches everything.
type LikeFilter struct {
	Pattern         string
	CaseInsensitive bool // ILIKE
	Not             bool
}

// Match reports whether name passes the filter.
func (f *LikeFilter) Match(name string) bool {
	if f == nil {
		return true
	}
	return MatchLike(name, f.Pattern, f.CaseInsensitive) != f.Not
}

// Filter returns the names that pass the filter, in their order.
func (f *LikeFilter) Filter(names []string) []string {
	if f == nil {
		return names
	}
	out := names[:0:0]
	for _, n := range names {
		if f.Match(n) {
			out = append(out, n)
		}
	}
	return out
}

// MatchLike reports whether s matches a SQL LIKE pattern with MySQL's rules:
// '%' matches any run of characters, '_' exactly one character, and a
// backslash makes the next character literal ("\%", "\_", "\\"). With
// caseInsensitive it is ILIKE.
func MatchLike(s, pattern string, caseInsensitive bool) bool {
	if caseInsensitive {
		s, pattern = strings.ToLower(s), strings.ToLower(pattern)
	}
	type tok struct {
		r    rune
		kind byte // 'l' literal, '%' any run, '_' one
	}
	var toks []tok
	pr := []rune(pattern)
	for i := 0; i < len(pr); i++ {
		switch c := pr[i]; {
		case c == '\\' && i+1 < len(pr):
			i++
			toks = append(toks, tok{pr[i], 'l'})
		case c == '%':
			if len(toks) == 0 || toks[len(toks)-1].kind != '%' {
				toks = append(toks, tok{kind: '%'})
			}
		case c == '_':
			toks = append(toks, tok{kind: '_'})
		default:
			toks = append(toks, tok{c, 'l'})
		}
	}
	sr := []rune(s)
	// cur[j] reports whether toks[:i] matches sr[:j]; classic DP, linear memory.
	cur := make([]bool, len(sr)+1)
	cur[0] = true
	next := make([]bool, len(sr)+1)
	for _, t := range toks {
		clear(next)
		switch t.kind {
		case '%':
			seen := false
			for j := 0; j <= len(sr); j++ {
				seen = seen || cur[j]
				next[j] = seen
			}
		case '_':
			for j := 1; j <= len(sr); j++ {
				next[j] = cur[j-1]
			}
		default:
			for j := 1; j <= len(sr); j++ {
				next[j] = cur[j-1] && sr[j-1] == t.r
			}
		}
		cur, next = next, cur
	}
	return cur[len(sr)]
}

// sortedUnique sorts names in byte order and removes duplicates.
func sortedUnique(names []string) []string {
	slices.Sort(names)
	return slices.Compact(names)
}
