package validate

import (
	"strconv"
	"strings"

	"eddy/engine/ast"
	"eddy/engine/functions"
	"eddy/engine/plan"
	"eddy/engine/types"
)

// ErrMatchPlan marks a MATCH_RECOGNIZE that validates but that Flink's
// planner rejects (its TableException): the query fails when it runs.
var ErrMatchPlan = &Kind{"unsupported pattern", "TableException"}

// ErrMatchCodeGen marks a MATCH_RECOGNIZE function that validates but
// that Flink's code generator rejects (its CodeGenException).
var ErrMatchCodeGen = &Kind{"unsupported call", "CodeGenException"}

// matchCtx holds what the validation of one MATCH_RECOGNIZE knows.
type matchCtx struct {
	s      *state
	m      *ast.MatchRecognize
	inQS   *qscope // the input's relations
	vars   map[string]bool
	sets   map[string][]string // SUBSET name -> variables
	minOf  map[string]int      // a variable's minimum number of rows
	slots  []plan.MatchSlot
	define bool // validating a DEFINE condition (else a measure)
}

// matchRecognize validates input MATCH_RECOGNIZE (...) [AS alias]: the
// input, the pattern, DEFINE and MEASURES; it adds the result relation
// (partition columns, then measures) to qs.
func (s *state) matchRecognize(m *ast.MatchRecognize, qs *qscope) (ast.TableExpr, plan.Node, error) {
	derived := s.deriveAlias(m.Alias)
	inQS := &qscope{parent: qs.parent}
	input, inPlan, err := s.from(m.Input, inQS)
	if err != nil {
		return nil, nil, err
	}
	mc := &matchCtx{s: s, m: m, inQS: inQS, vars: map[string]bool{}, sets: map[string][]string{}, minOf: map[string]int{}}
	pattern, err := mc.pattern()
	if err != nil {
		return nil, nil, err
	}
	out := &ast.MatchRecognize{Pos: m.Pos, Input: stripAlias(input), RowsPerMatch: m.RowsPerMatch, After: m.After,
		StartAnchor: m.StartAnchor, EndAnchor: m.EndAnchor, Pattern: m.Pattern, Within: m.Within, Subsets: m.Subsets}
	node := &plan.Match{Input: inPlan, Pattern: pattern, After: plan.SkipToNextRow}
	// PARTITION BY and ORDER BY name input columns.
	var outCols []OutputColumn
	for _, p := range m.PartitionBy {
		idx, col, err := mc.inputColumn(p)
		if err != nil {
			return nil, nil, err
		}
		node.Partition = append(node.Partition, idx)
		outCols = append(outCols, OutputColumn{Name: col.Name, Type: col.Type, Pos: p.Position()})
		out.PartitionBy = append(out.PartitionBy, &ast.Identifier{Parts: []*ast.Ident{{Pos: p.Position(), Name: col.Name, Quoted: true}}})
	}
	for _, o := range m.OrderBy {
		idx, col, err := mc.inputColumn(o.Expr)
		if err != nil {
			return nil, nil, err
		}
		key := plan.SortKey{Expr: &plan.ColumnRef{Index: idx, Name: col.Name, T: col.Type}, Desc: o.Desc, NullsFirst: !o.Desc}
		if o.Nulls != "" {
			key.NullsFirst = o.Nulls == "FIRST"
		}
		node.Order = append(node.Order, key)
		item := *o
		item.Expr = &ast.Identifier{Parts: []*ast.Ident{{Pos: o.Pos, Name: col.Name, Quoted: true}}}
		out.OrderBy = append(out.OrderBy, &item)
	}
	if m.Within != nil {
		if len(node.Order) == 0 {
			return nil, nil, errorf(m.Within.Position(), ErrQuery, "Must contain an ORDER BY clause when WITHIN is used")
		}
		if k := node.Order[0].Expr.Type().Kind; k != types.Timestamp && k != types.TimestampLTZ {
			return nil, nil, errorf(m.OrderBy[0].Pos, ErrQuery, "First column of ORDER BY must be of type TIMESTAMP")
		}
		ms, err := withinMillis(m.Within)
		if err != nil {
			return nil, nil, err
		}
		node.WithinMillis = ms
	}
	if len(node.Order) > 0 {
		node.Proctime = node.Order[0].Expr.Type().TimeAttr == types.Proctime
	}
	if m.After != nil {
		switch m.After.Kind {
		case "PAST LAST ROW":
			node.After = plan.SkipPastLastRow
		case "TO NEXT ROW":
		default:
			if !mc.vars[m.After.Var.Name] {
				return nil, nil, errorf(m.After.Var.Pos, ErrQuery, "Unknown pattern '%s'", m.After.Var.Name)
			}
			node.After, node.AfterVar = plan.SkipToLast, m.After.Var.Name
			if m.After.Kind == "TO FIRST" {
				node.After = plan.SkipToFirst
			}
		}
	}
	// DEFINE: one condition per variable, in pattern order.
	defs := map[string]*ast.MatchDefine{}
	for _, d := range m.Defines {
		if !mc.vars[d.Var.Name] {
			return nil, nil, errorf(d.Var.Pos, ErrQuery, "Unknown pattern '%s'", d.Var.Name)
		}
		if defs[d.Var.Name] != nil {
			return nil, nil, errorf(d.Var.Pos, ErrQuery, "Pattern variable '%s' has already been defined", d.Var.Name)
		}
		defs[d.Var.Name] = d
	}
	mc.define = true
	node.Defines = make([]plan.Expr, len(pattern))
	for _, d := range m.Defines {
		x, t, err := mc.expr(d.Cond)
		if err != nil {
			return nil, nil, err
		}
		if t.Type.Kind != types.Boolean && t.Type.Kind != types.Null {
			return nil, nil, errorf(d.Cond.Position(), ErrExpectedBoolean, "DEFINE condition of '%s' must be a condition", d.Var.Name)
		}
		for i, v := range pattern {
			if v.Name == d.Var.Name {
				node.Defines[i] = x
			}
		}
		out.Defines = append(out.Defines, &ast.MatchDefine{Var: quotedIdent(d.Var), Cond: t.Expr})
	}
	mc.define = false
	for _, ms := range m.Measures {
		x, t, err := mc.expr(ms.Expr)
		if err != nil {
			return nil, nil, err
		}
		node.Measures = append(node.Measures, x)
		// A measure keeps the time attribute of what it reads, as
		// Calcite types it (Flink's DESCRIBE shows it): MATCH_ROWTIME(),
		// MATCH_PROCTIME(), A.rowtime.
		outCols = append(outCols, OutputColumn{Name: ms.Alias.Name, Type: t.Type, Pos: ms.Alias.Pos})
		out.Measures = append(out.Measures, &ast.MatchMeasure{Semantics: ms.Semantics, Expr: t.Expr, Alias: quotedIdent(ms.Alias)})
	}
	node.Slots = mc.slots
	for _, c := range outCols {
		node.Cols = append(node.Cols, plan.Column{Name: c.Name, Type: c.Type})
	}
	if err := mc.planChecks(); err != nil {
		s.noPlan(err)
	}
	if m.RowsPerMatch == "ALL ROWS PER MATCH" {
		s.noPlan(errorf(m.Pos, ErrMatchPlan, "All rows per match mode is not supported yet."))
	}
	alias, err := s.addRelation(qs, m.Alias, derived, outCols, m.Pos)
	if err != nil {
		return nil, nil, err
	}
	out.Alias = alias
	if inPlan == nil {
		return out, nil, nil
	}
	return out, node, nil
}

