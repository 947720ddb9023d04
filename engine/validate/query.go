package validate

import (
	"context"
	"strconv"
	"strings"

	"eddy/catalogs"
	"eddy/engine/ast"
	"eddy/engine/functions"
	"eddy/engine/plan"
	"eddy/engine/types"
)

// Analyzer validates whole queries: it resolves table and view names
// against a catalog manager (the session's current catalog and database at
// the time of the call), expands the views it reads, types every
// expression with a Validator, derives the output columns as Flink names
// them, and rewrites the query into Flink's expanded form (every object
// fully qualified, every column qualified by its table alias, `*`
// replaced by the column list), which is what a view stores.
type Analyzer struct {
	// Funcs resolves function calls.
	Funcs *functions.Registry
	// Catalogs resolves table and view names.
	Catalogs *catalogs.Manager
	// ParseQuery parses the stored expanded query of a view. It is given
	// by the caller because this package must not import the parser.
	ParseQuery func(sql string) (ast.Query, error)
	// ParseExpr parses the stored expression of a computed column, for the
	// plan's projection above a table scan; nil leaves such tables without
	// a plan.
	ParseExpr func(sql string) (ast.Expr, error)
	// TableColumns returns the columns a query reads from a table (its
	// resolved schema: rowtime columns marked, computed columns typed).
	// When nil, the stored column types are used.
	TableColumns func(t *catalogs.CatalogTable) ([]OutputColumn, error)
	// Source is the statement's text; messages then name functions as
	// they were written.
	Source string
	// Sources answers what planning asks of a table's connector (whether
	// a scan ends); nil plans every table as bounded.
	Sources Sources
	// Targets, when not nil, keeps the INSERT targets bound with this
	// Analyzer for the next INSERTs into them (see Targets).
	Targets *Targets
}

// Sources is what the validator asks of the connectors when it plans a
// table scan. It is given by the caller because this package must not
// import the connectors.
type Sources interface {
	// ScanBounded reports whether a scan ends: scan has its table, its
	// options (OPTIONS hints merged), physical columns and partition keys.
	ScanBounded(ctx context.Context, scan *plan.Scan) bool
	// MetadataType returns the type of a metadata key the scan's connector
	// reads, or nil when it declares no such key.
	MetadataType(ctx context.Context, scan *plan.Scan, key string) *types.Type
}

// OutputColumn is one output column of a query, table or view.
type OutputColumn struct {
	Name string
	Type *types.Type
	// Pos is where the select item giving the column starts in the
	// statement (the `*` for expanded columns); zero when unknown.
	Pos ast.Pos
	// Natural is the name before duplicates were made unique (Calcite's
	// validated row type keeps duplicates); "" when it is Name.
	Natural string
}

// written returns the column's name before duplicates were made unique.
func (c OutputColumn) written() string {
	if c.Natural != "" {
		return c.Natural
	}
	return c.Name
}

// DuplicateColumn finds a repeated output column name, as Flink checks
// the columns of a view: among names (a view's column list) when given,
// else among the query's names before duplicates were made unique. It
// returns the repeated name and the position of the item that first
// gave it (zero when unknown); ok is false when the names are unique.
func (a *Analyzed) DuplicateColumn(names []string) (name string, first ast.Pos, ok bool) {
	if names == nil {
		for _, c := range a.Columns {
			names = append(names, c.written())
		}
	}
	seen := map[string]int{}
	for i, n := range names {
		if j, dup := seen[n]; dup {
			if j < len(a.Columns) {
				first = a.Columns[j].Pos
			}
			return n, first, true
		}
		seen[n] = i
	}
	return "", ast.Pos{}, false
}

// Analyzed is a validated query.
type Analyzed struct {
	// Columns are the output columns, named as Flink names them (`EXPR$0`
	// for unnamed expressions, duplicates made unique with a suffix).
	Columns []OutputColumn
	// Query is the expanded tree; ast.String prints Flink's expanded text.
	Query ast.Query
	// Reads lists the tables and views the query reads by name, in the
	// order they appear, nested queries included; views are not entered.
	Reads []Read
	// Plan is the logical plan, its output one column per Columns entry
	// (views already expanded and cast to their frozen types); nil when
	// the query uses a form eddy cannot plan yet, and PlanErr says which.
	Plan    plan.Node
	PlanErr error
}

