package validate

import (
	"strconv"
	"strings"

	"eddy/engine/ast"
	"eddy/engine/functions"
	"eddy/engine/plan"
	"eddy/engine/types"
)

// selectQuery validates one SELECT block and, when given, the ORDER BY
// items that follow it. It returns the block's analysis (its Query is the
// expanded *ast.Select, its Plan sorted by the ORDER BY) and the expanded
// ORDER BY items.
func (s *state) selectQuery(sel *ast.Select, outer *qscope, orderBy []*ast.OrderItem) (*Analyzed, []*ast.OrderItem, error) {
	sel, legacy := groupWindow(sel)
	if legacy != nil {
		if s.legacyWindows == nil {
			s.legacyWindows = map[*ast.TableFunc]bool{}
		}
		s.legacyWindows[legacy] = true
	}
	qs := &qscope{parent: outer}
	out := &ast.Select{Pos: sel.Pos, Hints: sel.Hints, Quantifier: sel.Quantifier, Windows: sel.Windows}
	// A SELECT without FROM reads one empty row.
	var node plan.Node = &plan.Values{Cols: plan.Schema{}, Rows: [][]plan.Expr{{}}}
	if sel.From != nil {
		f, p, err := s.from(sel.From, qs)
		if err != nil {
			return nil, nil, err
		}
		out.From, node = f, p
	}
	if sel.Where != nil {
		if err := checkUntypedNull(sel.Where, true); err != nil {
			return nil, nil, err
		}
		w, env, err := s.typeExprEnv(qs, sel.Where, clauseWhere)
		if err != nil {
			return nil, nil, err
		}
		if !isBool(w.Type) {
			return nil, nil, errorf(sel.Where.Position(), ErrExpectedBoolean, "WHERE clause must be a condition")
		}
		out.Where = w.Expr
		cond, err := env.toPlan(env.pre)
		s.noPlan(err)
		if node != nil && cond != nil {
			node = &plan.Filter{Input: node, Cond: cond}
		}
	}
	savedWindows := s.windows
	defer func() { s.windows = savedWindows }()
	s.windows = nil
	wins, err := s.namedWindows(sel.Windows, qs)
	if err != nil {
		return nil, nil, err
	}
	out.Windows = wins
	g, err := s.groupBy(sel, qs)
	if err != nil {
		return nil, nil, err
	}
	out.GroupBy = g.items
	aggregated := len(sel.GroupBy) > 0 || sel.Having != nil || s.hasAggregate(sel.Items) || s.hasAggregateOrder(orderBy)
	ab := &aggBuilder{g: g}
	keep := keepsTimeAttributes(g, aggregated)

	var cols []OutputColumn
	var exprs []ast.Expr // expanded select items without their alias, for ORDER BY
	var pexprs []plan.Expr
	used := map[string]bool{}
	add := func(e ast.Expr, natural string, alias *ast.Ident, t *types.Type, env *exprEnv, pos ast.Pos) error {
		name := natural
		if alias != nil {
			name = alias.Name
		}
		if used[name] {
			for i := 0; ; i++ {
				cand := name + itoa(i)
				if !used[cand] {
					name = cand
					break
				}
			}
		}
		used[name] = true
		if !keep(e) {
			t = materialized(t)
		}
		// Calcite keeps duplicate names in the validated select list (the
		// plan makes them unique), so the expanded text shows no alias for
		// a renamed duplicate.
		item := &ast.SelectItem{Expr: e}
		if alias != nil {
			item.Alias = &ast.Ident{Name: alias.Name, Quoted: true}
		}
		if aggregated {
			if err := s.checkGrouped(e, g.exprs, env); err != nil {
				return err
			}
		}
		out.Items = append(out.Items, item)
		cols = append(cols, OutputColumn{Name: name, Type: t, Pos: pos, Natural: natural})
		if alias != nil {
			cols[len(cols)-1].Natural = alias.Name
		}
		exprs = append(exprs, e)
		p := s.selectPlan(env, aggregated, ab)
		if p != nil && !keep(e) && p.Type().TimeAttr != types.Regular {
			p = &plan.Cast{X: p, T: t}
		}
		pexprs = append(pexprs, p)
		return nil
	}
	for _, it := range sel.Items {
		if star, ok := it.Expr.(*ast.Star); ok {
			items, err := s.expandStar(star, qs, sel.From == nil)
			if err != nil {
				return nil, nil, err
			}
			for _, x := range items {
				t, env, err := s.typeExprEnv(qs, x.expr, clauseSelect)
				if err != nil {
					return nil, nil, err
				}
				var alias *ast.Ident
				if x.alias != "" {
					alias = &ast.Ident{Name: x.alias, Quoted: true}
				}
				if err := add(t.Expr, x.name, alias, g.adjust(t), env, star.Pos); err != nil {
					return nil, nil, err
				}
			}
			continue
		}
		expr, alias := it.Expr, quoted(it.Alias)
		if call := commonColumn(it.Expr, qs); call != nil {
			// Calcite's expandCommonColumn: a merged USING/NATURAL column.
			expr = call
			if alias == nil {
				alias = &ast.Ident{Name: naturalName(it.Expr, 0), Quoted: true}
			}
		}
		if err := checkUntypedNull(it.Expr, false); err != nil {
			return nil, nil, err
		}
		if err := checkConstantDivision(it.Expr); err != nil {
			return nil, nil, err
		}
		t, env, err := s.typeExprEnv(qs, expr, clauseSelect)
		if err != nil {
			return nil, nil, err
		}
		if err := add(t.Expr, naturalName(it.Expr, len(cols)), alias, g.adjust(t), env, it.Expr.Position()); err != nil {
			return nil, nil, err
		}
	}
	var having plan.Expr
	if sel.Having != nil {
		if err := checkUntypedNull(sel.Having, true); err != nil {
			return nil, nil, err
		}
		h, env, err := s.typeExprEnv(qs, sel.Having, clauseHaving)
		if err != nil {
			return nil, nil, err
		}
		if !isBool(h.Type) {
			return nil, nil, errorf(sel.Having.Position(), ErrExpectedBoolean, "HAVING clause must be a condition")
		}
		if err := s.checkGrouped(h.Expr, g.exprs, env); err != nil {
			return nil, nil, err
		}
		out.Having = h.Expr
		having = s.selectPlan(env, true, ab)
	}
	q, err := s.qualify(sel, qs, aggregated, g, ab)
	if err != nil {
		return nil, nil, err
	}
	if q != nil {
		out.Qualify = q.typed
	}
	var items []*ast.OrderItem
	var keys []plan.SortKey
	extra := 0
	for _, o := range orderBy {
		e, idx, env, err := s.orderKey(o.Expr, qs, cols, exprs, aggregated, g.exprs)
		if err != nil {
			return nil, nil, err
		}
		item := *o
		item.Expr = e
		items = append(items, &item)
		if idx < 0 {
			// A key that is not a select item: a hidden column, dropped
			// after the sort.
			idx = len(pexprs)
			pexprs = append(pexprs, s.selectPlan(env, aggregated, ab))
			extra++
		}
		keys = append(keys, sortKey(o, &plan.ColumnRef{Index: idx, Name: "", T: typeOrNull(pexprs[idx])}))
	}
	an := &Analyzed{Columns: cols, Query: out}
	if node == nil || s.planErr != nil {
		return an, items, nil
	}
	if aggregated {
		node = &plan.Aggregate{Input: node, Group: g.plans, GroupNames: g.names, GroupingSets: g.sets, Aggs: ab.aggs}
		if having != nil {
			node = &plan.Filter{Input: node, Cond: having}
		}
	}
	if ab.over != nil {
		if aggregated {
			width := len(node.Schema())
			for _, r := range ab.overRefs {
				r.Index += width
			}
		}
		ab.over.Input = node
		node = ab.over
	}
	names := make([]string, len(pexprs))
	for i := range pexprs {
		if i < len(cols) {
			names[i] = cols[i].Name
		} else {
			names[i] = "$order" + itoa(i-len(cols))
		}
	}
	if q != nil {
		// The condition is a hidden last column: filter on it, drop it.
		pexprs = append(pexprs, q.plan)
		names = append(names, "$qualify")
		node = &plan.Project{Input: node, Exprs: pexprs, Names: names}
		sch := node.Schema()
		node = &plan.Filter{Input: node, Cond: sch.Ref(len(sch) - 1)}
		keep := make([]plan.Expr, len(sch)-1)
		for i := range keep {
			keep[i] = sch.Ref(i)
		}
		pexprs, names = pexprs[:len(pexprs)-1], names[:len(names)-1]
		node = &plan.Project{Input: node, Exprs: keep, Names: names}
	} else {
		node = &plan.Project{Input: node, Exprs: pexprs, Names: names}
	}
	if strings.EqualFold(sel.Quantifier, "DISTINCT") {
		sch := node.Schema()
		group := make([]plan.Expr, len(sch))
		for i := range sch {
			group[i] = sch.Ref(i)
		}
		node = &plan.Aggregate{Input: node, Group: group, GroupNames: sch.Names()}
	}
	if len(keys) > 0 {
		node = &plan.Sort{Input: node, Keys: keys}
	}
	if extra > 0 {
		sch := node.Schema()
		trim := make([]plan.Expr, len(cols))
		for i := range cols {
			trim[i] = sch.Ref(i)
		}
		node = &plan.Project{Input: node, Exprs: trim, Names: names[:len(cols)]}
	}
	an.Plan = node
	return an, items, nil
}

