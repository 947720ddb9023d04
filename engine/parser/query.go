package parser

import "eddy/engine/ast"

// parseQuery reads a query expression (WITH, SELECT, VALUES, set operations,
// ORDER BY/LIMIT/OFFSET/FETCH, parentheses).
func (p *Parser) parseQuery() ast.Query {
	p.fail()
	return nil
}
