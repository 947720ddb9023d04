package ddl

import (
	"context"
	"eddy/engine/plan"
	"errors"

	"eddy/catalogs"
	"eddy/engine/ast"
	"eddy/engine/result"
	"eddy/engine/sqlerr"
	"eddy/engine/validate"
)

// viewFromQuery validates the query of view id and builds the stored view:
// the original text, the expanded text and the frozen columns, renamed by
// names when given.
func (ex *Executor) viewFromQuery(ctx context.Context, id catalogs.Identifier, q ast.Query, original string,
	names []*ast.ViewColumn, replacing bool, sql string) (*catalogs.CatalogView, error) {
	a := ex.analyzer(sql)
	var an *validate.Analyzed
	var err error
	if replacing {
		an, err = a.ViewQuery(ctx, id, q)
	} else {
		an, err = a.Query(ctx, q)
	}
	if err != nil {
		return nil, err
	}
	if ex.batch != nil && ex.batch() {
		// Flink converts the view's query to a plan of the session's
		// mode, which refuses an unbounded table in batch mode.
		if err := unboundedScan(an.Plan); err != nil {
			return nil, err
		}
	}
	return ViewOf(an, original, names)
}

// unboundedScan is Flink's error for the first unbounded table a plan
// reads (nil when every table it reads ends, or without a plan).
func unboundedScan(n plan.Node) error {
	if n == nil {
		return nil
	}
	var err error
	plan.WalkOnce(n, func(x plan.Node) {
		if sc, ok := x.(*plan.Scan); ok && err == nil && !sc.Bounded {
			err = sqlerr.Errorf(sqlerr.ValidationException,
				"Querying an unbounded table '%s' in batch mode is not allowed. The table source is unbounded.",
				sc.Table.Catalog+"."+sc.Table.Database+"."+sc.Table.Object)
		}
	})
	return err
}

// ViewOf freezes an analysed query into a view definition: the original
// query text, the expanded text, and the columns, renamed by names when
// given. Duplicate column names and a names list of the wrong length are
// Flink's ValidationExceptions.
func ViewOf(an *validate.Analyzed, original string, names []*ast.ViewColumn) (*catalogs.CatalogView, error) {
	v := &catalogs.CatalogView{OriginalQuery: original, ExpandedQuery: an.ExpandedText()}
	var list []string
	for _, n := range names {
		list = append(list, n.Name.Name)
	}
	// Flink's SqlNodeConvertUtils.validateDuplicatedColumnNames.
	if name, pos, dup := an.DuplicateColumn(list); dup {
		if !pos.IsValid() {
			return nil, sqlerr.Errorf(sqlerr.ValidationException, "SQL validation failed. Column `%s` has been specified.", name)
		}
		return nil, sqlerr.Errorf(sqlerr.ValidationException, "SQL validation failed. A column with the same name `%s` has been defined at line %d, column %d.",
			name, pos.Line, pos.Col)
	}
	if names != nil && len(names) != len(an.Columns) {
		def := make([]string, len(names))
		for i, n := range names {
			def[i] = n.Name.Name
		}
		in := make([]string, len(an.Columns))
		for i, c := range an.Columns {
			in[i] = c.Name
		}
		return nil, sqlerr.Errorf(sqlerr.ValidationException, "VIEW definition and input fields not match:\n\tDef fields: %s.\n\tInput fields: %s.",
			javaList(def), javaList(in))
	}
	for i, c := range an.Columns {
		col := catalogs.Column{Name: c.Name, Kind: catalogs.Physical, Type: c.Type}
		if names != nil {
			col.Name = names[i].Name.Name
			if names[i].Comment != nil {
				col.Comment = *names[i].Comment
			}
		}
		v.Columns = append(v.Columns, col)
	}
	return v, nil
}

// javaList prints names as Java prints a List: [a, b].
func javaList(names []string) string {
	out := "["
	for i, n := range names {
		if i > 0 {
			out += ", "
		}
		out += n
	}
	return out + "]"
}

// execCreateView is CREATE [OR REPLACE] [TEMPORARY] VIEW [IF NOT EXISTS].
// The query is validated first (Flink converts the statement before it
// touches the catalog); names resolve against the current catalog and
// database now, and the expanded text keeps them fully qualified.
func (ex *Executor) execCreateView(ctx context.Context, st *ast.CreateView, sql string) (*result.Result, error) {
	if st.OrReplace && st.IfNotExists {
		return nil, sqlerr.Errorf(sqlerr.ValidationException, "CREATE OR REPLACE VIEW cannot be combined with IF NOT EXISTS.")
	}
	id, err := ex.cat.Qualify(st.Name.Names()...)
	if err != nil {
		return nil, err
	}
	v, err := ex.viewFromQuery(ctx, id, st.Query, st.QuerySpan.Text(sql), st.Columns, st.OrReplace, sql)
	if err != nil {
		return nil, err
	}
	if st.Comment != nil {
		v.Comment = *st.Comment
	}
	switch {
	case st.OrReplace:
		return success(ex.cat.ReplaceView(ctx, id, v, st.Temporary))
	case st.Temporary:
		return success(ex.cat.CreateTemporaryTable(ctx, id, v, st.IfNotExists))
	}
	return success(ex.cat.CreateTable(ctx, id, v, st.IfNotExists))
}

