package validate

import (
	"strings"

	"eddy/engine/ast"
	"eddy/engine/functions"
	"eddy/engine/types"
)

// selectQuery validates one SELECT block and, when given, the ORDER BY
// items that follow it. It returns the block's analysis (its Query is the
// expanded *ast.Select) and the expanded ORDER BY items.
func (s *state) selectQuery(sel *ast.Select, outer *qscope, orderBy []*ast.OrderItem) (*Analyzed, []*ast.OrderItem, error) {
	qs := &qscope{parent: outer}
	out := &ast.Select{Pos: sel.Pos, Hints: sel.Hints, Quantifier: sel.Quantifier, Windows: sel.Windows}
	if sel.From != nil {
		f, err := s.from(sel.From, qs)
		if err != nil {
			return nil, nil, err
		}
		out.From = f
	}
	if sel.Where != nil {
		w, err := s.typeExpr(qs, sel.Where, clauseWhere)
		if err != nil {
			return nil, nil, err
		}
		if !isBool(w.Type) {
			return nil, nil, errorf(sel.Where.Position(), ErrExpectedBoolean, "WHERE clause must be a condition")
		}
		out.Where = w.Expr
	}
	g, err := s.groupBy(sel, qs)
	if err != nil {
		return nil, nil, err
	}
	out.GroupBy = g.items
	aggregated := len(sel.GroupBy) > 0 || sel.Having != nil || s.hasAggregate(sel.Items) || s.hasAggregateOrder(orderBy)

	var cols []OutputColumn
	var exprs []ast.Expr // expanded select items without their alias, for ORDER BY
	used := map[string]bool{}
	add := func(e ast.Expr, natural string, alias *ast.Ident, t *types.Type) {
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
		item := &ast.SelectItem{Expr: e}
		if alias != nil || name != natural {
			item.Alias = &ast.Ident{Name: name, Quoted: true}
		}
		out.Items = append(out.Items, item)
		cols = append(cols, OutputColumn{Name: name, Type: t})
		exprs = append(exprs, e)
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
				if aggregated {
					if err := s.checkGrouped(t.Expr, g.exprs, env); err != nil {
						return nil, nil, err
					}
				}
				var alias *ast.Ident
				if x.alias != "" {
					alias = &ast.Ident{Name: x.alias, Quoted: true}
				}
				add(t.Expr, x.name, alias, g.adjust(t))
			}
			continue
		}
		t, env, err := s.typeExprEnv(qs, it.Expr, clauseSelect)
		if err != nil {
			return nil, nil, err
		}
		if aggregated {
			if err := s.checkGrouped(t.Expr, g.exprs, env); err != nil {
				return nil, nil, err
			}
		}
		add(t.Expr, naturalName(it.Expr, len(cols)), quoted(it.Alias), g.adjust(t))
	}
	if sel.Having != nil {
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
	}
	var items []*ast.OrderItem
	for _, o := range orderBy {
		e, err := s.orderKey(o.Expr, qs, cols, exprs, sel.Items, aggregated, g.exprs)
		if err != nil {
			return nil, nil, err
		}
		item := *o
		item.Expr = e
		items = append(items, &item)
	}
	return &Analyzed{Columns: cols, Query: out}, items, nil
}

// orderKey validates one ORDER BY key of a SELECT: an ordinal or an
// output column's name stands for that select item (Calcite replaces it
// by the item's expression); anything else is an expression over FROM.
func (s *state) orderKey(e ast.Expr, qs *qscope, cols []OutputColumn, exprs []ast.Expr, items []*ast.SelectItem,
	aggregated bool, groups []ast.Expr) (ast.Expr, error) {
	if i, ok := ordinal(e); ok {
		if i < 1 || i > len(exprs) {
			return nil, errorf(e.Position(), ErrNotSupported, "Ordinal out of range")
		}
		return exprs[i-1], nil
	}
	if id, ok := e.(*ast.Identifier); ok && len(id.Parts) == 1 {
		for i, c := range cols {
			if c.Name == id.Parts[0].Name {
				return exprs[i], nil
			}
		}
	}
	t, env, err := s.typeExprEnv(qs, e, clauseOrderBy)
	if err != nil {
		return nil, err
	}
	if aggregated {
		if err := s.checkGrouped(t.Expr, groups, env); err != nil {
			return nil, err
		}
	}
	return t.Expr, nil
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
		return nil, errorf(star.Pos, ErrNotSupported, "SELECT * requires a FROM clause")
	}
	var out []starItem
	done := map[string]bool{}
	for _, r := range qs.rels {
		for _, c := range r.cols {
			if !qs.common[c.Name] || done[c.Name] {
				continue
			}
			done[c.Name] = true
			var args []ast.Expr
			for _, r2 := range qs.rels {
				if r2.index(c.Name) >= 0 {
					args = append(args, ref(r2.alias, c.Name))
				}
			}
			call := &ast.FuncCall{Pos: star.Pos, Name: &ast.ObjectName{Parts: []*ast.Ident{{Pos: star.Pos, Name: "COALESCE"}}}, Args: args}
			out = append(out, starItem{expr: call, name: c.Name, alias: c.Name})
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
	items []ast.Expr // the expanded clause
	exprs []ast.Expr // every grouped expression, flattened
	// partial are the grouped expressions missing from some grouping
	// set: they are NULL in the rows of those sets.
	partial []ast.Expr
}

// adjust makes a select item nullable when it is a grouped expression
// missing from some grouping set.
func (g *grouping) adjust(t *Typed) *types.Type {
	for _, p := range g.partial {
		if ast.Equal(t.Expr, p) {
			return withNullable(t.Type, true)
		}
	}
	return t.Type
}

// groupBy validates GROUP BY: plain expressions, GROUPING SETS, ROLLUP,
// CUBE and the empty set ().
func (s *state) groupBy(sel *ast.Select, qs *qscope) (*grouping, error) {
	g := &grouping{}
	var sets [][]ast.Expr // the grouping sets, for partial
	var walk func(e ast.Expr) (ast.Expr, [][]ast.Expr, error)
	walk = func(e ast.Expr) (ast.Expr, [][]ast.Expr, error) {
		switch e := e.(type) {
		case *ast.GroupingSet:
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
		t, err := s.typeExpr(qs, e, clauseGroupBy)
		if err != nil {
			return nil, nil, err
		}
		g.exprs = append(g.exprs, t.Expr)
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
	sets = combineSets("", all)
	for _, x := range g.exprs {
		for _, set := range sets {
			in := false
			for _, y := range set {
				in = in || ast.Equal(x, y)
			}
			if !in {
				g.partial = append(g.partial, x)
				break
			}
		}
	}
	return g, nil
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