func typeOrNull(e plan.Expr) *types.Type {
	if e == nil {
		return types.New(types.Null)
	}
	return e.Type()
}

// aggBuilder collects the aggregate calls of an aggregating SELECT and
// the window calls of OVER windows.
type aggBuilder struct {
	g      *grouping
	aggs   []plan.AggCall
	finals []ast.Expr // the expanded form of each aggregate call, to share equal ones
	over   *plan.Over
	wins   []ast.Expr
	// overRefs are the references to window calls over an Aggregate,
	// counted from the first window column.
	overRefs []*plan.ColumnRef
}

// selectPlan converts a validated select-list, HAVING or ORDER BY
// expression: over the FROM row, or, in an aggregating query, over the
// Aggregate's output (group columns, then aggregate calls). A failure
// only marks the query as having no plan.
func (s *state) selectPlan(env *exprEnv, aggregated bool, ab *aggBuilder) plan.Expr {
	if s.planErr != nil {
		return nil
	}
	var rec func(e ast.Expr) (plan.Expr, error)
	rec = func(e ast.Expr) (plan.Expr, error) {
		// The expanded form of the sub-tree costs a copy of it: make it only
		// where it is compared or kept, so that converting a long chain of
		// operators stays linear outside aggregating queries.
		var finished ast.Expr
		final := func() ast.Expr {
			if finished == nil {
				finished = env.final(e)
			}
			return finished
		}
		if aggregated {
			fin := final()
			for i, g := range ab.g.exprs {
				if ast.Equal(fin, g) {
					t := ab.g.plans[i].Type()
					if ab.g.partial[i] {
						t = t.WithNullable(true)
					}
					return &plan.ColumnRef{Index: i, Name: ab.g.names[i], T: t}, nil
				}
			}
		}
		if fc, ok := e.(*ast.FuncCall); ok {
			f := s.lookupFunc(fc)
			switch {
			case f != nil && (fc.Over != nil || fc.OverName != nil):
				return s.windowCall(env, fc, f, final(), aggregated, ab, rec)
			case f != nil && f.Kind == functions.Aggregate && aggregated:
				return s.aggCall(env, fc, f, final(), ab)
			}
		}
		if jc, f, ok := s.isJSONAggregate(e); ok && aggregated {
			return s.jsonAggCall(env, jc, f, final(), ab)
		}
		if id, ok := e.(*ast.Identifier); ok && aggregated {
			if tgt := env.targets[id.Parts[0].Name]; tgt.expr == nil && tgt.corr == 0 {
				return nil, errorf(id.Parts[0].Pos, ErrNoPlan, "No plan for a column outside GROUP BY")
			}
		}
		return env.convert(e, rec)
	}
	p, err := rec(env.pre)
	s.noPlan(err)
	return foldFloats(p)
}

