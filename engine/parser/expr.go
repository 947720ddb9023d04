package parser

import "eddy/engine/ast"

func (p *Parser) parseExpr() ast.Expr {
	p.fail()
	return nil
}
