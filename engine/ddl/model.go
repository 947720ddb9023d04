package ddl

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"eddy/catalogs"
	"eddy/engine/ast"
	"eddy/engine/result"
	"eddy/engine/sqlerr"
	"eddy/engine/types"
)

// Models (Flink 2.x) are catalog objects: CREATE [TEMPORARY] MODEL keeps
// one in the catalog (or, temporary, in the session), ALTER MODEL changes
// its options or name, DROP MODEL removes it, and SHOW MODELS, DESCRIBE
// MODEL and SHOW CREATE MODEL answer as Flink 2.2 does, errors included.
// eddy's engine runs no refresh jobs for materialized tables: none ever
// exists in a session; the statements that read or drop one answer as
// Flink does when there is none, those that would create one fail with a
// message that says so.

func (ex *Executor) execCreateModel(ctx context.Context, st *ast.CreateModel) (*result.Result, error) {
	id, err := ex.cat.Qualify(st.Name.Names()...)
	if err != nil {
		return nil, err
	}
	// Flink's SqlCreateModel.validate, then SqlCreateModelConverter.
	if len(st.Options) == 0 {
		return nil, sqlerr.Errorf(sqlerr.SqlValidateException, "Model property list can not be empty.")
	}
	if len(st.Input) == 0 && len(st.Output) > 0 {
		return nil, sqlerr.Errorf(sqlerr.SqlValidateException, "Input column list can not be empty with non-empty output column list.")
	}
	if len(st.Output) == 0 && len(st.Input) > 0 {
		return nil, sqlerr.Errorf(sqlerr.SqlValidateException, "Output column list can not be empty with non-empty input column list.")
	}
	m := &catalogs.CatalogModel{Options: properties(st.Options)}
	if st.Comment != nil {
		m.Comment = *st.Comment
	}
	if m.Input, err = modelColumns(st.Input, "input"); err != nil {
		return nil, err
	}
	if m.Output, err = modelColumns(st.Output, "output"); err != nil {
		return nil, err
	}
	if st.Temporary {
		return success(ex.cat.CreateTemporaryModel(id, m, st.IfNotExists))
	}
	return success(ex.cat.CreateModel(ctx, id, m, st.IfNotExists))
}

// modelColumns converts a model's INPUT or OUTPUT columns: physical ones
// only, each name once (what decides "input" or "output" in messages).
func modelColumns(defs []*ast.ColumnDef, what string) ([]catalogs.Column, error) {
	cols := make([]catalogs.Column, 0, len(defs))
	seen := map[string]bool{}
	for _, d := range defs {
		if d.Kind != ast.PhysicalColumn {
			return nil, sqlerr.Errorf(sqlerr.ValidationException, "Column %s can only be a physical column.", modelColumnText(d))
		}
		name := d.Name.Name
		if seen[name] {
			return nil, sqlerr.Errorf(sqlerr.ValidationException, "Duplicate %s column name: '%s'.", what, name)
		}
		seen[name] = true
		c := catalogs.Column{Name: name, Kind: catalogs.Physical, Type: d.Type}
		if d.Comment != nil {
			c.Comment = *d.Comment
		}
		cols = append(cols, c)
	}
	return cols, nil
}

// modelColumnText prints a computed or metadata column as Flink's message
// quotes it (its SqlNode's text).
func modelColumnText(d *ast.ColumnDef) string {
	if d.Kind == ast.ComputedColumn {
		return quoteIdent(d.Name.Name) + " AS " + ast.String(d.Expr)
	}
	return quoteIdent(d.Name.Name) + " " + d.Type.SerializableString() + " METADATA"
}

func (ex *Executor) execDropModel(ctx context.Context, st *ast.DropModel) (*result.Result, error) {
	id, err := ex.cat.Qualify(st.Name.Names()...)
	if err != nil {
		return nil, err
	}
	if st.Temporary {
		return success(ex.cat.DropTemporaryModel(id, st.IfExists))
	}
	return success(ex.cat.DropModel(ctx, id, st.IfExists))
}