// foldFloats marks each largest constant sub-expression of type FLOAT
// (no column read, only deterministic calls; not a literal or the cast of
// one) as
// folded, so that its value is the literal Flink's planner reduces it to
// (plan.OpFoldFloat): `CAST(1.1 AS FLOAT) * 3` is 3.3, where the same
// product over a column's value is 3.3000002.
func foldFloats(e plan.Expr) plan.Expr {
	if e == nil {
		return nil
	}
	if constantExpr(e) {
		if !literalLike(e) && e.Type().Kind == types.Float {
			return &plan.Call{Name: plan.OpFoldFloat, Args: []plan.Expr{e}, T: e.Type()}
		}
		return e
	}
	switch x := e.(type) {
	case *plan.Call:
		cp := *x
		cp.Args = make([]plan.Expr, len(x.Args))
		for i, a := range x.Args {
			cp.Args[i] = foldFloats(a)
		}
		return &cp
	case *plan.Cast:
		cp := *x
		cp.X = foldFloats(x.X)
		return &cp
	case *plan.Case:
		cp := *x
		cp.Whens = make([]plan.When, len(x.Whens))
		for i, w := range x.Whens {
			cp.Whens[i] = plan.When{Cond: foldFloats(w.Cond), Result: foldFloats(w.Result)}
		}
		cp.Else = foldFloats(x.Else)
		return &cp
	case *plan.FieldAccess:
		cp := *x
		cp.X = foldFloats(x.X)
		return &cp
	}
	return e
}

// literalLike reports a literal or the cast of one, which Calcite turns
// into a literal of the target type when it converts the query, before
// any folding: CAST(123456789 AS FLOAT) keeps its nearest FLOAT value.
func literalLike(e plan.Expr) bool {
	if c, ok := e.(*plan.Cast); ok {
		e = c.X
	}
	_, ok := e.(*plan.Literal)
	return ok
}

