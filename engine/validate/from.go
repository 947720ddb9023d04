package validate

import (
	"errors"
	"strings"

	"eddy/catalogs"
	"eddy/engine/ast"
	"eddy/engine/functions"
	"eddy/engine/plan"
	"eddy/engine/types"
)

// Error kinds of query validation raised by Flink rather than Calcite.
var (
	ErrViewCycle  = &Kind{"view reads itself", classFlink}
	ErrViewHint   = &Kind{"hint on a view", classFlink}
	ErrViewSchema = &Kind{"view schema no longer fits", classFlink}
)

// from validates one item of a FROM clause, adds the relations it brings
// to qs, and returns its expanded form and its plan (nil when it has none).
func (s *state) from(te ast.TableExpr, qs *qscope) (ast.TableExpr, plan.Node, error) {
	switch t := te.(type) {
	case *ast.TableName:
		return s.tableName(t, qs)
	case *ast.DerivedTable:
		outer := qs.parent
		if t.Lateral {
			outer = qs
		}
		derived := s.deriveAlias(t.Alias)
		an, err := s.query(t.Query, outer)
		if err != nil {
			return nil, nil, err
		}
		alias, err := s.addRelation(qs, t.Alias, derived, an.Columns, t.Pos)
		if err != nil {
			return nil, nil, err
		}
		return &ast.DerivedTable{Pos: t.Pos, Lateral: t.Lateral, Query: an.Query, Alias: alias}, an.Plan, nil
	case *ast.ParenTable:
		inner, p, err := s.from(t.Table, qs)
		if err != nil {
			return nil, nil, err
		}
		return &ast.ParenTable{Pos: t.Pos, Table: inner, Alias: t.Alias}, p, nil
	case *ast.Join:
		return s.join(t, qs)
	case *ast.Unnest:
		return s.unnest(t, qs)
	case *ast.TableFunc:
		return s.tableFunc(t, qs)
	case *ast.MatchRecognize:
		return s.matchRecognize(t, qs)
	case *ast.ModelCall:
		return s.modelCall(t, qs)
	}
	return nil, nil, errorf(te.Position(), ErrNotSupported, "This FROM item is not supported")
}

// deriveAlias returns the alias Calcite gives an anonymous FROM item
// (EXPR$ and its counter), taking the number before the item's own
// contents are validated, as Calcite's registerFrom does; "" when the
// item has an alias.
func (s *state) deriveAlias(a *ast.Alias) string {
	if a != nil {
		return ""
	}
	name := exprName(s.nextID)
	s.nextID++
	return name
}

// addRelation adds a relation with the given columns under its alias (the
// written one, else derived: the object name, or EXPR$n as Calcite
// names anonymous FROM items), renaming columns by the alias's column list.
func (s *state) addRelation(qs *qscope, a *ast.Alias, derived string, cols []OutputColumn, pos ast.Pos) (*ast.Alias, error) {
	name := derived
	if a == nil {
		if name == "" {
			name = s.deriveAlias(nil)
		} else if !strings.HasPrefix(name, "EXPR$") {
			s.nextID++
		}
	} else {
		name = a.Name.Name
		pos = a.Name.Pos
		if len(a.Columns) > 0 {
			if len(a.Columns) != len(cols) {
				names := make([]string, len(cols))
				for i, c := range cols {
					names[i] = c.Name
				}
				return nil, errorf(a.Name.Pos, ErrIncompatible,
					"List of column aliases must have same degree as table; table has %d columns ('%s'), whereas alias list has %d columns",
					len(cols), strings.Join(names, "', '"), len(a.Columns))
			}
			cols = renamed(cols, a.Columns)
		}
	}
	if qs.relation(name) != nil {
		return nil, errorf(pos, ErrQuery, "Duplicate relation name '%s' in FROM clause", name)
	}
	qs.rels = append(qs.rels, &relation{alias: name, cols: cols, offset: qs.width()})
	out := &ast.Alias{Name: &ast.Ident{Pos: pos, Name: name, Quoted: true}}
	if a != nil {
		out.Columns = quotedList(a.Columns)
	}
	return out, nil
}

