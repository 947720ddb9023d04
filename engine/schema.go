package engine

import (
	"strings"

	"eddy/catalogs"
	"eddy/engine/types"
)

// resolvedColumn is a column as DESCRIBE shows it: its full type (time
// attribute included) and the key, extras and watermark cells.
type resolvedColumn struct {
	Name      string
	Type      *types.Type
	Key       string
	Extras    string
	Watermark string
	Comment   string
}

// resolveColumns derives the columns of a table or view as Flink's
// ResolvedSchema shows them: the rowtime column of a watermark is marked
// *ROWTIME*, primary-key columns are NOT NULL, computed columns carry the
// type of their expression.
func (s *Session) resolveColumns(t catalogs.BaseTable) ([]resolvedColumn, error) {
	switch t := t.(type) {
	case *catalogs.CatalogView:
		out := make([]resolvedColumn, len(t.Columns))
		for i, c := range t.Columns {
			out[i] = resolvedColumn{Name: c.Name, Type: c.Type, Comment: c.Comment}
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
		out := make([]resolvedColumn, len(sch.Columns))
		for i, c := range sch.Columns {
			typ, err := s.columnType(sch, c)
			if err != nil {
				return nil, err
			}
			rc := resolvedColumn{Name: c.Name, Type: typ, Comment: c.Comment}
			if pk[c.Name] {
				rc.Key = key
				rc.Type = rc.Type.WithNullable(false)
			}
			switch c.Kind {
			case catalogs.Computed:
				rc.Extras = "AS " + c.Expr
			case catalogs.Metadata:
				rc.Extras = metadataExtras(c)
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
