package parser

import "eddy/engine/ast"

// parseIdent reads one identifier: an unquoted word that is not a reserved
// keyword, or a back-quoted name.
func (p *Parser) parseIdent() *ast.Ident {
	if t := &p.toks[p.i]; t.Kind == QIdent || t.Kind == Ident && !t.Reserved {
		id := p.newIdentAt(t)
		p.next()
		return id
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
	n := p.newObjectName()
	n.Parts[0] = p.parseIdent()
	for p.isOp(".") && (p.peek(1).Kind == QIdent || p.peek(1).Kind == Ident) {
		p.next()
		n.Parts = append(n.Parts, p.parseIdent())
	}
	return n
}

// newIdent hands out an Ident from a slab: names are the most frequent
// nodes, and one allocation per statement instead of per name keeps the
// parser fast. A slab holds as many names as the rest of the tokens can
// yield; what a statement leaves over serves the next one.
func (p *Parser) newIdent() *ast.Ident {
	if len(p.identSlab) == 0 {
		// maxIdents is 0 when the bound is unknown (a parser over tokens
		// of its own, as for a hint) or used up.
		p.identSlab = make([]ast.Ident, min(max(p.maxIdents, 4), 1024))
	}
	if p.maxIdents > 0 {
		p.maxIdents--
	}
	id := &p.identSlab[0]
	p.identSlab = p.identSlab[1:]
	return id
}

// newIdentAt hands out an Ident (see newIdent) holding the word or
// back-quoted name t. It fills the Ident in field by field, sparing the
// bulk write barrier a whole-struct copy into the heap takes while the
// collector runs.
func (p *Parser) newIdentAt(t *Token) *ast.Ident {
	id := p.newIdent()
	id.Pos = t.Pos
	id.Name = t.Text
	id.Quoted = t.Kind == QIdent
	return id
}

// objectNameAlloc is an ObjectName with room for its parts.
type objectNameAlloc struct {
	name  ast.ObjectName
	parts [3]*ast.Ident
}

// newObjectName hands out, from a slab (see newIdent), an ObjectName with
// one part (to be set) and room for two more.
func (p *Parser) newObjectName() *ast.ObjectName {
	a := p.nodes.objects.get()
	a.name.Parts = a.parts[:1]
	return &a.name
}

// newLiteral hands out a Literal from a slab (see newIdent).
func (p *Parser) newLiteral(pos ast.Pos, kind ast.LitKind, value string) *ast.Literal {
	l := p.nodes.lits.get()
	l.Pos, l.Kind, l.Value = pos, kind, value // field by field, see newIdentAt
	return l
}
