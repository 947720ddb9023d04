package validate

import (
	"strconv"

	"eddy/engine/plan"
	"strings"

	"eddy/engine/ast"
	"eddy/engine/functions"
	"eddy/engine/types"
)

// relation is one item of a FROM clause as expressions see it: the alias
// that qualifies its columns and the columns.
type relation struct {
	alias  string
	cols   []OutputColumn
	offset int // position of the first column in the FROM clause's row
	// dup names the columns the relation has twice (a window table
	// function over a relation that already has window_start ...): a
	// reference to one is ambiguous, as in Calcite.
	dup map[string]bool
}

func (r *relation) index(name string) int {
	for i, c := range r.cols {
		if c.Name == name {
			return i
		}
	}
	return -1
}

// qscope is the name scope of one query block: the relations of its FROM
// clause, and the scope of the enclosing query for correlated references.
type qscope struct {
	parent *qscope
	rels   []*relation
	// common holds the columns a USING or NATURAL join merged: an
	// unqualified reference to one is not ambiguous.
	common map[string]bool
	// corrID is set on the scope that stands between a sub-query and its
	// enclosing query: the id of the plan.SubQuery or plan.Correlate whose
	// CorrelRefs read the enclosing row. corrUsed tells that one did.
	corrID   int
	corrUsed bool
}

// width returns the number of columns of the FROM row.
func (q *qscope) width() int {
	n := 0
	for _, r := range q.rels {
		n += len(r.cols)
	}
	return n
}

func (q *qscope) relation(alias string) *relation {
	for _, r := range q.rels {
		if r.alias == alias {
			return r
		}
	}
	return nil
}

// resolved is a column reference found in a scope.
type resolved struct {
	rel   *relation
	col   int
	rest  []*ast.Ident // field path after the column
	outer bool         // found in an enclosing query's scope
	corr  int          // the correlation id binding the enclosing row, when outer
}

// resolve finds the column an identifier names, innermost scope first,
// as Calcite's DelegatingScope does: a first part that is a table alias
// qualifies the column; otherwise the first part is a column (of exactly
// one table) and the rest are fields.
func (q *qscope) resolve(id *ast.Identifier) (resolved, error) {
	parts := id.Parts
	first := parts[0]
	var bridge *qscope
	bind := func(r resolved) resolved {
		if r.outer && bridge != nil {
			bridge.corrUsed = true
			r.corr = bridge.corrID
		}
		return r
	}
	for sc, depth := q, 0; sc != nil; sc, depth = sc.parent, depth+1 {
		if sc.corrID != 0 {
			bridge = sc
		}
		if len(parts) > 1 {
			if r := sc.relation(first.Name); r != nil {
				i := r.index(parts[1].Name)
				if i >= 0 && r.dup[parts[1].Name] {
					return resolved{}, errorf(parts[1].Pos, ErrColumnAmbiguous, "Column '%s' is ambiguous", parts[1].Name)
				}
				if i >= 0 {
					return bind(resolved{rel: r, col: i, rest: parts[2:], outer: depth > 0}), nil
				}
				// rt.x of a table rt without a column x may be the field x
				// of a ROW column rt (Calcite tries the column next).
				if j := r.index(first.Name); j >= 0 && hasField(r.cols[j].Type, parts[1].Name) {
					return bind(resolved{rel: r, col: j, rest: parts[1:], outer: depth > 0}), nil
				}
				return resolved{}, errorf(parts[1].Pos, ErrColumnNotFound,
					"Column '%s' not found in table '%s'", parts[1].Name, first.Name)
			}
		}
		var found []resolved
		for _, r := range sc.rels {
			if i := r.index(first.Name); i >= 0 {
				if r.dup[first.Name] {
					return resolved{}, errorf(first.Pos, ErrColumnAmbiguous, "Column '%s' is ambiguous", first.Name)
				}
				found = append(found, resolved{rel: r, col: i, rest: parts[1:], outer: depth > 0})
			}
		}
		switch {
		case len(found) > 1 && !sc.common[first.Name]:
			return resolved{}, errorf(first.Pos, ErrColumnAmbiguous, "Column '%s' is ambiguous", first.Name)
		case len(found) > 0:
			return bind(found[0]), nil
		}
	}
	if len(parts) > 1 {
		return resolved{}, errorf(first.Pos, ErrTableNotFound, "Table '%s' not found", first.Name)
	}
	return resolved{}, errorf(first.Pos, ErrColumnNotFound, "Column '%s' not found in any table", first.Name)
}

// clause names the part of a query an expression stands in; it decides
// whether aggregates are allowed and words Calcite's messages.
type clause string

const (
	clauseSelect  clause = "SELECT"
	clauseWhere   clause = "WHERE"
	clauseGroupBy clause = "GROUP BY"
	clauseHaving  clause = "HAVING"
	clauseOrderBy clause = "ORDER BY"
	clauseOn      clause = "ON"
	clauseValues  clause = "VALUES"
	clauseFrom    clause = "FROM"
)

func (c clause) aggregatesAllowed() bool {
	return c == clauseSelect || c == clauseHaving || c == clauseOrderBy
}

