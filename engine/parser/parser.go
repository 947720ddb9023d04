package parser

import (
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"eddy/engine/ast"
)

// MaxDepth bounds the nesting of expressions, queries and types: deeper
// input is an error, never a stack overflow.
const MaxDepth = 1000

// MaxChain bounds the terms of one flat operator chain (a + b + ...),
// which the parser reads in a loop but which forms a tree that deep.
const MaxChain = 100_000

// Parser holds the state of parsing one text. Parsing functions report
// errors by panicking with a bailout, recovered in the exported entry points
// (as go/parser does), so grammar code reads straight.
type Parser struct {
	src   string
	toks  []Token
	i     int // index of the current token
	depth int
	// params counts the dynamic parameters '?' read so far.
	params int
	// track turns on the recording of expectations (see run).
	track bool
	// buf is the pooled slice holding toks; pooled tells that the parser
	// itself came from parsers (and toks with it).
	buf       *[]Token
	pooled    bool
	maxIdents int // bound on the Idents the rest of the tokens can yield
	// noComments tells that no comment lies between the tokens (known
	// only for tokens from tokenize).
	noComments bool
	identSlab  []ast.Ident
	nodes      nodeSlabs

	// expected collects what was tried at the furthest token reached, for
	// the "Was expecting one of:" part of an error.
	expectedAt int
	expected   []string
}

type bailout struct{ err *Error }

func newParser(src string) (*Parser, error) {
	p := parsers.Get().(*Parser)
	// release left p blank but for its buffers and slabs.
	if err := p.tokenize(src); err != nil {
		p.release()
		return nil, err
	}
	p.src, p.expectedAt = src, -1
	return p, nil
}

// parsers recycles parsers with their token slices between parses, so
// that a warm parser allocates nothing for itself and its tokens. Trees
// never point into a parser or its tokens; they do point into its node
// slabs, whose unused rest serves the next statement.
var parsers = sync.Pool{New: func() any { return &Parser{pooled: true} }}

// tokenBuffers recycles token slices of parsers not from parsers.
var tokenBuffers = sync.Pool{New: func() any { return new([]Token) }}

// release returns the parser or its token slice for reuse; p must not be
// used after.
func (p *Parser) release() {
	if p.pooled {
		if cap(p.toks) <= 1<<16 {
			*p = Parser{toks: p.toks[:0], expected: p.expected[:0], pooled: true,
				identSlab: p.identSlab, nodes: p.nodes}
			parsers.Put(p)
		}
		return
	}
	if p.buf == nil {
		return
	}
	if cap(p.toks) <= 1<<16 {
		*p.buf = p.toks[:0]
		tokenBuffers.Put(p.buf)
	}
	p.buf, p.toks = nil, nil
}

// Parse parses one statement. A trailing ';' is allowed.
func Parse(sql string) (ast.Statement, error) {
	var stmt ast.Statement
	err := run(sql, func(p *Parser) {
		stmt = p.parseStatement()
		p.acceptOp(";")
		p.expectEOF()
	})
	if err != nil {
		return nil, err
	}
	return stmt, nil
}

// ParseExpr parses one scalar expression.
func ParseExpr(sql string) (ast.Expr, error) {
	var e ast.Expr
	err := run(sql, func(p *Parser) {
		e = p.parseExpr()
		p.expectEOF()
	})
	if err != nil {
		return nil, err
	}
	return e, nil
}

// run lexes src and runs parse over it. The first run records no
// expectations; only when it fails does a second run over the same tokens
// collect what each token could have been, for the "Was expecting one of"
// list. The grammar is deterministic, so both runs fail at the same place.
func run(src string, parse func(p *Parser)) error {
	p, err := newParser(src)
	if err != nil {
		return err
	}
	defer p.release()
	if err := p.attempt(parse); err == nil {
		return nil
	}
	p.reset(0)
	p.depth, p.params, p.track = 0, 0, true
	p.expectedAt, p.expected = -1, p.expected[:0]
	return p.attempt(parse)
}

func (p *Parser) attempt(parse func(p *Parser)) (err error) {
	defer p.recover(&err)
	parse(p)
	return nil
}

func (p *Parser) recover(err *error) {
	if r := recover(); r != nil {
		b, ok := r.(bailout)
		if !ok {
			panic(r)
		}
		*err = b.err
	}
}

// tok returns the current token.
func (p *Parser) tok() Token { return p.toks[p.i] }

// peek returns the token n places after the current one (EOF past the end).
func (p *Parser) peek(n int) Token {
	if p.i+n < len(p.toks) {
		return p.toks[p.i+n]
	}
	return p.toks[len(p.toks)-1]
}

// next consumes and returns the current token.
func (p *Parser) next() Token {
	t := p.toks[p.i]
	if p.i < len(p.toks)-1 {
		p.i++
	}
	return t
}

// mark returns the current position for backtracking with reset.
func (p *Parser) mark() int { return p.i }

func (p *Parser) reset(m int) { p.i = m }

// expect records that s would have been accepted at the current token.
func (p *Parser) expect(s string) {
	if p.track {
		p.record(s) // out of line: expect is inlined everywhere
	}
}

func (p *Parser) record(s string) {
	if p.i > p.expectedAt {
		p.expectedAt = p.i
		p.expected = p.expected[:0]
	}
	if p.i == p.expectedAt {
		for _, e := range p.expected {
			if e == s {
				return
			}
		}
		p.expected = append(p.expected, s)
	}
}