// ExpandedText returns the expanded query text that a view stores.
func (a *Analyzed) ExpandedText() string { return ast.String(a.Query) }

// Read is a table or view a query reads.
type Read struct {
	ID        catalogs.Identifier
	Temporary bool
	Table     *catalogs.CatalogTable // or nil for a view
	View      *catalogs.CatalogView  // or nil for a table
	// Expanded is a view's validated expanded query; its columns are cast
	// to the view's frozen columns when it is read.
	Expanded *Analyzed
}

// Query validates q.
func (a *Analyzer) Query(ctx context.Context, q ast.Query) (*Analyzed, error) {
	s := &state{a: a, ctx: ctx, root: q}
	return s.query(q, nil)
}

// ViewQuery validates the query of the view id that is being created or
// replaced: as Query, and an error if the query would read the view
// itself, directly or through other views.
func (a *Analyzer) ViewQuery(ctx context.Context, id catalogs.Identifier, q ast.Query) (*Analyzed, error) {
	s := &state{a: a, ctx: ctx, defining: &id}
	return s.query(q, nil)
}

// state is the mutable part of one validation.
type state struct {
	a        *Analyzer
	ctx      context.Context
	defining *catalogs.Identifier // the view being defined, or nil
	// root is the statement's top query; insert: it is the source of an
	// INSERT, whose target types the NULLs of a VALUES there.
	root   ast.Query
	insert bool
	views  []catalogs.Identifier
	// expanded holds the views this statement has validated: a view read
	// again (a chain of views each reading the one before twice) shares
	// its first expansion, so validation is linear in the number of
	// distinct views, not in the number of paths to them.
	expanded map[catalogs.Identifier]*Analyzed
	// expansions counts the view expansions validated (tests read it).
	expansions int
	ctes       []map[string]*Analyzed
	nextID     int // Calcite's counter for derived aliases (EXPR$n)
	synth      int // counter for the placeholder columns of expressions
	nextCorr   int // counter for correlation ids of the plan
	reads      *[]Read
	planErr    error // the first construct that has no plan
	// lookups are the tables read FOR SYSTEM_TIME AS OF a processing-time
	// attribute: the join they are the right side of is a lookup join.
	lookups map[*ast.TableName]bool
	// temporals are the tables read FOR SYSTEM_TIME AS OF an event-time
	// attribute, with the period as a plan expression over the relations
	// to their left (temporal.go).
	temporals map[*ast.TableName]*temporalRead
	// windows are the named windows of the SELECT being validated.
	windows map[string]*ast.WindowSpec
	// legacyWindows are the window table functions a legacy group window
	// (GROUP BY TUMBLE/HOP/SESSION(...)) was rewritten into.
	legacyWindows map[*ast.TableFunc]bool
	// planOnly: the caller uses only the plan and the columns of the
	// root query (PlanQuery), whose expanded text is then not built
	// where building it costs (a VALUES list).
	planOnly bool
}

// noPlan records that the query cannot be planned (the first reason wins).
func (s *state) noPlan(err error) {
	if s.planErr == nil && err != nil {
		s.planErr = err
	}
}

// noPlanf records a construct without a plan.
func (s *state) noPlanf(pos ast.Pos, format string, args ...any) {
	s.noPlan(errorf(pos, ErrNoPlan, format, args...))
}

func (s *state) addRead(r Read) {
	if s.reads != nil {
		*s.reads = append(*s.reads, r)
	}
}

func (s *state) query(q ast.Query, outer *qscope) (*Analyzed, error) {
	top := s.reads == nil
	var reads []Read
	if top {
		s.reads = &reads
		defer func() { s.reads = nil }()
	}
	an, err := s.queryNode(q, outer)
	if err != nil {
		return nil, err
	}
	if top {
		an.Reads = reads
		if s.planErr == nil && an.Plan != nil && s.temporals != nil {
			s.noPlan(s.checkTemporalReads(an.Plan))
		}
		if s.planErr != nil || an.Plan == nil {
			an.Plan, an.PlanErr = nil, s.planErr
			if an.PlanErr == nil {
				an.PlanErr = errorf(q.Position(), ErrNoPlan, "This query has no plan")
			}
		}
	}
	return an, nil
}

