package parser

import (
	"strings"

	"eddy/engine/ast"
)

// parseShow reads every SHOW statement.
func (p *Parser) parseShow() ast.Statement {
	start := p.expectKeyword("SHOW").Pos
	s := &ast.Show{Pos: start}
	t := p.tok()
	switch {
	case p.acceptKeyword("CATALOGS"):
		s.Kind = ast.ShowCatalogs
		s.Like = p.parseLikePattern()
	case p.acceptKeyword("CURRENT"):
		if p.acceptKeyword("CATALOG") {
			return &ast.ShowCurrent{Pos: start}
		}
		p.expectKeyword("DATABASE")
		return &ast.ShowCurrent{Pos: start, Database: true}
	case p.acceptKeyword("DATABASES"):
		s.Kind = ast.ShowDatabases
		if p.parseShowFrom(s) && len(s.From.Parts) > 1 {
			// catalog_database.q #64.
			p.errorf(s.From.Position(), "Show databases from/in identifier [ %s ] format error, catalog must be a single part identifier.", plainName(s.From))
		}
		s.Like = p.parseLikePattern()
	case p.acceptKeyword("TABLES"):
		s.Kind = ast.ShowTables
		p.parseShowFromDatabase(s, "tables")
	case p.acceptKeyword("VIEWS"):
		s.Kind = ast.ShowViews
		p.parseShowFromDatabase(s, "views")
	case p.acceptKeyword("FUNCTIONS"):
		s.Kind = ast.ShowFunctions
		p.parseShowFromDatabase(s, "functions")
	case p.acceptKeyword("USER"):
		p.expectKeyword("FUNCTIONS")
		s.Kind = ast.ShowUserFunctions
		p.parseShowFromDatabase(s, "functions")
	case p.acceptKeyword("PROCEDURES"):
		s.Kind = ast.ShowProcedures
		p.parseShowFromDatabase(s, "procedures")
	case p.acceptKeyword("COLUMNS"):
		s.Kind = ast.ShowColumns
		s.In = p.tok().Is("IN")
		if !p.acceptKeyword("FROM") && !p.acceptKeyword("IN") {
			p.fail()
		}
		s.From = p.compoundIdent()
		s.Like = p.parseLikePattern()
	case p.acceptKeyword("PARTITIONS"):
		s.Kind = ast.ShowPartitions
		s.From = p.compoundIdent()
		if p.acceptKeyword("PARTITION") {
			s.Partition = p.parsePartitionSpec()
		}
	case p.acceptKeyword("FULL"):
		p.expectKeyword("MODULES")
		s.Kind = ast.ShowFullModules
	case p.acceptKeyword("MODULES"):
		s.Kind = ast.ShowModules
	case p.acceptKeyword("JARS"):
		s.Kind = ast.ShowJars
	case p.acceptKeyword("JOBS"):
		s.Kind = ast.ShowJobs
	case p.acceptKeyword("MODELS"):
		s.Kind = ast.ShowModels
		p.parseShowModels(s)
	case p.acceptKeyword("CREATE"):
		c := &ast.ShowCreate{Pos: start}
		// In the order Flink's parser lists them when none is there.
		switch {
		case p.acceptKeyword("CATALOG"):
			c.Kind = ast.ObjectCatalog
			c.Name = &ast.ObjectName{Parts: []*ast.Ident{p.simpleIdent()}}
		case p.acceptKeyword("TABLE"):
			c.Kind = ast.ObjectTable
			c.Name = p.compoundIdent()
		case p.acceptKeyword("VIEW"):
			c.Kind = ast.ObjectView
			c.Name = p.compoundIdent()
		case p.acceptKeyword("MODEL"):
			c.Kind = ast.ObjectModel
			c.Name = p.compoundIdent()
		default:
			p.expect(`"MATERIALIZED"`)
			p.fail()
		}
		return c
	default:
		_ = t
		p.fail()
	}
	return s
}

// parseShowFrom reads [FROM | IN name] and reports whether it was there.
func (p *Parser) parseShowFrom(s *ast.Show) bool {
	switch {
	case p.acceptKeyword("FROM"):
	case p.acceptKeyword("IN"):
		s.In = true
	default:
		return false
	}
	s.From = p.compoundIdent()
	return true
}

// parseShowFromDatabase reads [FROM | IN [catalog.]db] [[NOT] LIKE|ILIKE
// 'p'] of SHOW TABLES, VIEWS, FUNCTIONS and PROCEDURES.
func (p *Parser) parseShowFromDatabase(s *ast.Show, what string) {
	if p.parseShowFrom(s) && len(s.From.Parts) > 2 {
		p.errorf(s.From.Position(), "Show %s from/in identifier [ %s ] format error, it should be [catalog_name.]database_name.", what, plainName(s.From))
	}
	s.Like = p.parseLikePattern()
}

// parseShowModels reads [FROM | IN name] [[NOT] LIKE 'p'] of SHOW MODELS:
// Flink's grammar has no ILIKE there, and it checks the name's form later
// (the DDL executor does).
func (p *Parser) parseShowModels(s *ast.Show) {
	p.parseShowFrom(s)
	t := p.tok()
	switch {
	case p.acceptKeyword("LIKE"):
		s.Like = &ast.LikePattern{Pos: t.Pos, Pattern: p.stringLiteral()}
	case p.acceptKeyword("NOT"):
		p.expectKeyword("LIKE")
		s.Like = &ast.LikePattern{Pos: t.Pos, Not: true, Pattern: p.stringLiteral()}
	}
}

// plainName joins a name's parts with dots, unquoted, as Flink's
// SqlIdentifier.toString does in messages.
func plainName(n *ast.ObjectName) string { return strings.Join(n.Names(), ".") }

// parseDescribe reads {DESCRIBE | DESC} [EXTENDED] table, DESCRIBE CATALOG
// | DATABASE | FUNCTION [EXTENDED] name and DESCRIBE JOB 'id'.
func (p *Parser) parseDescribe() ast.Statement {
	start := p.next().Pos
	d := &ast.Describe{Pos: start}
	// CATALOG, DATABASE and JOB are non-reserved: DESCRIBE catalog names a
	// table called catalog.
	nameFollows := func() bool {
		n := p.peek(1)
		return n.Kind == Ident || n.Kind == QIdent
	}
	t := p.tok()
	switch {
	case t.Is("CATALOG") && nameFollows():
		p.next()
		d.Kind = ast.ObjectCatalog
		d.Extended = p.acceptKeyword("EXTENDED")
		d.Name = &ast.ObjectName{Parts: []*ast.Ident{p.simpleIdent()}}
		return d
	case t.Is("DATABASE") && nameFollows():
		p.next()
		d.Kind = ast.ObjectDatabase
	case t.Is("FUNCTION"):
		p.next()
		d.Kind = ast.ObjectFunction
	case t.Is("MODEL"):
		// Flink's parser takes MODEL here as the model form, a name
		// following or not.
		p.next()
		d.Kind = ast.ObjectModel
		d.Extended = p.acceptKeyword("EXTENDED")
		d.Name = p.compoundIdent()
		return d
	case t.Is("JOB") && p.peek(1).Kind == String:
		p.next()
		d.Kind = ast.ObjectJob
		d.JobID = p.stringLiteral()
		return d
	}
	d.Extended = p.acceptKeyword("EXTENDED")
	d.Name = p.compoundIdent()
	return d
}
