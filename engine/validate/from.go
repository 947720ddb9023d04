package validate

import (
	"errors"
	"strings"

	"eddy/catalogs"
	"eddy/engine/ast"
	"eddy/engine/functions"
	"eddy/engine/types"
)

// Error kinds of query validation raised by Flink rather than Calcite.
var (
	ErrViewCycle  = &Kind{"view reads itself", classFlink}
	ErrViewHint   = &Kind{"hint on a view", classFlink}
	ErrViewSchema = &Kind{"view schema no longer fits", classFlink}
)

// from validates one item of a FROM clause, adds the relations it brings
// to qs, and returns its expanded form.
func (s *state) from(te ast.TableExpr, qs *qscope) (ast.TableExpr, error) {
	switch t := te.(type) {
	case *ast.TableName:
		return s.tableName(t, qs)
	case *ast.DerivedTable:
		outer := qs.parent
		if t.Lateral {
			outer = qs
		}
		an, err := s.query(t.Query, outer)
		if err != nil {
			return nil, err
		}
		alias, err := s.addRelation(qs, t.Alias, "", an.Columns, t.Pos)
		if err != nil {
			return nil, err
		}
		return &ast.DerivedTable{Pos: t.Pos, Lateral: t.Lateral, Query: an.Query, Alias: alias}, nil
	case *ast.ParenTable:
		inner, err := s.from(t.Table, qs)
		if err != nil {
			return nil, err
		}
		return &ast.ParenTable{Pos: t.Pos, Table: inner, Alias: t.Alias}, nil
	case *ast.Join:
		return s.join(t, qs)
	case *ast.Unnest:
		return s.unnest(t, qs)
	case *ast.TableFunc:
		return s.tableFunc(t, qs)
	}
	return nil, errorf(te.Position(), ErrNotSupported, "This FROM item is not supported")
}

// addRelation adds a relation with the given columns under its alias (the
// written one, else derived: the object name, or EXPR$n as Calcite
// names anonymous FROM items), renaming columns by the alias's column list.
func (s *state) addRelation(qs *qscope, a *ast.Alias, derived string, cols []OutputColumn, pos ast.Pos) (*ast.Alias, error) {
	name := derived
	if a == nil {
		if name == "" {
			name = exprName(s.nextID)
		}
		s.nextID++
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
		return nil, errorf(pos, ErrNotSupported, "Duplicate relation name '%s' in FROM clause", name)
	}
	qs.rels = append(qs.rels, &relation{alias: name, cols: cols})
	out := &ast.Alias{Name: &ast.Ident{Pos: pos, Name: name, Quoted: true}}
	if a != nil {
		out.Columns = quotedList(a.Columns)
	}
	return out, nil
}