// stripAlias drops the alias of the expanded input: MATCH_RECOGNIZE
// follows the table reference directly.
func stripAlias(te ast.TableExpr) ast.TableExpr {
	switch t := te.(type) {
	case *ast.TableName:
		cp := *t
		cp.Alias = nil
		return &cp
	case *ast.DerivedTable:
		cp := *t
		cp.Alias = nil
		return &cp
	}
	return te
}

func quotedIdent(id *ast.Ident) *ast.Ident {
	return &ast.Ident{Pos: id.Pos, Name: id.Name, Quoted: true}
}

// inputColumn resolves a PARTITION BY or ORDER BY item: a column of the
// input.
func (mc *matchCtx) inputColumn(e ast.Expr) (int, OutputColumn, error) {
	id, ok := e.(*ast.Identifier)
	if !ok {
		return 0, OutputColumn{}, errorf(e.Position(), ErrNotSupported,
			"Only columns are supported in PARTITION BY and ORDER BY of MATCH_RECOGNIZE")
	}
	r, err := mc.inQS.resolve(id)
	if err != nil {
		return 0, OutputColumn{}, err
	}
	if r.outer || len(r.rest) > 0 {
		return 0, OutputColumn{}, errorf(e.Position(), ErrNotSupported,
			"Only columns are supported in PARTITION BY and ORDER BY of MATCH_RECOGNIZE")
	}
	return r.rel.offset + r.col, r.rel.cols[r.col], nil
}