// execAlterViewAs is ALTER VIEW name AS query: the query is validated
// (a view that would read itself is rejected and the old one kept), and
// the columns and types are frozen again; the comment stays.
func (ex *Executor) execAlterViewAs(ctx context.Context, st *ast.AlterViewAs, sql string) (*result.Result, error) {
	id, err := ex.cat.Qualify(st.Name.Names()...)
	if err != nil {
		return nil, err
	}
	if err := ex.viewDDLAllowed(ctx, id); err != nil {
		return nil, err
	}
	old, err := ex.viewToAlter(ctx, id)
	if err != nil {
		return nil, err
	}
	v, err := ex.viewFromQuery(ctx, id, st.Query, st.QuerySpan.Text(sql), nil, true, sql)
	if err != nil {
		return nil, err
	}
	v.Comment, v.Options = old.Comment, old.Options
	return success(ex.cat.AlterView(ctx, id, v))
}

// viewToAlter returns the permanent view ALTER VIEW changes, with
// Flink's errors for a missing or temporary view and for a table
// (SqlNodeConvertUtils.validateAlterView).
func (ex *Executor) viewToAlter(ctx context.Context, id catalogs.Identifier) (*catalogs.CatalogView, error) {
	e, err := ex.cat.GetTable(ctx, id)
	if errors.Is(err, catalogs.ErrTableNotExist) || err == nil && e.Temporary {
		return nil, sqlerr.Errorf(sqlerr.ValidationException, "View %s doesn't exist or is a temporary view.", id)
	}
	if err != nil {
		return nil, err
	}
	v, ok := e.Table.(*catalogs.CatalogView)
	if !ok {
		return nil, sqlerr.Errorf(sqlerr.ValidationException, "ALTER VIEW for a table is not allowed")
	}
	return v, nil
}

func (ex *Executor) execDropView(ctx context.Context, st *ast.DropView) (*result.Result, error) {
	id, err := ex.cat.Qualify(st.Name.Names()...)
	if err != nil {
		return nil, err
	}
	if !st.Temporary {
		if err := ex.viewDDLAllowed(ctx, id); err != nil {
			return nil, err
		}
	}
	if st.Temporary {
		return success(ex.cat.DropTemporaryView(id, st.IfExists))
	}
	return success(ex.cat.DropView(ctx, id, st.IfExists))
}

// execAlterViewRename is ALTER VIEW name RENAME TO new_name: within the
// catalog; a new name in another database moves the view there.
func (ex *Executor) execAlterViewRename(ctx context.Context, st *ast.AlterViewRename) (*result.Result, error) {
	from, err := ex.cat.Qualify(st.Name.Names()...)
	if err != nil {
		return nil, err
	}
	to, err := ex.cat.Qualify(st.NewName.Names()...)
	if err != nil {
		return nil, err
	}
	if err := ex.viewDDLAllowed(ctx, from); err != nil {
		return nil, err
	}
	if _, err := ex.viewToAlter(ctx, from); err != nil {
		return nil, err
	}
	return success(ex.cat.RenameView(ctx, from, to))
}

// viewDDLAllowed refuses view DDL in a catalog whose type declares no view
// support, before anything else is looked at (issue 6 rule 9): the
// statement fails the same way whether or not the view exists.
func (ex *Executor) viewDDLAllowed(ctx context.Context, id catalogs.Identifier) error {
	c, err := ex.cat.Catalog(ctx, id.Catalog)
	if err != nil {
		return nil // the catalog call that follows reports it
	}
	vs, ok := c.(catalogs.ViewSupport)
	if !ok || vs.SupportsViews() {
		return nil
	}
	if vr, ok := c.(catalogs.ViewRefusal); ok {
		return sqlerr.Errorf(sqlerr.ValidationException, "%s", vr.ViewDDLRefusal(id.Catalog))
	}
	kind := ""
	if info, err := ex.cat.DescribeCatalog(ctx, id.Catalog); err == nil {
		kind = info.Descriptor.Type()
	}
	if t, ok := c.(catalogs.Typed); ok && kind == "" {
		kind = t.Type()
	}
	return sqlerr.Errorf(sqlerr.ValidationException, "View DDL is not supported on %s catalog '%s'", kind, id.Catalog)
}