// execAlterModel follows Flink's SqlAlterModel*Converter: the model must
// exist (IF EXISTS makes a missing one a no-op) and not be temporary.
// SET merges options, RESET removes keys (a key the model lacks is no
// error), RENAME TO keeps the model in its database under the new name's
// last part, within the same catalog.
func (ex *Executor) execAlterModel(ctx context.Context, st *ast.AlterModel) (*result.Result, error) {
	id, err := ex.cat.Qualify(st.Name.Names()...)
	if err != nil {
		return nil, err
	}
	e, ok, err := ex.cat.GetModel(ctx, id)
	if err != nil {
		return nil, err
	}
	if ok && e.Temporary {
		return nil, sqlerr.Errorf(sqlerr.ValidationException, "Model %s is a temporary model.", id)
	}
	if !ok && !st.IfExists {
		return nil, sqlerr.Errorf(sqlerr.ValidationException, "Model %s doesn't exist.", id)
	}
	switch st.Action {
	case ast.AlterModelRename:
		to, err := ex.cat.Qualify(st.NewName.Names()...)
		if err != nil {
			return nil, err
		}
		if to.Catalog != id.Catalog {
			return nil, sqlerr.Errorf(sqlerr.ValidationException,
				"The catalog name of the new model name '%s' must be the same as the old model name '%s'.",
				to.SummaryString(), id.SummaryString())
		}
		if !ok {
			return success(nil)
		}
		return success(ex.cat.RenameModel(ctx, id, to.Object, st.IfExists))
	case ast.AlterModelSet:
		if len(st.Options) == 0 {
			return nil, sqlerr.Errorf(sqlerr.ValidationException, "ALTER MODEL SET does not support empty option.")
		}
		if !ok {
			return success(nil)
		}
		if e.Model.Options == nil {
			e.Model.Options = map[string]string{}
		}
		maps.Copy(e.Model.Options, properties(st.Options))
	case ast.AlterModelReset:
		if len(st.ResetKeys) == 0 {
			return nil, sqlerr.Errorf(sqlerr.ValidationException, "ALTER MODEL RESET does not support empty key.")
		}
		if !ok {
			return success(nil)
		}
		for _, k := range st.ResetKeys {
			delete(e.Model.Options, k)
		}
	default:
		return nil, unsupported(st)
	}
	return success(ex.cat.AlterModel(ctx, id, e.Model, st.IfExists))
}

// describeModel answers DESCRIBE MODEL (Flink's DescribeModelOperation):
// the input columns, then the output columns, with name, type, null, is
// input, and comment when some column has one.
func (ex *Executor) describeModel(ctx context.Context, name *ast.ObjectName) (*result.Result, error) {
	id, err := ex.cat.Qualify(name.Names()...)
	if err != nil {
		return nil, err
	}
	e, ok, err := ex.cat.GetModel(ctx, id)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, sqlerr.Errorf(sqlerr.ValidationException, "Model with the identifier '%s' doesn't exist.", id.SummaryString())
	}
	m := e.Model
	hasComment := slices.ContainsFunc(m.Input, hasColumnComment) || slices.ContainsFunc(m.Output, hasColumnComment)
	cols := []result.Column{{Name: "name", Type: types.NewString()}, {Name: "type", Type: types.NewString()},
		{Name: "null", Type: types.New(types.Boolean)}, {Name: "is input", Type: types.New(types.Boolean)}}
	if hasComment {
		cols = append(cols, result.Column{Name: "comment", Type: types.NewString()})
	}
	var rows []result.Row
	add := func(c catalogs.Column, input bool) {
		vals := []any{c.Name, c.Type.WithNullable(true).String(), c.Type.Nullable(), input}
		if hasComment {
			var comment any
			if c.Comment != "" {
				comment = c.Comment
			}
			vals = append(vals, comment)
		}
		rows = append(rows, result.Row{Values: vals})
	}
	for _, c := range m.Input {
		add(c, true)
	}
	for _, c := range m.Output {
		add(c, false)
	}
	return &result.Result{Kind: result.KindRows, Columns: cols, Rows: result.SliceRows(rows), Bounded: true}, nil
}

func hasColumnComment(c catalogs.Column) bool { return c.Comment != "" }