// withinMillis returns the length of a WITHIN interval in milliseconds:
// a day-time interval literal.
func withinMillis(e ast.Expr) (int64, error) {
	if l, ok := e.(*ast.IntervalLit); ok && l.Qualifier.Start != "YEAR" && l.Qualifier.Start != "MONTH" {
		v, err := intervalValue(l, types.New(types.IntervalDayTime))
		if err != nil {
			return 0, err
		}
		if lit, ok := v.(*plan.Literal); ok {
			if ms, ok := lit.Value.(int64); ok {
				if ms < 0 {
					return 0, errorf(e.Position(), ErrQuery, "Interval must be non-negative '%s'", ast.String(e))
				}
				return ms, nil
			}
		}
	}
	return 0, errorf(e.Position(), ErrMatchPlan,
		"Only constant intervals with millisecond resolution are supported as time constraints of patterns.")
}

// pattern flattens the PATTERN into a sequence of quantified variables,
// with Flink's planner checks (MatchUtil / CommonExecMatch); SUBSET names
// are registered too.
func (mc *matchCtx) pattern() ([]plan.MatchVar, error) {
	var out []plan.MatchVar
	var planErr error
	fail := func(format string, args ...any) {
		if planErr == nil {
			planErr = errorf(mc.m.Pattern.Position(), ErrMatchPlan, format, args...)
		}
	}
	var walk func(n ast.PatternNode)
	walk = func(n ast.PatternNode) {
		switch n := n.(type) {
		case *ast.PatternVar:
			name := n.Name.Name
			if mc.vars[name] {
				fail("Pattern variables must be unique. That might change in the future.")
			}
			mc.vars[name] = true
			mc.minOf[name] = 1
			out = append(out, plan.MatchVar{Name: name, Min: 1, Max: 1})
		case *ast.PatternConcat:
			for _, it := range n.Items {
				walk(it)
			}
		case *ast.PatternGroup:
			walk(n.X)
		case *ast.PatternQuant:
			v, ok := n.X.(*ast.PatternVar)
			if !ok {
				fail("Expression not supported: %s Group patterns are not supported yet.", ast.String(n.X))
				walk(n.X)
				return
			}
			walk(v)
			last := &out[len(out)-1]
			last.Min, last.Max = n.Min, n.Max
			mc.minOf[v.Name.Name] = n.Min
			optional := n.Min == 0 && n.Max == 1
			switch {
			case !n.Reluctant && (optional || n.Min == n.Max):
			case !n.Reluctant:
				last.Greedy = true
			case optional:
				fail("Reluctant optional variables are not supported yet.")
			}
		case *ast.PatternAlt:
			fail("Expression not supported: %s. Currently, CEP doesn't support branching patterns.", ast.String(n))
			for _, it := range n.Items {
				walk(it)
			}
		case *ast.PatternPermute:
			fail("Expression not supported: %s. Currently, CEP doesn't support PERMUTE patterns.", ast.String(n))
			for _, it := range n.Items {
				walk(it)
			}
		case *ast.PatternExclude:
			fail("Expression not supported: %s. Currently, CEP doesn't support '{-' '-}' patterns.", ast.String(n))
			walk(n.X)
		}
	}
	walk(mc.m.Pattern)
	for _, sub := range mc.m.Subsets {
		var vs []string
		for _, v := range sub.Vars {
			if !mc.vars[v.Name] {
				return nil, errorf(v.Pos, ErrQuery, "Unknown pattern '%s'", v.Name)
			}
			vs = append(vs, v.Name)
		}
		if mc.vars[sub.Name.Name] || mc.sets[sub.Name.Name] != nil {
			return nil, errorf(sub.Name.Pos, ErrQuery, "Pattern variable '%s' has already been defined", sub.Name.Name)
		}
		mc.sets[sub.Name.Name] = vs
	}
	if mc.m.StartAnchor || mc.m.EndAnchor {
		fail("Anchors ^ and $ are not supported.")
	}
	if planErr == nil {
		empty := true
		for _, v := range out {
			if v.Min > 0 {
				empty = false
			}
		}
		switch {
		case empty:
			fail("Patterns that can produce empty matches are not supported. There must be at least one non-optional state.")
		case out[len(out)-1].Greedy:
			fail("Greedy quantifiers are not allowed as the last element of a Pattern yet. " +
				"Finish your pattern with either a simple variable or reluctant quantifier.")
		}
	}
	if planErr != nil {
		mc.s.noPlan(planErr)
	}
	return out, nil
}

