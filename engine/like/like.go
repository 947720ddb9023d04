package like

import (
	"unicode"
	"unicode/utf8"
)

// NoEscape is the escape argument of Compile for a pattern without an
// escape character.
const NoEscape rune = -1

// Backslash is the escape character of SHOW ... LIKE patterns (Flink
// follows MySQL there: "\%", "\_", "\\").
const Backslash rune = '\\'

type kind uint8

const (
	literal kind = iota
	anyOne       // '_'
	anyRun       // '%'
)

type token struct {
	kind kind
	r    rune // literal: the character
}

// Pattern is a compiled LIKE pattern. It is immutable and safe for use by
// several goroutines.
type Pattern struct {
	toks []token
	fold bool
}

// Compile reads pattern. escape is the escape character (NoEscape for
// none); an escape character at the end of the pattern stands for itself.
// With fold the match ignores case as ILIKE does (Unicode simple case
// folding).
func Compile(pattern string, escape rune, fold bool) *Pattern {
	p := &Pattern{fold: fold}
	pr := []rune(pattern)
	for i := 0; i < len(pr); i++ {
		switch c := pr[i]; {
		case c == escape && i+1 < len(pr):
			i++
			p.toks = append(p.toks, token{kind: literal, r: pr[i]})
		case c == '%':
			// Runs of '%' match what one does.
			if n := len(p.toks); n == 0 || p.toks[n-1].kind != anyRun {
				p.toks = append(p.toks, token{kind: anyRun})
			}
		case c == '_':
			p.toks = append(p.toks, token{kind: anyOne})
		default:
			p.toks = append(p.toks, token{kind: literal, r: c})
		}
	}
	return p
}

// Match reports whether all of s matches the pattern. Invalid UTF-8 in s
// reads as one U+FFFD per bad byte.
func (p *Pattern) Match(s string) bool {
	toks := p.toks
	ti, si := 0, 0
	// The position after the last '%' seen and where in s its run ends;
	// on a mismatch that run takes one more character and matching
	// resumes. Earlier runs never need to grow: a later run can take
	// whatever they would.
	star, starS := -1, 0
	for si < len(s) {
		r, size := utf8.DecodeRuneInString(s[si:])
		if ti < len(toks) {
			switch t := toks[ti]; t.kind {
			case anyRun:
				star, starS = ti+1, si
				ti++
				continue
			case anyOne:
				ti++
				si += size
				continue
			default:
				if p.equal(t.r, r) {
					ti++
					si += size
					continue
				}
			}
		}
		if star < 0 {
			return false
		}
		_, size = utf8.DecodeRuneInString(s[starS:])
		starS += size
		ti, si = star, starS
	}
	for ti < len(toks) && toks[ti].kind == anyRun {
		ti++
	}
	return ti == len(toks)
}

// equal compares a pattern character with a character of the subject.
func (p *Pattern) equal(want, got rune) bool {
	if want == got {
		return true
	}
	if !p.fold {
		return false
	}
	if want < utf8.RuneSelf && got < utf8.RuneSelf {
		return lowerASCII(want) == lowerASCII(got)
	}
	for f := unicode.SimpleFold(want); f != want; f = unicode.SimpleFold(f) {
		if f == got {
			return true
		}
	}
	return false
}

func lowerASCII(r rune) rune {
	if 'A' <= r && r <= 'Z' {
		return r + 'a' - 'A'
	}
	return r
}
