package validate

import (
	"eddy/engine/ast"
	"eddy/engine/functions"
	"eddy/engine/plan"
	"eddy/engine/types"
)

// Quantified comparisons: x op SOME | ALL (query) and x op SOME | ALL
// (value, ...). Calcite's SqlToRelConverter gives them SQL's meaning: SOME
// is TRUE when a comparison is TRUE, FALSE when every comparison is FALSE
// (or there is none), else UNKNOWN; ALL is TRUE when every comparison is
// TRUE (or there is none), FALSE when one is FALSE, else UNKNOWN. So
// `= SOME` is IN and `<> ALL` is NOT IN, and `> ALL (q)` is NOT (x <= SOME
// (q)), which Calcite's SubQueryRemoveRule plans through MIN/MAX and
// counts with the same NULL semantics.

// quantifiedIncompatible is Flink's error for SOME and ALL whose values do
// not compare with x: Calcite checks them as IN's (checked on Flink 2.2,
// for lists and sub-queries alike).
const quantifiedIncompatible = "Values passed to IN operator must have compatible types"

// quantifiedOps maps a comparison operator to the plan's.
var quantifiedOps = map[string]string{
	"=": plan.OpEq, "<>": plan.OpNe, "<": plan.OpLt, "<=": plan.OpLe, ">": plan.OpGt, ">=": plan.OpGe,
}

// quantified types the list form; the sub-query form is only valid where
// a query scope prepares it (WHERE, SELECT, HAVING, ON).
func (v *Validator) quantified(scope *Scope, e *ast.QuantifiedExpr) (*Typed, error) {
	if e.Query != nil {
		return nil, errorf(e.Pos, ErrNotSupported, "%s sub-queries are not supported in this context", e.Quantifier)
	}
	x, list, listTypes, err := v.inOperands(scope, e.X, e.List)
	if err != nil {
		return nil, err
	}
	// Calcite treats the list as IN's: each value must compare with x, then
	// the values need a common type; each value is then cast to x's type
	// (so a string x compares with SOME (1, 20) as strings).
	for _, t := range listTypes {
		if !functions.CanCompare(x.Type, t) {
			return nil, errorf(e.Pos, ErrIncompatible, quantifiedIncompatible)
		}
	}
	lt, ok := functions.CommonType(listTypes...)
	if !ok {
		return nil, errorf(e.Pos, ErrIncompatible, "Values in expression list must have compatible types")
	}
	nullable := x.Type.Nullable() || lt.Nullable()
	out := &ast.QuantifiedExpr{Pos: e.Pos, X: x.Expr, Op: e.Op, Quantifier: e.Quantifier, List: exprsOf(list)}
	return &Typed{Expr: out, Type: boolean(nullable)}, nil
}

// inOperands types x and the list of x IN (list) or x op SOME | ALL
// (list). listTypes are the list's types, where an untyped NULL takes x's
// type (Calcite's FIRST_KNOWN inference), so 'b IN (NULL, 1)' with a
// string b has no common type.
func (v *Validator) inOperands(scope *Scope, xe ast.Expr, le []ast.Expr) (x *Typed, list []*Typed, listTypes []*types.Type, err error) {
	if x, err = v.expr(scope, xe); err != nil {
		return nil, nil, nil, err
	}
	if list, err = v.exprs(scope, le); err != nil {
		return nil, nil, nil, err
	}
	listTypes = typesOf(list)
	for i, t := range listTypes {
		if t.Kind == types.Null && x.Type.Kind != types.Null {
			listTypes[i] = x.Type.WithNullable(true)
		}
	}
	return x, list, listTypes, nil
}

// subqueryLeft prepares and types x of x IN | op SOME | ALL (query) and
// plans it; left is nil when x has no plan (noPlan keeps the reason).
func (env *exprEnv) subqueryLeft(xe ast.Expr) (x *Typed, left plan.Expr, err error) {
	preX, err := mapExpr(xe, env.prepare)
	if err != nil {
		return nil, nil, err
	}
	if x, err = env.typePre(preX); err != nil {
		return nil, nil, err
	}
	left, err = env.toPlan(preX)
	if err != nil {
		env.s.noPlan(err)
	}
	return x, left, nil
}