// planChecks applies the planner's checks that need the whole clause.
func (mc *matchCtx) planChecks() error {
	if a := mc.m.After; a != nil && a.Var != nil && mc.minOf[a.Var.Name] == 0 {
		// Flink throws at run time when the row to skip to is missing;
		// the executor does the same.
		return nil
	}
	return nil
}

// expr validates a DEFINE condition or a measure: navigation operations,
// aggregates, CLASSIFIER() and MATCH_NUMBER() become slots the expression
// reads by position; the rest is typed as a scalar expression over them.
func (mc *matchCtx) expr(e ast.Expr) (plan.Expr, *Typed, error) {
	env := &exprEnv{s: mc.s, qs: mc.inQS, clause: clauseWhere, subs: map[string]ast.Expr{}, refs: map[*ast.Identifier]colRef{},
		targets: map[string]phTarget{}}
	pre, err := mapExpr(e, func(x ast.Expr) (ast.Expr, bool, error) { return mc.prepare(env, x) })
	if err != nil {
		return nil, nil, err
	}
	env.pre = pre
	t, err := env.typePre(pre)
	if err != nil {
		return nil, nil, err
	}
	px, err := env.toPlan(pre)
	if err != nil {
		return nil, nil, err
	}
	return px, t, nil
}

// slot registers a slot and returns the placeholder standing for it.
func (mc *matchCtx) slot(env *exprEnv, sl plan.MatchSlot, repl ast.Expr, pos ast.Pos) ast.Expr {
	i := len(mc.slots)
	mc.slots = append(mc.slots, sl)
	name := env.placeholder(sl.T, repl, phTarget{index: i, name: "$" + strconv.Itoa(i)})
	return &ast.Identifier{Parts: []*ast.Ident{{Pos: pos, Name: name}}}
}