// constantExpr reports an expression of literals and deterministic calls.
func constantExpr(e plan.Expr) bool {
	switch x := e.(type) {
	case *plan.Literal:
		return true
	case *plan.Call:
		if x.Func != nil && !x.Func.Deterministic {
			return false
		}
		for _, a := range x.Args {
			if !constantExpr(a) {
				return false
			}
		}
		return true
	case *plan.Cast:
		return constantExpr(x.X)
	case *plan.Case:
		for _, w := range x.Whens {
			if !constantExpr(w.Cond) || !constantExpr(w.Result) {
				return false
			}
		}
		return x.Else == nil || constantExpr(x.Else)
	case *plan.FieldAccess:
		return constantExpr(x.X)
	}
	return false
}

// aggCall adds an aggregate call (or finds an equal one) and returns the
// reference to its column of the Aggregate's output.
func (s *state) aggCall(env *exprEnv, fc *ast.FuncCall, f *functions.Func, fin ast.Expr, ab *aggBuilder) (plan.Expr, error) {
	t, err := env.typeOf(fc)
	if err != nil {
		return nil, err
	}
	base := len(ab.g.plans)
	for k, a := range ab.finals {
		if ast.Equal(fin, a) {
			return &plan.ColumnRef{Index: base + k, Name: ab.aggs[k].Alias, T: ab.aggs[k].T}, nil
		}
	}
	call := plan.AggCall{Name: f.Name, Func: f, Distinct: strings.EqualFold(fc.Quantifier, "DISTINCT"),
		Alias: "$f" + itoa(base+len(ab.aggs)), T: t}
	for _, a := range fc.Args {
		if _, star := a.(*ast.Star); star {
			continue
		}
		x, err := env.toPlan(a)
		if err != nil {
			return nil, err
		}
		call.Args = append(call.Args, x)
	}
	if fc.Filter != nil {
		if call.Filter, err = env.toPlan(fc.Filter); err != nil {
			return nil, err
		}
	}
	for _, o := range fc.WithinGroup {
		x, err := env.toPlan(o.Expr)
		if err != nil {
			return nil, err
		}
		call.OrderBy = append(call.OrderBy, sortKey(o, x))
	}
	ab.aggs = append(ab.aggs, call)
	ab.finals = append(ab.finals, fin)
	return &plan.ColumnRef{Index: base + len(ab.aggs) - 1, Name: call.Alias, T: t}, nil
}

// windowCall adds an OVER window call to the Over node below the
// projection and returns the reference to its column.
//
// In an aggregating query the window runs over the Aggregate's output: its
// arguments, partition and order keys are converted by conv (group keys
// and aggregate calls become that output's columns), and the reference's
// index is counted from the window's first column, the Aggregate's width
// added when the query's plan is built (ab.overRefs), since later select
// items may still add aggregate calls.
func (s *state) windowCall(env *exprEnv, fc *ast.FuncCall, f *functions.Func, fin ast.Expr, aggregated bool, ab *aggBuilder,
	conv func(ast.Expr) (plan.Expr, error)) (plan.Expr, error) {
	if fc.Over == nil {
		return nil, errorf(fc.Pos, ErrNoPlan, "This OVER window is not supported by the local engine")
	}
	t, err := env.typeOf(fc)
	if err != nil {
		return nil, err
	}
	if ab.over == nil {
		ab.over = &plan.Over{}
	}
	width := env.qs.width()
	if aggregated {
		width = 0
	} else {
		conv = env.toPlan
	}
	ref := func(k int, name string, t *types.Type) plan.Expr {
		r := &plan.ColumnRef{Index: width + k, Name: name, T: t}
		if aggregated {
			ab.overRefs = append(ab.overRefs, r)
		}
		return r
	}
	for k, w := range ab.wins {
		if ast.Equal(fin, w) {
			c := ab.over.Calls[k]
			return ref(k, c.Alias, c.T), nil
		}
	}
	call := plan.WindowCall{Name: f.Name, Func: f, Distinct: strings.EqualFold(fc.Quantifier, "DISTINCT"),
		Alias: "w" + itoa(len(ab.wins)) + "$o0", T: t}
	for _, a := range fc.Args {
		if _, star := a.(*ast.Star); star {
			continue
		}
		x, err := conv(a)
		if err != nil {
			return nil, err
		}
		call.Args = append(call.Args, x)
	}
	for _, p := range fc.Over.PartitionBy {
		x, err := conv(p)
		if err != nil {
			return nil, err
		}
		call.Partition = append(call.Partition, x)
	}
	for _, o := range fc.Over.OrderBy {
		x, err := conv(o.Expr)
		if err != nil {
			return nil, err
		}
		call.Order = append(call.Order, sortKey(o, x))
	}
	call.Frame, err = env.frame(fc.Over)
	if err != nil {
		return nil, err
	}
	ab.over.Calls = append(ab.over.Calls, call)
	ab.wins = append(ab.wins, fin)
	return ref(len(ab.wins)-1, call.Alias, t), nil
}

