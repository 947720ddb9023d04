package parser

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"eddy/engine/ast"
)

// Lexer turns SQL text into tokens. A UTF-8 byte-order mark at the start is
// skipped. The zero Lexer is not usable; use NewLexer.
type Lexer struct {
	src  string
	off  int // next byte
	line int // line of src[off]
	col  int // column of src[off], in characters
	// noUpper skips upper-casing words (Split needs no keywords).
	noUpper      bool
	KeepComments bool
}

// NewLexer returns a lexer over src.
func NewLexer(src string) *Lexer {
	l := &Lexer{src: src, line: 1, col: 1}
	if strings.HasPrefix(src, "\uFEFF") {
		l.off = len("\uFEFF")
	}
	return l
}

// Tokenize returns all tokens of src without comments, ending with an EOF
// token.
func Tokenize(src string) ([]Token, error) {
	return tokenizeInto(make([]Token, 0, len(src)/4+8), src)
}

// tokenizeInto appends the tokens of src to toks.
func tokenizeInto(toks []Token, src string) ([]Token, error) {
	l := NewLexer(src)
	for {
		toks = append(toks, Token{})
		t := &toks[len(toks)-1]
		if err := l.scan(t); err != nil {
			return toks[:len(toks)-1], err
		}
		if t.Kind == EOF {
			return toks, nil
		}
	}
}

func (l *Lexer) pos() ast.Pos { return ast.Pos{Offset: l.off, Line: l.line, Col: l.col} }

// advance moves past n bytes, keeping line and column.
func (l *Lexer) advance(n int) {
	end := l.off + n
	for l.off < end {
		c := l.src[l.off]
		switch {
		case c == '\n':
			l.line++
			l.col = 1
			l.off++
		case c < utf8.RuneSelf:
			l.col++
			l.off++
		default:
			_, size := utf8.DecodeRuneInString(l.src[l.off:])
			l.col++
			l.off += size
		}
	}
}

func (l *Lexer) peekByte(i int) byte {
	if l.off+i < len(l.src) {
		return l.src[l.off+i]
	}
	return 0
}

func isIdentStart(r rune) bool {
	return r == '_' || r == '$' || unicode.IsLetter(r)
}

func isIdentPart(r rune) bool {
	return r == '_' || r == '$' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// Next returns the next token. At the end of input it returns an EOF token
// (again on every later call).
func (l *Lexer) Next() (Token, error) {
	var t Token
	err := l.scan(&t)
	return t, err
}

// scan reads the next token into t (see Next); writing in place spares
// copying tokens around.
func (l *Lexer) scan(t *Token) error {
	for {
		// Skip blanks; CR counts as a blank so CRLF input lexes as LF input.
		for l.off < len(l.src) {
			c := l.src[l.off]
			if c == '\n' {
				l.line++
				l.col = 1
				l.off++
				continue
			}
			if c == ' ' || c == '\t' || c == '\r' || c == '\f' {
				l.col++
				l.off++
				continue
			}
			break
		}
		if l.off >= len(l.src) {
			*t = Token{Kind: EOF, Pos: l.pos(), End: l.off}
			return nil
		}
		start := l.pos()
		c := l.src[l.off]
		switch {
		case c == '-' && l.peekByte(1) == '-':
			end := strings.IndexByte(l.src[l.off:], '\n')
			if end < 0 {
				end = len(l.src) - l.off
			}
			raw := l.src[l.off : l.off+end]
			l.advance(end)
			if l.KeepComments {
				*t = Token{Kind: Comment, Text: raw, Raw: raw, Pos: start, End: l.off}
				return nil
			}
			continue
		case c == '/' && l.peekByte(1) == '*':
			end := strings.Index(l.src[l.off+2:], "*/")
			if end < 0 {
				// Flink: TokenMgrError "Lexical error at line L, column C.  Encountered: <EOF> after : """.
				l.advance(len(l.src) - l.off)
				return lexError(l.pos(), true, "Lexical error at line %d, column %d.  Encountered: <EOF> after : \"\"", l.line, l.col)
			}
			raw := l.src[l.off : l.off+2+end+2]
			l.advance(len(raw))
			if strings.HasPrefix(raw, "/*+") {
				*t = Token{Kind: Hint, Text: raw[3 : len(raw)-2], Raw: raw, Pos: start, End: l.off}
				return nil
			}
			if l.KeepComments {
				*t = Token{Kind: Comment, Text: raw, Raw: raw, Pos: start, End: l.off}
				return nil
			}
			continue
		case c == '\'':
			var err error
			*t, err = l.quoted(start, 0, String)
			return err
		case c == '`':
			var err error
			*t, err = l.backquoted(start)
			return err
		case (c == 'x' || c == 'X') && l.peekByte(1) == '\'':
			var err error
			*t, err = l.quoted(start, 1, Binary)
			return err
		case (c == 'u' || c == 'U') && l.peekByte(1) == '&' && l.peekByte(2) == '\'':
			var err error
			*t, err = l.quoted(start, 2, UString)
			return err
		case (c == 'n' || c == 'N') && l.peekByte(1) == '\'':
			// National character literal N'...': an ordinary string.
			var err error
			*t, err = l.quoted(start, 1, String)
			return err
		case c >= '0' && c <= '9' || c == '.' && l.peekByte(1) >= '0' && l.peekByte(1) <= '9':
			*t = l.number(start)
			return nil
		case c == '?':
			l.advance(1)
			*t = Token{Kind: Param, Text: "?", Raw: "?", Pos: start, End: l.off}
			return nil
		}
		if c < utf8.RuneSelf && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$') {
			// ASCII fast path for words.
			i := l.off + 1
			ascii := true
			for i < len(l.src) {
				b := l.src[i]
				if b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_' || b == '$' {
					i++
					continue
				}
				if b >= utf8.RuneSelf {
					r, size := utf8.DecodeRuneInString(l.src[i:])
					if isIdentPart(r) {
						ascii = false
						i += size
						continue
					}
				}
				break
			}
			l.word(t, start, i, ascii)
			return nil
		}
		r, size := utf8.DecodeRuneInString(l.src[l.off:])
		if isIdentStart(r) {
			i := l.off + size
			for i < len(l.src) {
				r, size := utf8.DecodeRuneInString(l.src[i:])
				if !isIdentPart(r) {
					break
				}
				i += size
			}
			l.word(t, start, i, false)
			return nil
		}
		if op := matchOperator(l.src[l.off:]); op != "" {
			l.off += len(op)
			l.col += len(op)
			*t = Token{Kind: Op, Text: op, Raw: op, Pos: start, End: l.off}
			return nil
		}
		l.advance(size)
		return lexError(start, false, "Lexical error at line %d, column %d.  Encountered: %s", start.Line, start.Col, describeRune(r))
	}
}

