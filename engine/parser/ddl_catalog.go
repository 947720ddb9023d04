package parser

import (
	"strings"

	"eddy/engine/ast"
)

// parseCreate reads CREATE [OR REPLACE] [TEMPORARY [SYSTEM]] and dispatches
// on the object kind.
func (p *Parser) parseCreate() ast.Statement {
	start := p.expectKeyword("CREATE").Pos
	orReplace := p.acceptKeyword("OR", "REPLACE")
	temporary := p.acceptKeyword("TEMPORARY")
	if temporary && p.tok().Is("SYSTEM") {
		p.next()
		p.expectKeyword("FUNCTION")
		return p.parseCreateFunction(start, true, true)
	}
	t := p.tok()
	switch {
	case t.Is("TABLE"):
		return p.parseCreateTable(start, orReplace, orReplace, temporary)
	case t.Is("VIEW"):
		p.next()
		return p.parseCreateView(start, orReplace, temporary)
	case t.Is("MODEL") && !orReplace:
		p.next()
		return p.parseCreateModel(start, temporary)
	case t.Is("MATERIALIZED") && !temporary:
		p.next()
		p.expectKeyword("TABLE")
		return p.parseMaterializedTable(start, "CREATE")
	}
	if orReplace {
		p.expect(`"TABLE"`)
		p.expect(`"VIEW"`)
		p.fail()
	}
	switch {
	case t.Is("FUNCTION"):
		p.next()
		return p.parseCreateFunction(start, temporary, false)
	case t.Is("SYSTEM") && p.peek(1).Is("FUNCTION"):
		// Flink's createSystemFunctionOnlySupportTemporary.
		p.errorf(t.Pos, "CREATE SYSTEM FUNCTION is not supported, system functions can only be registered as temporary function, you can use CREATE TEMPORARY SYSTEM FUNCTION instead.")
	}
	if !temporary {
		switch {
		case t.Is("CATALOG"):
			p.next()
			return p.parseCreateCatalog(start)
		case t.Is("DATABASE"):
			p.next()
			return p.parseCreateDatabase(start)
		}
		p.expect(`"CATALOG"`)
		p.expect(`"DATABASE"`)
	} else {
		p.expect(`"SYSTEM"`)
	}
	p.expect(`"FUNCTION"`)
	p.expect(`"TABLE"`)
	p.expect(`"VIEW"`)
	p.fail()
	return nil
}

// parseDrop reads DROP [TEMPORARY [SYSTEM]] and dispatches on the object
// kind.
func (p *Parser) parseDrop() ast.Statement {
	start := p.expectKeyword("DROP").Pos
	temporary := p.acceptKeyword("TEMPORARY")
	system := temporary && p.acceptKeyword("SYSTEM")
	t := p.tok()
	if !system {
		switch {
		case t.Is("TABLE"):
			p.next()
			ifExists := p.ifExists()
			return &ast.DropTable{Pos: start, Temporary: temporary, IfExists: ifExists, Name: p.compoundIdent()}
		case t.Is("VIEW"):
			p.next()
			ifExists := p.ifExists()
			return &ast.DropView{Pos: start, Temporary: temporary, IfExists: ifExists, Name: p.compoundIdent()}
		case !temporary && t.Is("CATALOG"):
			p.next()
			ifExists := p.ifExists()
			return &ast.DropCatalog{Pos: start, IfExists: ifExists, Name: p.simpleIdent()}
		case !temporary && t.Is("DATABASE"):
			p.next()
			return p.parseDropDatabase(start)
		}
	}
	if !system && p.acceptKeyword("MODEL") {
		ifExists := p.ifExists()
		return &ast.DropModel{Pos: start, Temporary: temporary, IfExists: ifExists, Name: p.compoundIdent()}
	}
	if !temporary && p.tok().Is("MATERIALIZED") {
		p.next()
		p.expectKeyword("TABLE")
		ifExists := p.ifExists()
		return &ast.MaterializedTable{Pos: start, Verb: "DROP", IfExists: ifExists, Name: p.compoundIdent()}
	}
	if p.acceptKeyword("FUNCTION") {
		ifExists := p.ifExists()
		return &ast.DropFunction{Pos: start, Temporary: temporary, System: system, IfExists: ifExists, Name: p.compoundIdent()}
	}
	if !system {
		p.expect(`"TABLE"`)
		p.expect(`"VIEW"`)
		if !temporary {
			p.expect(`"CATALOG"`)
			p.expect(`"DATABASE"`)
		}
	}
	p.fail()
	return nil
}