// frame converts a window's frame; without one, Flink's default: RANGE
// from the start to the current row when ordered, the whole partition
// otherwise.
func (env *exprEnv) frame(w *ast.WindowSpec) (plan.Frame, error) {
	if w.Frame == nil {
		if len(w.OrderBy) > 0 {
			return plan.Frame{Mode: plan.FrameRange, Start: plan.Bound{Kind: plan.UnboundedPreceding}, End: plan.Bound{Kind: plan.CurrentRow}}, nil
		}
		return plan.Frame{Mode: plan.FrameRows, Start: plan.Bound{Kind: plan.UnboundedPreceding}, End: plan.Bound{Kind: plan.UnboundedFollowing}}, nil
	}
	mode := plan.FrameRange
	if w.Frame.Rows {
		mode = plan.FrameRows
	}
	start, err := env.bound(w.Frame.Start)
	if err != nil {
		return plan.Frame{}, err
	}
	end := plan.Bound{Kind: plan.CurrentRow}
	if w.Frame.End != nil {
		if end, err = env.bound(w.Frame.End); err != nil {
			return plan.Frame{}, err
		}
	}
	return plan.Frame{Mode: mode, Start: start, End: end}, nil
}

func (env *exprEnv) bound(b *ast.FrameBound) (plan.Bound, error) {
	kinds := map[string]plan.BoundKind{"UNBOUNDED PRECEDING": plan.UnboundedPreceding, "CURRENT ROW": plan.CurrentRow,
		"UNBOUNDED FOLLOWING": plan.UnboundedFollowing, "PRECEDING": plan.Preceding, "FOLLOWING": plan.Following}
	out := plan.Bound{Kind: kinds[strings.ToUpper(b.Kind)]}
	if b.Offset != nil {
		x, err := env.toPlan(b.Offset)
		if err != nil {
			return out, err
		}
		out.Offset = x
	}
	return out, nil
}

// orderKey validates one ORDER BY key of a SELECT: an ordinal or an
// output column's name stands for that select item (Calcite replaces it
// by the item's expression; idx is its position); anything else is an
// expression over FROM (idx -1, env its validation).
func (s *state) orderKey(e ast.Expr, qs *qscope, cols []OutputColumn, exprs []ast.Expr,
	aggregated bool, groups []ast.Expr) (ast.Expr, int, *exprEnv, error) {
	if i, ok := ordinal(e); ok {
		if i < 1 || i > len(exprs) {
			return nil, 0, nil, errorf(e.Position(), ErrQuery, "Ordinal out of range")
		}
		return exprs[i-1], i - 1, nil, nil
	}
	if id, ok := e.(*ast.Identifier); ok && len(id.Parts) == 1 {
		for i, c := range cols {
			if c.Name == id.Parts[0].Name {
				return exprs[i], i, nil, nil
			}
		}
	}
	t, env, err := s.typeExprEnv(qs, e, clauseOrderBy)
	if err != nil {
		return nil, 0, nil, err
	}
	if aggregated {
		if err := s.checkGrouped(t.Expr, groups, env); err != nil {
			return nil, 0, nil, err
		}
	}
	for i, x := range exprs {
		if ast.Equal(t.Expr, x) {
			return t.Expr, i, env, nil
		}
	}
	return t.Expr, -1, env, nil
}

// naturalName is the name Calcite gives a select item without an alias:
// an identifier's last part, else EXPR$ and the item's ordinal.
func naturalName(e ast.Expr, ordinal int) string {
	if id, ok := e.(*ast.Identifier); ok {
		return id.Parts[len(id.Parts)-1].Name
	}
	return exprName(ordinal)
}

// starItem is one column a `*` expands to.
type starItem struct {
	expr  ast.Expr
	name  string
	alias string // an explicit alias for the expanded text, or ""
}

// expandStar expands `*` or `t.*`. For `*` over USING or NATURAL joins the
// merged columns come first, once, as COALESCE(l.c, r.c) AS c, as
// Calcite's expandStar permutes them.
func (s *state) expandStar(star *ast.Star, qs *qscope, noFrom bool) ([]starItem, error) {
	ref := func(alias, col string) ast.Expr {
		return &ast.Identifier{Parts: []*ast.Ident{{Pos: star.Pos, Name: alias, Quoted: true}, {Pos: star.Pos, Name: col, Quoted: true}}}
	}
	if len(star.Qualifier) > 0 {
		q := star.Qualifier[len(star.Qualifier)-1]
		r := qs.relation(q.Name)
		if r == nil {
			return nil, errorf(q.Pos, ErrTableNotFound, "Unknown identifier '%s'", q.Name)
		}
		var out []starItem
		for _, c := range r.cols {
			out = append(out, starItem{expr: ref(r.alias, c.Name), name: c.Name})
		}
		return out, nil
	}
	if noFrom {
		return nil, errorf(star.Pos, ErrQuery, "SELECT * requires a FROM clause")
	}
	var out []starItem
	done := map[string]bool{}
	for _, r := range qs.rels {
		for _, c := range r.cols {
			if !qs.common[c.Name] || done[c.Name] {
				continue
			}
			done[c.Name] = true
			out = append(out, starItem{expr: coalesce(qs, c.Name, star.Pos), name: c.Name, alias: c.Name})
		}
	}
	for _, r := range qs.rels {
		for _, c := range r.cols {
			if qs.common[c.Name] {
				continue
			}
			out = append(out, starItem{expr: ref(r.alias, c.Name), name: c.Name})
		}
	}
	return out, nil
}

