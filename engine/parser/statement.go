package parser

import "eddy/engine/ast"

// parseStatement dispatches on the first token.
func (p *Parser) parseStatement() ast.Statement {
	p.fail()
	return nil
}