// prepare replaces the match constructs of an expression by slots.
func (mc *matchCtx) prepare(env *exprEnv, e ast.Expr) (ast.Expr, bool, error) {
	switch e := e.(type) {
	case *ast.Identifier:
		return mc.navSlot(env, e, e, false, 0)
	case *ast.FuncCall:
		name := ""
		if len(e.Name.Parts) == 1 {
			name = strings.ToUpper(e.Name.Parts[0].Name)
		}
		switch name {
		case "FIRST", "LAST", "PREV", "NEXT":
			return mc.navCall(env, e, name)
		case "MATCH_NUMBER":
			// Flink's operator table has no MATCH_NUMBER, whatever Calcite's
			// parser accepts.
			return nil, true, errorf(e.Pos, ErrUnknownFunction,
				"No match found for function signature MATCH_NUMBER().\nSupported signatures are:\n'MATCH_NUMBER()'")
		case "CLASSIFIER":
			if len(e.Args) != 0 {
				return nil, true, errorf(e.Pos, ErrArgCount, "Invalid number of arguments to function '%s'. Was expecting 0 arguments", name)
			}
			// Flink 2.2 validates CLASSIFIER() but cannot generate its code.
			mc.s.noPlan(errorf(e.Pos, ErrMatchCodeGen, "Unsupported call: CLASSIFIER() \n"+
				"If you think this function should be supported, you can create an issue and start a discussion for it."))
			sl := plan.MatchSlot{Kind: plan.SlotClassifier, T: types.NewVarChar(2000).WithNullable(false)}
			if name == "MATCH_NUMBER" {
				sl = plan.MatchSlot{Kind: plan.SlotMatchNumber, T: types.New(types.BigInt).WithNullable(false)}
			}
			return mc.slot(env, sl, e, e.Pos), true, nil
		case "MATCH_ROWTIME", "MATCH_PROCTIME":
			return mc.timeSlot(env, e, name)
		case "RUNNING", "FINAL":
			if mc.define {
				return nil, true, errorf(e.Pos, ErrQuery, "Cannot use RUNNING/FINAL in DEFINE '%s'", ast.String(e))
			}
		}
		if f, ok := mc.s.a.Funcs.Lookup(name); ok && f.Kind == functions.Aggregate && name != "" {
			return mc.aggSlot(env, e, f)
		}
	case *ast.Subquery, *ast.Exists:
		return nil, true, errorf(e.Position(), ErrNotSupported, "Sub-queries are not supported in MATCH_RECOGNIZE")
	case *ast.InExpr:
		if e.Query != nil {
			return nil, true, errorf(e.Pos, ErrNotSupported, "Sub-queries are not supported in MATCH_RECOGNIZE")
		}
	case *ast.QuantifiedExpr:
		if e.Query != nil {
			return nil, true, errorf(e.Pos, ErrNotSupported, "Sub-queries are not supported in MATCH_RECOGNIZE")
		}
	}
	return e, false, nil
}

// varArg rewrites an argument of a navigation or an aggregate to read the
// input row: `V.col` becomes `col`. It returns the variables (or subsets)
// the argument names: at most one.
func (mc *matchCtx) varArg(e ast.Expr, whole ast.Expr) (ast.Expr, string, error) {
	var found []string
	out, err := mapExpr(e, func(x ast.Expr) (ast.Expr, bool, error) {
		id, ok := x.(*ast.Identifier)
		if !ok {
			if f, isCall := x.(*ast.FuncCall); isCall && len(f.Name.Parts) == 1 {
				switch strings.ToUpper(f.Name.Parts[0].Name) {
				case "FIRST", "LAST", "PREV", "NEXT":
					return nil, true, errorf(f.Pos, ErrQuery, "Cannot nest PREV/NEXT under LAST/FIRST '%s'", ast.String(whole))
				}
				if g, ok := mc.s.a.Funcs.Lookup(strings.ToUpper(f.Name.Parts[0].Name)); ok && g.Kind == functions.Aggregate {
					return nil, true, errorf(f.Pos, ErrQuery, "Cannot use aggregation in navigation '%s'", ast.String(whole))
				}
			}
			return x, false, nil
		}
		if len(id.Parts) > 1 && (mc.vars[id.Parts[0].Name] || mc.sets[id.Parts[0].Name] != nil) {
			v := id.Parts[0].Name
			if !contains(found, v) {
				found = append(found, v)
			}
			return &ast.Identifier{Parts: id.Parts[1:]}, true, nil
		}
		if !contains(found, "") {
			found = append(found, "")
		}
		return x, true, nil
	})
	if err != nil {
		return nil, "", err
	}
	named := 0
	v := ""
	for _, f := range found {
		if f != "" {
			named++
			v = f
		}
	}
	if named > 1 {
		return nil, "", errorf(whole.Position(), ErrQuery, "Multiple pattern variables in '%s'", ast.String(whole))
	}
	return out, v, nil
}