// hasAggregate reports whether a select list calls an aggregate function
// outside an OVER window and outside sub-queries.
func (s *state) hasAggregate(items []*ast.SelectItem) bool {
	for _, it := range items {
		if s.containsAggregate(it.Expr) {
			return true
		}
	}
	return false
}

func (s *state) hasAggregateOrder(items []*ast.OrderItem) bool {
	for _, it := range items {
		if s.containsAggregate(it.Expr) {
			return true
		}
	}
	return false
}

func (s *state) containsAggregate(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case ast.Query:
			return false
		case *ast.FuncCall:
			if n.Over != nil || n.OverName != nil {
				return true
			}
			if f := s.lookupFunc(n); f != nil && f.Kind == functions.Aggregate {
				found = true
				return false
			}
		case *ast.JSONCall:
			if _, _, ok := s.isJSONAggregate(n); ok {
				found = true
				return false
			}
		}
		return !found
	})
	return found
}

// checkGrouped checks that an expression of an aggregating query uses
// only grouped expressions outside aggregate calls (Calcite's AggChecker).
func (s *state) checkGrouped(e ast.Expr, groups []ast.Expr, env *exprEnv) error {
	_, err := mapExpr(e, func(x ast.Expr) (ast.Expr, bool, error) {
		for _, g := range groups {
			if ast.Equal(x, g) {
				return x, true, nil
			}
		}
		switch x := x.(type) {
		case *ast.FuncCall:
			if x.Over == nil && x.OverName == nil {
				if f := s.lookupFunc(x); f != nil && f.Kind == functions.Aggregate {
					return x, true, nil
				}
			}
		case *ast.Identifier:
			ref, ok := env.refs[x]
			if !ok || ref.outer {
				return x, true, nil
			}
			return nil, true, errorf(x.Parts[0].Pos, ErrNotGrouped, "Expression '%s' is not being grouped", ref.written)
		case *ast.JSONCall:
			if _, _, ok := s.isJSONAggregate(x); ok {
				return x, true, nil
			}
		case *ast.Subquery, *ast.Exists:
			return x, true, nil
		}
		return x, false, nil
	})
	return err
}

// ErrNotGrouped is a column used outside aggregates that is not grouped.
var ErrNotGrouped = &Kind{"expression not grouped", classCalcite}

// grouping is the validated GROUP BY clause.
type grouping struct {
	items   []ast.Expr  // the expanded clause
	exprs   []ast.Expr  // the distinct grouped expressions (expanded)
	plans   []plan.Expr // the same over the FROM row
	names   []string    // their column names in the Aggregate's output
	partial []bool      // missing from some grouping set: NULL in that set's rows
	sets    [][]int     // the grouping sets as positions in exprs; nil for a plain GROUP BY
}

// adjust makes a select item nullable when it is a grouped expression
// missing from some grouping set.
func (g *grouping) adjust(t *Typed) *types.Type {
	for i, p := range g.exprs {
		if g.partial[i] && ast.Equal(t.Expr, p) {
			return withNullable(t.Type, true)
		}
	}
	return t.Type
}