// word returns the word token from the current offset to end.
func (l *Lexer) word(t *Token, start ast.Pos, end int, ascii bool) {
	word := l.src[l.off:end]
	var upper string
	isRes := false
	if ascii {
		l.col += len(word)
		if !l.noUpper {
			upper, isRes = upperASCIIWord(word)
		}
	} else {
		l.col += utf8.RuneCountInString(word)
		if !l.noUpper {
			upper = strings.ToUpper(word)
			_, isRes = reserved[upper]
		}
	}
	l.off = end
	*t = Token{Kind: Ident, Text: word, Raw: word, Upper: upper, Reserved: isRes, Pos: start, End: end}
}

// upperASCIIWord upper-cases an ASCII word and reports whether it is
// reserved. Keywords come back interned and words without lower-case
// letters as themselves, so only lower-case names allocate.
func upperASCIIWord(w string) (string, bool) {
	if len(w) <= 32 {
		var buf [32]byte
		for i := 0; i < len(w); i++ {
			c := w[i]
			if c >= 'a' && c <= 'z' {
				c -= 'a' - 'A'
			}
			buf[i] = c
		}
		if k, ok := keywordText[string(buf[:len(w)])]; ok {
			return k.text, k.reserved
		}
		// Not a keyword: Upper only serves keyword tests, which compare
		// upper-case words, so the word itself does (see Token.Is).
		return w, false
	}
	return strings.ToUpper(w), false
}

func describeRune(r rune) string {
	if r < 128 && unicode.IsPrint(r) {
		return strconv.Quote(string(r)) + " (" + strconv.Itoa(int(r)) + "), after : \"\""
	}
	return strconv.QuoteRune(r) + " (" + strconv.Itoa(int(r)) + "), after : \"\""
}

// matchOperator returns the operator or punctuation at the start of s
// (the longest one: "<=" wins over "<"), or "".
func matchOperator(s string) string {
	c := s[0]
	if len(s) > 1 {
		two := s[:2]
		switch two {
		case "<>", "<=", ">=", "!=", "||", "->", "=>", "::":
			return two
		}
	}
	switch c {
	case '(', ')', '[', ']', '{', '}', ',', ';', '.', '+', '-', '*', '/', '%', '=', '<', '>', ':', '^', '|', '&', '~', '!', '@', '#':
		return s[:1]
	}
	return ""
}