// tableName resolves a named table, view or common table expression.
func (s *state) tableName(t *ast.TableName, qs *qscope) (ast.TableExpr, plan.Node, error) {
	names := t.Name.Names()
	last := names[len(names)-1]
	if len(names) == 1 {
		if an := s.cte(last); an != nil {
			alias, err := s.addRelation(qs, t.Alias, last, an.Columns, t.Name.Position())
			if err != nil {
				return nil, nil, err
			}
			return &ast.TableName{Name: quotedName(names...), Hints: t.Hints, Alias: alias}, an.Plan, nil
		}
	}
	id, cols, p, err := s.resolveObject(t.Name, t.Hints)
	if err != nil {
		return nil, nil, err
	}
	out := &ast.TableName{Name: quotedName(id.Catalog, id.Database, id.Object), Hints: t.Hints}
	if t.SystemTime != nil {
		// The period expression sees the relations to the left (a lookup join).
		st, env, err := s.typeExprEnv(qs, t.SystemTime, clauseFrom)
		if err != nil {
			return nil, nil, err
		}
		out.SystemTime = st.Expr
		if st.Type != nil && st.Type.TimeAttr == types.Proctime {
			// A processing-time temporal join: the join plans a lookup.
			s.markLookup(t)
		} else {
			// An event-time temporal join of a versioned table.
			s.markTemporal(t, st, env)
		}
	}
	alias, err := s.addRelation(qs, t.Alias, last, cols, t.Name.Position())
	if err != nil {
		return nil, nil, err
	}
	out.Alias = alias
	return out, p, nil
}

func quotedName(parts ...string) *ast.ObjectName {
	n := &ast.ObjectName{}
	for _, p := range parts {
		n.Parts = append(n.Parts, &ast.Ident{Name: p, Quoted: true})
	}
	return n
}

// resolveObject finds a table or view by name and returns the columns a
// query reads from it. A view is expanded: its stored expanded query is
// validated (which finds a cycle, a dropped table or a dropped column)
// and its output cast to the view's frozen columns.
func (s *state) resolveObject(name *ast.ObjectName, hints []*ast.Hint) (catalogs.Identifier, []OutputColumn, plan.Node, error) {
	cat := s.a.Catalogs
	id, err := cat.Qualify(name.Names()...)
	if err != nil {
		return id, nil, nil, err
	}
	e, err := cat.GetTable(s.ctx, id)
	if errors.Is(err, catalogs.ErrTableNotExist) {
		return id, nil, nil, s.notFound(name, id)
	}
	if err != nil {
		return id, nil, nil, err
	}
	switch t := e.Table.(type) {
	case *catalogs.CatalogTable:
		cols, err := s.tableColumns(t)
		if err != nil {
			return id, nil, nil, err
		}
		s.addRead(Read{ID: id, Temporary: e.Temporary, Table: t})
		var kept catalogs.Catalog
		if !e.Temporary {
			if kept, err = cat.Catalog(s.ctx, id.Catalog); err != nil {
				return id, nil, nil, err
			}
		}
		p := s.scanPlan(id, t, kept, e.Temporary, cols, hints, name.Position())
		return id, cols, p, nil
	case *catalogs.CatalogView:
		if len(hints) > 0 {
			return id, nil, nil, errorf(hints[0].Pos, ErrViewHint,
				"View '%s' cannot be enriched with new options. Hints can only be applied to tables.", id)
		}
		an, err := s.expandView(id, t, name.Position())
		if err != nil {
			return id, nil, nil, err
		}
		s.addRead(Read{ID: id, Temporary: e.Temporary, View: t, Expanded: an})
		cols := make([]OutputColumn, len(t.Columns))
		for i, c := range t.Columns {
			cols[i] = OutputColumn{Name: c.Name, Type: c.Type}
			if c.Type == nil {
				cols[i].Type = an.Columns[i].Type
			}
		}
		var p plan.Node
		if an.Plan != nil {
			// Reading a view casts its query's output to the frozen types.
			p = castPlan(an.Plan, cols)
		}
		return id, cols, p, nil
	}
	return id, nil, nil, errorf(name.Position(), ErrTableNotFound, "Object '%s' not found", id.Object)
}

