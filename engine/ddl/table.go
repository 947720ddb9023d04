package ddl

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strings"

	"eddy/catalogs"
	"eddy/engine/ast"
	"eddy/engine/connectors"
	"eddy/engine/parser"
	"eddy/engine/result"
	"eddy/engine/schema"
	"eddy/engine/sqlerr"
)

// alterPrefix starts every schema-change error, as Flink's AlterSchemaConverter does.
const alterPrefix = "Failed to execute ALTER TABLE statement.\n"

func (ex *Executor) execCreateTable(ctx context.Context, st *ast.CreateTable, sql string) (*result.Result, error) {
	if st.Replace {
		return nil, unsupported(st)
	}
	id, err := ex.cat.Qualify(st.Name.Names()...)
	if err != nil {
		return nil, err
	}
	t, err := ex.tableFromDDL(ctx, st, sql)
	if err != nil {
		return nil, err
	}
	if err := connectors.ResolvePath(t.Options); err != nil {
		return nil, err
	}
	if st.Temporary {
		return success(ex.cat.CreateTemporaryTable(ctx, id, t, st.IfNotExists))
	}
	return success(ex.cat.CreateTable(ctx, id, t, st.IfNotExists))
}

// tableFromDDL converts CREATE TABLE into a catalog table, merging a LIKE
// source table as Flink's MergeTableLikeUtil does.
func (ex *Executor) tableFromDDL(ctx context.Context, st *ast.CreateTable, sql string) (*catalogs.CatalogTable, error) {
	b := &schemaBuilder{res: ex.schema(), source: sql}
	t := &catalogs.CatalogTable{Options: properties(st.Options)}
	if st.Comment != nil {
		t.Comment = *st.Comment
	}
	var like *likeMerge
	if st.Like != nil {
		var err error
		if like, err = ex.likeSource(ctx, st.Like); err != nil {
			return nil, err
		}
		like.apply(b, t)
	}
	for _, def := range st.Columns {
		if def.Kind != ast.ComputedColumn && def.Type == nil {
			// Bare column names are CREATE TABLE ... AS's way to name the
			// query's columns; a table of its own needs every type.
			return nil, sqlerr.Errorf(sqlerr.ValidationException, "Column `%s` has no data type: every column of CREATE TABLE needs one unless the table is created AS a query.", def.Name.Name)
		}
		if b.index(def.Name.Name) >= 0 {
			if like != nil {
				return nil, sqlerr.Errorf(sqlerr.ValidationException, "A column named '%s' already exists in the base table.", def.Name.Name)
			}
			return nil, sqlerr.Errorf(sqlerr.ValidationException, "A column with the same name `%s` has been defined at %s.", def.Name.Name, def.Pos)
		}
		c, err := b.column(def)
		if err != nil {
			return nil, err
		}
		b.cols = append(b.cols, c)
	}
	if len(st.Columns) == 0 && st.Like == nil && st.Query == nil {
		// A filesystem table without columns takes them from its data
		// (an eddy extension; see connectors.InferColumns).
		if err := connectors.ResolvePath(t.Options); err != nil {
			return nil, err
		}
		inferred, keys, ok, err := connectors.InferColumns(t.Options)
		if err != nil {
			return nil, err
		}
		if ok {
			for _, c := range inferred {
				b.cols = append(b.cols, catalogs.Column{Name: c.Name, Kind: catalogs.Physical, Type: c.Type})
			}
			if st.PartitionBy == nil {
				t.PartitionKeys = keys
			}
		}
	}
	var pkDefs []*ast.TableConstraint
	for _, def := range st.Columns {
		if def.PrimaryKey != nil {
			pk := *def.PrimaryKey
			pk.Columns = []*ast.Ident{def.Name}
			pkDefs = append(pkDefs, &pk)
		}
	}
	pkDefs = append(pkDefs, st.Constraints...)
	if len(pkDefs) > 1 {
		return nil, sqlerr.Errorf(sqlerr.SqlValidateException, "Duplicate primary key definition")
	}
	if len(pkDefs) == 1 {
		if b.pk != nil {
			return nil, sqlerr.Errorf(sqlerr.ValidationException, "The base table already has a primary key. You might want to specify EXCLUDING CONSTRAINTS.")
		}
		if err := b.setPrimaryKey(pkDefs[0]); err != nil {
			return nil, err
		}
	}
	if len(st.Watermarks) > 1 {
		return nil, sqlerr.Errorf(sqlerr.SqlValidateException, "Multiple WATERMARK statements is not supported yet.")
	}
	for _, w := range st.Watermarks {
		if len(b.wm) > 0 {
			return nil, sqlerr.Errorf(sqlerr.ValidationException, "There already exists a watermark spec for column '%s' in the base table. You might want to specify EXCLUDING WATERMARKS or OVERWRITING WATERMARKS.", b.wm[0].RowtimeColumn)
		}
		if err := b.setWatermark(w); err != nil {
			return nil, err
		}
	}
	if st.PartitionBy != nil {
		if len(t.PartitionKeys) > 0 {
			return nil, sqlerr.Errorf(sqlerr.ValidationException, "The base table already has partitions defined. You might want to specify EXCLUDING PARTITIONS.")
		}
		t.PartitionKeys = nil
		for _, p := range st.PartitionBy {
			t.PartitionKeys = append(t.PartitionKeys, p.Name)
		}
	}
	if st.Distribution != nil {
		d, err := distribution(st.Distribution)
		if err != nil {
			return nil, err
		}
		t.Distribution = d
	}
	t.Schema = catalogs.Schema{Columns: b.cols, PrimaryKey: b.pk, Watermarks: b.wm}
	if err := b.check(t); err != nil {
		return nil, err
	}
	return t, nil
}