// quoted reads a '...' literal after a prefix of skip bytes (X, U&, N).
func (l *Lexer) quoted(start ast.Pos, skip int, kind TokenKind) (Token, error) {
	begin := l.off
	i := l.off + skip + 1
	if j := strings.IndexByte(l.src[i:], '\''); j >= 0 && (i+j+1 >= len(l.src) || l.src[i+j+1] != '\'') {
		// No doubled quote: the value is a substring of the input.
		end := i + j + 1
		raw := l.src[begin:end]
		l.advance(end - begin)
		tok := Token{Kind: kind, Text: l.src[i : i+j], Raw: raw, Pos: start, End: l.off}
		if kind == Binary {
			return tok, checkBinary(tok)
		}
		return tok, nil
	}
	var b strings.Builder
	for {
		j := strings.IndexByte(l.src[i:], '\'')
		if j < 0 {
			l.advance(len(l.src) - l.off)
			return Token{}, lexError(l.pos(), true, "Lexical error at line %d, column %d.  Encountered: <EOF> after : %s", l.line, l.col, strconv.Quote(l.src[begin+skip:]))
		}
		b.WriteString(l.src[i : i+j])
		i += j + 1
		if i < len(l.src) && l.src[i] == '\'' {
			b.WriteByte('\'')
			i++
			continue
		}
		break
	}
	raw := l.src[begin:i]
	l.advance(i - begin)
	text := b.String()
	tok := Token{Kind: kind, Text: text, Raw: raw, Pos: start, End: l.off}
	if kind == Binary {
		return tok, checkBinary(tok)
	}
	// U&'...' keeps its escapes: the parser resolves them once it knows
	// whether a UESCAPE clause names another escape character.
	return tok, nil
}

// checkBinary checks the digits of an X'...' literal as Calcite does.
func checkBinary(t Token) error {
	for _, r := range t.Text {
		if !strings.ContainsRune("0123456789abcdefABCDEF", r) {
			return &Error{Pos: t.Pos, Msg: "Binary literal string must contain only characters '0' - '9', 'A' - 'F'"}
		}
	}
	if len(t.Text)%2 != 0 {
		return &Error{Pos: t.Pos, Msg: "Binary literal string must contain an even number of hexits"}
	}
	return nil
}

// unescapeUnicode resolves \XXXX and \+XXXXXX escapes of a U&'...' literal.
func unescapeUnicode(s string, esc byte) (string, error) {
	if strings.IndexByte(s, esc) < 0 {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != esc {
			b.WriteByte(s[i])
			continue
		}
		switch {
		case i+1 < len(s) && s[i+1] == esc:
			b.WriteByte(esc)
			i++
		case i+7 < len(s)+0 && s[i+1] == '+':
			v, err := strconv.ParseUint(s[i+2:i+8], 16, 32)
			if err != nil {
				return "", &Error{Msg: "Unicode escape sequence is invalid"}
			}
			b.WriteRune(rune(v))
			i += 7
		case i+4 < len(s):
			v, err := strconv.ParseUint(s[i+1:i+5], 16, 32)
			if err != nil {
				return "", &Error{Msg: "Unicode escape sequence is invalid"}
			}
			b.WriteRune(rune(v))
			i += 4
		default:
			return "", &Error{Msg: "Unicode escape sequence is invalid"}
		}
	}
	return b.String(), nil
}

func (l *Lexer) backquoted(start ast.Pos) (Token, error) {
	begin := l.off
	i := l.off + 1
	if j := strings.IndexByte(l.src[i:], '`'); j >= 0 && (i+j+1 >= len(l.src) || l.src[i+j+1] != '`') {
		end := i + j + 1
		raw := l.src[begin:end]
		l.advance(end - begin)
		return Token{Kind: QIdent, Text: l.src[i : i+j], Raw: raw, Pos: start, End: l.off}, nil
	}
	var b strings.Builder
	for {
		j := strings.IndexByte(l.src[i:], '`')
		if j < 0 {
			l.advance(len(l.src) - l.off)
			return Token{}, lexError(l.pos(), true, "Lexical error at line %d, column %d.  Encountered: <EOF> after : %s", l.line, l.col, strconv.Quote(l.src[begin:]))
		}
		b.WriteString(l.src[i : i+j])
		i += j + 1
		if i < len(l.src) && l.src[i] == '`' {
			b.WriteByte('`')
			i++
			continue
		}
		break
	}
	raw := l.src[begin:i]
	l.advance(i - begin)
	return Token{Kind: QIdent, Text: b.String(), Raw: raw, Pos: start, End: l.off}, nil
}

func (l *Lexer) number(start ast.Pos) Token {
	i := l.off
	digits := func() {
		for i < len(l.src) && l.src[i] >= '0' && l.src[i] <= '9' {
			i++
		}
	}
	kind := Integer
	digits()
	if i < len(l.src) && l.src[i] == '.' {
		kind = Decimal
		i++
		digits()
	}
	if i < len(l.src) && (l.src[i] == 'e' || l.src[i] == 'E') {
		j := i + 1
		if j < len(l.src) && (l.src[j] == '+' || l.src[j] == '-') {
			j++
		}
		if j < len(l.src) && l.src[j] >= '0' && l.src[j] <= '9' {
			i = j
			digits()
			kind = Float
		}
	}
	raw := l.src[l.off:i]
	l.advance(i - l.off)
	return Token{Kind: kind, Text: raw, Raw: raw, Pos: start, End: l.off}
}