func (s *state) queryNode(q ast.Query, outer *qscope) (*Analyzed, error) {
	switch q := q.(type) {
	case *ast.Select:
		an, _, err := s.selectQuery(q, outer, nil)
		return an, err
	case *ast.OrderedQuery:
		return s.orderedQuery(q, outer)
	case *ast.ParenQuery:
		an, err := s.queryNode(q.Query, outer)
		if err != nil {
			return nil, err
		}
		// Calcite's tree keeps no parentheses: the printer adds those the
		// grammar needs.
		return an, nil
	case *ast.SetOp:
		return s.setOp(q, outer)
	case *ast.Values:
		return s.values(q, outer)
	case *ast.With:
		return s.with(q, outer)
	case *ast.ExplicitTable:
		// TABLE t is SELECT * FROM t (Calcite's validator rewrites it so).
		sel := &ast.Select{Pos: q.Pos, Items: []*ast.SelectItem{{Expr: &ast.Star{Pos: q.Pos}}},
			From: &ast.TableName{Name: q.Name}}
		an, _, err := s.selectQuery(sel, outer, nil)
		return an, err
	}
	return nil, errorf(q.Position(), ErrNotSupported, "This query form is not supported")
}

// with validates WITH: each CTE in turn (a later one may read an earlier
// one), then the body.
func (s *state) with(w *ast.With, outer *qscope) (*Analyzed, error) {
	if w.Recursive {
		return nil, errorf(w.Pos, ErrNotSupported, "WITH RECURSIVE is not supported")
	}
	defs := map[string]*Analyzed{}
	s.ctes = append(s.ctes, defs)
	defer func() { s.ctes = s.ctes[:len(s.ctes)-1] }()
	out := &ast.With{Pos: w.Pos}
	for _, c := range w.CTEs {
		an, err := s.queryNode(c.Query, outer)
		if err != nil {
			return nil, err
		}
		cols := an.Columns
		if len(c.Columns) > 0 {
			if len(c.Columns) != len(cols) {
				return nil, errorf(c.Name.Pos, ErrIncompatible,
					"Number of columns must match number of query columns")
			}
			cols = renamed(cols, c.Columns)
		}
		defs[c.Name.Name] = &Analyzed{Columns: cols, Query: an.Query, Plan: renamePlan(an.Plan, cols)}
		out.CTEs = append(out.CTEs, &ast.CTE{Name: quoted(c.Name), Columns: quotedList(c.Columns), Query: an.Query})
	}
	body, err := s.queryNode(w.Body, outer)
	if err != nil {
		return nil, err
	}
	out.Body = body.Query
	return &Analyzed{Columns: body.Columns, Query: out, Plan: body.Plan}, nil
}

func (s *state) cte(name string) *Analyzed {
	for i := len(s.ctes) - 1; i >= 0; i-- {
		if an, ok := s.ctes[i][name]; ok {
			return an
		}
	}
	return nil
}