func distribution(d *ast.Distribution) (*catalogs.Distribution, error) {
	out := &catalogs.Distribution{Buckets: d.Buckets}
	switch d.Kind {
	case "HASH":
		out.Kind = catalogs.DistHash
	case "RANGE":
		out.Kind = catalogs.DistRange
	}
	for _, c := range d.Columns {
		out.Keys = append(out.Keys, c.Name)
	}
	return out, nil
}

// CheckTable resolves a table defined outside SQL (the Go API's table
// descriptors) as CREATE TABLE resolves its own: computed columns and
// watermarks are validated and typed, primary-key columns become NOT NULL,
// partition and bucket keys must exist. t is changed in place.
func (ex *Executor) CheckTable(t *catalogs.CatalogTable) error {
	b := &schemaBuilder{res: ex.schema()}
	return b.check(t)
}

// schemaBuilder accumulates a table schema, validating every expression
// against the columns it may reference.
type schemaBuilder struct {
	res  schema.Resolver
	cols []catalogs.Column
	pk   *catalogs.PrimaryKey
	wm   []catalogs.WatermarkSpec

	// exprs holds the parsed expressions of columns and the watermark
	// defined by the statement (keyed by column name; the watermark under
	// its rowtime column in wmExpr), so that errors quote the text as the
	// user wrote it; older columns are re-parsed from their stored text.
	exprs  map[string]ast.Expr
	wmExpr ast.Expr
	source string
}

func (b *schemaBuilder) index(name string) int {
	return slices.IndexFunc(b.cols, func(c catalogs.Column) bool { return c.Name == name })
}

// column converts one column definition; a computed column is validated
// against the physical and metadata columns defined so far and after it,
// which is done again in check once all are known.
func (b *schemaBuilder) column(def *ast.ColumnDef) (catalogs.Column, error) {
	c := catalogs.Column{Name: def.Name.Name}
	if def.Comment != nil {
		c.Comment = *def.Comment
	}
	switch def.Kind {
	case ast.PhysicalColumn:
		c.Kind = catalogs.Physical
		c.Type = def.Type
	case ast.MetadataColumn:
		c.Kind = catalogs.Metadata
		c.Type = def.Type
		if def.MetadataKey != nil {
			c.MetadataKey = *def.MetadataKey
		}
		c.Virtual = def.Virtual
	case ast.ComputedColumn:
		c.Kind = catalogs.Computed
		c.Expr = ast.String(def.Expr)
		if b.exprs == nil {
			b.exprs = map[string]ast.Expr{}
		}
		b.exprs[c.Name] = def.Expr
	}
	return c, nil
}

