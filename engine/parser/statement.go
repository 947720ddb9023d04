package parser

import (
	"strconv"

	"eddy/engine/ast"
)

// parseStatement reads one statement. What may follow it is listed in
// errors as Flink's generated parser lists it: <EOF> first (token kind 0),
// then the statement's own continuations, then ";" (added by Parse).
func (p *Parser) parseStatement() ast.Statement {
	stmt := p.dispatchStatement()
	if p.expectedAt == p.i {
		if len(p.expected) == 0 || p.expected[0] != "<EOF>" {
			p.expected = append([]string{"<EOF>"}, p.expected...)
		}
	} else {
		p.expect("<EOF>")
	}
	return stmt
}

// dispatchStatement dispatches on the first token.
func (p *Parser) dispatchStatement() ast.Statement {
	t := p.tok()
	switch {
	case p.isKeyword("SELECT", "WITH", "VALUES", "TABLE") || p.isOp("("):
		return p.parseQueryStatement()
	case t.Is("CREATE"):
		return p.parseCreate()
	case t.Is("REPLACE"):
		p.next()
		return p.parseCreateTable(t.Pos, true, false, false)
	case t.Is("DROP"):
		return p.parseDrop()
	case t.Is("ALTER"):
		return p.parseAlter()
	case t.Is("USE"):
		return p.parseUse()
	case t.Is("SHOW"):
		return p.parseShow()
	case t.Is("DESCRIBE"), t.Is("DESC"):
		return p.parseDescribe()
	case t.Is("EXPLAIN"):
		return p.parseExplain()
	case t.Is("SET"):
		return p.parseSet()
	case t.Is("RESET"):
		return p.parseReset()
	case t.Is("INSERT"), t.Is("UPSERT"):
		return p.parseInsert()
	case t.Is("EXECUTE"):
		return p.parseExecute()
	case t.Is("BEGIN"):
		p.next()
		p.expectKeyword("STATEMENT", "SET")
		return &ast.BeginStatementSet{Pos: t.Pos}
	case t.Is("END"):
		p.next()
		return &ast.End{Pos: t.Pos}
	case t.Is("TRUNCATE"):
		p.next()
		p.expectKeyword("TABLE")
		return &ast.Truncate{Pos: t.Pos, Table: p.compoundIdent()}
	case t.Is("DELETE"):
		return p.parseDelete()
	case t.Is("UPDATE"):
		return p.parseUpdate()
	case t.Is("LOAD"):
		return p.parseLoadModule()
	case t.Is("UNLOAD"):
		p.next()
		p.expectKeyword("MODULE")
		return &ast.UnloadModule{Pos: t.Pos, Name: p.simpleIdent()}
	case t.Is("ADD"):
		p.next()
		p.expectKeyword("JAR")
		return &ast.AddJar{Pos: t.Pos, Path: p.stringLiteral()}
	case t.Is("REMOVE"):
		p.next()
		p.expectKeyword("JAR")
		return &ast.RemoveJar{Pos: t.Pos, Path: p.stringLiteral()}
	case t.Is("CALL"):
		return p.parseCall()
	case t.Is("COMPILE"):
		return p.parseCompile()
	case t.Is("ANALYZE"):
		return p.parseAnalyze()
	case t.Is("STOP"):
		return p.parseStopJob()
	case t.Is("HELP"), t.Is("QUIT"), t.Is("EXIT"), t.Is("CLEAR"):
		p.next()
		return &ast.ClientCommand{Pos: t.Pos, Name: t.Upper}
	}
	for _, kw := range statementKeywords {
		p.expect(`"` + kw + `"`)
	}
	p.fail()
	return nil
}

// statementKeywords are the words a statement may start with, listed in an
// error at the start of a statement.
var statementKeywords = []string{
	"ADD", "ALTER", "ANALYZE", "BEGIN", "CALL", "COMPILE", "CREATE", "DELETE", "DESC", "DESCRIBE", "DROP", "END",
	"EXECUTE", "EXPLAIN", "INSERT", "LOAD", "REMOVE", "REPLACE", "RESET", "SELECT", "SET", "SHOW",
	"STOP", "TRUNCATE", "UNLOAD", "UPDATE", "UPSERT", "USE", "VALUES", "WITH",
}

// identifierKinds are the token kinds Flink's generated parser lists where
// it expects an identifier (module.q: LOAD MODULE 'dummy').
var identifierKinds = []string{
	"<BRACKET_QUOTED_IDENTIFIER>", "<QUOTED_IDENTIFIER>", "<BACK_QUOTED_IDENTIFIER>",
	"<BIG_QUERY_BACK_QUOTED_IDENTIFIER>", "<HYPHENATED_IDENTIFIER>", "<IDENTIFIER>",
	"<UNICODE_QUOTED_IDENTIFIER>",
}

// simpleIdent reads a one-part name (Flink's SimpleIdentifier).
func (p *Parser) simpleIdent() *ast.Ident {
	for _, k := range identifierKinds {
		p.expect(k)
	}
	return p.parseIdent()
}

// compoundIdent reads a dotted name (Flink's CompoundIdentifier).
func (p *Parser) compoundIdent() *ast.ObjectName {
	for _, k := range identifierKinds {
		p.expect(k)
	}
	return p.parseObjectName()
}

