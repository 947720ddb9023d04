package parser

import "eddy/engine/ast"

// parseCreateView reads the rest of CREATE [OR REPLACE] [TEMPORARY] VIEW
// [IF NOT EXISTS] name [(col [COMMENT 'c'], ...)] [COMMENT 'c'] AS query.
func (p *Parser) parseCreateView(start ast.Pos, orReplace, temporary bool) ast.Statement {
	s := &ast.CreateView{Pos: start, OrReplace: orReplace, Temporary: temporary}
	s.IfNotExists = p.ifNotExists()
	s.Name = p.compoundIdent()
	if p.acceptOp("(") {
		s.Columns = []*ast.ViewColumn{}
		for {
			c := &ast.ViewColumn{Pos: p.tok().Pos, Name: p.simpleIdent()}
			c.Comment = p.optComment()
			s.Columns = append(s.Columns, c)
			if p.acceptOp(")") {
				break
			}
			p.expectOp(",")
		}
	}
	s.Comment = p.optComment()
	p.expectKeyword("AS")
	s.Query, s.QuerySpan = p.querySpan()
	return s
}

// parseAlterView reads the rest of ALTER VIEW name RENAME TO new | AS query.
func (p *Parser) parseAlterView(start ast.Pos) ast.Statement {
	name := p.compoundIdent()
	if p.acceptKeyword("RENAME") {
		p.expectKeyword("TO")
		return &ast.AlterViewRename{Pos: start, Name: name, NewName: p.compoundIdent()}
	}
	p.expectKeyword("AS")
	s := &ast.AlterViewAs{Pos: start, Name: name}
	s.Query, s.QuerySpan = p.querySpan()
	return s
}