// tableName resolves a named table, view or common table expression.
func (s *state) tableName(t *ast.TableName, qs *qscope) (ast.TableExpr, error) {
	names := t.Name.Names()
	last := names[len(names)-1]
	if len(names) == 1 {
		if an := s.cte(last); an != nil {
			alias, err := s.addRelation(qs, t.Alias, last, an.Columns, t.Name.Position())
			if err != nil {
				return nil, err
			}
			return &ast.TableName{Name: quotedName(names...), Hints: t.Hints, Alias: alias}, nil
		}
	}
	id, cols, err := s.resolveObject(t.Name, t.Hints)
	if err != nil {
		return nil, err
	}
	out := &ast.TableName{Name: quotedName(id.Catalog, id.Database, id.Object), Hints: t.Hints}
	if t.SystemTime != nil {
		// The period expression sees the relations to the left (a lookup join).
		st, err := s.typeExpr(qs, t.SystemTime, clauseFrom)
		if err != nil {
			return nil, err
		}
		out.SystemTime = st.Expr
	}
	alias, err := s.addRelation(qs, t.Alias, last, cols, t.Name.Position())
	if err != nil {
		return nil, err
	}
	out.Alias = alias
	return out, nil
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
func (s *state) resolveObject(name *ast.ObjectName, hints []*ast.Hint) (catalogs.Identifier, []OutputColumn, error) {
	cat := s.a.Catalogs
	id, err := cat.Qualify(name.Names()...)
	if err != nil {
		return id, nil, err
	}
	e, err := cat.GetTable(s.ctx, id)
	if errors.Is(err, catalogs.ErrTableNotExist) {
		return id, nil, s.notFound(name, id)
	}
	if err != nil {
		return id, nil, err
	}
	switch t := e.Table.(type) {
	case *catalogs.CatalogTable:
		cols, err := s.tableColumns(t)
		if err != nil {
			return id, nil, err
		}
		s.addRead(Read{ID: id, Temporary: e.Temporary, Table: t})
		return id, cols, nil
	case *catalogs.CatalogView:
		if len(hints) > 0 {
			return id, nil, errorf(hints[0].Pos, ErrViewHint,
				"View '%s' cannot be enriched with new options. Hints can only be applied to tables.", id)
		}
		an, err := s.expandView(id, t, name.Position())
		if err != nil {
			return id, nil, err
		}
		s.addRead(Read{ID: id, Temporary: e.Temporary, View: t, Expanded: an})
		cols := make([]OutputColumn, len(t.Columns))
		for i, c := range t.Columns {
			cols[i] = OutputColumn{Name: c.Name, Type: c.Type}
		}
		return id, cols, nil
	}
	return id, nil, errorf(name.Position(), ErrTableNotFound, "Object '%s' not found", id.Object)
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
	q, err := s.a.ParseQuery(v.ExpandedQuery)
	if err != nil {
		return nil, err
	}
	saved := s.ctes
	s.ctes = nil
	s.views = append(s.views, id)
	an, err := s.queryNode(q, nil)
	s.views = s.views[:len(s.views)-1]
	s.ctes = saved
	if err != nil {
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
// columns of the side an outer join may leave empty become nullable.
func (s *state) join(j *ast.Join, qs *qscope) (ast.TableExpr, error) {
	left, err := s.from(j.Left, qs)
	if err != nil {
		return nil, err
	}
	nLeft := len(qs.rels)
	right, err := s.from(j.Right, qs)
	if err != nil {
		return nil, err
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
				return nil, errorf(u.Pos, ErrColumnNotFound, "Column '%s' not found in any table", u.Name)
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
	if j.On != nil {
		cond, err := s.typeExpr(qs, j.On, clauseOn)
		if err != nil {
			return nil, err
		}
		if !isBool(cond.Type) {
			return nil, errorf(j.On.Position(), ErrExpectedBoolean, "ON clause must be a condition")
		}
		out.On = cond.Expr
	}
	if j.Kind == ast.JoinLeft || j.Kind == ast.JoinFull {
		nullable(rightRels)
	}
	if j.Kind == ast.JoinRight || j.Kind == ast.JoinFull {
		nullable(leftRels)
	}
	return out, nil
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
func (s *state) unnest(u *ast.Unnest, qs *qscope) (ast.TableExpr, error) {
	out := &ast.Unnest{Pos: u.Pos, WithOrdinality: u.WithOrdinality}
	var cols []OutputColumn
	for _, a := range u.Args {
		t, err := s.typeExpr(qs, a, clauseFrom)
		if err != nil {
			return nil, err
		}
		out.Args = append(out.Args, t.Expr)
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
			return nil, errorf(a.Position(), ErrCannotApply,
				"Cannot apply 'UNNEST' to arguments of type 'UNNEST(<%s>)'. Supported form(s): 'UNNEST(<MULTISET>)'\n'UNNEST(<ARRAY>)'\n'UNNEST(<MAP>)'",
				functions.CalciteTypeString(t.Type))
		}
	}
	if u.WithOrdinality {
		cols = append(cols, OutputColumn{Name: "ORDINALITY", Type: types.New(types.Int).WithNullable(false)})
	}
	alias, err := s.addRelation(qs, u.Alias, "", cols, u.Pos)
	if err != nil {
		return nil, err
	}
	out.Alias = alias
	return out, nil
}