// prepareQuantified replaces x op SOME | ALL (query) by a placeholder for
// a SOME or ALL sub-query of the plan.
func (env *exprEnv) prepareQuantified(e *ast.QuantifiedExpr) (ast.Expr, bool, error) {
	if e.Query == nil {
		return e, false, nil
	}
	x, left, err := env.subqueryLeft(e.X)
	if err != nil {
		return nil, true, err
	}
	kind := plan.SubSome
	if e.Quantifier == "ALL" {
		kind = plan.SubAll
	}
	an, sq, err := env.subquery(e.Query, kind)
	if err != nil {
		return nil, true, err
	}
	if len(an.Columns) != 1 {
		return nil, true, errorf(e.Pos, ErrIncompatible, quantifiedIncompatible)
	}
	if _, lnum, lchar := typeRoot(x.Type); lnum || lchar {
		// The code generator compares x with the sub-query's column (made
		// nullable) without a cast: a string and a number are incomparable.
		r := an.Columns[0].Type.WithNullable(true)
		if _, rnum, rchar := typeRoot(r); lnum && rchar || lchar && rnum {
			return nil, true, errorf(e.Pos, ErrCodeGen, "Incomparable types: %s and %s", x.Type, r)
		}
	}
	if !functions.CanCompare(x.Type, an.Columns[0].Type) {
		return nil, true, errorf(e.Pos, ErrIncompatible, quantifiedIncompatible)
	}
	sq.Op = quantifiedOps[e.Op]
	sq.T = types.New(types.Boolean).WithNullable(x.Type.Nullable() || an.Columns[0].Type.Nullable())
	if left != nil {
		sq.Left = []plan.Expr{left}
	}
	repl := &ast.QuantifiedExpr{Pos: e.Pos, X: x.Expr, Op: e.Op, Quantifier: e.Quantifier, Query: an.Query}
	name := env.placeholder(sq.T, repl, phTarget{expr: sq})
	return &ast.Identifier{Parts: []*ast.Ident{{Pos: e.Pos, Name: name}}}, true, nil
}

// quantifiedList converts x op SOME | ALL (v1, v2, ...) into the OR (SOME)
// or AND (ALL) of the comparisons, which has the same three-valued result.
func (env *exprEnv) quantifiedList(e *ast.QuantifiedExpr, t *types.Type, rec func(ast.Expr) (plan.Expr, error)) (plan.Expr, error) {
	x, err := rec(e.X)
	if err != nil {
		return nil, err
	}
	join := plan.OpOr
	if e.Quantifier == "ALL" {
		join = plan.OpAnd
	}
	var out plan.Expr
	for _, l := range e.List {
		y, err := rec(l)
		if err != nil {
			return nil, err
		}
		y = quantifiedOperand(x.Type(), y)
		b := types.New(types.Boolean).WithNullable(x.Type().Nullable() || y.Type().Nullable())
		cmp := plan.Expr(&plan.Call{Name: quantifiedOps[e.Op], Args: []plan.Expr{x, y}, T: b})
		if out == nil {
			out = cmp
			continue
		}
		out = &plan.Call{Name: join, Args: []plan.Expr{out, cmp}, T: t}
	}
	return out, nil
}

// quantifiedOperand casts a value of a quantified list to the type of the
// compared value x, as Calcite's coercion of the list does: a character x
// takes every other value as STRING, another x casts values of another
// kind to its own type (c = SOME (5.5) is TRUE for an INT c of 5).
func quantifiedOperand(x *types.Type, y plan.Expr) plan.Expr {
	yt := y.Type()
	if yt.Kind == types.Null || yt.Kind == x.Kind {
		return y
	}
	if x.Kind.IsCharacterString() {
		if yt.Kind.IsCharacterString() {
			return y
		}
		return castTo(y, types.NewString())
	}
	return castTo(y, x.WithNullable(yt.Nullable()))
}

// implicitConversionError is the error Flink's code generator raises when
// a comparison pairs a numeric value with a character string
// (ScalarOperatorGens.checkImplicitConversionValidity), or nil.
func implicitConversionError(pos ast.Pos, l, r *types.Type) error {
	ln, lnum, lchar := typeRoot(l)
	rn, rnum, rchar := typeRoot(r)
	if lnum && rchar || lchar && rnum {
		return errorf(pos, ErrNotSupported, "implicit type conversion between %s and %s is not supported now", ln, rn)
	}
	return nil
}

// typeRoot returns the name of Flink's LogicalTypeRoot of a character or
// numeric type, and which of the two it is.
func typeRoot(t *types.Type) (name string, numeric, char bool) {
	switch t.Kind {
	case types.Char:
		return "CHAR", false, true
	case types.VarChar:
		return "VARCHAR", false, true
	case types.TinyInt:
		return "TINYINT", true, false
	case types.SmallInt:
		return "SMALLINT", true, false
	case types.Int:
		return "INTEGER", true, false
	case types.BigInt:
		return "BIGINT", true, false
	case types.Float:
		return "FLOAT", true, false
	case types.Double:
		return "DOUBLE", true, false
	case types.Decimal:
		return "DECIMAL", true, false
	}
	return "", false, false
}
