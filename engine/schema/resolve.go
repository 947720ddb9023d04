package schema

import (
	"strings"

	"eddy/catalogs"
	"eddy/engine/ast"
	"eddy/engine/functions"
	"eddy/engine/parser"
	"eddy/engine/types"
	"eddy/engine/validate"
)

// Resolver resolves table schemas; Funcs types the function calls of
// computed columns and watermarks.
type Resolver struct {
	Funcs *functions.Registry
}

// Column is a column as DESCRIBE shows it: its full type (time attribute
// included) and the key, extras and watermark cells.
type Column struct {
	Name      string
	Type      *types.Type
	Key       string
	Extras    string
	Watermark string
	Comment   string
}

// Columns derives the columns of a table or view as Flink's ResolvedSchema
// shows them: the rowtime column of a watermark is marked *ROWTIME*,
// primary-key columns are NOT NULL, computed columns carry the type of
// their expression. Other kinds of table have no columns.
func (r Resolver) Columns(t catalogs.BaseTable) ([]Column, error) {
	switch t := t.(type) {
	case *catalogs.CatalogView:
		out := make([]Column, len(t.Columns))
		for i, c := range t.Columns {
			out[i] = Column{Name: c.Name, Type: c.Type, Comment: c.Comment}
		}
		return out, nil
	case *catalogs.CatalogTable:
		sch := t.Schema
		var key string
		pk := map[string]bool{}
		if sch.PrimaryKey != nil {
			key = "PRI(" + strings.Join(sch.PrimaryKey.Columns, ", ") + ")"
			for _, c := range sch.PrimaryKey.Columns {
				pk[c] = true
			}
		}
		wm := map[string]string{}
		for _, w := range sch.Watermarks {
			wm[w.RowtimeColumn] = w.Expr
		}
		out := make([]Column, len(sch.Columns))
		for i, c := range sch.Columns {
			typ, err := r.columnType(sch, c)
			if err != nil {
				return nil, err
			}
			rc := Column{Name: c.Name, Type: typ, Comment: c.Comment}
			if pk[c.Name] {
				rc.Key = key
				rc.Type = rc.Type.WithNullable(false)
			}
			switch c.Kind {
			case catalogs.Computed:
				rc.Extras = "AS " + c.Expr
			case catalogs.Metadata:
				rc.Extras = MetadataExtras(c)
			}
			if expr, ok := wm[c.Name]; ok {
				rc.Watermark = expr
				rc.Type = rc.Type.WithTimeAttr(types.Rowtime)
			}
			out[i] = rc
		}
		return out, nil
	}
	return nil, nil
}

// OutputColumns returns the columns a query reads from a table: its
// resolved schema (rowtime marked, primary key NOT NULL, computed columns
// typed). It is what validate.Analyzer's TableColumns asks for.
func (r Resolver) OutputColumns(t *catalogs.CatalogTable) ([]validate.OutputColumn, error) {
	cols, err := r.Columns(t)
	if err != nil {
		return nil, err
	}
	out := make([]validate.OutputColumn, len(cols))
	for i, c := range cols {
		out[i] = validate.OutputColumn{Name: c.Name, Type: c.Type}
	}
	return out, nil
}

// scope is the scope of a table's computed columns and watermark: the
// columns by bare name, as Flink's schema resolver sees them.
func scope(cols []catalogs.Column) *validate.Scope {
	sc := validate.NewScope()
	for _, c := range cols {
		if c.Type == nil {
			continue
		}
		sc.Add(validate.Column{Name: c.Name, Type: c.Type})
	}
	return sc
}

// Computed validates a computed column's expression against the table's
// physical and metadata columns and returns its canonical text and type
// (PROCTIME() keeps its *PROCTIME* attribute). source is the statement
// text e was parsed from, for messages that quote it; "" when e was parsed
// from stored text.
func (r Resolver) Computed(cols []catalogs.Column, e ast.Expr, source string) (string, *types.Type, error) {
	var base []catalogs.Column
	for _, c := range cols {
		if c.Kind != catalogs.Computed {
			base = append(base, c)
		}
	}
	v := validate.New(r.Funcs)
	v.Source = source
	t, err := v.ComputedColumn(scope(base), e)
	if err != nil {
		return "", nil, err
	}
	return ast.String(t.Expr), t.Type, nil
}

// Watermark validates WATERMARK FOR rowtime AS e against all columns and
// returns the expression's canonical text.
func (r Resolver) Watermark(cols []catalogs.Column, rowtime string, e ast.Expr, source string) (string, error) {
	v := validate.New(r.Funcs)
	v.Source = source
	t, _, err := v.Watermark(scope(cols), rowtime, e.Position(), e)
	if err != nil {
		return "", err
	}
	return ast.String(t.Expr), nil
}

// columnType returns a column's type as the resolved schema has it: a
// computed column's type comes from its expression, so that time
// attributes, which the stored type string does not carry, are restored.
func (r Resolver) columnType(sch catalogs.Schema, c catalogs.Column) (*types.Type, error) {
	if c.Kind != catalogs.Computed {
		return c.Type, nil
	}
	e, err := parser.ParseExpr(c.Expr)
	if err != nil {
		return nil, err
	}
	_, t, err := r.Computed(sch.Columns, e, "")
	if err != nil {
		return nil, err
	}
	return t, nil
}

// MetadataExtras is the extras cell of a metadata column, as DESCRIBE and
// SHOW CREATE TABLE print it: METADATA [FROM 'key'] [VIRTUAL].
func MetadataExtras(c catalogs.Column) string {
	s := "METADATA"
	if c.MetadataKey != "" {
		s += " FROM '" + strings.ReplaceAll(c.MetadataKey, "'", "''") + "'"
	}
	if c.Virtual {
		s += " VIRTUAL"
	}
	return s
}