// groupBy validates GROUP BY: plain expressions, GROUPING SETS, ROLLUP,
// CUBE and the empty set ().
func (s *state) groupBy(sel *ast.Select, qs *qscope) (*grouping, error) {
	g := &grouping{}
	plain := true
	var walk func(e ast.Expr) (ast.Expr, [][]ast.Expr, error)
	walk = func(e ast.Expr) (ast.Expr, [][]ast.Expr, error) {
		switch e := e.(type) {
		case *ast.GroupingSet:
			plain = false
			out := &ast.GroupingSet{Pos: e.Pos, Kind: e.Kind}
			var parts [][][]ast.Expr
			for _, it := range e.Items {
				x, sub, err := walk(it)
				if err != nil {
					return nil, nil, err
				}
				out.Items = append(out.Items, x)
				parts = append(parts, sub)
			}
			return out, combineSets(e.Kind, parts), nil
		case *ast.RowCtor:
			if len(e.Elems) == 0 {
				plain = false
			}
			out := &ast.RowCtor{Pos: e.Pos, Explicit: e.Explicit}
			var set []ast.Expr
			for _, it := range e.Elems {
				x, sub, err := walk(it)
				if err != nil {
					return nil, nil, err
				}
				out.Elems = append(out.Elems, x)
				for _, s := range sub {
					set = append(set, s...)
				}
			}
			return out, [][]ast.Expr{set}, nil
		}
		t, env, err := s.typeExprEnv(qs, e, clauseGroupBy)
		if err != nil {
			return nil, nil, err
		}
		if g.find(t.Expr) < 0 {
			g.exprs = append(g.exprs, t.Expr)
			p, err := env.toPlan(env.pre)
			s.noPlan(err)
			g.plans = append(g.plans, p)
			name := "$f" + itoa(len(g.names))
			if id, ok := t.Expr.(*ast.Identifier); ok {
				name = id.Parts[len(id.Parts)-1].Name
			}
			g.names = append(g.names, name)
		}
		return t.Expr, [][]ast.Expr{{t.Expr}}, nil
	}
	var all [][][]ast.Expr
	for _, e := range sel.GroupBy {
		x, sub, err := walk(e)
		if err != nil {
			return nil, err
		}
		g.items = append(g.items, x)
		all = append(all, sub)
	}
	sets := combineSets("", all)
	g.partial = make([]bool, len(g.exprs))
	for i, x := range g.exprs {
		for _, set := range sets {
			in := false
			for _, y := range set {
				in = in || ast.Equal(x, y)
			}
			if !in {
				g.partial[i] = true
				break
			}
		}
	}
	if !plain {
		for _, set := range sets {
			idx := []int{}
			for _, y := range set {
				if i := g.find(y); i >= 0 && !containsInt(idx, i) {
					idx = append(idx, i)
				}
			}
			g.sets = append(g.sets, idx)
		}
	}
	return g, nil
}

func (g *grouping) find(e ast.Expr) int {
	for i, x := range g.exprs {
		if ast.Equal(x, e) {
			return i
		}
	}
	return -1
}

func containsInt(list []int, x int) bool {
	for _, y := range list {
		if y == x {
			return true
		}
	}
	return false
}

// combineSets computes the grouping sets of a GROUP BY element from those
// of its parts: GROUPING SETS unions them, ROLLUP takes prefixes, CUBE
// all subsets, and a plain list (kind "") the cross product.
func combineSets(kind string, parts [][][]ast.Expr) [][]ast.Expr {
	switch strings.ToUpper(kind) {
	case "GROUPING SETS":
		var out [][]ast.Expr
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	case "ROLLUP":
		var out [][]ast.Expr
		for n := len(parts); n >= 0; n-- {
			out = append(out, flatten(parts[:n]))
		}
		return out
	case "CUBE":
		var out [][]ast.Expr
		for mask := (1 << len(parts)) - 1; mask >= 0; mask-- {
			var sel [][][]ast.Expr
			for i := range parts {
				if mask&(1<<i) != 0 {
					sel = append(sel, parts[i])
				}
			}
			out = append(out, flatten(sel))
		}
		return out
	}
	out := [][]ast.Expr{nil}
	for _, p := range parts {
		var next [][]ast.Expr
		for _, a := range out {
			for _, b := range p {
				next = append(next, append(append([]ast.Expr(nil), a...), b...))
			}
		}
		out = next
	}
	return out
}

// flatten joins the first grouping set of each part (ROLLUP and CUBE
// elements are plain expressions or rows).
func flatten(parts [][][]ast.Expr) []ast.Expr {
	var out []ast.Expr
	for _, p := range parts {
		for _, set := range p {
			out = append(out, set...)
		}
	}
	return out
}

// coalesce builds COALESCE(l.c, r.c) over the relations that hold the
// merged column c.
func coalesce(qs *qscope, name string, pos ast.Pos) ast.Expr {
	var args []ast.Expr
	for _, r := range qs.rels {
		if r.index(name) >= 0 {
			args = append(args, &ast.Identifier{Parts: []*ast.Ident{{Pos: pos, Name: r.alias, Quoted: true}, {Pos: pos, Name: name, Quoted: true}}})
		}
	}
	return &ast.FuncCall{Pos: pos, Name: &ast.ObjectName{Parts: []*ast.Ident{{Pos: pos, Name: "COALESCE"}}}, Args: args}
}

// commonColumn returns the COALESCE a select item stands for when it is
// the bare name of a column merged by USING or NATURAL, else nil.
func commonColumn(e ast.Expr, qs *qscope) ast.Expr {
	id, ok := e.(*ast.Identifier)
	if !ok || len(id.Parts) != 1 || !qs.common[id.Parts[0].Name] {
		return nil
	}
	return coalesce(qs, id.Parts[0].Name, id.Parts[0].Pos)
}

