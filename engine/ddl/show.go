package ddl

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"eddy/catalogs"
	"eddy/engine/ast"
	"eddy/engine/result"
	"eddy/engine/schema"
	"eddy/engine/sqlerr"
	"eddy/engine/types"
)

func (ex *Executor) execShow(ctx context.Context, st *ast.Show) (*result.Result, error) {
	like := likeFilter(st.Like)
	switch st.Kind {
	case ast.ShowCatalogs:
		names, err := ex.cat.ListCatalogs(ctx, like)
		if err != nil {
			return nil, err
		}
		return nameList("catalog name", names), nil
	case ast.ShowDatabases:
		catalog := ex.cat.CurrentCatalog()
		if st.From != nil {
			catalog = st.From.Parts[0].Name
		}
		names, err := ex.cat.ListDatabases(ctx, catalog, like)
		if err != nil {
			return nil, err
		}
		return nameList("database name", names), nil
	case ast.ShowTables, ast.ShowViews:
		catalog, database, err := ex.showNamespace(st)
		if err != nil {
			return nil, err
		}
		if st.Kind == ast.ShowViews {
			names, err := ex.cat.ListViews(ctx, catalog, database, like)
			if err != nil {
				return nil, err
			}
			return nameRows("view name", names), nil
		}
		names, err := ex.cat.ListTables(ctx, catalog, database, like)
		if err != nil {
			return nil, err
		}
		return nameRows("table name", names), nil
	case ast.ShowUserFunctions, ast.ShowFunctions:
		catalog, database, err := ex.showNamespace(st)
		if err != nil {
			return nil, err
		}
		names, err := ex.cat.ListUserFunctions(ctx, catalog, database, like)
		if err != nil {
			return nil, err
		}
		if st.Kind == ast.ShowFunctions {
			names = append(names, ex.builtinFunctionNames()...)
			names = like.Filter(names)
			slices.Sort(names)
		}
		return nameList("function name", names), nil
	case ast.ShowProcedures:
		return ex.showProcedures(ctx, st)
	case ast.ShowColumns:
		return ex.describeTable(ctx, st.From, like)
	case ast.ShowModules, ast.ShowFullModules:
		return ex.modules.list(st.Kind == ast.ShowFullModules), nil
	case ast.ShowJars:
		return nameList("jars", ex.jars), nil
	case ast.ShowPartitions:
		return ex.showPartitions(ctx, st)
	case ast.ShowModels:
		return ex.showModels(ctx, st)
	}
	return nil, unsupported(st)
}

// showNamespace resolves the FROM/IN part of SHOW TABLES, VIEWS, FUNCTIONS
// and PROCEDURES: none (the current database), db, or catalog.db.
func (ex *Executor) showNamespace(st *ast.Show) (catalog, database string, err error) {
	if st.From == nil {
		catalog, database = ex.cat.CurrentCatalog(), ex.cat.CurrentDatabase()
		if catalog == "" || database == "" {
			_, err = ex.cat.Qualify("x")
		}
		return catalog, database, err
	}
	return ex.cat.QualifyDatabase(st.From.Names()...)
}

func (ex *Executor) execShowCurrent(st *ast.ShowCurrent) (*result.Result, error) {
	if st.Database {
		return nameList("current database name", []string{ex.cat.CurrentDatabase()}), nil
	}
	return nameList("current catalog name", []string{ex.cat.CurrentCatalog()}), nil
}

func (ex *Executor) execShowCreate(ctx context.Context, st *ast.ShowCreate) (*result.Result, error) {
	switch st.Kind {
	case ast.ObjectModel:
		return ex.showCreateModel(ctx, st.Name)
	case ast.ObjectCatalog:
		return ex.showCreateCatalog(ctx, st.Name.Parts[0].Name)
	case ast.ObjectTable, ast.ObjectView:
		id, err := ex.cat.Qualify(st.Name.Names()...)
		if err != nil {
			return nil, err
		}
		e, err := ex.cat.GetTable(ctx, id)
		word := "TABLE"
		if st.Kind == ast.ObjectView {
			word = "VIEW"
		}
		if errors.Is(err, catalogs.ErrTableNotExist) {
			noun := "Table"
			if st.Kind == ast.ObjectView {
				noun = "View"
			}
			return nil, sqlerr.Errorf(sqlerr.ValidationException, "Could not execute SHOW CREATE %s. %s with identifier %s does not exist.", word, noun, id)
		}
		if err != nil {
			return nil, err
		}
		switch t := e.Table.(type) {
		case *catalogs.CatalogTable:
			if st.Kind == ast.ObjectView {
				return nil, sqlerr.Errorf(sqlerr.TableException, "SHOW CREATE VIEW is only supported for views, but %s is a table. Please use SHOW CREATE TABLE instead.", id)
			}
			for _, c := range t.Schema.Columns {
				if err := zeroLength(c.Type); err != nil {
					return nil, err
				}
			}
			return result.StringTable([]string{"result"}, [][]any{{showCreateTable(id, t, e.Temporary)}}), nil
		case *catalogs.CatalogView:
			if st.Kind == ast.ObjectTable {
				return nil, sqlerr.Errorf(sqlerr.TableException, "SHOW CREATE TABLE is only supported for tables, but %s is a view. Please use SHOW CREATE VIEW instead.", id)
			}
			return result.StringTable([]string{"result"}, [][]any{{showCreateView(id, t, e.Temporary)}}), nil
		}
	}
	return nil, unsupported(st)
}

