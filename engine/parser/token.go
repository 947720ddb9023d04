package parser

import (
	"fmt"
	"strings"

	"eddy/engine/ast"
)

// TokenKind classifies a token.
type TokenKind uint8

// Token kinds. Keywords are Ident tokens: whether a word is a keyword is
// decided by the parser from its upper-cased text.
const (
	EOF     TokenKind = iota
	Ident             // unquoted word: letters, digits, '_' and '$'
	QIdent            // `back-quoted` identifier; Text is unescaped
	String            // 'literal'; Text is unescaped
	UString           // U&'literal'; Text is unescaped (\XXXX and \+XXXXXX resolved)
	Binary            // X'0AFF'; Text holds the hex digits
	Integer           // 123
	Decimal           // 1.5, .5, 1.
	Float             // 1e3, 1.5E-2
	Hint              // /*+ ... */; Text is what is between /*+ and */
	Comment           // -- ... or /* ... */ (only from a Lexer with KeepComments)
	Op                // operator or punctuation; Text is the symbol
	Param             // ? (dynamic parameter)
)

var tokenKindNames = [...]string{
	EOF: "EOF", Ident: "identifier", QIdent: "quoted identifier", String: "string", UString: "unicode string",
	Binary: "binary string", Integer: "integer", Decimal: "decimal", Float: "approximate number",
	Hint: "hint", Comment: "comment", Op: "operator", Param: "?",
}

func (k TokenKind) String() string {
	if int(k) < len(tokenKindNames) {
		return tokenKindNames[k]
	}
	return fmt.Sprintf("TokenKind(%d)", uint8(k))
}

// Token is one lexical token. Raw is the token's source text; End is the
// byte offset just past it.
type Token struct {
	Kind TokenKind
	// Reserved marks an Ident that is a reserved word (IsReserved(Upper)).
	Reserved bool
	Text     string // value: unescaped for strings and identifiers, the word for Ident
	Raw      string
	// Upper is, for an Ident, the upper-cased text when the word is a
	// keyword Flink knows; for other words it may keep the case as written.
	// Compare it only with keywords (or use Is).
	Upper string
	Pos   ast.Pos
	End   int
}

// Is reports whether the token is the keyword kw (given upper-case).
func (t Token) Is(kw string) bool {
	return t.Kind == Ident && (t.Upper == kw || len(t.Text) == len(kw) && foldWord(t.Text, t.Upper, kw))
}

// foldWord compares a word the lexer did not upper-case (Upper == Text)
// with a keyword, ignoring case.
func foldWord(text, upper, kw string) bool {
	return upper == text && strings.EqualFold(text, kw)
}

// IsOp reports whether the token is the operator or punctuation op.
func (t Token) IsOp(op string) bool { return t.Kind == Op && t.Text == op }