// keepsTimeAttributes returns whether a select item of the query keeps
// its time attribute. An aggregation materializes time attributes (a
// rowtime grouped by a regular GROUP BY is a plain TIMESTAMP, as Flink
// derives it), except window_time of a window aggregation, which groups
// by window_start and window_end.
func keepsTimeAttributes(g *grouping, aggregated bool) func(ast.Expr) bool {
	if !aggregated {
		return func(ast.Expr) bool { return true }
	}
	windowed := false
	for _, e := range g.exprs {
		if id, ok := e.(*ast.Identifier); ok && id.Parts[len(id.Parts)-1].Name == "window_end" {
			windowed = true
		}
	}
	return func(e ast.Expr) bool {
		id, ok := e.(*ast.Identifier)
		return ok && windowed && id.Parts[len(id.Parts)-1].Name == "window_time"
	}
}

// materialized drops a time attribute: the value is a plain timestamp.
func materialized(t *types.Type) *types.Type {
	if t.TimeAttr == types.Regular {
		return t
	}
	return t.WithTimeAttr(types.Regular)
}

// checkConstantDivision reports a select item that divides one numeric
// constant by another that is zero (1.0E0 / 0, CAST(1 AS DOUBLE) / 0):
// Flink's planner reduces such an item with BigDecimal arithmetic and
// fails, of approximate numbers too, where a division inside a larger
// expression, or of a column, gives Infinity at run time.
func checkConstantDivision(e ast.Expr) error {
	b, ok := e.(*ast.BinaryExpr)
	if !ok || b.Op != "/" {
		return nil
	}
	if _, ok := numericConstant(b.L); !ok {
		return nil
	}
	if d, ok := numericConstant(b.R); ok && d == 0 {
		return errorf(b.Pos, ErrArithmetic, "Division by zero")
	}
	return nil
}

// numericConstant returns the value of a numeric literal, possibly signed
// or cast to a numeric type.
func numericConstant(e ast.Expr) (float64, bool) {
	switch e := e.(type) {
	case *ast.Literal:
		if e.Kind != ast.LitInteger && e.Kind != ast.LitDecimal && e.Kind != ast.LitFloat {
			return 0, false
		}
		f, err := strconv.ParseFloat(e.Value, 64)
		return f, err == nil
	case *ast.UnaryExpr:
		if e.Op != "-" && e.Op != "+" {
			return 0, false
		}
		return numericConstant(e.X)
	case *ast.Cast:
		if e.Try || e.Type == nil || !e.Type.Kind.IsNumeric() {
			return 0, false
		}
		return numericConstant(e.X)
	}
	return 0, false
}

// qualified is a typed QUALIFY condition: its expanded form and its plan.
type qualified struct {
	typed ast.Expr
	plan  plan.Expr
}

// qualify types the QUALIFY clause of sel, or returns nil without one. As
// in Calcite, the condition may name the select list's aliases and must
// contain a window function.
func (s *state) qualify(sel *ast.Select, qs *qscope, aggregated bool, g *grouping, ab *aggBuilder) (*qualified, error) {
	if sel.Qualify == nil {
		return nil, nil
	}
	aliases := map[string]ast.Expr{}
	for _, it := range sel.Items {
		if it.Alias != nil {
			aliases[it.Alias.Name] = it.Expr
		}
	}
	cond, err := mapExpr(sel.Qualify, func(e ast.Expr) (ast.Expr, bool, error) {
		if id, ok := e.(*ast.Identifier); ok && len(id.Parts) == 1 {
			if x, ok := aliases[id.Parts[0].Name]; ok {
				return x, true, nil
			}
		}
		return e, false, nil
	})
	if err != nil {
		return nil, err
	}
	if err := checkUntypedNull(cond, true); err != nil {
		return nil, err
	}
	t, env, err := s.typeExprEnv(qs, cond, clauseSelect)
	if err != nil {
		return nil, err
	}
	if !containsOver(t.Expr) {
		return nil, errorf(sel.Qualify.Position(), ErrQuery, "QUALIFY expression '%s' must contain a window function", ast.String(t.Expr))
	}
	if !isBool(t.Type) {
		return nil, errorf(sel.Qualify.Position(), ErrExpectedBoolean, "QUALIFY clause must be a condition")
	}
	if aggregated {
		if err := s.checkGrouped(t.Expr, g.exprs, env); err != nil {
			return nil, err
		}
	}
	return &qualified{typed: t.Expr, plan: s.selectPlan(env, aggregated, ab)}, nil
}

// containsOver reports a window function call (OVER) in e.
func containsOver(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if fc, ok := n.(*ast.FuncCall); ok && (fc.Over != nil || fc.OverName != nil) {
			found = true
		}
		return !found
	})
	return found
}