// showCreateTable prints Flink's ShowCreateUtil.buildShowCreateTableRow layout.
// zeroLength is Flink's error for a type of the empty literal (CHAR(0),
// BINARY(0) ...) in a table's DDL text: those types have no serializable
// form.
func zeroLength(t *types.Type) error {
	if t == nil {
		return nil
	}
	switch t.Kind {
	case types.Char, types.VarChar:
		if t.Length == 0 {
			return sqlerr.Errorf(sqlerr.TableException, "Zero-length character strings have no serializable string representation.")
		}
	case types.Binary, types.VarBinary:
		if t.Length == 0 {
			return sqlerr.Errorf(sqlerr.TableException, "Zero-length binary strings have no serializable string representation.")
		}
	case types.Array, types.Multiset:
		return zeroLength(t.Elem)
	case types.Map:
		if err := zeroLength(t.Elem); err != nil {
			return err
		}
		return zeroLength(t.Val)
	case types.Row:
		for _, f := range t.Fields {
			if err := zeroLength(f.Type); err != nil {
				return err
			}
		}
	}
	return nil
}

func showCreateTable(id catalogs.Identifier, t *catalogs.CatalogTable, temporary bool) string {
	var b strings.Builder
	b.WriteString("CREATE ")
	if temporary {
		b.WriteString("TEMPORARY ")
	}
	fmt.Fprintf(&b, "TABLE %s (\n", id)
	var lines []string
	for _, c := range t.Schema.Columns {
		lines = append(lines, "  "+columnDDL(c))
	}
	for _, w := range t.Schema.Watermarks {
		lines = append(lines, fmt.Sprintf("  WATERMARK FOR %s AS %s", quoteIdent(w.RowtimeColumn), w.Expr))
	}
	if pk := t.Schema.PrimaryKey; pk != nil {
		lines = append(lines, fmt.Sprintf("  CONSTRAINT %s PRIMARY KEY (%s) NOT ENFORCED", quoteIdent(pk.Name), quoteIdents(pk.Columns)))
	}
	b.WriteString(strings.Join(lines, ",\n"))
	b.WriteString("\n)\n")
	if t.Comment != "" {
		fmt.Fprintf(&b, "COMMENT %s\n", quoteString(t.Comment))
	}
	if d := t.Distribution; d != nil {
		b.WriteString(distributionDDL(d))
		b.WriteByte('\n')
	}
	if len(t.PartitionKeys) > 0 {
		fmt.Fprintf(&b, "PARTITIONED BY (%s)\n", quoteIdents(t.PartitionKeys))
	}
	writeOptions(&b, t.Options)
	return b.String()
}

// distributionDDL prints a DISTRIBUTED clause as Flink's TableDistribution.asSerializableString does.
func distributionDDL(d *catalogs.Distribution) string {
	var b strings.Builder
	if len(d.Keys) == 0 {
		fmt.Fprintf(&b, "DISTRIBUTED INTO %d BUCKETS", d.Buckets)
		return b.String()
	}
	b.WriteString("DISTRIBUTED BY ")
	if d.Kind != catalogs.DistUnknown {
		b.WriteString(d.Kind.String())
	}
	fmt.Fprintf(&b, "(%s)", quoteIdents(d.Keys))
	if d.Buckets > 0 {
		fmt.Fprintf(&b, " INTO %d BUCKETS", d.Buckets)
	}
	return b.String()
}

// columnDDL prints one column as SHOW CREATE TABLE does (Column.asSerializableString).
func columnDDL(c catalogs.Column) string {
	var b strings.Builder
	b.WriteString(quoteIdent(c.Name))
	switch c.Kind {
	case catalogs.Computed:
		b.WriteString(" AS ")
		b.WriteString(c.Expr)
	default:
		b.WriteByte(' ')
		b.WriteString(c.Type.SerializableString())
		if c.Kind == catalogs.Metadata {
			b.WriteByte(' ')
			b.WriteString(schema.MetadataExtras(c))
		}
	}
	if c.Comment != "" {
		b.WriteString(" COMMENT ")
		b.WriteString(quoteString(c.Comment))
	}
	return b.String()
}