// values validates VALUES: every row has the same number of values; each
// column takes the common type of its values and is named EXPR$n.
func (s *state) values(v *ast.Values, outer *qscope) (*Analyzed, error) {
	qs := &qscope{parent: outer}
	// The expanded text of a root VALUES is not built for PlanQuery.
	var out *ast.Values
	if !s.planOnly || ast.Query(v) != s.root {
		out = &ast.Values{Pos: v.Pos, Rows: make([]*ast.RowCtor, 0, len(v.Rows))}
	}
	var colTypes [][]*types.Type
	rows := make([][]plan.Expr, 0, len(v.Rows))
	for _, r := range v.Rows {
		if colTypes != nil && len(r.Elems) != len(colTypes) {
			return nil, errorf(r.Pos, ErrIncompatible, "Values passed to VALUES operator must have compatible types")
		}
		if colTypes == nil {
			colTypes = make([][]*types.Type, len(r.Elems))
			if len(v.Rows) == 1 {
				one := make([]*types.Type, len(r.Elems))
				for i := range colTypes {
					colTypes[i] = one[i : i : i+1]
				}
			}
		}
		var row *ast.RowCtor
		if out != nil {
			row = &ast.RowCtor{Pos: r.Pos, Explicit: true, Elems: make([]ast.Expr, 0, len(r.Elems))}
		}
		prow := make([]plan.Expr, 0, len(r.Elems))
		for i, e := range r.Elems {
			if ast.Query(v) != s.root || !s.insert {
				if err := checkUntypedNull(e, false); err != nil {
					return nil, err
				}
			}
			t, p, err := s.valuesElem(qs, e, row != nil)
			if err != nil {
				return nil, err
			}
			colTypes[i] = append(colTypes[i], t.Type)
			if row != nil {
				row.Elems = append(row.Elems, t.Expr)
			}
			prow = append(prow, p)
		}
		if out != nil {
			out.Rows = append(out.Rows, row)
		}
		rows = append(rows, prow)
	}
	cols := make([]OutputColumn, len(colTypes))
	for i, ts := range colTypes {
		t, ok := valuesType(ts)
		if !ok {
			return nil, errorf(v.Pos, ErrIncompatible, "Values passed to VALUES operator must have compatible types")
		}
		cols[i] = OutputColumn{Name: exprName(i), Type: t}
	}
	an := &Analyzed{Columns: cols}
	if out != nil {
		an.Query = out
	}
	if s.planErr == nil {
		for _, r := range rows {
			for i := range r {
				r[i] = castTo(r[i], cols[i].Type)
			}
		}
		an.Plan = &plan.Values{Cols: schemaOf(cols), Rows: rows}
	}
	return an, nil
}

// valuesType is the type of a VALUES column whose rows have the types ts:
// their common type (functions.CommonType). The common type of a single
// character, binary, numeric, boolean, date, time or timestamp type that
// is not a time attribute is that type itself, without building a copy.
func valuesType(ts []*types.Type) (*types.Type, bool) {
	if len(ts) == 1 && ts[0].TimeAttr == types.Regular {
		switch k := ts[0].Kind; {
		case k.IsCharacterString(), k.IsNumeric(), k == types.Binary, k == types.VarBinary, k == types.Boolean,
			k == types.Date, k == types.Time, k == types.Timestamp, k == types.TimestampLTZ:
			return ts[0], true
		}
	}
	// Calcite's least restrictive type of a VALUES column keeps DATE
	// apart from the timestamps, as a UNION's column type does.
	var date, stamp bool
	for _, t := range ts {
		switch t.Kind {
		case types.Date:
			date = true
		case types.Timestamp, types.TimestampLTZ:
			stamp = true
		}
	}
	if date && stamp {
		return nil, false
	}
	return functions.CommonType(ts...)
}

// valuesElem types one element of a VALUES row and converts it to a plan
// expression (nil when it has no plan: s.noPlan records why). A literal,
// the usual element of INSERT ... VALUES, is typed by the literal rules
// directly: the expression path types a lone literal by the same rules,
// through copies of its tree. expand false: the caller builds no
// expanded text, and the element's Typed.Expr is not a copy.
func (s *state) valuesElem(qs *qscope, e ast.Expr, expand bool) (*Typed, plan.Expr, error) {
	if l, ok := e.(*ast.Literal); ok {
		v := Validator{funcs: s.a.Funcs, Source: s.a.Source}
		t, err := v.literal(l, false)
		if err != nil {
			return nil, nil, err
		}
		p, err := literalValue(l, t.Type)
		s.noPlan(err)
		if !expand {
			return t, p, nil
		}
		cp := *l
		return &Typed{Expr: &cp, Type: t.Type}, p, nil
	}
	t, env, err := s.typeExprEnv(qs, e, clauseValues)
	if err != nil {
		return nil, nil, err
	}
	p, err := env.toPlan(env.pre)
	s.noPlan(err)
	return t, foldFloats(p), nil
}