// exprEnv holds what one expression's validation learns: the placeholder
// columns the scalar validator sees, what each stands for, and, for the
// GROUP BY check, the written form of each column reference.
type exprEnv struct {
	s       *state
	qs      *qscope
	clause  clause
	cols    []Column
	subs    map[string]ast.Expr
	refs    map[*ast.Identifier]colRef
	targets map[string]phTarget
	pre     ast.Expr                 // the validated tree with placeholders
	types   map[ast.Expr]*types.Type // sub-tree types recorded by typeOf
}

type colRef struct {
	written string // the reference as written, for messages
	outer   bool
}

// placeholder names start with a byte no SQL identifier of eddy's parser
// holds, so they never meet a real column.
const placeholderPrefix = "\x00"

// typeExpr validates e in scope qs: column references are resolved by the
// query scope (correlation, aliases, ambiguity), sub-queries are validated
// as queries, and the rest is typed by the scalar Validator. The result's
// tree is the expanded form.
func (s *state) typeExpr(qs *qscope, e ast.Expr, c clause) (*Typed, error) {
	t, _, err := s.typeExprEnv(qs, e, c)
	return t, err
}

func (s *state) typeExprEnv(qs *qscope, e ast.Expr, c clause) (*Typed, *exprEnv, error) {
	env := &exprEnv{s: s, qs: qs, clause: c, subs: map[string]ast.Expr{}, refs: map[*ast.Identifier]colRef{},
		targets: map[string]phTarget{}}
	pre, err := mapExpr(e, env.prepare)
	if err != nil {
		return nil, nil, err
	}
	env.pre = pre
	t, err := env.typePre(pre)
	return t, env, err
}

func (env *exprEnv) typePre(pre ast.Expr) (*Typed, error) {
	v := New(env.s.a.Funcs)
	v.Source = env.s.a.Source
	v.AllowAggregates = env.clause.aggregatesAllowed()
	t, err := v.Expr(NewScope(env.cols...), pre)
	if err != nil {
		return nil, err
	}
	post, err := mapExpr(t.Expr, env.post)
	if err != nil {
		return nil, err
	}
	return &Typed{Expr: post, Type: t.Type}, nil
}

// placeholder registers a column of type t standing for repl and returns
// its name.
func (env *exprEnv) placeholder(t *types.Type, repl ast.Expr, tgt phTarget) string {
	env.s.synth++
	name := placeholderPrefix + strconv.Itoa(env.s.synth)
	env.cols = append(env.cols, Column{Name: name, Type: t})
	env.subs[name] = repl
	env.targets[name] = tgt
	return name
}

// subquery validates a sub-query of the expression; its outer scope is a
// bridge to the expression's scope carrying a fresh correlation id.
func (env *exprEnv) subquery(q ast.Query, kind plan.SubQueryKind) (*Analyzed, *plan.SubQuery, error) {
	env.s.nextCorr++
	bridge := &qscope{parent: env.qs, corrID: env.s.nextCorr}
	an, err := env.s.query(q, bridge)
	if err != nil {
		return nil, nil, err
	}
	sq := &plan.SubQuery{Kind: kind, Query: an.Plan}
	if bridge.corrUsed {
		sq.ID = bridge.corrID
	}
	if an.Plan == nil {
		env.s.noPlan(an.PlanErr)
	}
	return an, sq, nil
}