func (b *schemaBuilder) setPrimaryKey(pk *ast.TableConstraint) error {
	if pk.Unique {
		return sqlerr.Errorf(sqlerr.SqlValidateException, "UNIQUE constraint is not supported yet")
	}
	if pk.Enforcement != ast.NotEnforced {
		// Flink rejects a key without NOT ENFORCED as it rejects ENFORCED.
		return sqlerr.Errorf(sqlerr.SqlValidateException, "Flink doesn't support ENFORCED mode for PRIMARY KEY constraint. ENFORCED/NOT ENFORCED controls if the constraint checks are performed on the incoming/outgoing data. Flink does not own the data therefore the only supported mode is the NOT ENFORCED mode")
	}
	out := &catalogs.PrimaryKey{}
	for _, c := range pk.Columns {
		out.Columns = append(out.Columns, c.Name)
	}
	if pk.Name != nil {
		out.Name = pk.Name.Name
	} else {
		out.Name = DefaultPKName(out.Columns)
	}
	b.pk = out
	return nil
}

func (b *schemaBuilder) setWatermark(w *ast.Watermark) error {
	if len(w.Column.Parts) != 1 {
		return sqlerr.Errorf(sqlerr.ValidationException, "Watermark strategy on nested column is not supported yet.")
	}
	b.wm = []catalogs.WatermarkSpec{{RowtimeColumn: w.Column.Parts[0].Name, Expr: ast.String(w.Expr)}}
	b.wmExpr = w.Expr
	return nil
}

// check resolves the finished schema as Flink's DefaultSchemaResolver does:
// computed columns and watermark expressions are validated and typed,
// primary-key columns exist, are physical and become NOT NULL, the rowtime
// column exists and has a timestamp type of precision 0 to 3, partition
// keys exist.
func (b *schemaBuilder) check(t *catalogs.CatalogTable) error {
	sch := &t.Schema
	if pk := sch.PrimaryKey; pk != nil {
		for _, name := range pk.Columns {
			i := slices.IndexFunc(sch.Columns, func(c catalogs.Column) bool { return c.Name == name })
			if i < 0 {
				return sqlerr.Errorf(sqlerr.ValidationException, "Invalid primary key '%s'. Column '%s' does not exist.", pk.Name, name)
			}
			c := &sch.Columns[i]
			if c.Kind != catalogs.Physical {
				return sqlerr.Errorf(sqlerr.ValidationException, "Invalid primary key '%s'. Column '%s' is not a physical column.", pk.Name, name)
			}
			c.Type = c.Type.WithNullable(false)
		}
	}
	for i := range sch.Columns {
		c := &sch.Columns[i]
		if c.Kind != catalogs.Computed {
			continue
		}
		e, source := b.exprs[c.Name], b.source
		if e == nil {
			var err error
			if e, err = parser.ParseExpr(c.Expr); err != nil {
				return err
			}
			source = ""
		}
		text, typ, err := b.res.Computed(sch.Columns, e, source)
		if err != nil {
			return err
		}
		c.Expr, c.Type = text, typ
	}
	for i, w := range sch.Watermarks {
		e, source := b.wmExpr, b.source
		if e == nil {
			var err error
			if e, err = parser.ParseExpr(w.Expr); err != nil {
				return err
			}
			source = ""
		}
		text, err := b.res.Watermark(sch.Columns, w.RowtimeColumn, e, source)
		if err != nil {
			return err
		}
		sch.Watermarks[i].Expr = text
	}
	for _, k := range t.PartitionKeys {
		if sch.Column(k) == nil {
			return sqlerr.Errorf(sqlerr.ValidationException, "Partition column '%s' not defined in the table schema. Available columns: %s", k, columnNameList(sch.Columns))
		}
	}
	if d := t.Distribution; d != nil {
		for _, k := range d.Keys {
			if sch.Column(k) == nil {
				return sqlerr.Errorf(sqlerr.ValidationException, "Invalid bucket key '%s'. A bucket key for a distribution must reference a physical column in the schema. Available columns are: %s", k, columnNameList(sch.Columns))
			}
		}
	}
	return nil
}

