package parser

import "eddy/engine/ast"

// parseIdent reads one identifier: an unquoted word that is not a reserved
// keyword, or a back-quoted name.
func (p *Parser) parseIdent() *ast.Ident {
	t := p.tok()
	switch {
	case t.Kind == QIdent:
		p.next()
		return &ast.Ident{Pos: t.Pos, Name: t.Text, Quoted: true}
	case t.Kind == Ident && !t.Reserved:
		p.next()
		return &ast.Ident{Pos: t.Pos, Name: t.Text}
	}
	for _, k := range identifierKinds {
		p.expect(k)
	}
	p.fail()
	return nil
}

// isIdent reports whether the current token can start an identifier.
func (p *Parser) isIdent() bool {
	t := p.tok()
	return t.Kind == QIdent || t.Kind == Ident && !t.Reserved
}

// parseObjectName reads a dotted name of 1 to 3 parts. Longer names are
// left to the caller's validation, as Flink's parser accepts them and its
// planner rejects them.
func (p *Parser) parseObjectName() *ast.ObjectName {
	n := &ast.ObjectName{Parts: []*ast.Ident{p.parseIdent()}}
	for p.isOp(".") && (p.peek(1).Kind == QIdent || p.peek(1).Kind == Ident) {
		p.next()
		n.Parts = append(n.Parts, p.parseIdent())
	}
	return n
}
