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
	// skipped records that a comment (or a hint read as one, see
	// Parser.tokenize) lay between tokens.
	skipped      bool
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
	return tokenizeInto(make([]Token, 0, min(len(src)/4+8, 1<<14)), src)
}

// tokenizeInto appends the tokens of src to toks.
func tokenizeInto(toks []Token, src string) ([]Token, error) {
	l := NewLexer(src)
	for {
		toks = grow(toks)
		t := &toks[len(toks)-1]
		if err := l.scan(t); err != nil {
			return toks[:len(toks)-1], err
		}
		if t.Kind == EOF {
			return toks, nil
		}
	}
}

// grow extends toks by one element, which the caller overwrites whole.
func grow(toks []Token) []Token {
	if len(toks) < cap(toks) {
		return toks[:len(toks)+1]
	}
	return append(toks, Token{})
}

// tokenize lexes src into p.toks (reusing its array) for parsing: it drops
// the hints Flink reads as comments (see keepsHint), and sets p.maxIdents
// to how many identifiers the tokens can yield at most (words that are not
// reserved, back-quoted names, and reserved words before '(' as in a call)
// and p.noComments when no comment or dropped hint lies between the tokens.
func (p *Parser) tokenize(src string) error {
	l := NewLexer(src)
	toks := p.toks[:0]
	// A guess of the token count, bounded: a long string literal must not
	// reserve tokens for every four of its bytes.
	if want := min(len(src)/4+8, 1<<14); cap(toks) < want {
		toks = make([]Token, 0, want)
	}
	idents := 0
	var err error
	for {
		n := len(toks)
		toks = grow(toks)
		t := &toks[n]
		if err = l.scan(t); err != nil {
			toks = toks[:n]
			break
		}
		if t.Kind == EOF {
			break
		}
		switch t.Kind {
		case Hint:
			if !keepsHint(toks[:n]) {
				toks = toks[:n]
				l.skipped = true
			}
		case QIdent:
			idents++
		case Ident:
			if !t.Reserved {
				idents++
			}
		case Op:
			if n > 0 && toks[n-1].Kind == Ident && toks[n-1].Reserved && t.Text == "(" {
				idents++
			}
		}
	}
	p.toks, p.maxIdents, p.noComments = toks, idents, !l.skipped
	return err
}