func columnNameList(cols []catalogs.Column) string {
	q := make([]string, len(cols))
	for i, c := range cols {
		q[i] = "'" + c.Name + "'"
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// likeMerge is the part of a LIKE source table that CREATE TABLE ... LIKE
// takes over, after applying the INCLUDING/EXCLUDING/OVERWRITING options.
type likeMerge struct {
	src        *catalogs.CatalogTable
	strategies map[string]string // feature -> INCLUDING, EXCLUDING or OVERWRITING
}

// likeSource reads the LIKE source and the merge strategies. Defaults are
// Flink's: INCLUDING ALL, OVERWRITING OPTIONS.
func (ex *Executor) likeSource(ctx context.Context, like *ast.TableLike) (*likeMerge, error) {
	id, err := ex.cat.Qualify(like.Source.Names()...)
	if err != nil {
		return nil, err
	}
	e, err := ex.cat.GetTable(ctx, id)
	if errors.Is(err, catalogs.ErrTableNotExist) {
		return nil, sqlerr.Errorf(sqlerr.ValidationException, "Source table '%s' of the LIKE clause not found in the catalog, at %s", id.SummaryString(), like.Source.Position())
	}
	if err != nil {
		return nil, err
	}
	src, ok := e.Table.(*catalogs.CatalogTable)
	if !ok {
		return nil, sqlerr.Errorf(sqlerr.ValidationException, "Source table '%s' of the LIKE clause can not be a VIEW, at %s", id.SummaryString(), like.Source.Position())
	}
	m := &likeMerge{src: src, strategies: map[string]string{
		"CONSTRAINTS": "INCLUDING", "DISTRIBUTION": "INCLUDING", "GENERATED": "INCLUDING", "METADATA": "INCLUDING",
		"OPTIONS": "OVERWRITING", "PARTITIONS": "INCLUDING", "WATERMARKS": "INCLUDING",
	}}
	for _, o := range like.Options {
		if o.Feature == "ALL" {
			for k := range m.strategies {
				m.strategies[k] = o.Strategy
			}
			continue
		}
		m.strategies[o.Feature] = o.Strategy
	}
	return m, nil
}

// apply copies what the strategies keep from the source into the builder
// and the table; the new definition's parts are added by the caller.
func (m *likeMerge) apply(b *schemaBuilder, t *catalogs.CatalogTable) {
	src := m.src.Copy()
	for _, c := range src.Schema.Columns {
		switch {
		case c.Kind == catalogs.Computed && m.strategies["GENERATED"] == "EXCLUDING":
		case c.Kind == catalogs.Metadata && m.strategies["METADATA"] == "EXCLUDING":
		default:
			b.cols = append(b.cols, c)
		}
	}
	if m.strategies["CONSTRAINTS"] != "EXCLUDING" {
		b.pk = src.Schema.PrimaryKey
	}
	if m.strategies["WATERMARKS"] != "EXCLUDING" {
		b.wm = src.Schema.Watermarks
	}
	if m.strategies["PARTITIONS"] != "EXCLUDING" {
		t.PartitionKeys = src.PartitionKeys
	}
	if m.strategies["DISTRIBUTION"] != "EXCLUDING" && t.Distribution == nil {
		t.Distribution = src.Distribution
	}
	if m.strategies["OPTIONS"] != "EXCLUDING" {
		merged := maps.Clone(src.Options)
		if merged == nil {
			merged = map[string]string{}
		}
		for k, v := range t.Options {
			merged[k] = v
		}
		t.Options = merged
	}
}

func (ex *Executor) execDropTable(ctx context.Context, st *ast.DropTable) (*result.Result, error) {
	id, err := ex.cat.Qualify(st.Name.Names()...)
	if err != nil {
		return nil, err
	}
	if st.Temporary {
		return success(ex.cat.DropTemporaryTable(id, st.IfExists))
	}
	return success(ex.cat.DropTable(ctx, id, st.IfExists))
}

func (ex *Executor) execAlterTable(ctx context.Context, st *ast.AlterTable) (*result.Result, error) {
	id, err := ex.cat.Qualify(st.Name.Names()...)
	if err != nil {
		return nil, err
	}
	if rn, ok := st.Action.(*ast.RenameTable); ok {
		to, err := renameTarget(ex.cat, id, rn.NewName.Names())
		if err != nil {
			return nil, err
		}
		return success(ex.cat.RenameTable(ctx, id, to, st.IfExists))
	}
	switch st.Action.(type) {
	case *ast.AddPartitions, *ast.DropPartitions:
		return ex.alterPartitions(ctx, st)
	}
	e, err := ex.cat.GetTable(ctx, id)
	if err != nil || e.Temporary {
		if st.IfExists && (err == nil || errors.Is(err, catalogs.ErrTableNotExist)) {
			return result.Success(), nil
		}
		if err == nil || errors.Is(err, catalogs.ErrTableNotExist) {
			return nil, sqlerr.Errorf(sqlerr.ValidationException, "Table %s doesn't exist or is a temporary table.", id)
		}
		return nil, err
	}
	old, ok := e.Table.(*catalogs.CatalogTable)
	if !ok {
		return nil, sqlerr.Errorf(sqlerr.ValidationException, "ALTER TABLE for a view is not allowed")
	}
	t := old.Copy()
	switch a := st.Action.(type) {
	case *ast.SetTableOptions:
		if t.Options == nil {
			t.Options = map[string]string{}
		}
		for k, v := range properties(a.Options) {
			t.Options[k] = v
		}
	case *ast.ResetTableOptions:
		if len(a.Keys) == 0 {
			return nil, sqlerr.Errorf(sqlerr.ValidationException, "ALTER TABLE RESET does not support empty key")
		}
		for _, k := range a.Keys {
			if k == "connector" {
				return nil, sqlerr.Errorf(sqlerr.ValidationException, "ALTER TABLE RESET does not support changing 'connector'")
			}
			delete(t.Options, k)
		}
	case *ast.AlterSchema:
		if err := ex.alterSchema(t, a); err != nil {
			return nil, err
		}
	case *ast.DropSchema:
		if err := ex.dropSchema(t, a); err != nil {
			return nil, err
		}
	case *ast.RenameColumn:
		if err := ex.renameColumn(t, a); err != nil {
			return nil, err
		}
	default:
		return nil, unsupported(st)
	}
	if err := connectors.ResolvePath(t.Options); err != nil {
		return nil, err
	}
	return success(ex.cat.AlterTable(ctx, id, t, false))
}

// alterSchema applies ALTER TABLE ADD|MODIFY (Flink's AlterSchemaConverter).
func (ex *Executor) alterSchema(t *catalogs.CatalogTable, a *ast.AlterSchema) error {
	b := &schemaBuilder{res: ex.schema(), cols: slices.Clone(t.Schema.Columns), pk: t.Schema.PrimaryKey, wm: t.Schema.Watermarks}
	seen := map[string]bool{}
	for _, item := range a.Items {
		switch it := item.(type) {
		case *ast.ColumnDef:
			name := it.Name.Name
			if seen[name] {
				return sqlerr.Errorf(sqlerr.ValidationException, "%sEncounter duplicate column `%s`.", alterPrefix, name)
			}
			seen[name] = true
			c, err := b.column(it)
			if err != nil {
				return err
			}
			at := b.index(name)
			if a.Modify {
				if at < 0 {
					return sqlerr.Errorf(sqlerr.ValidationException, "%sTry to modify a column `%s` which does not exist in the table.", alterPrefix, name)
				}
				if it.Comment == nil {
					c.Comment = b.cols[at].Comment
				}
				b.cols[at] = c
			} else {
				if at >= 0 {
					return sqlerr.Errorf(sqlerr.ValidationException, "%sColumn `%s` already exists in the table.", alterPrefix, name)
				}
				b.cols = append(b.cols, c)
				at = len(b.cols) - 1
			}
			if it.Placement != nil {
				col := b.cols[at]
				b.cols = slices.Delete(b.cols, at, at+1)
				switch {
				case it.Placement.First:
					b.cols = slices.Insert(b.cols, 0, col)
				default:
					ref := b.index(it.Placement.After.Name)
					if ref < 0 {
						return sqlerr.Errorf(sqlerr.ValidationException, "%sReferenced column `%s` by 'AFTER' does not exist in the table.", alterPrefix, it.Placement.After.Name)
					}
					b.cols = slices.Insert(b.cols, ref+1, col)
				}
			}
			if it.PrimaryKey != nil {
				pk := *it.PrimaryKey
				pk.Columns = []*ast.Ident{it.Name}
				if err := ex.alterPrimaryKey(b, &pk, a.Modify); err != nil {
					return err
				}
			}
		case *ast.TableConstraint:
			if err := ex.alterPrimaryKey(b, it, a.Modify); err != nil {
				return err
			}
		case *ast.Watermark:
			if a.Modify && len(b.wm) == 0 {
				return sqlerr.Errorf(sqlerr.ValidationException, "%sThe base table does not define any watermark. You might want to add a new one.", alterPrefix)
			}
			if !a.Modify && len(b.wm) > 0 {
				return sqlerr.Errorf(sqlerr.ValidationException, "%sThe base table has already defined the watermark strategy `%s` AS %s. You might want to drop it before adding a new one.", alterPrefix, b.wm[0].RowtimeColumn, b.wm[0].Expr)
			}
			if err := b.setWatermark(it); err != nil {
				return err
			}
		case *ast.Distribution:
			if a.Modify && t.Distribution == nil {
				return sqlerr.Errorf(sqlerr.ValidationException, "Table %s does not have a distribution to modify.", "")
			}
			d, err := distribution(it)
			if err != nil {
				return err
			}
			t.Distribution = d
		default:
			return sqlerr.Errorf(sqlerr.ValidationException, "%sUnsupported schema change %T.", alterPrefix, item)
		}
	}
	return b.finish(t)
}

func (ex *Executor) alterPrimaryKey(b *schemaBuilder, pk *ast.TableConstraint, modify bool) error {
	if modify && b.pk == nil {
		return sqlerr.Errorf(sqlerr.ValidationException, "%sThe base table does not define any primary key constraint. You might want to add a new one.", alterPrefix)
	}
	if !modify && b.pk != nil {
		return sqlerr.Errorf(sqlerr.ValidationException, "%sThe base table has already defined the primary key constraint [`%s`]. You might want to drop it before adding a new one.", alterPrefix, strings.Join(b.pk.Columns, "`, `"))
	}
	return b.setPrimaryKey(pk)
}

// finish re-resolves the altered schema; a failure is reported with the
// ALTER TABLE prefix, as Flink wraps the resolver's error.
func (b *schemaBuilder) finish(t *catalogs.CatalogTable) error {
	t.Schema = catalogs.Schema{Columns: b.cols, PrimaryKey: b.pk, Watermarks: b.wm}
	if err := b.check(t); err != nil {
		var e *sqlerr.Error
		if errors.As(err, &e) && !strings.HasPrefix(e.Message, alterPrefix) {
			return sqlerr.Errorf(e.Class, "%s%s", alterPrefix, e.Message)
		}
		return err
	}
	return nil
}

// references maps each column to the computed columns whose expression
// names it.
func references(cols []catalogs.Column) map[string][]string {
	refs := map[string][]string{}
	for _, c := range cols {
		if c.Kind != catalogs.Computed {
			continue
		}
		for _, r := range exprColumns(c.Expr) {
			refs[r] = append(refs[r], c.Name)
		}
	}
	return refs
}

// exprColumns lists the column names an expression's text refers to.
func exprColumns(text string) []string {
	e, err := parser.ParseExpr(text)
	if err != nil {
		return nil
	}
	var out []string
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Identifier); ok && len(id.Parts) > 0 {
			out = append(out, id.Parts[len(id.Parts)-1].Name)
		}
		return true
	})
	return out
}