// argPlan types and plans an argument over the input row.
func (mc *matchCtx) argPlan(e ast.Expr) (plan.Expr, *types.Type, error) {
	t, env, err := mc.s.typeExprEnv(mc.inQS, e, clauseWhere)
	if err != nil {
		return nil, nil, err
	}
	p, err := env.toPlan(env.pre)
	if err != nil {
		return nil, nil, err
	}
	return p, t.Type, nil
}

func (mc *matchCtx) slotVars(v string) []string {
	if v == "" {
		return nil
	}
	if s := mc.sets[v]; s != nil {
		return s
	}
	return []string{v}
}

// navSlot makes the slot of a navigation over arg: LAST (or FIRST) with
// an offset; a plain reference is LAST(ref, 0).
func (mc *matchCtx) navSlot(env *exprEnv, arg ast.Expr, whole ast.Expr, first bool, offset int) (ast.Expr, bool, error) {
	rewritten, v, err := mc.varArg(arg, whole)
	if err != nil {
		return nil, true, err
	}
	p, t, err := mc.argPlan(rewritten)
	if err != nil {
		return nil, true, err
	}
	_, plain := whole.(*ast.Identifier)
	if !plain || v != "" && mc.minOf[v] == 0 || mc.sets[v] != nil {
		t = t.WithNullable(true)
	}
	sl := plan.MatchSlot{Kind: plan.SlotNav, Vars: mc.slotVars(v), First: first, Offset: offset, Args: []plan.Expr{p}, T: t}
	return mc.slot(env, sl, quoteRefs(whole), whole.Position()), true, nil
}

// quoteRefs returns e with its identifiers quoted, as the expanded text
// prints them.
func quoteRefs(e ast.Expr) ast.Expr {
	out, err := mapExpr(e, func(x ast.Expr) (ast.Expr, bool, error) {
		id, ok := x.(*ast.Identifier)
		if !ok {
			return x, false, nil
		}
		parts := make([]*ast.Ident, len(id.Parts))
		for i, p := range id.Parts {
			parts[i] = quotedIdent(p)
		}
		return &ast.Identifier{Parts: parts}, true, nil
	})
	if err != nil {
		return e
	}
	return out
}

// navCall handles FIRST, LAST, PREV and NEXT (x [, offset]).
func (mc *matchCtx) navCall(env *exprEnv, e *ast.FuncCall, name string) (ast.Expr, bool, error) {
	if len(e.Args) < 1 || len(e.Args) > 2 {
		return nil, true, errorf(e.Pos, ErrArgCount, "Invalid number of arguments to function '%s'. Was expecting 2 arguments", name)
	}
	offset := 0
	if name == "PREV" || name == "NEXT" {
		offset = 1
		if !mc.define {
			return nil, true, errorf(e.Pos, ErrQuery, "Cannot use PREV/NEXT in MEASURE '%s'", ast.String(e))
		}
	}
	if len(e.Args) == 2 {
		n := intValue(e.Args[1])
		if n == nil || *n < 0 {
			return nil, true, errorf(e.Args[1].Position(), ErrCannotApply,
				"Cannot apply '%s' to arguments of type '%s(<ANY>, <%s>)'. Supported form(s): '%s(<ANY>, <NUMERIC>)'",
				name, name, "ANY", name)
		}
		offset = int(*n)
	}
	if (name == "PREV" || name == "NEXT") && offset != 0 {
		mc.s.noPlan(errorf(e.Pos, ErrMatchPlan, "Flink does not support physical offsets within partition."))
	}
	if e.Quantifier != "" || e.Over != nil || e.Filter != nil {
		return nil, true, errorf(e.Pos, ErrNotSupported, "%s does not take DISTINCT, FILTER or OVER", name)
	}
	return mc.navSlot(env, e.Args[0], e, name == "FIRST", offset)
}

