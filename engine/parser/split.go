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
// The REPL calls Split on the buffered input after every line; at the end of
// input a rest that is not blank (see IsBlank) is run as a last statement.
func Split(src string) (stmts []Piece, rest string) {
	l := NewLexer(src)
	l.KeepComments = true
	l.noUpper = true
	start := l.off // offset where the current statement starts
	startLine := 1
	var tok Token
	for {
		err := l.scan(&tok)
		if err != nil {
			if e, ok := err.(*Error); ok && e.Incomplete {
				break
			}
			continue // not our concern: the parser reports it
		}
		if tok.Kind == EOF {
			break
		}
		if tok.IsOp(";") {
			if p, ok := makePiece(src[start:tok.Pos.Offset], startLine); ok {
				stmts = append(stmts, p)
			}
			start, startLine = tok.End, tok.Pos.Line
		}
	}
	return stmts, src[start:]
}

func makePiece(text string, line int) (Piece, bool) {
	trimmed := strings.TrimLeft(text, " \t\r\n\f")
	line += strings.Count(text[:len(text)-len(trimmed)], "\n")
	trimmed = strings.TrimRight(trimmed, " \t\r\n\f")
	if IsBlank(trimmed) {
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