// setOp validates UNION, INTERSECT and EXCEPT: both sides have the same
// number of columns, each pair has a common type; names come from the left.
func (s *state) setOp(q *ast.SetOp, outer *qscope) (*Analyzed, error) {
	l, err := s.queryNode(q.Left, outer)
	if err != nil {
		return nil, err
	}
	r, err := s.queryNode(q.Right, outer)
	if err != nil {
		return nil, err
	}
	// Calcite names the operator with its ALL: "Type mismatch in column 1
	// of UNION ALL".
	opName := q.Op
	if q.All {
		opName += " ALL"
	}
	if len(l.Columns) != len(r.Columns) {
		return nil, errorf(q.Pos, ErrIncompatible, "Column count mismatch in %s", opName)
	}
	cols := make([]OutputColumn, len(l.Columns))
	for i := range l.Columns {
		t, ok := leastRestrictive(l.Columns[i].Type, r.Columns[i].Type)
		if !ok {
			return nil, errorf(q.Pos, ErrIncompatible, "Type mismatch in column %d of %s", i+1, opName)
		}
		cols[i] = OutputColumn{Name: l.Columns[i].Name, Type: t, Pos: l.Columns[i].Pos, Natural: l.Columns[i].Natural}
	}
	an := &Analyzed{Columns: cols, Query: &ast.SetOp{Pos: q.Pos, Op: q.Op, All: q.All, Left: l.Query, Right: r.Query}}
	if l.Plan != nil && r.Plan != nil {
		kinds := map[string]plan.SetOpKind{"UNION": plan.Union, "INTERSECT": plan.Intersect, "EXCEPT": plan.Except}
		an.Plan = &plan.SetOp{Kind: kinds[q.Op], All: q.All, Cols: schemaOf(cols),
			Inputs: []plan.Node{castPlan(l.Plan, cols), castPlan(r.Plan, cols)}}
	}
	return an, nil
}

// orderedQuery validates ORDER BY, OFFSET and FETCH. Over a SELECT, the
// sort keys may name its output columns, its ordinals, or any expression
// over its FROM clause; over other queries only output columns.
func (s *state) orderedQuery(q *ast.OrderedQuery, outer *qscope) (*Analyzed, error) {
	out := &ast.OrderedQuery{Pos: q.Pos, Offset: q.Offset, Fetch: q.Fetch, FetchFirst: q.FetchFirst}
	for _, e := range []ast.Expr{q.Offset, q.Fetch} {
		if e == nil {
			continue
		}
		if _, ok := e.(*ast.Param); ok {
			continue
		}
		if l, ok := e.(*ast.Literal); !ok || l.Kind != ast.LitInteger {
			return nil, errorf(e.Position(), ErrQuery, "Non-negative integer literal expected for OFFSET/FETCH")
		}
	}
	offset, fetch := limitValue(q.Offset, 0), limitValue(q.Fetch, -1)
	if sel, ok := q.Query.(*ast.Select); ok {
		an, items, err := s.selectQuery(sel, outer, q.OrderBy)
		if err != nil {
			return nil, err
		}
		out.Query, out.OrderBy = an.Query, items
		return &Analyzed{Columns: an.Columns, Query: out, Plan: limitPlan(an.Plan, offset, fetch)}, nil
	}
	an, err := s.queryNode(q.Query, outer)
	if err != nil {
		return nil, err
	}
	qs := &qscope{parent: outer, rels: []*relation{{cols: an.Columns}}}
	var keys []plan.SortKey
	for _, o := range q.OrderBy {
		item := *o
		if i, ok := ordinal(o.Expr); ok {
			if i < 1 || i > len(an.Columns) {
				return nil, errorf(o.Expr.Position(), ErrQuery, "Ordinal out of range")
			}
			out.OrderBy = append(out.OrderBy, &item)
			keys = append(keys, sortKey(o, &plan.ColumnRef{Index: i - 1, Name: an.Columns[i-1].Name, T: an.Columns[i-1].Type}))
			continue
		}
		t, env, err := s.typeExprEnv(qs, o.Expr, clauseOrderBy)
		if err != nil {
			return nil, err
		}
		item.Expr = t.Expr
		out.OrderBy = append(out.OrderBy, &item)
		p, err := env.toPlan(env.pre)
		s.noPlan(err)
		keys = append(keys, sortKey(o, p))
	}
	out.Query = an.Query
	var p plan.Node
	if an.Plan != nil && s.planErr == nil {
		p = an.Plan
		if len(keys) > 0 {
			p = &plan.Sort{Input: p, Keys: keys}
		}
		p = limitPlan(p, offset, fetch)
	}
	return &Analyzed{Columns: an.Columns, Query: out, Plan: p}, nil
}

