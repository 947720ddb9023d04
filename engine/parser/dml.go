package parser

import "eddy/engine/ast"

// parseInsert reads INSERT INTO|OVERWRITE or UPSERT INTO table [hints]
// [PARTITION (...)] [(cols)] query.
func (p *Parser) parseInsert() *ast.Insert {
	s := &ast.Insert{Pos: p.tok().Pos}
	if p.acceptKeyword("UPSERT") {
		s.Upsert = true
		if t := p.tok(); t.Is("OVERWRITE") {
			// Flink's overwriteIsOnlyUsedWithInsert.
			p.errorf(t.Pos, "OVERWRITE expression is only used with INSERT statement.")
		}
		p.expectKeyword("INTO")
	} else {
		p.expectKeyword("INSERT")
		if p.acceptKeyword("OVERWRITE") {
			s.Overwrite = true
		} else {
			p.expectKeyword("INTO")
		}
	}
	s.Table = p.compoundIdent()
	for p.tok().Kind == Hint {
		s.Hints = append(s.Hints, p.parseHints()...)
	}
	if p.acceptKeyword("PARTITION") {
		s.Partition = p.parsePartitionSpec()
	}
	if p.isOp("(") && p.peek(1).Kind != EOF && (p.peek(1).Kind == QIdent || p.peek(1).Kind == Ident && !p.peek(1).Is("SELECT") && !p.peek(1).Is("WITH") && !p.peek(1).Is("VALUES")) {
		s.Columns = p.parseIdentList()
	}
	s.Source = p.parseQuery()
	return s
}

// parseStatementSet reads STATEMENT SET BEGIN insert; [insert; ...] END.
func (p *Parser) parseStatementSet() *ast.StatementSet {
	s := &ast.StatementSet{Pos: p.expectKeyword("STATEMENT").Pos}
	p.expectKeyword("SET", "BEGIN")
	for {
		if !p.isKeyword("INSERT", "UPSERT") {
			p.expect(`"INSERT"`)
			p.expect(`"UPSERT"`)
			if len(s.Inserts) == 0 {
				p.fail()
			}
			p.expectKeyword("END")
			return s
		}
		s.Inserts = append(s.Inserts, p.parseInsert())
		p.expectOp(";")
	}
}

// parseExecute reads EXECUTE STATEMENT SET ..., EXECUTE PLAN 'file',
// EXECUTE insert and EXECUTE query.
func (p *Parser) parseExecute() ast.Statement {
	start := p.expectKeyword("EXECUTE").Pos
	switch {
	case p.tok().Is("STATEMENT"):
		return &ast.Execute{Pos: start, Stmt: p.parseStatementSet()}
	case p.acceptKeyword("PLAN"):
		return &ast.ExecutePlan{Pos: start, File: p.stringLiteral()}
	case p.isKeyword("INSERT", "UPSERT"):
		return &ast.Execute{Pos: start, Stmt: p.parseInsert()}
	}
	return &ast.Execute{Pos: start, Stmt: p.parseQueryStatement()}
}

// parseDelete reads DELETE FROM table [[AS] alias] [WHERE cond].
func (p *Parser) parseDelete() ast.Statement {
	start := p.expectKeyword("DELETE").Pos
	p.expectKeyword("FROM")
	s := &ast.Delete{Pos: start, Table: p.compoundIdent()}
	s.Alias = p.optAlias()
	if p.acceptKeyword("WHERE") {
		s.Where = p.parseExpr()
	}
	return s
}

// parseUpdate reads UPDATE table [[AS] alias] SET col = expr, ... [WHERE
// cond].
func (p *Parser) parseUpdate() ast.Statement {
	start := p.expectKeyword("UPDATE").Pos
	s := &ast.Update{Pos: start, Table: p.compoundIdent()}
	s.Alias = p.optAlias()
	p.expectKeyword("SET")
	for {
		a := &ast.Assignment{Pos: p.tok().Pos, Column: p.simpleIdent()}
		p.expectOp("=")
		a.Value = p.parseExpr()
		s.Assignments = append(s.Assignments, a)
		if !p.acceptOp(",") {
			break
		}
	}
	if p.acceptKeyword("WHERE") {
		s.Where = p.parseExpr()
	}
	return s
}

// optAlias reads [[AS] alias].
func (p *Parser) optAlias() *ast.Ident {
	if p.acceptKeyword("AS") {
		return p.simpleIdent()
	}
	if p.isIdent() {
		return p.parseIdent()
	}
	return nil
}
