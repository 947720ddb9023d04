package engine

import (
	"eddy/catalogs"
	"eddy/engine/ast"
	"eddy/engine/parser"
	"eddy/engine/types"
	"eddy/engine/validate"
)

// schemaScope is the scope of a table's computed columns and watermark:
// the columns by bare name, as Flink's schema resolver sees them.
func schemaScope(cols []catalogs.Column) *validate.Scope {
	sc := validate.NewScope()
	for _, c := range cols {
		if c.Type == nil {
			continue
		}
		sc.Add(validate.Column{Name: c.Name, Type: c.Type})
	}
	return sc
}

// typeComputed validates a computed column's expression against the
// table's physical and metadata columns and returns its canonical text and
// type (PROCTIME() keeps its *PROCTIME* attribute).
func (s *Session) typeComputed(cols []catalogs.Column, e ast.Expr, source string) (string, *types.Type, error) {
	var base []catalogs.Column
	for _, c := range cols {
		if c.Kind != catalogs.Computed {
			base = append(base, c)
		}
	}
	v := validate.New(s.funcs)
	v.Source = source
	t, err := v.ComputedColumn(schemaScope(base), e)
	if err != nil {
		return "", nil, err
	}
	return ast.String(t.Expr), t.Type, nil
}

// typeWatermark validates WATERMARK FOR rowtime AS e against all columns.
func (s *Session) typeWatermark(cols []catalogs.Column, rowtime string, e ast.Expr, source string) (string, error) {
	v := validate.New(s.funcs)
	v.Source = source
	t, _, err := v.Watermark(schemaScope(cols), rowtime, e.Position(), e)
	if err != nil {
		return "", err
	}
	return ast.String(t.Expr), nil
}

// columnType returns a column's type as the resolved schema has it: a
// computed column's type comes from its expression, so that time
// attributes, which the stored type string does not carry, are restored.
func (s *Session) columnType(sch catalogs.Schema, c catalogs.Column) (*types.Type, error) {
	if c.Kind != catalogs.Computed {
		return c.Type, nil
	}
	e, err := parser.ParseExpr(c.Expr)
	if err != nil {
		return nil, err
	}
	_, t, err := s.typeComputed(sch.Columns, e, "")
	if err != nil {
		return nil, err
	}
	return t, nil
}