// ordinal returns the value of an integer literal used as a sort key.
func ordinal(e ast.Expr) (int, bool) {
	l, ok := e.(*ast.Literal)
	if !ok || l.Kind != ast.LitInteger {
		return 0, false
	}
	n, err := strconv.Atoi(l.Value)
	return n, err == nil
}

func exprName(i int) string { return "EXPR$" + strconv.Itoa(i) }

func renamed(cols []OutputColumn, names []*ast.Ident) []OutputColumn {
	out := make([]OutputColumn, len(cols))
	for i, c := range cols {
		out[i] = OutputColumn{Name: names[i].Name, Type: c.Type}
	}
	return out
}

func quoted(id *ast.Ident) *ast.Ident {
	if id == nil {
		return nil
	}
	return &ast.Ident{Pos: id.Pos, Name: id.Name, Quoted: true}
}

func quotedList(ids []*ast.Ident) []*ast.Ident {
	if ids == nil {
		return nil
	}
	out := make([]*ast.Ident, len(ids))
	for i, id := range ids {
		out[i] = quoted(id)
	}
	return out
}

// sortKey makes a plan sort key with Flink's default null order: NULLS
// FIRST for ascending keys, NULLS LAST for descending ones.
func sortKey(o *ast.OrderItem, e plan.Expr) plan.SortKey {
	first := !o.Desc
	switch strings.ToUpper(o.Nulls) {
	case "FIRST":
		first = true
	case "LAST":
		first = false
	}
	return plan.SortKey{Expr: e, Desc: o.Desc, NullsFirst: first}
}

// limitValue reads an OFFSET or FETCH literal; def when absent.
func limitValue(e ast.Expr, def int64) int64 {
	if l, ok := e.(*ast.Literal); ok {
		if n, err := strconv.ParseInt(l.Value, 10, 64); err == nil {
			return n
		}
	}
	return def
}

// limitPlan adds a Limit when there is an offset or a fetch.
func limitPlan(p plan.Node, offset, fetch int64) plan.Node {
	if p == nil || offset == 0 && fetch < 0 {
		return p
	}
	return &plan.Limit{Input: p, Offset: offset, Fetch: fetch}
}

func schemaOf(cols []OutputColumn) plan.Schema {
	out := make(plan.Schema, len(cols))
	for i, c := range cols {
		out[i] = plan.Column{Name: c.Name, Type: c.Type}
	}
	return out
}

// castPlan projects p onto the given column types and names, casting
// where the types differ.
func castPlan(p plan.Node, cols []OutputColumn) plan.Node {
	in := p.Schema()
	same := len(in) == len(cols)
	exprs := make([]plan.Expr, len(cols))
	names := make([]string, len(cols))
	for i, c := range cols {
		if i >= len(in) {
			return p
		}
		exprs[i] = castTo(in.Ref(i), c.Type)
		names[i] = c.Name
		if _, ok := exprs[i].(*plan.ColumnRef); !ok || in[i].Name != c.Name {
			same = false
		}
	}
	if same {
		return p
	}
	return &plan.Project{Input: p, Exprs: exprs, Names: names}
}

// renamePlan renames p's output columns (a CTE's column list).
func renamePlan(p plan.Node, cols []OutputColumn) plan.Node {
	if p == nil {
		return nil
	}
	return castPlan(p, cols)
}
