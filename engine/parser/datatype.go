package parser

import "eddy/engine/types"

// parseDataType reads a data type at the current token.
func (p *Parser) parseDataType() *types.Type {
	p.fail()
	return nil
}