// expandView validates a view's stored expanded query in a fresh context
// (its names are fully qualified; the statement's CTEs do not apply).
func (s *state) expandView(id catalogs.Identifier, v *catalogs.CatalogView, pos ast.Pos) (*Analyzed, error) {
	chain := func(from int) string {
		var path []string
		if s.defining != nil && from < 0 {
			path = append(path, s.defining.SummaryString())
			from = 0
		}
		for _, x := range s.views[from:] {
			path = append(path, x.SummaryString())
		}
		return strings.Join(append(path, id.SummaryString()), " -> ")
	}
	if s.defining != nil && *s.defining == id {
		return nil, errorf(pos, ErrViewCycle,
			"View '%s' would read from itself (%s). A view cannot refer to itself, directly or through other views.",
			id.SummaryString(), chain(-1))
	}
	for i, x := range s.views {
		if x == id {
			return nil, errorf(pos, ErrViewCycle,
				"View '%s' would read from itself (%s). A view cannot refer to itself, directly or through other views.",
				id.SummaryString(), chain(i))
		}
	}
	if s.a.ParseQuery == nil {
		return nil, errorf(pos, ErrNotSupported, "Views cannot be read here")
	}
	if an, ok := s.expanded[id]; ok {
		return an, nil
	}
	q, err := s.a.ParseQuery(v.ExpandedQuery)
	if err != nil {
		return nil, err
	}
	saved := s.ctes
	s.ctes = nil
	s.views = append(s.views, id)
	s.expansions++
	an, err := s.queryNode(q, nil)
	s.views = s.views[:len(s.views)-1]
	s.ctes = saved
	if err != nil {
		// Positions inside the stored text mean nothing to the user: point
		// at the view's name in the statement.
		var ve *Error
		if errors.As(err, &ve) {
			moved := *ve
			moved.Pos = pos
			return nil, &moved
		}
		return nil, err
	}
	if len(an.Columns) != len(v.Columns) {
		return nil, errorf(pos, ErrViewSchema,
			"View '%s' has %d columns but its query now returns %d. Update the view with ALTER VIEW ... AS.",
			id.SummaryString(), len(v.Columns), len(an.Columns))
	}
	for i, c := range an.Columns {
		if want := v.Columns[i].Type; want != nil && !functions.CanCast(c.Type, want) {
			return nil, errorf(pos, ErrViewSchema,
				"Column '%s' of view '%s' has type %s, which its query's type %s cannot be cast to.",
				v.Columns[i].Name, id.SummaryString(), want, c.Type)
		}
	}
	if s.expanded == nil {
		s.expanded = map[catalogs.Identifier]*Analyzed{}
	}
	s.expanded[id] = an
	return an, nil
}

// notFound words a missing object as Calcite does: the first part of the
// name that does not resolve, and where it was looked for.
func (s *state) notFound(name *ast.ObjectName, id catalogs.Identifier) error {
	parts := name.Parts
	cat := s.a.Catalogs
	last := parts[len(parts)-1]
	switch len(parts) {
	case 3:
		if ok, _ := cat.CatalogExists(s.ctx, id.Catalog); !ok {
			return errorf(parts[0].Pos, ErrTableNotFound, "Object '%s' not found", id.Catalog)
		}
		if ok, _ := cat.DatabaseExists(s.ctx, id.Catalog, id.Database); !ok {
			return errorf(parts[1].Pos, ErrTableNotFound, "Object '%s' not found within '%s'", id.Database, id.Catalog)
		}
		return errorf(last.Pos, ErrTableNotFound, "Object '%s' not found within '%s.%s'", id.Object, id.Catalog, id.Database)
	case 2:
		if ok, _ := cat.DatabaseExists(s.ctx, id.Catalog, id.Database); !ok {
			return errorf(parts[0].Pos, ErrTableNotFound, "Object '%s' not found", id.Database)
		}
		return errorf(last.Pos, ErrTableNotFound, "Object '%s' not found within '%s.%s'", id.Object, id.Catalog, id.Database)
	}
	return errorf(last.Pos, ErrTableNotFound, "Object '%s' not found", id.Object)
}