// parseAlter dispatches ALTER on the object kind.
func (p *Parser) parseAlter() ast.Statement {
	start := p.expectKeyword("ALTER").Pos
	switch {
	case p.acceptKeyword("CATALOG"):
		return p.parseAlterCatalog(start)
	case p.acceptKeyword("DATABASE"):
		name := p.compoundIdent()
		p.expectKeyword("SET")
		return &ast.AlterDatabase{Pos: start, Name: name, Options: p.parseProperties()}
	case p.acceptKeyword("TABLE"):
		return p.parseAlterTable(start)
	case p.acceptKeyword("VIEW"):
		return p.parseAlterView(start)
	case p.acceptKeyword("MODEL"):
		return p.parseAlterModel(start)
	case p.tok().Is("MATERIALIZED"):
		p.next()
		p.expectKeyword("TABLE")
		m := &ast.MaterializedTable{Pos: start, Verb: "ALTER", Name: p.compoundIdent()}
		p.restOfStatement()
		return m
	}
	temporary := p.acceptKeyword("TEMPORARY")
	system := temporary && p.acceptKeyword("SYSTEM")
	p.expectKeyword("FUNCTION")
	return p.parseAlterFunction(start, temporary, system)
}

// parseCreateCatalog reads the rest of CREATE CATALOG [IF NOT EXISTS] name
// [COMMENT 'c'] [WITH (...)].
func (p *Parser) parseCreateCatalog(start ast.Pos) ast.Statement {
	s := &ast.CreateCatalog{Pos: start, IfNotExists: p.ifNotExists(), Name: p.simpleIdent()}
	// Flink lists what may follow the name in token order, WITH before
	// COMMENT (catalog_database.q #3).
	p.expect(`"WITH"`)
	s.Comment = p.optComment()
	if p.acceptKeyword("WITH") {
		s.Options = p.parseProperties()
	}
	return s
}

// parseAlterCatalog reads the rest of ALTER CATALOG name SET (...) | RESET
// (...) | COMMENT 'c'.
func (p *Parser) parseAlterCatalog(start ast.Pos) ast.Statement {
	s := &ast.AlterCatalog{Pos: start, Name: p.simpleIdent()}
	switch {
	case p.acceptKeyword("SET"):
		s.Action = ast.AlterCatalogSet
		s.Options = p.parseProperties()
	case p.acceptKeyword("RESET"):
		s.Action = ast.AlterCatalogReset
		s.ResetKeys = p.parseKeyList()
	case p.acceptKeyword("COMMENT"):
		s.Action = ast.AlterCatalogComment
		s.Comment = p.stringLiteral()
	default:
		p.fail()
	}
	return s
}

// parseUse reads USE CATALOG c, USE MODULES a, b or USE [catalog.]db.
func (p *Parser) parseUse() ast.Statement {
	start := p.expectKeyword("USE").Pos
	t := p.tok()
	// CATALOG and MODULES are non-reserved: "USE catalog" uses a database
	// named catalog.
	if t.Is("CATALOG") && p.peek(1).Kind != EOF && !p.peek(1).IsOp(";") && !p.peek(1).IsOp(".") {
		p.next()
		return &ast.UseCatalog{Pos: start, Name: p.simpleIdent()}
	}
	if t.Is("MODULES") && p.peek(1).Kind != EOF && !p.peek(1).IsOp(";") && !p.peek(1).IsOp(".") {
		p.next()
		s := &ast.UseModules{Pos: start}
		for {
			s.Names = append(s.Names, p.simpleIdent())
			if !p.acceptOp(",") {
				return s
			}
		}
	}
	return &ast.UseDatabase{Pos: start, Name: p.compoundIdent()}
}