// checkReferences is Flink's ReferencesManager.checkReferences: a column
// another part of the schema depends on cannot be dropped or renamed.
func checkReferences(t *catalogs.CatalogTable, name string, dropping map[string]bool) error {
	if t.Schema.Column(name) == nil {
		return sqlerr.Errorf(sqlerr.ValidationException, "%sThe column `%s` does not exist in the base table.", alterPrefix, name)
	}
	var users []string
	for _, u := range references(t.Schema.Columns)[name] {
		if !dropping[u] {
			users = append(users, quoteIdent(u))
		}
	}
	if len(users) > 0 {
		slices.Sort(users)
		return sqlerr.Errorf(sqlerr.ValidationException, "%sThe column %s is referenced by computed column %s.", alterPrefix, quoteIdent(name), strings.Join(users, ", "))
	}
	if slices.Contains(t.PartitionKeys, name) {
		return sqlerr.Errorf(sqlerr.ValidationException, "%sThe column `%s` is used as the partition keys.", alterPrefix, name)
	}
	for _, w := range t.Schema.Watermarks {
		if w.RowtimeColumn == name || slices.Contains(exprColumns(w.Expr), name) {
			return sqlerr.Errorf(sqlerr.ValidationException, "%sThe column `%s` is referenced by watermark expression.", alterPrefix, name)
		}
	}
	return nil
}