func (env *exprEnv) prepare(e ast.Expr) (ast.Expr, bool, error) {
	switch e := e.(type) {
	case *ast.Identifier:
		r, err := env.qs.resolve(e)
		if err != nil {
			return nil, true, err
		}
		col := r.rel.cols[r.col]
		var parts []*ast.Ident
		if r.rel.alias != "" {
			parts = append(parts, &ast.Ident{Pos: e.Parts[0].Pos, Name: r.rel.alias, Quoted: true})
		}
		colPos := e.Parts[len(e.Parts)-len(r.rest)-1].Pos
		parts = append(parts, &ast.Ident{Pos: colPos, Name: col.Name, Quoted: true})
		repl := &ast.Identifier{Parts: parts}
		written := make([]string, len(e.Parts)-len(r.rest))
		for i := range written {
			written[i] = e.Parts[i].Name
		}
		env.refs[repl] = colRef{written: strings.Join(written, "."), outer: r.outer}
		name := env.placeholder(col.Type, repl, phTarget{index: r.rel.offset + r.col, corr: r.corr, name: col.Name})
		out := []*ast.Ident{{Pos: colPos, Name: name}}
		return &ast.Identifier{Parts: append(out, r.rest...)}, true, nil
	case *ast.Subquery:
		an, sq, err := env.subquery(e.Query, plan.SubScalar)
		if err != nil {
			return nil, true, err
		}
		if len(an.Columns) != 1 {
			return nil, true, errorf(e.Pos, ErrIncompatible, "Sub-query as expression must return exactly one column")
		}
		sq.T = an.Columns[0].Type.WithNullable(true)
		name := env.placeholder(sq.T, &ast.Subquery{Pos: e.Pos, Query: an.Query}, phTarget{expr: sq})
		return &ast.Identifier{Parts: []*ast.Ident{{Pos: e.Pos, Name: name}}}, true, nil
	case *ast.Exists:
		an, sq, err := env.subquery(e.Query, plan.SubExists)
		if err != nil {
			return nil, true, err
		}
		sq.T = types.New(types.Boolean).WithNullable(false)
		name := env.placeholder(sq.T, &ast.Exists{Pos: e.Pos, Query: an.Query}, phTarget{expr: sq})
		return &ast.Identifier{Parts: []*ast.Ident{{Pos: e.Pos, Name: name}}}, true, nil
	case *ast.InExpr:
		if e.Query == nil {
			return e, false, nil
		}
		x, left, err := env.subqueryLeft(e.X)
		if err != nil {
			return nil, true, err
		}
		an, sq, err := env.subquery(e.Query, plan.SubIn)
		if err != nil {
			return nil, true, err
		}
		n := 1
		if x.Type.Kind == types.Row {
			n = len(x.Type.Fields)
		}
		if len(an.Columns) != n {
			return nil, true, errorf(e.Pos, ErrIncompatible, "Values passed to IN operator must have compatible types")
		}
		nullable := x.Type.Nullable()
		if n == 1 {
			if !functions.CanCompare(x.Type, an.Columns[0].Type) {
				return nil, true, errorf(e.Pos, ErrIncompatible, "Values passed to IN operator must have compatible types")
			}
			nullable = nullable || an.Columns[0].Type.Nullable()
		}
		repl := &ast.InExpr{Pos: e.Pos, X: x.Expr, Not: e.Not, Query: an.Query}
		sq.T = types.New(types.Boolean).WithNullable(nullable)
		if left != nil {
			if call, ok := left.(*plan.Call); ok && call.Name == plan.OpRow {
				sq.Left = call.Args
			} else {
				sq.Left = []plan.Expr{left}
			}
			env.s.noPlan(coerceInSubquery(e.Pos, sq, an.Columns))
		}
		var target plan.Expr = sq
		if e.Not {
			target = &plan.Call{Name: plan.OpNot, Args: []plan.Expr{sq}, T: sq.T}
		}
		name := env.placeholder(sq.T, repl, phTarget{expr: target})
		return &ast.Identifier{Parts: []*ast.Ident{{Pos: e.Pos, Name: name}}}, true, nil
	case *ast.FuncCall:
		if err := env.checkAggregateClause(e); err != nil {
			return nil, true, err
		}
		if e.OverName != nil || e.Over != nil && e.Over.Ref != nil {
			// A named window: validate (and plan) the call over the window's
			// definition; the expanded text keeps OVER w.
			spec, err := env.s.windowSpec(e)
			if err != nil {
				return nil, true, err
			}
			cp := *e
			cp.Over = spec
			x, err := mapChildren(&cp, env.prepare)
			return x, true, err
		}
	case *ast.QuantifiedExpr:
		return env.prepareQuantified(e)
	case *ast.Star, *ast.Descriptor, *ast.TableArg:
		return e, true, nil
	}
	return e, false, nil
}

// checkAggregateClause reports an aggregate where the clause forbids it,
// in Calcite's words.
func (env *exprEnv) checkAggregateClause(e *ast.FuncCall) error {
	if env.clause.aggregatesAllowed() || env.clause == clauseValues {
		return nil
	}
	f := env.s.lookupFunc(e)
	if f == nil || f.Kind == functions.Scalar {
		return nil
	}
	if e.Over != nil || e.OverName != nil {
		return errorf(e.Pos, ErrAggregateMisused, "Windowed aggregate expression is illegal in %s clause", env.clause)
	}
	if f.Kind == functions.Aggregate {
		return errorf(e.Pos, ErrAggregateMisused, "Aggregate expression is illegal in %s clause", env.clause)
	}
	return nil
}

func (s *state) lookupFunc(e *ast.FuncCall) *functions.Func {
	if len(e.Name.Parts) != 1 {
		return nil
	}
	f, _ := s.a.Funcs.Lookup(strings.ToUpper(e.Name.Parts[0].Name))
	return f
}

func (env *exprEnv) post(e ast.Expr) (ast.Expr, bool, error) {
	id, ok := e.(*ast.Identifier)
	if !ok || !strings.HasPrefix(id.Parts[0].Name, placeholderPrefix) {
		return e, false, nil
	}
	repl := env.subs[id.Parts[0].Name]
	rid, ok := repl.(*ast.Identifier)
	if !ok {
		return repl, true, nil
	}
	out := &ast.Identifier{Parts: append(append([]*ast.Ident(nil), rid.Parts...), id.Parts[1:]...)}
	env.refs[out] = env.refs[rid]
	return out, true, nil
}

// hasField reports whether t is a ROW with a field of that name.
func hasField(t *types.Type, name string) bool {
	if t.Kind != types.Row {
		return false
	}
	for _, f := range t.Fields {
		if f.Name == name {
			return true
		}
	}
	return false
}
