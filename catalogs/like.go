package catalogs

import (
	"slices"

	"eddy/engine/like"
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
	return f.compile().Match(name) != f.Not
}

// Filter returns the names that pass the filter, in their order.
func (f *LikeFilter) Filter(names []string) []string {
	if f == nil {
		return names
	}
	p := f.compile()
	out := names[:0:0]
	for _, n := range names {
		if p.Match(n) != f.Not {
			out = append(out, n)
		}
	}
	return out
}

// compile reads the pattern with MySQL's rules, as Flink's SHOW statements
// do: a backslash makes the next character literal ("\%", "\_", "\\").
func (f *LikeFilter) compile() *like.Pattern {
	return like.Compile(f.Pattern, like.Backslash, f.CaseInsensitive)
}

// sortedUnique sorts names in byte order and removes duplicates.
func sortedUnique(names []string) []string {
	slices.Sort(names)
	return slices.Compact(names)
}