func quoteIdents(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = quoteIdent(n)
	}
	return strings.Join(q, ", ")
}

// showCreateView prints Flink's ShowCreateUtil.buildShowCreateViewRow layout.
func showCreateView(id catalogs.Identifier, v *catalogs.CatalogView, temporary bool) string {
	var b strings.Builder
	b.WriteString("CREATE ")
	if temporary {
		b.WriteString("TEMPORARY ")
	}
	fmt.Fprintf(&b, "VIEW %s (\n", id)
	cols := make([]string, len(v.Columns))
	for i, c := range v.Columns {
		cols[i] = "  " + quoteIdent(c.Name)
	}
	b.WriteString(strings.Join(cols, ",\n"))
	b.WriteString("\n)\n")
	if v.Comment != "" {
		fmt.Fprintf(&b, "COMMENT %s\n", quoteString(v.Comment))
	}
	fmt.Fprintf(&b, "AS %s\n", v.ExpandedQuery)
	return b.String()
}

func (ex *Executor) execDescribe(ctx context.Context, st *ast.Describe) (*result.Result, error) {
	switch st.Kind {
	case ast.ObjectCatalog:
		return ex.describeCatalog(ctx, st.Name.Parts[0].Name, st.Extended)
	case ast.ObjectTable, ast.ObjectView:
		return ex.describeTable(ctx, st.Name, nil)
	case ast.ObjectFunction:
		return ex.describeFunction(ctx, st.Name, st.Extended)
	case ast.ObjectDatabase:
		return ex.describeDatabase(ctx, st.Name, st.Extended)
	case ast.ObjectModel:
		return ex.describeModel(ctx, st.Name)
	}
	return nil, unsupported(st)
}

// describeTable answers DESCRIBE and SHOW COLUMNS (Flink's
// ShowColumnsOperation): name, type, null, key, extras, watermark, and
// comment when some column has one.
func (ex *Executor) describeTable(ctx context.Context, name *ast.ObjectName, like *catalogs.LikeFilter) (*result.Result, error) {
	id, err := ex.cat.Qualify(name.Names()...)
	if err != nil {
		return nil, err
	}
	e, err := ex.cat.GetTable(ctx, id)
	if errors.Is(err, catalogs.ErrTableNotExist) {
		return nil, sqlerr.Errorf(sqlerr.ValidationException, "Tables or views with the identifier '%s' doesn't exist.", id.SummaryString())
	}
	if err != nil {
		return nil, err
	}
	cols, err := ex.schema().Columns(e.Table)
	if err != nil {
		return nil, err
	}
	hasComment := slices.ContainsFunc(cols, func(c schema.Column) bool { return c.Comment != "" })
	header := []string{"name", "type", "null", "key", "extras", "watermark"}
	if hasComment {
		header = append(header, "comment")
	}
	batch := ex.batch != nil && ex.batch()
	var rows [][]any
	for _, c := range cols {
		if !like.Match(c.Name) {
			continue
		}
		t := c.Type
		if batch && t.TimeAttr == types.Rowtime {
			// Flink resolves a watermarked column as an event-time
			// attribute in streaming mode only.
			t = t.WithTimeAttr(types.Regular)
		}
		row := []any{c.Name, t.WithNullable(true).String(), strings.ToUpper(fmt.Sprint(t.Nullable())),
			c.Key, c.Extras, c.Watermark}
		if hasComment {
			row = append(row, c.Comment)
		}
		rows = append(rows, row)
	}
	return result.StringTable(header, rows), nil
}

// builtinFunctionNames lists the functions of the core module for SHOW
// FUNCTIONS, lower-case as Flink's CoreModule lists them.
func (ex *Executor) builtinFunctionNames() []string {
	return ex.funcs.ListedNames()
}

// nameRows is nameList for long listings (SHOW TABLES of a catalog of
// thousands of objects): the same answer, its rows sharing one slice of
// values instead of one slice each.
func nameRows(header string, names []string) *result.Result {
	vals := make([]any, len(names))
	rows := make([]result.Row, len(names))
	for i, n := range names {
		vals[i] = n
		rows[i] = result.Row{Values: vals[i : i+1 : i+1]}
	}
	return &result.Result{Kind: result.KindRows, Columns: []result.Column{{Name: header, Type: types.NewString()}},
		Rows: result.SliceRows(rows), Bounded: true}
}
