package ddl

import (
	"context"
	"maps"
	"slices"

	"eddy/catalogs"
	"eddy/engine/ast"
	"eddy/engine/result"
)

func (ex *Executor) execCreateDatabase(ctx context.Context, st *ast.CreateDatabase) (*result.Result, error) {
	catalog, name, err := ex.cat.QualifyDatabase(st.Name.Names()...)
	if err != nil {
		return nil, err
	}
	db := &catalogs.CatalogDatabase{Options: properties(st.Options)}
	if st.Comment != nil {
		db.Comment = *st.Comment
	}
	return success(ex.cat.CreateDatabase(ctx, catalog, name, db, st.IfNotExists))
}

func (ex *Executor) execDropDatabase(ctx context.Context, st *ast.DropDatabase) (*result.Result, error) {
	catalog, name, err := ex.cat.QualifyDatabase(st.Name.Names()...)
	if err != nil {
		return nil, err
	}
	return success(ex.cat.DropDatabase(ctx, catalog, name, st.IfExists, st.Behavior == ast.DropCascade))
}

func (ex *Executor) execAlterDatabase(ctx context.Context, st *ast.AlterDatabase) (*result.Result, error) {
	catalog, name, err := ex.cat.QualifyDatabase(st.Name.Names()...)
	if err != nil {
		return nil, err
	}
	old, err := ex.cat.GetDatabase(ctx, catalog, name)
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
	return success(ex.cat.AlterDatabase(ctx, catalog, name, db, false))
}

func (ex *Executor) execUseDatabase(ctx context.Context, st *ast.UseDatabase) (*result.Result, error) {
	parts := st.Name.Names()
	if len(parts) == 2 {
		return success(ex.cat.Use(ctx, parts[0], parts[1]))
	}
	return success(ex.cat.SetCurrentDatabase(ctx, parts[0]))
}

// describeDatabase answers DESCRIBE DATABASE [EXTENDED]: name and comment,
// and with EXTENDED the database's options.
func (ex *Executor) describeDatabase(ctx context.Context, name *ast.ObjectName, extended bool) (*result.Result, error) {
	catalog, db, err := ex.cat.QualifyDatabase(name.Names()...)
	if err != nil {
		return nil, err
	}
	d, err := ex.cat.GetDatabase(ctx, catalog, db)
	if err != nil {
		return nil, err
	}
	rows := [][]any{{"database name", db}, {"comment", d.Comment}}
	if extended {
		for _, k := range slices.Sorted(maps.Keys(d.Options)) {
			rows = append(rows, []any{"option:" + k, maskSecret(k, d.Options[k])})
		}
	}
	return result.StringTable([]string{"info name", "info value"}, rows), nil
}