// showCreateModel prints Flink's ShowCreateUtil.buildShowCreateModelRow
// layout.
func (ex *Executor) showCreateModel(ctx context.Context, name *ast.ObjectName) (*result.Result, error) {
	id, err := ex.cat.Qualify(name.Names()...)
	if err != nil {
		return nil, err
	}
	e, ok, err := ex.cat.GetModel(ctx, id)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, sqlerr.Errorf(sqlerr.ValidationException, "Could not execute SHOW CREATE MODEL. Model with identifier %s does not exist.", id)
	}
	var b strings.Builder
	b.WriteString("CREATE ")
	if e.Temporary {
		b.WriteString("TEMPORARY ")
	}
	fmt.Fprintf(&b, "MODEL %s\n", id)
	columns := func(word string, cols []catalogs.Column) {
		if len(cols) == 0 {
			return
		}
		parts := make([]string, len(cols))
		for i, c := range cols {
			parts[i] = columnDDL(c)
		}
		fmt.Fprintf(&b, "%s (%s)\n", word, strings.Join(parts, ", "))
	}
	columns("INPUT", e.Model.Input)
	columns("OUTPUT", e.Model.Output)
	if e.Model.Comment != "" {
		fmt.Fprintf(&b, "COMMENT %s\n", quoteString(e.Model.Comment))
	}
	writeOptions(&b, e.Model.Options)
	return result.StringTable([]string{"result"}, [][]any{{b.String()}}), nil
}

// showModels answers SHOW MODELS [FROM | IN [catalog.]db] [[NOT] LIKE]:
// the catalog's models of the database (temporary ones are not listed, as
// in Flink).
func (ex *Executor) showModels(ctx context.Context, st *ast.Show) (*result.Result, error) {
	if st.From != nil && len(st.From.Parts) > 2 {
		return nil, sqlerr.Errorf(sqlerr.ValidationException,
			"SHOW MODELS from/in identifier [ %s ] format error, it should be [catalog_name.]database_name.", strings.Join(st.From.Names(), "."))
	}
	catalog, database, err := ex.showNamespace(st)
	if err != nil {
		return nil, err
	}
	names, err := ex.cat.ListModels(ctx, catalog, database, likeFilter(st.Like))
	if err != nil {
		return nil, err
	}
	return nameList("model name", names), nil
}

func (ex *Executor) execMaterializedTable(ctx context.Context, st *ast.MaterializedTable) (*result.Result, error) {
	id, err := ex.cat.Qualify(st.Name.Names()...)
	if err != nil {
		return nil, err
	}
	switch st.Verb {
	case "CREATE":
		connector := false
		for _, o := range st.Options {
			connector = connector || o.Key == "connector"
		}
		if !connector {
			return nil, sqlerr.Errorf(sqlerr.ValidationException, "Table options do not contain an option key 'connector' for discovering a connector.")
		}
		return nil, sqlerr.Errorf(sqlerr.TableException,
			"Materialized table %s cannot be created: the local engine of eddy runs no refresh jobs. Run materialized-table statements on a Flink cluster with eddy --gateway URL.", id)
	case "DROP":
		// Only a catalog's table can be a materialized table: a temporary
		// one of the name counts as none.
		e, err := ex.cat.GetTable(ctx, id)
		if err != nil && !errors.Is(err, catalogs.ErrTableNotExist) {
			return nil, err
		}
		if err == nil && !e.Temporary {
			return nil, sqlerr.Errorf(sqlerr.ValidationException, "Table %s is not a materialized table, does not support materialized table related operation.", id)
		}
		if st.IfExists {
			return success(nil)
		}
		return nil, sqlerr.Errorf(sqlerr.ValidationException, "Materialized table with identifier %s does not exist.", id)
	}
	// ALTER MATERIALIZED TABLE.
	if _, err := ex.cat.GetTable(ctx, id); err == nil {
		return nil, sqlerr.Errorf(sqlerr.ValidationException, "Table %s is not a materialized table, does not support materialized table related operation.", id)
	} else if !errors.Is(err, catalogs.ErrTableNotExist) {
		return nil, err
	}
	names, err := ex.cat.ListCatalogs(ctx, nil)
	if err != nil {
		return nil, err
	}
	slices.Sort(names)
	return nil, sqlerr.Errorf(sqlerr.ValidationException,
		"Cannot find table '%s' in any of the catalogs [%s], nor as a temporary table.", id, strings.Join(names, ", "))
}
