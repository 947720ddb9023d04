package validate

import (
	"context"
	"strings"

	"eddy/catalogs"
	"eddy/engine/ast"
	"eddy/engine/plan"
	"eddy/engine/types"
)

// Error kinds of INSERT binding.
var (
	// ErrReadOnlyView is an INSERT into a view: views are read-only.
	ErrReadOnlyView = &Kind{"view is read-only", classFlink}
	// ErrInsertColumns is an INSERT whose query does not fit the target's
	// columns (count, unknown or non-nullable columns, partition values).
	ErrInsertColumns = &Kind{"query does not fit the target", classFlink}
	// ErrInsertNoDefault: an INSERT leaves a NOT NULL column unfilled.
	ErrInsertNoDefault = &Kind{"column without a default", classCalcite}
	// ErrUnplanned is a query that validated without a plan and without
	// saying why.
	ErrUnplanned = &Kind{"unsupported query", "TableException"}
)

// InsertTarget resolves the object an INSERT writes to. A missing object
// is the catalog's error (TableNotExistException, as the engine has always
// answered it); a view is ErrReadOnlyView.
func (a *Analyzer) InsertTarget(ctx context.Context, name *ast.ObjectName) (catalogs.TableEntry, error) {
	id, err := a.Catalogs.Qualify(name.Names()...)
	if err != nil {
		return catalogs.TableEntry{}, err
	}
	e, err := a.Catalogs.GetTable(ctx, id)
	if err != nil {
		return catalogs.TableEntry{}, err
	}
	e.ID = id
	if _, ok := e.Table.(*catalogs.CatalogTable); !ok {
		return catalogs.TableEntry{}, errorf(name.Position(), ErrReadOnlyView,
			"View '%s' cannot be written: it is a view, not a table.", id)
	}
	return e, nil
}

// PlanQuery validates a query and returns its logical plan.
func (a *Analyzer) PlanQuery(ctx context.Context, q ast.Query) (plan.Node, error) {
	return a.planQuery(ctx, q, false)
}

// planQuery is PlanQuery; insert: q is the source of an INSERT.
func (a *Analyzer) planQuery(ctx context.Context, q ast.Query, insert bool) (plan.Node, error) {
	s := &state{a: a, ctx: ctx, root: q, planOnly: true, insert: insert}
	an, err := s.query(q, nil)
	if err != nil {
		return nil, err
	}
	if an.Plan == nil {
		if an.PlanErr != nil {
			return nil, an.PlanErr
		}
		return nil, &Error{Kind: ErrUnplanned, Msg: "Unsupported query: the local engine of eddy cannot plan it yet."}
	}
	return an.Plan, nil
}

// Insert binds an INSERT: its target (InsertTarget) and the catalog that
// keeps it, its query, and the mapping of the query's columns onto the
// target's physical columns (BindSink). The sink carries everything the
// runtime needs of the target: nothing is looked up again by name.
func (a *Analyzer) Insert(ctx context.Context, ins *ast.Insert) (*plan.Sink, error) {
	tg, err := a.target(ctx, ins.Table)
	if err != nil {
		return nil, err
	}
	src, err := a.planQuery(ctx, ins.Source, true)
	if err != nil {
		return nil, err
	}
	return tg.bind(ins, src)
}

// target resolves an INSERT's target and its catalog (nil for a
// temporary table), from a.Targets when it holds the name.
func (a *Analyzer) target(ctx context.Context, name *ast.ObjectName) (*target, error) {
	var id catalogs.Identifier
	if a.Targets != nil {
		var err error
		if id, err = a.Catalogs.Qualify(name.Names()...); err != nil {
			return nil, err
		}
		if tg, ok := a.Targets.m[id]; ok {
			return tg, nil
		}
	}
	entry, err := a.InsertTarget(ctx, name)
	if err != nil {
		return nil, err
	}
	var cat catalogs.Catalog
	if !entry.Temporary {
		if cat, err = a.Catalogs.Catalog(ctx, entry.ID.Catalog); err != nil {
			return nil, err
		}
	}
	tg := newTarget(entry, cat)
	if a.Targets != nil {
		a.Targets.m[id] = tg
	}
	return tg, nil
}

// Targets keeps bound INSERT targets by their qualified name: the
// catalog's entry, the catalog keeping the table, its physical columns
// and the last mapping of a query's columns onto them (with its casts).
// It is valid only while nothing can change what a name resolves to or
// the tables it names (no DDL, no USE, no change of the store by another
// writer): a write group of the session keeps one for as long as its
// store transaction is open, which every other statement ends first.
type Targets struct {
	m map[catalogs.Identifier]*target
}

// NewTargets returns an empty set of bound targets.
func NewTargets() *Targets { return &Targets{m: map[catalogs.Identifier]*target{}} }