// parseAlterModel reads the rest of ALTER MODEL [IF EXISTS] name SET
// (...) | RESET (...) | RENAME TO name.
func (p *Parser) parseAlterModel(start ast.Pos) ast.Statement {
	m := &ast.AlterModel{Pos: start, IfExists: p.ifExists(), Name: p.compoundIdent()}
	switch {
	case p.acceptKeyword("RENAME"):
		p.expectKeyword("TO")
		m.Action = ast.AlterModelRename
		m.NewName = p.compoundIdent()
	case p.acceptKeyword("RESET"):
		m.Action = ast.AlterModelReset
		m.ResetKeys = p.parseKeyList()
	case p.acceptKeyword("SET"):
		m.Action = ast.AlterModelSet
		m.Options = p.parseProperties()
	default:
		p.fail()
	}
	return m
}

// parseModelCall reads ML_PREDICT(args) or ML_EVALUATE(args) [[AS]
// alias] in FROM; an argument is TABLE name, MODEL name or an expression.
func (p *Parser) parseModelCall() ast.TableExpr {
	t := p.next()
	m := &ast.ModelCall{Pos: t.Pos, Func: strings.ToUpper(t.Text)}
	p.expectOp("(")
	for {
		switch {
		case p.tok().Is("TABLE") && !p.peek(1).IsOp("("):
			p.next()
			m.Args = append(m.Args, &ast.ModelArg{Table: p.compoundIdent()})
		case p.tok().Is("MODEL"):
			p.next()
			m.Args = append(m.Args, &ast.ModelArg{Model: p.compoundIdent()})
		default:
			m.Args = append(m.Args, &ast.ModelArg{Expr: p.parseExpr()})
		}
		if p.acceptOp(")") {
			break
		}
		p.expectOp(",")
	}
	m.Alias = p.parseAlias()
	return m
}

// parseCreateModel reads the rest of CREATE [TEMPORARY] MODEL [IF NOT
// EXISTS] name [INPUT (columns)] [OUTPUT (columns)] [COMMENT 'c'] [WITH
// (options)].
func (p *Parser) parseCreateModel(start ast.Pos, temporary bool) ast.Statement {
	m := &ast.CreateModel{Pos: start, Temporary: temporary}
	m.IfNotExists = p.ifNotExists()
	m.Name = p.compoundIdent()
	columns := func() []*ast.ColumnDef {
		t := &ast.CreateTable{}
		p.expectOp("(")
		for {
			p.parseTableElement(t)
			if p.acceptOp(")") {
				break
			}
			p.expectOp(",")
		}
		return t.Columns
	}
	if p.acceptKeyword("INPUT") {
		m.Input = columns()
	}
	if p.acceptKeyword("OUTPUT") {
		m.Output = columns()
	}
	m.Comment = p.optComment()
	if p.acceptKeyword("WITH") {
		m.Options = p.parseProperties()
	}
	return m
}

// parseMaterializedTable reads the rest of a CREATE MATERIALIZED TABLE:
// its WITH options are kept, the rest (columns, FRESHNESS, REFRESH_MODE,
// the query) is read over.
func (p *Parser) parseMaterializedTable(start ast.Pos, verb string) ast.Statement {
	m := &ast.MaterializedTable{Pos: start, Verb: verb, Name: p.compoundIdent()}
	depth := 0
	for p.tok().Kind != EOF && !p.isOp(";") {
		switch {
		case p.isOp("("):
			depth++
		case p.isOp(")"):
			depth--
		case depth == 0 && p.tok().Is("WITH") && p.peek(1).IsOp("(") && m.Options == nil:
			p.next()
			m.Options = p.parseProperties()
			continue
		case depth == 0 && p.tok().Is("AS"):
			p.restOfStatement()
			return m
		}
		p.next()
	}
	return m
}

// restOfStatement reads over the tokens up to the statement's end and
// returns them as written, joined by blanks.
func (p *Parser) restOfStatement() string {
	var words []string
	for p.tok().Kind != EOF && !p.isOp(";") {
		words = append(words, p.tok().Text)
		p.next()
	}
	return strings.Join(words, " ")
}