// expectQuoted records the keyword or symbol s, double-quoted; it builds
// the quoted text only when the list needs it.
func (p *Parser) expectQuoted(s string) {
	if p.track && p.i >= p.expectedAt {
		p.recordQuoted(s) // out of line: expectQuoted is inlined everywhere
	}
}

func (p *Parser) recordQuoted(s string) {
	if p.i == p.expectedAt {
		for _, e := range p.expected {
			if len(e) == len(s)+2 && e[1:len(e)-1] == s {
				return
			}
		}
	}
	if q, ok := quotedText()[s]; ok {
		p.expect(q)
		return
	}
	p.expect(`"` + s + `"`)
}

// isKeyword reports whether the current token is one of the keywords.
func (p *Parser) isKeyword(kws ...string) bool {
	t := &p.toks[p.i]
	if t.Kind != Ident {
		return false
	}
	for _, kw := range kws {
		if t.Upper == kw || len(t.Text) == len(kw) && foldWord(t.Text, t.Upper, kw) {
			return true
		}
	}
	return false
}

// acceptKeyword consumes the keyword sequence kws if the input starts with
// all of it, and reports whether it did.
func (p *Parser) acceptKeyword(kws ...string) bool {
	if t := &p.toks[p.i]; t.Kind != Ident || t.Upper != kws[0] && !(len(t.Text) == len(kws[0]) && foldWord(t.Text, t.Upper, kws[0])) {
		p.expectQuoted(kws[0])
		return false
	}
	for n := 1; n < len(kws); n++ {
		if n+p.i >= len(p.toks) || !p.toks[p.i+n].Is(kws[n]) {
			return false
		}
	}
	// The matched words are not the final EOF token, so p.i stays on a token.
	p.i += len(kws)
	return true
}

// expectKeyword consumes the keyword sequence or fails.
func (p *Parser) expectKeyword(kws ...string) Token {
	t := p.tok()
	for _, kw := range kws {
		if !p.acceptKeyword(kw) {
			p.fail()
		}
	}
	return t
}

// isOp reports whether the current token is the operator op.
func (p *Parser) isOp(op string) bool {
	t := &p.toks[p.i]
	return t.Kind == Op && t.Text == op
}

// acceptOp consumes the operator op if it is the current token.
func (p *Parser) acceptOp(op string) bool {
	if t := &p.toks[p.i]; t.Kind == Op && t.Text == op {
		p.i++ // an operator is never the final EOF token
		return true
	}
	p.expectQuoted(op)
	return false
}

// expectOp consumes the operator op or fails.
func (p *Parser) expectOp(op string) Token {
	t := &p.toks[p.i]
	if t.Kind != Op || t.Text != op {
		p.expectQuoted(op)
		p.fail()
	}
	p.i++ // an operator is never the final EOF token
	return *t
}

func (p *Parser) expectEOF() {
	if p.tok().Kind != EOF {
		p.expect("<EOF>")
		p.fail()
	}
}

// enter guards recursion depth; callers defer p.leave().
func (p *Parser) enter() {
	p.depth++
	if p.depth > MaxDepth {
		p.errorf(p.tok().Pos, "SQL is nested too deeply (more than %d levels)", MaxDepth)
	}
}

func (p *Parser) leave() { p.depth-- }

// errorf stops parsing with a message at pos.
func (p *Parser) errorf(pos ast.Pos, format string, args ...any) {
	panic(bailout{&Error{Pos: pos, Msg: fmt.Sprintf(format, args...)}})
}

// fail stops parsing at the current token with Flink's message:
//
//	Encountered "x" at line L, column C.
//	Was expecting one of:
//	    "A" ...
func (p *Parser) fail() {
	t := p.tok()
	var b strings.Builder
	fmt.Fprintf(&b, "Encountered %s at line %d, column %d.", describeToken(t), t.Pos.Line, t.Pos.Col)
	if p.expectedAt == p.i && len(p.expected) > 0 {
		if len(p.expected) == 1 {
			b.WriteString("\nWas expecting:\n")
		} else {
			b.WriteString("\nWas expecting one of:\n")
		}
		for i, e := range p.expected {
			if i > 0 {
				b.WriteByte('\n')
			}
			b.WriteString("    ")
			b.WriteString(e)
			if e == "<EOF>" {
				b.WriteString(" ")
			} else {
				b.WriteString(" ...")
			}
		}
	}
	panic(bailout{&Error{Pos: t.Pos, Msg: b.String()}})
}

// describeToken renders a token as JavaCC does in "Encountered ...":
// keywords and symbols in double quotes, string literals with escaped quotes.
// maxQuotedToken is the longest token text an error message quotes.
const maxQuotedToken = 200

func describeToken(t Token) string {
	if t.Kind == EOF {
		return "<EOF>"
	}
	raw := t.Raw
	if len(raw) > maxQuotedToken {
		// A 50 MB literal must not make a 50 MB error message.
		cut := maxQuotedToken
		for cut > 0 && !utf8.RuneStart(raw[cut]) {
			cut--
		}
		raw = raw[:cut] + "..."
	}
	raw = strings.ReplaceAll(raw, `\`, `\\`)
	raw = strings.ReplaceAll(raw, `'`, `\'`)
	raw = strings.ReplaceAll(raw, `"`, `\"`)
	raw = strings.ReplaceAll(raw, "\n", `\n`)
	return `"` + raw + `"`
}