// target is a bound INSERT target (BindSink's work that does not depend
// on the query).
type target struct {
	entry catalogs.TableEntry
	tbl   *catalogs.CatalogTable
	cat   catalogs.Catalog
	phys  plan.Schema
	// meta are the metadata keys of the last len(meta) columns of phys:
	// the persisted (not VIRTUAL) metadata columns, as in Flink's sink
	// schema.
	meta  []string
	names []string
	// src and exprs are the last plain mapping (no column list, no static
	// partition): the query's columns and the projection onto phys.
	src   plan.Schema
	exprs []plan.Expr
}

func newTarget(entry catalogs.TableEntry, cat catalogs.Catalog) *target {
	tbl := entry.Table.(*catalogs.CatalogTable)
	tg := &target{entry: entry, tbl: tbl, cat: cat}
	for _, c := range tbl.Schema.Columns {
		if c.Kind == catalogs.Physical {
			tg.phys = append(tg.phys, plan.Column{Name: c.Name, Type: c.Type})
		}
	}
	for _, c := range tbl.Schema.Columns {
		if c.Kind == catalogs.Metadata && !c.Virtual {
			tg.phys = append(tg.phys, plan.Column{Name: c.Name, Type: c.Type})
			key := c.MetadataKey
			if key == "" {
				key = c.Name
			}
			tg.meta = append(tg.meta, key)
		}
	}
	tg.names = tg.phys.Names()
	return tg
}

// BindSink maps the planned query src of ins onto the physical columns of
// the table of entry (kept by cat; nil for a temporary table): named
// columns by name, the rest NULL, static partition values as literals,
// casts where the types differ. CREATE TABLE AS binds its new table with
// it too.
func BindSink(entry catalogs.TableEntry, cat catalogs.Catalog, ins *ast.Insert, src plan.Node) (*plan.Sink, error) {
	return newTarget(entry, cat).bind(ins, src)
}

// bind maps the planned query src of ins onto the target's physical
// columns (BindSink).
func (tg *target) bind(ins *ast.Insert, src plan.Node) (*plan.Sink, error) {
	srcSchema := src.Schema()
	plain := ins.Columns == nil && len(ins.Partition) == 0
	if plain && tg.exprs != nil && sameColumns(tg.src, srcSchema) {
		return tg.sink(ins, src, tg.exprs, nil), nil
	}
	id, phys := tg.entry.ID, tg.phys
	static := map[string]string{}
	for _, p := range ins.Partition {
		lit, ok := p.Value.(*ast.Literal)
		if !ok {
			return nil, &Error{Kind: ErrInsertColumns, Msg: "Partition value of '" + p.Key.Name + "' must be a literal."}
		}
		static[p.Key.Name] = lit.Value
	}
	// The target columns the query fills, in order.
	var targets []int
	if ins.Columns != nil {
		for _, c := range ins.Columns {
			idx := -1
			for i, pc := range phys {
				if pc.Name == c.Name {
					idx = i
				}
			}
			if idx < 0 {
				return nil, &Error{Kind: ErrInsertColumns, Msg: "Unknown target column '" + c.Name + "'"}
			}
			targets = append(targets, idx)
		}
	} else {
		for i, pc := range phys {
			if _, ok := static[pc.Name]; !ok {
				targets = append(targets, i)
			}
		}
	}
	if len(srcSchema) != len(targets) {
		q := make([]string, len(srcSchema))
		for i, c := range srcSchema {
			q[i] = c.Name + " " + c.Type.String()
		}
		k := make([]string, len(phys))
		for i, c := range phys {
			k[i] = c.Name + " " + c.Type.String()
		}
		return nil, errorf(ast.Pos{}, ErrInsertColumns,
			"Column types of query result and sink for '%s' do not match.\nCause: Different number of columns.\n\nQuery schema: [%s]\nSink schema:  [%s]",
			id.SummaryString(), strings.Join(q, ", "), strings.Join(k, ", "))
	}
	// A query's columns must cast implicitly into the sink's, as Flink
	// checks; the columns of INSERT ... VALUES too, typed as a query's
	// VALUES is (the common type of each column's rows). A bare NULL there
	// takes its sink column's type (Flink refuses it: "Illegal use of
	// 'NULL'"), except in a NOT NULL column, where eddy refuses it as
	// Flink does.
	if err := noDefault(phys, targets, static); err != nil {
		return nil, err
	}
	if v, ok := ins.Source.(*ast.Values); ok {
		if err := nullIntoNotNull(v, phys, targets); err != nil {
			return nil, err
		}
	}
	for j, t := range targets {
		if !implicitCast(srcSchema[j].Type, phys[t].Type) {
			return nil, incompatibleSink(id, phys, srcSchema, targets, t)
		}
	}
	exprs := make([]plan.Expr, len(phys))
	for j, t := range targets {
		exprs[t] = castIfNeeded(srcSchema.Ref(j), phys[t].Type)
	}
	for i, pc := range phys {
		if exprs[i] != nil {
			continue
		}
		if v, ok := static[pc.Name]; ok {
			exprs[i] = &plan.Cast{X: &plan.Literal{Value: v, T: types.NewString().WithNullable(false)}, T: pc.Type}
			continue
		}
		exprs[i] = &plan.Literal{Value: nil, T: pc.Type}
	}
	if len(static) == 0 {
		static = nil
	}
	if plain {
		tg.src, tg.exprs = srcSchema, exprs
	}
	return tg.sink(ins, src, exprs, static), nil
}

