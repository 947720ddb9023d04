package parser

import "eddy/engine/ast"

// parseCreateDatabase reads the rest of CREATE DATABASE [IF NOT EXISTS]
// [catalog.]db [COMMENT 'c'] [WITH (...)].
func (p *Parser) parseCreateDatabase(start ast.Pos) ast.Statement {
	s := &ast.CreateDatabase{Pos: start, IfNotExists: p.ifNotExists(), Name: p.compoundIdent()}
	s.Comment = p.optComment()
	if p.acceptKeyword("WITH") {
		s.Options = p.parseProperties()
	}
	return s
}

// parseDropDatabase reads the rest of DROP DATABASE [IF EXISTS]
// [catalog.]db [RESTRICT | CASCADE].
func (p *Parser) parseDropDatabase(start ast.Pos) ast.Statement {
	s := &ast.DropDatabase{Pos: start, IfExists: p.ifExists(), Name: p.compoundIdent()}
	switch {
	case p.acceptKeyword("RESTRICT"):
		s.Behavior = ast.DropRestrict
	case p.acceptKeyword("CASCADE"):
		s.Behavior = ast.DropCascade
	}
	return s
}
