package parser

import (
	"strings"

	"eddy/engine/ast"
)

// parseSet reads SET, or SET 'key' = 'value'. Flink's SqlSet takes string
// literals only.
func (p *Parser) parseSet() ast.Statement {
	start := p.expectKeyword("SET").Pos
	if p.atStatementEnd() {
		return &ast.Set{Pos: start}
	}
	key := p.stringLiteral()
	p.expectOp("=")
	return &ast.Set{Pos: start, Key: &key, Value: p.stringLiteral()}
}

// parseReset reads RESET, or RESET key. The key is a string literal, or
// written unquoted: sql-gateway/set.q runs "reset table.resources.download-dir".
func (p *Parser) parseReset() ast.Statement {
	start := p.expectKeyword("RESET").Pos
	if p.atStatementEnd() {
		return &ast.Reset{Pos: start}
	}
	key := p.configKey()
	return &ast.Reset{Pos: start, Key: &key}
}

// atStatementEnd reports whether the statement ends here.
func (p *Parser) atStatementEnd() bool {
	return p.tok().Kind == EOF || p.isOp(";")
}

// configKey reads a configuration key: a string literal, or an unquoted
// run of words, numbers, dots and dashes written without blanks.
func (p *Parser) configKey() string {
	t := p.tok()
	switch t.Kind {
	case String:
		return p.stringLiteral()
	case Ident, QIdent:
		return p.configWord()
	}
	p.expect("<QUOTED_STRING>")
	p.fail()
	return ""
}

// configWord reads adjacent tokens that make one unquoted key such as
// table.resources.download-dir and returns their text.
func (p *Parser) configWord() string {
	first := p.next()
	if first.Kind == QIdent {
		return first.Text
	}
	var b strings.Builder
	b.WriteString(first.Raw)
	end := first.End
	for {
		t := p.tok()
		if t.Pos.Offset != end {
			break
		}
		ok := t.Kind == Ident || t.Kind == Integer || t.Kind == Decimal || t.IsOp(".") || t.IsOp("-")
		if !ok {
			break
		}
		p.next()
		b.WriteString(t.Raw)
		end = t.End
	}
	return b.String()
}

// parseLoadModule reads LOAD MODULE name [WITH (...)].
func (p *Parser) parseLoadModule() ast.Statement {
	start := p.expectKeyword("LOAD").Pos
	p.expectKeyword("MODULE")
	s := &ast.LoadModule{Pos: start, Name: p.simpleIdent()}
	if p.acceptKeyword("WITH") {
		s.Options = p.parseProperties()
	}
	return s
}

// parseCall reads CALL procedure(args).
func (p *Parser) parseCall() ast.Statement {
	start := p.expectKeyword("CALL").Pos
	s := &ast.Call{Pos: start, Procedure: p.compoundIdent()}
	p.expectOp("(")
	if p.acceptOp(")") {
		return s
	}
	for {
		s.Args = append(s.Args, p.parseExpr())
		if p.acceptOp(")") {
			return s
		}
		p.expectOp(",")
	}
}

// parseCompile reads COMPILE PLAN 'file' [IF NOT EXISTS] FOR stmt and
// COMPILE AND EXECUTE PLAN 'file' FOR stmt, stmt being an INSERT or a
// statement set.
func (p *Parser) parseCompile() ast.Statement {
	start := p.expectKeyword("COMPILE").Pos
	if p.acceptKeyword("AND") {
		p.expectKeyword("EXECUTE", "PLAN")
		s := &ast.CompileAndExecutePlan{Pos: start, File: p.stringLiteral()}
		p.expectKeyword("FOR")
		s.Stmt = p.parseInsertOrStatementSet()
		return s
	}
	p.expectKeyword("PLAN")
	s := &ast.CompilePlan{Pos: start, File: p.stringLiteral()}
	s.IfNotExists = p.ifNotExists()
	p.expectKeyword("FOR")
	s.Stmt = p.parseInsertOrStatementSet()
	return s
}

func (p *Parser) parseInsertOrStatementSet() ast.Statement {
	if p.tok().Is("STATEMENT") {
		return p.parseStatementSet()
	}
	if !p.isKeyword("INSERT", "UPSERT") {
		p.expect(`"INSERT"`)
		p.expect(`"UPSERT"`)
		p.expect(`"STATEMENT"`)
		p.fail()
	}
	return p.parseInsert()
}

// parseStopJob reads STOP JOB 'id' [WITH SAVEPOINT] [WITH DRAIN].
func (p *Parser) parseStopJob() ast.Statement {
	start := p.expectKeyword("STOP").Pos
	p.expectKeyword("JOB")
	s := &ast.StopJob{Pos: start, JobID: p.stringLiteral()}
	if p.acceptKeyword("WITH", "SAVEPOINT") {
		s.Savepoint = true
	}
	if p.acceptKeyword("WITH", "DRAIN") {
		s.Drain = true
	}
	return s
}