func (ex *Executor) dropSchema(t *catalogs.CatalogTable, a *ast.DropSchema) error {
	b := &schemaBuilder{res: ex.schema(), cols: slices.Clone(t.Schema.Columns), pk: t.Schema.PrimaryKey, wm: t.Schema.Watermarks}
	switch a.Kind {
	case ast.DropColumns:
		dropping := map[string]bool{}
		for _, c := range a.Columns {
			if len(c.Parts) != 1 {
				return sqlerr.Errorf(sqlerr.ValidationException, "%sAlter nested row type %s is not supported yet.", alterPrefix, ast.String(c))
			}
			name := c.Parts[0].Name
			if dropping[name] {
				return sqlerr.Errorf(sqlerr.ValidationException, "%sDuplicate column `%s`.", alterPrefix, name)
			}
			dropping[name] = true
		}
		for _, c := range a.Columns {
			name := c.Parts[0].Name
			if err := checkReferences(t, name, dropping); err != nil {
				return err
			}
			if b.pk != nil && slices.Contains(b.pk.Columns, name) {
				return sqlerr.Errorf(sqlerr.ValidationException, "%sThe column %s is used as the primary key.", alterPrefix, quoteIdent(name))
			}
		}
		b.cols = slices.DeleteFunc(b.cols, func(c catalogs.Column) bool { return dropping[c.Name] })
	case ast.DropPrimaryKey, ast.DropConstraint:
		if b.pk == nil {
			return sqlerr.Errorf(sqlerr.ValidationException, "%sThe base table does not define any primary key.", alterPrefix)
		}
		if a.Constraint != nil && a.Constraint.Name != b.pk.Name {
			return sqlerr.Errorf(sqlerr.ValidationException, "%sThe base table does not define a primary key constraint named '%s'. Available constraint name: ['%s'].", alterPrefix, a.Constraint.Name, b.pk.Name)
		}
		b.pk = nil
	case ast.DropWatermark:
		if len(b.wm) == 0 {
			return sqlerr.Errorf(sqlerr.ValidationException, "%sThe base table does not define any watermark strategy.", alterPrefix)
		}
		b.wm = nil
	case ast.DropDistribution:
		if t.Distribution == nil {
			return sqlerr.Errorf(sqlerr.ValidationException, "Table does not have a distribution to drop.")
		}
		t.Distribution = nil
	default:
		return sqlerr.Errorf(sqlerr.ValidationException, "%sUnsupported drop.", alterPrefix)
	}
	return b.finish(t)
}