// tableColumns returns the columns a query reads from a table.
func (s *state) tableColumns(t *catalogs.CatalogTable) ([]OutputColumn, error) {
	if s.a.TableColumns != nil {
		return s.a.TableColumns(t)
	}
	rowtime := map[string]bool{}
	for _, w := range t.Schema.Watermarks {
		rowtime[w.RowtimeColumn] = true
	}
	pk := map[string]bool{}
	if t.Schema.PrimaryKey != nil {
		for _, c := range t.Schema.PrimaryKey.Columns {
			pk[c] = true
		}
	}
	out := make([]OutputColumn, len(t.Schema.Columns))
	for i, c := range t.Schema.Columns {
		typ := c.Type
		if typ == nil {
			typ = types.NewString()
		}
		if pk[c.Name] {
			typ = typ.WithNullable(false)
		}
		if rowtime[c.Name] {
			typ = typ.WithTimeAttr(types.Rowtime)
		}
		out[i] = OutputColumn{Name: c.Name, Type: typ}
	}
	return out, nil
}

// join validates a join: both sides, then the condition over both; the
// columns of the side an outer join may leave empty become nullable. A
// right side that reads the left one (UNNEST, LATERAL) is a Correlate.
func (s *state) join(j *ast.Join, qs *qscope) (ast.TableExpr, plan.Node, error) {
	left, lp, err := s.from(j.Left, qs)
	if err != nil {
		return nil, nil, err
	}
	nLeft := len(qs.rels)
	var right ast.TableExpr
	var rp plan.Node
	corr := 0
	if lateralItem(j.Right) {
		// The right side sees the left relations through a correlation.
		s.nextCorr++
		corr = s.nextCorr
		bridge := &qscope{parent: qs, corrID: corr}
		rq := &qscope{parent: bridge}
		right, rp, err = s.from(j.Right, rq)
		if err != nil {
			return nil, nil, err
		}
		base := qs.width()
		for _, r := range rq.rels {
			if qs.relation(r.alias) != nil {
				return nil, nil, errorf(j.Right.Position(), ErrQuery, "Duplicate relation name '%s' in FROM clause", r.alias)
			}
			r.offset += base
			qs.rels = append(qs.rels, r)
		}
		if !bridge.corrUsed {
			corr = 0
		}
	} else {
		right, rp, err = s.from(j.Right, qs)
		if err != nil {
			return nil, nil, err
		}
	}
	leftRels, rightRels := qs.rels[:nLeft], qs.rels[nLeft:]
	out := &ast.Join{Pos: j.Pos, Kind: j.Kind, Natural: j.Natural, Left: left, Right: right}
	var common []string
	switch {
	case j.Natural:
		for _, r := range leftRels {
			for _, c := range r.cols {
				if hasColumn(rightRels, c.Name) && !contains(common, c.Name) {
					common = append(common, c.Name)
				}
			}
		}
	case j.Using != nil:
		for _, u := range j.Using {
			if !hasColumn(leftRels, u.Name) || !hasColumn(rightRels, u.Name) {
				return nil, nil, errorf(u.Pos, ErrColumnNotFound, "Column '%s' not found in any table", u.Name)
			}
			common = append(common, u.Name)
		}
		out.Using = quotedList(j.Using)
	}
	for _, c := range common {
		if qs.common == nil {
			qs.common = map[string]bool{}
		}
		qs.common[c] = true
	}
	var cond plan.Expr
	if j.On != nil {
		if err := checkUntypedNull(j.On, true); err != nil {
			return nil, nil, err
		}
		c, env, err := s.typeExprEnv(qs, j.On, clauseOn)
		if err != nil {
			return nil, nil, err
		}
		if !isBool(c.Type) {
			return nil, nil, errorf(j.On.Position(), ErrExpectedBoolean, "ON clause must be a condition")
		}
		out.On = c.Expr
		s.noPlan(env.checkJoinKeys())
		cond, err = env.toPlan(env.pre)
		s.noPlan(err)
	}
	for _, name := range common {
		l, r := columnRef(leftRels, name), columnRef(rightRels, name)
		eq := &plan.Call{Name: plan.OpEq, Args: []plan.Expr{l, r},
			T: types.New(types.Boolean).WithNullable(l.T.Nullable() || r.T.Nullable())}
		cond = plan.And(append(plan.Conjuncts(cond), eq)...)
	}
	var p plan.Node
	if lp != nil && rp != nil {
		kind := map[ast.JoinKind]plan.JoinKind{ast.JoinInner: plan.InnerJoin, ast.JoinLeft: plan.LeftJoin,
			ast.JoinRight: plan.RightJoin, ast.JoinFull: plan.FullJoin, ast.JoinCross: plan.CrossJoin, ast.JoinComma: plan.CrossJoin}[j.Kind]
		if kind == plan.CrossJoin && cond != nil {
			kind = plan.InnerJoin
		}
		switch {
		case corr != 0 || lateralItem(j.Right):
			ck := plan.InnerJoin
			if j.Kind == ast.JoinLeft {
				ck = plan.LeftJoin
			}
			var c plan.Node = &plan.Correlate{Kind: ck, ID: corr, Left: lp, Right: rp}
			if cond != nil && !isTrue(cond) {
				c = &plan.Filter{Input: c, Cond: cond}
			}
			p = c
		case s.isLookup(j.Right):
			p = s.lookupJoin(j, kind, lp, rp, cond, nLeft)
		case s.isTemporal(j.Right):
			p = s.temporalJoin(j, kind, lp, rp, cond)
		default:
			p = plan.NewJoin(kind, lp, rp, cond)
		}
	}
	if j.Kind == ast.JoinLeft || j.Kind == ast.JoinFull {
		nullable(rightRels)
	}
	if j.Kind == ast.JoinRight || j.Kind == ast.JoinFull {
		nullable(leftRels)
	}
	return out, p, nil
}