// noDefault refuses an INSERT that leaves a NOT NULL column of phys
// unfilled (neither a target nor a static partition value): Flink's
// validator checks it before the column types.
func noDefault(phys plan.Schema, targets []int, static map[string]string) error {
	filled := make([]bool, len(phys))
	for _, t := range targets {
		filled[t] = true
	}
	for i, pc := range phys {
		if _, ok := static[pc.Name]; !ok && !filled[i] && !pc.Type.Nullable() {
			return &Error{Kind: ErrInsertNoDefault, Msg: "Column '" + pc.Name + "' has no default value and does not allow NULLs"}
		}
	}
	return nil
}

// nullIntoNotNull refuses a bare NULL of v's rows bound for a NOT NULL
// sink column (Flink's error).
func nullIntoNotNull(v *ast.Values, phys plan.Schema, targets []int) error {
	for _, r := range v.Rows {
		for j, e := range r.Elems {
			if j >= len(targets) || phys[targets[j]].Type.Nullable() {
				continue
			}
			if l, ok := e.(*ast.Literal); ok && l.Kind == ast.LitNull {
				return errorf(l.Pos, ErrNullIllegal, "Illegal use of 'NULL'")
			}
		}
	}
	return nil
}

// incompatibleSink is Flink's error for a query column that does not cast
// implicitly into its sink column bad. The query schema is shown as wide as
// the sink, as Flink's validator rewrites it: the columns the query fills
// in the sink's order, NULLs of the sink's types (named EXPR$ and their
// position) for the rest.
func incompatibleSink(id catalogs.Identifier, phys plan.Schema, src plan.Schema, targets []int, bad int) error {
	q := make([]string, len(phys))
	k := make([]string, len(phys))
	for i, c := range phys {
		q[i] = "EXPR$" + itoa(i) + ": " + c.Type.WithNullable(true).String()
		// Flink prints the sink's columns without NOT NULL.
		k[i] = c.Name + ": " + c.Type.WithNullable(true).String()
	}
	for j, t := range targets {
		name := src[j].Name
		if strings.HasPrefix(name, "EXPR$") {
			// A generated name follows the column's new position.
			name = "EXPR$" + itoa(t)
		}
		q[t] = name + ": " + src[j].Type.String()
	}
	return errorf(ast.Pos{}, ErrInsertColumns,
		"Column types of query result and sink for '%s' do not match.\nCause: Incompatible types for sink column '%s' at position %d.\n\nQuery schema: [%s]\nSink schema:  [%s]",
		id.SummaryString(), phys[bad].Name, bad, strings.Join(q, ", "), strings.Join(k, ", "))
}

// sink returns the Sink of src into the target through the projection
// exprs.
func (tg *target) sink(ins *ast.Insert, src plan.Node, exprs []plan.Expr, static map[string]string) *plan.Sink {
	id := tg.entry.ID
	var pk []string
	if tg.tbl.Schema.PrimaryKey != nil {
		pk = tg.tbl.Schema.PrimaryKey.Columns
	}
	proj := &plan.Project{Input: src, Exprs: exprs, Names: tg.names}
	return &plan.Sink{Input: proj, Table: plan.TableID{Catalog: id.Catalog, Database: id.Database, Object: id.Object},
		Options: tg.tbl.Options, Physical: tg.phys, Metadata: tg.meta, PartitionKeys: tg.tbl.PartitionKeys, Overwrite: ins.Overwrite,
		StaticPartition: static, PrimaryKey: pk, Catalog: tg.cat, Temporary: tg.entry.Temporary}
}

// sameColumns reports whether two schemas have the same names and types
// (nullability included).
func sameColumns(a, b plan.Schema) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || !a[i].Type.Equal(b[i].Type) {
			return false
		}
	}
	return true
}

// castIfNeeded casts e to t unless it already has t's type (nullability
// aside).
func castIfNeeded(e plan.Expr, t *types.Type) plan.Expr {
	from, to := *e.Type(), *t
	from.NotNull, to.NotNull = false, false
	if from.Equal(&to) {
		return e
	}
	return &plan.Cast{X: e, T: t.WithNullable(e.Type().Nullable())}
}