func (ex *Executor) renameColumn(t *catalogs.CatalogTable, a *ast.RenameColumn) error {
	if len(a.Column.Parts) != 1 {
		return sqlerr.Errorf(sqlerr.ValidationException, "%sAlter nested row type %s is not supported yet.", alterPrefix, ast.String(a.Column))
	}
	oldName, newName := a.Column.Parts[0].Name, a.NewName.Name
	if err := checkReferences(t, oldName, nil); err != nil {
		return err
	}
	if t.Schema.Column(newName) != nil {
		return sqlerr.Errorf(sqlerr.ValidationException, "%sThe column `%s` already existed in table schema.", alterPrefix, newName)
	}
	b := &schemaBuilder{res: ex.schema(), cols: slices.Clone(t.Schema.Columns), pk: t.Schema.PrimaryKey, wm: t.Schema.Watermarks}
	b.cols[b.index(oldName)].Name = newName
	if b.pk != nil {
		pk := &catalogs.PrimaryKey{Name: b.pk.Name}
		for _, c := range b.pk.Columns {
			if c == oldName {
				c = newName
			}
			pk.Columns = append(pk.Columns, c)
		}
		b.pk = pk
	}
	return b.finish(t)
}

// DefaultPKName is Flink's default constraint name: PK_ and the key
// columns joined by '_' (Schema.Builder.primaryKey).
func DefaultPKName(cols []string) string { return "PK_" + strings.Join(cols, "_") }

// renameTarget qualifies the new name of ALTER TABLE from RENAME TO: a
// bare name stays in the table's own catalog and database, as Flink's
// renameTable keeps it (ALTER TABLE d1.t RENAME TO u makes d1.u whatever
// the current database); a qualified one names its database.
func renameTarget(cat *catalogs.Manager, from catalogs.Identifier, parts []string) (catalogs.Identifier, error) {
	if len(parts) == 1 {
		if _, err := cat.Qualify(parts...); err != nil {
			return catalogs.Identifier{}, err
		}
		return catalogs.NewIdentifier(from.Catalog, from.Database, parts[0]), nil
	}
	return cat.Qualify(parts...)
}
