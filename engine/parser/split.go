package parser

import "strings"

// Piece is one statement cut out of a script by Split.
type Piece struct {
	Text string // the statement without its terminating ';', leading blanks removed
	Line int    // 1-based line of the input where Text starts
}

// Split cuts src into complete statements: each ends at a ';' token, so a
// ';' inside a string literal, a back-quoted identifier, a comment or a hint
// does not end one. It returns the complete statements and the rest of the
// text after the last ';' (an unfinished statement, or only blanks and
// comments). Statements holding nothing but blanks and comments are dropped.
//
// EXECUTE STATEMENT SET BEGIN ... END and EXPLAIN ... STATEMENT SET BEGIN
// ... END are one statement each: the ';' ending their INSERTs does not
// cut them; the ';' after END does.
//
// The REPL calls Split on the buffered input after every line; at the end of
// input a rest that is not blank (see IsBlank) is run as a last statement.
func Split(src string) (stmts []Piece, rest string) {
	start := 0 // offset where the current statement starts
	if strings.HasPrefix(src, "\uFEFF") {
		start = len("\uFEFF")
	}
	if n := strings.Count(src[start:], ";"); n > 0 {
		stmts = make([]Piece, 0, n)
	}
	startLine := 1
	lineAt := start // offset up to which newlines are counted into line
	line := 1
	inSet, last := false, 0 // inside a statement set block; offset after its last ';'
	for semi := range semicolons(src, start) {
		line += strings.Count(src[lineAt:semi], "\n")
		lineAt = semi
		switch {
		case inSet && !isEnd(src[last:semi]):
			last = semi + 1
			continue
		case !inSet && opensStatementSet(src[start:semi]):
			inSet, last = true, semi+1
			continue
		}
		inSet = false
		if p, ok := makePiece(src[start:semi], startLine); ok {
			stmts = append(stmts, p)
		}
		start, startLine = semi+1, line
	}
	if len(stmts) == 0 {
		stmts = nil
	}
	return stmts, src[start:]
}

// opensStatementSet reports whether text, a statement cut at its first
// ';', begins EXECUTE STATEMENT SET BEGIN or EXPLAIN [details] STATEMENT
// SET BEGIN: its INSERTs end with ';' inside the statement.
func opensStatementSet(text string) bool {
	trimmed := trimLeftSpace(text)
	if trimmed == "" || trimmed[0] != 'E' && trimmed[0] != 'e' {
		return false
	}
	l := NewLexer(trimmed)
	var words [3]string // the last three words
	for n := 0; n < 16; n++ {
		tok, err := l.Next()
		if err != nil || tok.Kind == EOF {
			return false
		}
		w := strings.ToUpper(tok.Text)
		if n == 0 && w != "EXECUTE" && w != "EXPLAIN" {
			return false
		}
		words = [3]string{words[1], words[2], w}
		if words == [3]string{"STATEMENT", "SET", "BEGIN"} {
			return true
		}
	}
	return false
}

// isEnd reports whether text, the part of a statement set block between
// two ';', is its closing END.
func isEnd(text string) bool {
	l := NewLexer(text)
	tok, err := l.Next()
	if err != nil || !strings.EqualFold(tok.Text, "END") {
		return false
	}
	tok, err = l.Next()
	return err == nil && tok.Kind == EOF
}

// semicolons yields the offsets of the ';' tokens of src from offset from
// on, stopping at an unterminated string, back-quoted name or comment.
//
// It finds the same ';' tokens as the Lexer, without building tokens: ';'
// is a token unless it lies inside a literal, a back-quoted name or a
// comment, and each of those starts at its first character wherever that
// character begins a token. No other token holds a quote, a back quote,
// "--" or "/*" (a number's exponent takes a '-' only before a digit, and
// "->" is the one operator starting with '-'), and the bytes of a
// multi-byte character are never ASCII. A lexical error the Lexer skips
// (a stray character, a bad X'..' literal) moves no boundary.
func semicolons(src string, from int) func(yield func(int) bool) {
	return func(yield func(int) bool) {
		var next specialScanner
		i := from
		for {
			i = next.find(src, i)
			if i >= len(src) {
				return
			}
			switch src[i] {
			case ';':
				if !yield(i) {
					return
				}
				i++
			case '\'', '`':
				// 'it''s' and `a``b`: a doubled quote is part of the text.
				q := src[i]
				i++
				for {
					j := strings.IndexByte(src[i:], q)
					if j < 0 {
						return // unterminated: the rest is incomplete
					}
					i += j + 1
					if i < len(src) && src[i] == q {
						i++
						continue
					}
					break
				}
			case '-':
				if i+1 < len(src) && src[i+1] == '-' {
					j := strings.IndexByte(src[i:], '\n')
					if j < 0 {
						return
					}
					i += j + 1
					continue
				}
				i++
			case '/':
				if i+1 < len(src) && src[i+1] == '*' {
					j := strings.Index(src[i+2:], "*/")
					if j < 0 {
						return // unterminated comment or hint
					}
					i += 2 + j + 2
					continue
				}
				i++
			}
		}
	}
}

// specialBytes are the bytes semicolons stops at.
const specialBytes = ";'`-/"

// specialScanner finds the next of specialBytes with one fast IndexByte
// per occurrence: it remembers where each byte occurs next.
type specialScanner struct {
	at    [len(specialBytes)]int // offset of the next occurrence of each byte
	valid bool
}

// find returns the offset of the first special byte at or after i, or
// len(src).
func (s *specialScanner) find(src string, i int) int {
	if !s.valid {
		for k := range s.at {
			s.at[k] = -1
		}
		s.valid = true
	}
	first := len(src)
	for k := range s.at {
		if s.at[k] < i {
			if j := strings.IndexByte(src[i:], specialBytes[k]); j >= 0 {
				s.at[k] = i + j
			} else {
				s.at[k] = len(src)
			}
		}
		first = min(first, s.at[k])
	}
	return first
}

func makePiece(text string, line int) (Piece, bool) {
	trimmed := trimLeftSpace(text)
	line += strings.Count(text[:len(text)-len(trimmed)], "\n")
	trimmed = trimRightSpace(trimmed)
	// Text that starts with neither "--" nor "/*" holds a token (or a
	// lexical error, which counts as one).
	if trimmed == "" || (trimmed[0] == '-' || trimmed[0] == '/') && IsBlank(trimmed) {
		return Piece{}, false
	}
	return Piece{Text: trimmed, Line: line}, true
}

// IsBlank reports whether text holds no token but comments (a lexical error
// counts as a token: the text must be run to report it).
func IsBlank(text string) bool {
	l := NewLexer(text)
	tok, err := l.Next()
	return err == nil && tok.Kind == EOF
}

// IsComplete reports whether text ends a statement: its last token is ';'.
// The REPL uses it to decide between running the buffer and showing the
// continuation prompt.
func IsComplete(text string) bool {
	stmts, rest := Split(text)
	return len(stmts) > 0 && IsBlank(rest)
}

// isSpace reports whether c is white space between tokens.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f'
}

// trimLeftSpace returns s without the white space it starts with.
func trimLeftSpace(s string) string {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return s[i:]
}

// trimRightSpace returns s without the white space it ends with.
func trimRightSpace(s string) string {
	i := len(s)
	for i > 0 && isSpace(s[i-1]) {
		i--
	}
	return s[:i]
}