// keepsHint reports whether a hint after toks is one: a hint stays only
// right after SELECT or after a name (a table, or the target of INSERT),
// or after another hint; elsewhere /*+ ... */ is a comment.
func keepsHint(toks []Token) bool {
	if len(toks) == 0 {
		return false
	}
	k := toks[len(toks)-1].Kind
	return k == Ident || k == QIdent || k == Hint
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

// Bits of the ASCII bytes that continue an unquoted word: letters,
// digits, '_' and '$'; identLow for bytes below 64, identHigh for the rest.
const (
	identLow  uint64 = 1<<'$' | 0x3FF<<'0'
	identHigh uint64 = 0x3FFFFFF<<('A'-64) | 1<<('_'-64) | 0x3FFFFFF<<('a'-64)
)

// isIdentByte reports whether the byte b continues an unquoted word (for
// an ASCII byte; the bytes of other characters report false).
func isIdentByte(b byte) bool {
	if b < 64 {
		return identLow>>b&1 != 0
	}
	return b < 128 && identHigh>>(b-64)&1 != 0
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

// scan reads the next token into t (see Next). It writes t in place, one
// field at a time: t is most often an element of a token slice on the
// heap, where a whole-token copy costs the runtime's bulk write barrier
// while the collector runs.
func (l *Lexer) scan(t *Token) error {
	for {
		// Skip blanks; CR counts as a blank so CRLF input lexes as LF input.
		src, off, line, col := l.src, l.off, l.line, l.col
		for off < len(src) {
			c := src[off]
			if c == '\n' {
				line++
				col = 1
				off++
				continue
			}
			if c == ' ' || c == '\t' || c == '\r' || c == '\f' {
				col++
				off++
				continue
			}
			break
		}
		l.off, l.line, l.col = off, line, col
		if l.off >= len(l.src) {
			t.set(EOF, "", "", l.pos(), l.off)
			return nil
		}
		start := l.pos()
		c := l.src[l.off]
		switch c {
		case '-':
			if l.peekByte(1) != '-' {
				break
			}
			end := strings.IndexByte(l.src[l.off:], '\n')
			if end < 0 {
				end = len(l.src) - l.off
			}
			raw := l.src[l.off : l.off+end]
			l.advance(end)
			if l.KeepComments {
				t.set(Comment, raw, raw, start, l.off)
				return nil
			}
			l.skipped = true
			continue
		case '/':
			if l.peekByte(1) != '*' {
				break
			}
			end := strings.Index(l.src[l.off+2:], "*/")
			if end < 0 {
				// Flink: TokenMgrError "Lexical error at line L, column C.  Encountered: <EOF> after : """.
				l.advance(len(l.src) - l.off)
				return lexError(l.pos(), true, "Lexical error at line %d, column %d.  Encountered: <EOF> after : \"\"", l.line, l.col)
			}
			raw := l.src[l.off : l.off+2+end+2]
			l.advance(len(raw))
			if strings.HasPrefix(raw, "/*+") {
				t.set(Hint, raw[3:len(raw)-2], raw, start, l.off)
				return nil
			}
			if l.KeepComments {
				t.set(Comment, raw, raw, start, l.off)
				return nil
			}
			l.skipped = true
			continue
		case '\'':
			return l.quoted(t, start, 0, String)
		case '`':
			return l.backquoted(t, start)
		case 'x', 'X':
			if l.peekByte(1) == '\'' {
				return l.quoted(t, start, 1, Binary)
			}
		case 'u', 'U':
			if l.peekByte(1) == '&' && l.peekByte(2) == '\'' {
				return l.quoted(t, start, 2, UString)
			}
		case 'n', 'N':
			if l.peekByte(1) == '\'' {
				// National character literal N'...': an ordinary string.
				return l.quoted(t, start, 1, String)
			}
		case '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
			l.number(t, start)
			return nil
		case '.':
			if d := l.peekByte(1); d >= '0' && d <= '9' {
				l.number(t, start)
				return nil
			}
		case '?':
			l.advance(1)
			t.set(Param, "?", "?", start, l.off)
			return nil
		}
		if c < utf8.RuneSelf && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$') {
			// ASCII fast path for words.
			i := l.off + 1
			ascii := true
			for i < len(l.src) {
				b := l.src[i]
				if isIdentByte(b) {
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
		if c < utf8.RuneSelf {
			// ASCII letters, '_' and '$' start words, handled above.
			if op := matchOperator(l.src[l.off:]); op != "" {
				l.off += len(op)
				l.col += len(op)
				t.set(Op, op, op, start, l.off)
				return nil
			}
			l.advance(1)
			return lexError(start, false, "Lexical error at line %d, column %d.  Encountered: %s", start.Line, start.Col, describeRune(rune(c)))
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
		l.advance(size)
		return lexError(start, false, "Lexical error at line %d, column %d.  Encountered: %s", start.Line, start.Col, describeRune(r))
	}
}

// set fills in a token that is not a word (Upper empty, not reserved).
func (t *Token) set(kind TokenKind, text, raw string, pos ast.Pos, end int) {
	t.Kind = kind
	t.Text = text
	t.Raw = raw
	t.Pos = pos
	t.End = end
	t.Upper = ""
	t.Reserved = false
}

// word reads the word token from the current offset to end into t.
func (l *Lexer) word(t *Token, start ast.Pos, end int, ascii bool) {
	word := l.src[l.off:end]
	var upper string
	isRes := false
	if ascii {
		l.col += len(word)
		// Keywords come back interned, with whether they are reserved.
		// Other words serve as their own Upper: Upper only serves keyword
		// tests, which compare upper-case words (see Token.Is).
		upper = word
		if k, exact := keywords.lookup(word); k != nil {
			upper, isRes = k.text, k.reserved
			if exact {
				// The same text from the keyword table: a token pointing
				// outside the heap is cheaper for the collector to track.
				word = upper
			}
		}
	} else {
		l.col += utf8.RuneCountInString(word)
		upper = strings.ToUpper(word)
		isRes = IsReserved(upper)
	}
	l.off = end
	t.Kind = Ident
	t.Text = word
	t.Raw = word
	t.Pos = start
	t.End = end
	t.Upper = upper
	t.Reserved = isRes
}

func describeRune(r rune) string {
	if r < 128 && unicode.IsPrint(r) {
		return strconv.Quote(string(r)) + " (" + strconv.Itoa(int(r)) + "), after : \"\""
	}
	return strconv.QuoteRune(r) + " (" + strconv.Itoa(int(r)) + "), after : \"\""
}

// matchOperator returns the operator or punctuation at the start of s
// (the longest one: "<=" wins over "<"), or "". The text comes from
// constants, not from s: a token pointing outside the heap is cheaper for
// the collector to track.
func matchOperator(s string) string {
	var d byte // the byte after the first, or 0
	if len(s) > 1 {
		d = s[1]
	}
	switch s[0] {
	case '(':
		return "("
	case ')':
		return ")"
	case ',':
		return ","
	case '.':
		return "."
	case ';':
		return ";"
	case '[':
		return "["
	case ']':
		return "]"
	case '{':
		return "{"
	case '}':
		return "}"
	case '+':
		return "+"
	case '-':
		if d == '>' {
			return "->"
		}
		return "-"
	case '*':
		return "*"
	case '/':
		return "/"
	case '%':
		return "%"
	case '=':
		if d == '>' {
			return "=>"
		}
		return "="
	case '<':
		switch d {
		case '>':
			return "<>"
		case '=':
			return "<="
		}
		return "<"
	case '>':
		if d == '=' {
			return ">="
		}
		return ">"
	case '!':
		if d == '=' {
			return "!="
		}
		return "!"
	case '|':
		if d == '|' {
			return "||"
		}
		return "|"
	case ':':
		if d == ':' {
			return "::"
		}
		return ":"
	case '^':
		return "^"
	case '&':
		return "&"
	case '~':
		return "~"
	case '@':
		return "@"
	case '#':
		return "#"
	}
	return ""
}

// quoted reads a '...' literal after a prefix of skip bytes (X, U&, N)
// into t.
func (l *Lexer) quoted(t *Token, start ast.Pos, skip int, kind TokenKind) error {
	begin := l.off
	i := l.off + skip + 1
	if j := strings.IndexByte(l.src[i:], '\''); j >= 0 && (i+j+1 >= len(l.src) || l.src[i+j+1] != '\'') {
		// No doubled quote: the value is a substring of the input.
		end := i + j + 1
		raw := l.src[begin:end]
		l.advance(end - begin)
		t.set(kind, l.src[i:i+j], raw, start, l.off)
		if kind == Binary {
			return checkBinary(*t)
		}
		return nil
	}
	var b strings.Builder
	for {
		j := strings.IndexByte(l.src[i:], '\'')
		if j < 0 {
			l.advance(len(l.src) - l.off)
			return lexError(l.pos(), true, "Lexical error at line %d, column %d.  Encountered: <EOF> after : %s", l.line, l.col, strconv.Quote(l.src[begin+skip:]))
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
	t.set(kind, b.String(), raw, start, l.off)
	if kind == Binary {
		return checkBinary(*t)
	}
	// U&'...' keeps its escapes: the parser resolves them once it knows
	// whether a UESCAPE clause names another escape character.
	return nil
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

// backquoted reads a `...` identifier into t.
func (l *Lexer) backquoted(t *Token, start ast.Pos) error {
	begin := l.off
	i := l.off + 1
	if j := strings.IndexByte(l.src[i:], '`'); j >= 0 && (i+j+1 >= len(l.src) || l.src[i+j+1] != '`') {
		end := i + j + 1
		raw := l.src[begin:end]
		l.advance(end - begin)
		t.set(QIdent, l.src[i:i+j], raw, start, l.off)
		return nil
	}
	var b strings.Builder
	for {
		j := strings.IndexByte(l.src[i:], '`')
		if j < 0 {
			l.advance(len(l.src) - l.off)
			return lexError(l.pos(), true, "Lexical error at line %d, column %d.  Encountered: <EOF> after : %s", l.line, l.col, strconv.Quote(l.src[begin:]))
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
	t.set(QIdent, b.String(), raw, start, l.off)
	return nil
}

// number reads a numeric literal into t.
func (l *Lexer) number(t *Token, start ast.Pos) {
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
	t.set(kind, raw, raw, start, l.off)
}

// AppendTokens appends the tokens of src (without comments, ending with an
// EOF token) to dst, reusing its array: Tokenize for a caller that lexes
// many statements.
func AppendTokens(dst []Token, src string) ([]Token, error) {
	return tokenizeInto(dst, src)
}