// lateralItem reports whether a FROM item reads the items to its left.
func lateralItem(te ast.TableExpr) bool {
	switch t := te.(type) {
	case *ast.Unnest:
		return true
	case *ast.DerivedTable:
		return t.Lateral
	case *ast.TableFunc:
		return t.Lateral
	}
	return false
}

func isTrue(e plan.Expr) bool {
	l, ok := e.(*plan.Literal)
	return ok && l.Value == true
}

// columnRef reads the first column named name among rels in the FROM row.
func columnRef(rels []*relation, name string) *plan.ColumnRef {
	for _, r := range rels {
		if i := r.index(name); i >= 0 {
			return &plan.ColumnRef{Index: r.offset + i, Name: name, T: r.cols[i].Type}
		}
	}
	return nil
}

func hasColumn(rels []*relation, name string) bool {
	for _, r := range rels {
		if r.index(name) >= 0 {
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func nullable(rels []*relation) {
	for _, r := range rels {
		cols := make([]OutputColumn, len(r.cols))
		for i, c := range r.cols {
			cols[i] = OutputColumn{Name: c.Name, Type: withNullable(c.Type, true)}
		}
		r.cols = cols
	}
}

// unnest validates UNNEST(array | multiset | map, ...): one column per
// element (the fields of a ROW element), named EXPR$n, plus ORDINALITY.
func (s *state) unnest(u *ast.Unnest, qs *qscope) (ast.TableExpr, plan.Node, error) {
	derived := s.deriveAlias(u.Alias)
	out := &ast.Unnest{Pos: u.Pos, WithOrdinality: u.WithOrdinality}
	var cols []OutputColumn
	var exprs []plan.Expr
	for _, a := range u.Args {
		t, env, err := s.typeExprEnv(qs, a, clauseFrom)
		if err != nil {
			return nil, nil, err
		}
		out.Args = append(out.Args, t.Expr)
		pe, err := env.toPlan(env.pre)
		s.noPlan(err)
		exprs = append(exprs, pe)
		switch t.Type.Kind {
		case types.Array, types.Multiset:
			el := t.Type.Elem
			if el.Kind == types.Row {
				for _, f := range el.Fields {
					cols = append(cols, OutputColumn{Name: f.Name, Type: withNullable(f.Type, el.Nullable())})
				}
			} else {
				cols = append(cols, OutputColumn{Name: exprName(len(cols)), Type: el})
			}
		case types.Map:
			cols = append(cols, OutputColumn{Name: "KEY", Type: t.Type.Elem}, OutputColumn{Name: "VALUE", Type: t.Type.Val})
		default:
			return nil, nil, errorf(a.Position(), ErrCannotApply,
				"Cannot apply 'UNNEST' to arguments of type 'UNNEST(<%s>)'. Supported form(s): 'UNNEST(<MULTISET>)'\n'UNNEST(<ARRAY>)'\n'UNNEST(<MAP>)'",
				functions.CalciteTypeString(t.Type))
		}
	}
	if u.WithOrdinality {
		cols = append(cols, OutputColumn{Name: "ORDINALITY", Type: types.New(types.Int).WithNullable(false)})
	}
	alias, err := s.addRelation(qs, u.Alias, derived, cols, u.Pos)
	if err != nil {
		return nil, nil, err
	}
	out.Alias = alias
	return out, &plan.Unnest{Exprs: exprs, WithOrdinality: u.WithOrdinality, Cols: schemaOf(qs.rels[len(qs.rels)-1].cols)}, nil
}

// ErrQuery is an invalid query construct Calcite's validator rejects
// (duplicate relation names, ordinals out of range, `*` without FROM).
var ErrQuery = &Kind{"invalid query", classCalcite}

// scanPlan reads a table: a Scan of its physical columns (with the
// OPTIONS of a hint merged into its options) and of the metadata columns
// its connector reads, and a Project above it computing computed columns;
// a metadata column whose key the connector does not declare reads as
// NULL.
//
// The scan carries the catalog that keeps the table (nil for a temporary
// one) from the start, so that the sources asked about it below, and the
// runtime later, need no second lookup of the table.
func (s *state) scanPlan(id catalogs.Identifier, t *catalogs.CatalogTable, kept catalogs.Catalog, temporary bool, cols []OutputColumn, hints []*ast.Hint, pos ast.Pos) plan.Node {
	options := map[string]string{}
	for k, v := range t.Options {
		options[k] = v
	}
	for _, h := range hints {
		if strings.EqualFold(h.Name, "OPTIONS") {
			for _, o := range h.Options {
				options[o.Key] = o.Value
			}
		}
	}
	scan := &plan.Scan{Table: plan.TableID{Catalog: id.Catalog, Database: id.Database, Object: id.Object},
		Options: options, PartitionKeys: t.PartitionKeys, Rowtime: -1, Catalog: kept, Temporary: temporary}
	physIdx := map[string]int{}
	allPhysical := true
	for i, c := range t.Schema.Columns {
		if c.Kind != catalogs.Physical {
			allPhysical = false
			continue
		}
		physIdx[c.Name] = len(scan.Physical)
		scan.Physical = append(scan.Physical, plan.Column{Name: c.Name, Type: cols[i].Type})
	}
	if pk := t.Schema.PrimaryKey; pk != nil {
		for _, c := range pk.Columns {
			if i, ok := physIdx[c]; ok {
				scan.PrimaryKey = append(scan.PrimaryKey, i)
			}
		}
	}
	scan.Bounded = s.bounded(scan)
	physScope := &qscope{rels: []*relation{{cols: outputColumns(scan.Physical)}}}
	metaIdx := s.readMetadata(scan, t, cols)
	for _, w := range t.Schema.Watermarks {
		i, ok := physIdx[w.RowtimeColumn]
		if !ok {
			scan.ComputedDelay = s.computedDelay(w.RowtimeColumn, w.Expr)
			continue
		}
		scan.Rowtime = i
		if s.a.ParseExpr != nil {
			if e, err := s.a.ParseExpr(w.Expr); err == nil {
				if _, env, err := s.typeExprEnv(physScope, e, clauseFrom); err == nil {
					scan.Watermark, _ = env.toPlan(env.pre)
				}
			}
		}
	}
	if allPhysical {
		return scan
	}
	exprs := make([]plan.Expr, len(t.Schema.Columns))
	names := make([]string, len(t.Schema.Columns))
	for i, c := range t.Schema.Columns {
		names[i] = c.Name
		switch c.Kind {
		case catalogs.Physical:
			exprs[i] = &plan.ColumnRef{Index: physIdx[c.Name], Name: c.Name, T: cols[i].Type}
		case catalogs.Metadata:
			if p, ok := metaIdx[c.Name]; ok {
				exprs[i] = &plan.ColumnRef{Index: p, Name: c.Name, T: cols[i].Type}
			} else {
				exprs[i] = &plan.Literal{Value: nil, T: cols[i].Type}
			}
		default:
			if s.a.ParseExpr == nil {
				s.noPlanf(pos, "The computed column %s of %s cannot be planned", c.Name, id)
				return nil
			}
			e, err := s.a.ParseExpr(c.Expr)
			if err != nil {
				s.noPlan(err)
				return nil
			}
			_, env, err := s.typeExprEnv(physScope, e, clauseFrom)
			if err != nil {
				s.noPlan(err)
				return nil
			}
			x, err := env.toPlan(env.pre)
			if err != nil {
				s.noPlan(err)
				return nil
			}
			exprs[i] = x
		}
	}
	return &plan.Project{Input: scan, Exprs: exprs, Names: names}
}

// readMetadata appends to the scan the metadata columns of t whose key
// its connector reads (Analyzer.Sources), with their declared types, and
// returns their scan positions by column name.
func (s *state) readMetadata(scan *plan.Scan, t *catalogs.CatalogTable, cols []OutputColumn) map[string]int {
	if s.a.Sources == nil {
		return nil
	}
	idx := map[string]int{}
	for i, c := range t.Schema.Columns {
		if c.Kind != catalogs.Metadata {
			continue
		}
		key := c.MetadataKey
		if key == "" {
			key = c.Name
		}
		if s.a.Sources.MetadataType(s.ctx, scan, key) == nil {
			continue
		}
		idx[c.Name] = len(scan.Physical)
		scan.Physical = append(scan.Physical, plan.Column{Name: c.Name, Type: cols[i].Type})
		scan.Metadata = append(scan.Metadata, key)
	}
	return idx
}

// bounded asks the connectors whether a scan ends (Analyzer.Sources).
func (s *state) bounded(scan *plan.Scan) bool {
	if s.a.Sources == nil {
		return true
	}
	return s.a.Sources.ScanBounded(s.ctx, scan)
}

func outputColumns(s plan.Schema) []OutputColumn {
	out := make([]OutputColumn, len(s))
	for i, c := range s {
		out[i] = OutputColumn{Name: c.Name, Type: c.Type}
	}
	return out
}

// computedDelay reads the delay of a WATERMARK clause on a computed
// column: `rowtime` has none, `rowtime - INTERVAL ...` the interval's;
// nil for any other form.
func (s *state) computedDelay(rowtime, text string) *int64 {
	if s.a.ParseExpr == nil {
		return nil
	}
	e, err := s.a.ParseExpr(text)
	if err != nil {
		return nil
	}
	isRowtime := func(x ast.Expr) bool {
		id, ok := x.(*ast.Identifier)
		return ok && len(id.Parts) == 1 && id.Parts[0].Name == rowtime
	}
	var ms int64
	switch x := e.(type) {
	case *ast.Identifier:
		if !isRowtime(x) {
			return nil
		}
	case *ast.BinaryExpr:
		l, ok := x.R.(*ast.IntervalLit)
		if x.Op != "-" || !ok || !isRowtime(x.L) {
			return nil
		}
		v := Validator{funcs: s.a.Funcs}
		t, err := v.interval(l)
		if err != nil || t.Type.Kind != types.IntervalDayTime {
			return nil
		}
		p, err := intervalValue(l, t.Type)
		if err != nil {
			return nil
		}
		lit, ok := p.(*plan.Literal)
		if !ok {
			return nil
		}
		if ms, ok = lit.Value.(int64); !ok {
			return nil
		}
	default:
		return nil
	}
	return &ms
}