// aggSlot handles an aggregate over the rows of one variable (all rows
// when the arguments name none).
func (mc *matchCtx) aggSlot(env *exprEnv, e *ast.FuncCall, f *functions.Func) (ast.Expr, bool, error) {
	if e.Quantifier == "DISTINCT" {
		mc.s.noPlan(errorf(e.Pos, ErrMatchPlan, "DISTINCT aggregations are not supported in MATCH_RECOGNIZE."))
	}
	if e.Over != nil || e.OverName != nil || e.Filter != nil {
		return nil, true, errorf(e.Pos, ErrNotSupported, "OVER and FILTER are not supported in MATCH_RECOGNIZE")
	}
	args := e.Args
	if len(args) == 1 {
		if s, ok := args[0].(*ast.Star); ok && s.Qualifier == nil {
			args = nil
		}
	}
	v := ""
	var planArgs []plan.Expr
	var ops []functions.Operand
	for _, a := range args {
		rewritten, av, err := mc.varArg(a, e)
		if err != nil {
			return nil, true, err
		}
		if av != "" {
			if v != "" && v != av {
				return nil, true, errorf(e.Pos, ErrQuery, "Multiple pattern variables in '%s'", ast.String(e))
			}
			v = av
		}
		p, t, err := mc.argPlan(rewritten)
		if err != nil {
			return nil, true, err
		}
		planArgs = append(planArgs, p)
		ops = append(ops, functions.Operand{Type: t, Int: intValue(a)})
	}
	t, err := f.InferOperands(ops)
	if err != nil {
		return nil, true, New(mc.s.a.Funcs).inferError(e.Pos, err)
	}
	sl := plan.MatchSlot{Kind: plan.SlotAgg, Vars: mc.slotVars(v), Agg: f.Name, Args: planArgs, T: t}
	return mc.slot(env, sl, quoteRefs(e), e.Pos), true, nil
}

// timeSlot handles MATCH_ROWTIME([rowtime]) and MATCH_PROCTIME(): the
// event time of the match's last row (of the current row in DEFINE) and
// the processing time. MATCH_ROWTIME() is a TIMESTAMP(3) NOT NULL
// rowtime; with an argument, which must be a rowtime attribute, it has
// the argument's type (TIMESTAMP or TIMESTAMP_LTZ). MATCH_PROCTIME() is a
// TIMESTAMP_LTZ(3) NOT NULL proctime.
func (mc *matchCtx) timeSlot(env *exprEnv, e *ast.FuncCall, name string) (ast.Expr, bool, error) {
	maxArgs := 0
	if name == "MATCH_ROWTIME" && len(e.Args) <= 1 {
		maxArgs = 1
	}
	if len(e.Args) > maxArgs {
		return nil, true, errorf(e.Pos, ErrArgCount, "Invalid number of arguments to function '%s'. Was expecting 0 arguments", name)
	}
	if name == "MATCH_PROCTIME" {
		sl := plan.MatchSlot{Kind: plan.SlotProctime, T: types.NewTimestampLTZ(3).WithNullable(false).WithTimeAttr(types.Proctime)}
		return mc.slot(env, sl, e, e.Pos), true, nil
	}
	sl := plan.MatchSlot{Kind: plan.SlotRowtime, T: types.NewTimestamp(3).WithNullable(false).WithTimeAttr(types.Rowtime)}
	if len(e.Args) == 1 {
		rewritten, _, err := mc.varArg(e.Args[0], e)
		if err != nil {
			return nil, true, err
		}
		_, t, err := mc.argPlan(rewritten)
		if err != nil {
			return nil, true, err
		}
		if t.TimeAttr != types.Rowtime {
			return nil, true, errorf(e.Pos, ErrInvalidCall, "The function MATCH_ROWTIME requires argument to be a row time attribute type, but is '%s'.", t.WithNullable(true))
		}
		sl.T = t
	}
	return mc.slot(env, sl, quoteRefs(e), e.Pos), true, nil
}
