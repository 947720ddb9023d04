package engine

import (
	"eddy/catalogs"
	"eddy/engine/ast"
	"eddy/engine/types"
)

// typeExpr validates a schema expression (computed column, watermark)
// against cols and returns its canonical text and type.
func (s *Session) typeExpr(cols []catalogs.Column, e ast.Expr) (string, *types.Type, error) {
	return "", nil, Errorf("ValidationException", "expression typing unavailable")
}

// columnType returns a column's type; computed columns are typed from
// their expression against the other columns.
func (s *Session) columnType(sch catalogs.Schema, c catalogs.Column) (*types.Type, error) {
	return c.Type, nil
}