// stringLiteral reads a character string literal and returns its value.
func (p *Parser) stringLiteral() string {
	t := p.tok()
	if t.Kind == String {
		p.next()
		return t.Text
	}
	p.expect("<QUOTED_STRING>")
	p.fail()
	return ""
}

// optComment reads [COMMENT 'text'].
func (p *Parser) optComment() *string {
	if p.acceptKeyword("COMMENT") {
		s := p.stringLiteral()
		return &s
	}
	return nil
}

// ifNotExists reads [IF NOT EXISTS].
func (p *Parser) ifNotExists() bool {
	if p.tok().Is("IF") && p.peek(1).Is("NOT") && p.peek(2).Is("EXISTS") {
		p.next()
		p.next()
		p.next()
		return true
	}
	p.expect(`"IF"`)
	return false
}

// ifExists reads [IF EXISTS].
func (p *Parser) ifExists() bool {
	if p.tok().Is("IF") && p.peek(1).Is("EXISTS") {
		p.next()
		p.next()
		return true
	}
	p.expect(`"IF"`)
	return false
}

// parseProperties reads ('k' = 'v', ...); the list may be empty. The result
// is never nil.
func (p *Parser) parseProperties() []*ast.Property {
	p.expectOp("(")
	props := []*ast.Property{}
	if p.acceptOp(")") {
		return props
	}
	for {
		t := p.tok()
		k := p.stringLiteral()
		p.expectOp("=")
		v := p.stringLiteral()
		pr := p.nodes.props.get()
		pr.Pos, pr.Key, pr.Value = t.Pos, k, v // field by field, see newIdentAt
		props = append(props, pr)
		if p.acceptOp(")") {
			return props
		}
		p.expectOp(",")
	}
}

// parseKeyList reads ('k', ...), the keys of RESET (...); it may be empty.
func (p *Parser) parseKeyList() []string {
	p.expectOp("(")
	keys := []string{}
	if p.acceptOp(")") {
		return keys
	}
	for {
		keys = append(keys, p.stringLiteral())
		if p.acceptOp(")") {
			return keys
		}
		p.expectOp(",")
	}
}

// parseIdentList reads (a, b, ...) of simple names.
func (p *Parser) parseIdentList() []*ast.Ident {
	p.expectOp("(")
	var ids []*ast.Ident
	for {
		ids = append(ids, p.simpleIdent())
		if p.acceptOp(")") {
			return ids
		}
		p.expectOp(",")
	}
}

// parsePartitionSpec reads PARTITION (k = literal, ...) after PARTITION.
func (p *Parser) parsePartitionSpec() []*ast.PartitionValue {
	p.expectOp("(")
	var spec []*ast.PartitionValue
	for {
		t := p.tok()
		k := p.simpleIdent()
		p.expectOp("=")
		spec = append(spec, &ast.PartitionValue{Pos: t.Pos, Key: k, Value: p.parseLiteral()})
		if p.acceptOp(")") {
			return spec
		}
		p.expectOp(",")
	}
}

// parseLikePattern reads [[NOT] LIKE|ILIKE 'pattern'].
func (p *Parser) parseLikePattern() *ast.LikePattern {
	t := p.tok()
	not := false
	if t.Is("NOT") && (p.peek(1).Is("LIKE") || p.peek(1).Is("ILIKE")) {
		p.next()
		not = true
	} else {
		p.expect(`"NOT"`)
	}
	switch {
	case p.acceptKeyword("LIKE"):
		return &ast.LikePattern{Pos: t.Pos, Not: not, Pattern: p.stringLiteral()}
	case p.acceptKeyword("ILIKE"):
		return &ast.LikePattern{Pos: t.Pos, Not: not, ILike: true, Pattern: p.stringLiteral()}
	}
	return nil
}

// querySpan parses a query and returns it with the stretch of text it
// covers.
func (p *Parser) querySpan() (ast.Query, ast.Span) {
	start := p.tok().Pos
	q := p.parseQuery()
	last := p.toks[p.i-1]
	end := ast.Pos{Offset: last.End, Line: last.Pos.Line, Col: last.Pos.Col + len([]rune(last.Raw))}
	return q, ast.Span{Start: start, End: end}
}

// positiveInt reads an unsigned integer literal.
func (p *Parser) positiveInt() int {
	t := p.tok()
	if t.Kind == Integer {
		n, err := strconv.Atoi(t.Text)
		if err == nil {
			p.next()
			return n
		}
		p.errorf(t.Pos, "Numeric literal '%s' out of range", t.Text)
	}
	p.expect("<UNSIGNED_INTEGER_LITERAL>")
	p.fail()
	return 0
}

// parseLiteral reads a literal (Calcite's Literal(): a number with an
// optional sign, a string, TRUE, FALSE, UNKNOWN, NULL, a typed date/time
// literal or an interval), as PARTITION (k = literal) takes.
func (p *Parser) parseLiteral() ast.Expr {
	m := p.mark()
	e := p.parseExpr()
	switch x := e.(type) {
	case *ast.Literal, *ast.IntervalLit:
		return e
	case *ast.UnaryExpr:
		if l, ok := x.X.(*ast.Literal); ok && x.Op != "NOT" {
			switch l.Kind {
			case ast.LitInteger, ast.LitDecimal, ast.LitFloat:
				return e
			}
		}
	}
	p.reset(m)
	p.fail()
	return nil
}
