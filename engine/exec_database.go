package engine

import (
	"context"
	"maps"
	"slices"

	"eddy/catalogs"
	"eddy/engine/ast"
)

func (s *Session) execCreateDatabase(ctx context.Context, st *ast.CreateDatabase) (*Result, error) {
	catalog, name, err := s.cat.QualifyDatabase(st.Name.Names()...)
	if err != nil {
		return nil, err
	}
	db := &catalogs.CatalogDatabase{Options: properties(st.Options)}
	if st.Comment != nil {
		db.Comment = *st.Comment
	}
	return success(s.cat.CreateDatabase(ctx, catalog, name, db, st.IfNotExists))
}

func (s *Session) execDropDatabase(ctx context.Context, st *ast.DropDatabase) (*Result, error) {
	catalog, name, err := s.cat.QualifyDatabase(st.Name.Names()...)
	if err != nil {
		return nil, err
	}
	return success(s.cat.DropDatabase(ctx, catalog, name, st.IfExists, st.Behavior == ast.DropCascade))
}

func (s *Session) execAlterDatabase(ctx context.Context, st *ast.AlterDatabase) (*Result, error) {
	catalog, name, err := s.cat.QualifyDatabase(st.Name.Names()...)
	if err != nil {
		return nil, err
	}
	old, err := s.cat.GetDatabase(ctx, catalog, name)
	if err != nil {
		return nil, err
	}
	db := old.Copy()
	if db.Options == nil {
		db.Options = map[string]string{}
	}
	for k, v := range properties(st.Options) {
		db.Options[k] = v
	}
	return success(s.cat.AlterDatabase(ctx, catalog, name, db, false))
}

func (s *Session) execUseDatabase(ctx context.Context, st *ast.UseDatabase) (*Result, error) {
	parts := st.Name.Names()
	if len(parts) == 2 {
		return success(s.cat.Use(ctx, parts[0], parts[1]))
	}
	return success(s.cat.SetCurrentDatabase(ctx, parts[0]))
}

// describeDatabase answers DESCRIBE DATABASE [EXTENDED]: name and comment,
// and with EXTENDED the database's options.
func (s *Session) describeDatabase(ctx context.Context, name *ast.ObjectName, extended bool) (*Result, error) {
	catalog, db, err := s.cat.QualifyDatabase(name.Names()...)
	if err != nil {
		return nil, err
	}
	d, err := s.cat.GetDatabase(ctx, catalog, db)
	if err != nil {
		return nil, err
	}
	rows := [][]any{{"database name", db}, {"comment", d.Comment}}
	if extended {
		for _, k := range slices.Sorted(maps.Keys(d.Options)) {
			rows = append(rows, []any{"option:" + k, maskSecret(k, d.Options[k])})
		}
	}
	return StringTable([]string{"info name", "info value"}, rows), nil
}
