package validate

import (
	"strings"

	"eddy/engine/ast"
	"eddy/engine/functions"
	"eddy/engine/types"
)

// Operators are checked as Calcite checks them with implicit coercion
// disabled (Flink's FlinkPlannerImpl), and fail with Calcite's text:
// Cannot apply '+' to arguments of type '<INTEGER> + <CHAR(1)>'.
// Supported form(s): '<NUMERIC> + <NUMERIC>' ...

// supportedForms lists Calcite's allowed signatures of each operator, one
// a line, as its operand type checker prints them.
var supportedForms = map[string][]string{
	"+":   {"<NUMERIC> + <NUMERIC>", "<DATETIME_INTERVAL> + <DATETIME_INTERVAL>", "<DATETIME> + <DATETIME_INTERVAL>", "<DATETIME_INTERVAL> + <DATETIME>"},
	"-":   {"<NUMERIC> - <NUMERIC>", "<DATETIME_INTERVAL> - <DATETIME_INTERVAL>", "<DATETIME> - <DATETIME_INTERVAL>"},
	"*":   {"<NUMERIC> * <NUMERIC>", "<DATETIME_INTERVAL> * <NUMERIC>", "<NUMERIC> * <DATETIME_INTERVAL>"},
	"/":   {"<NUMERIC> / <NUMERIC>", "<DATETIME_INTERVAL> / <NUMERIC>"},
	"%":   {"<EXACT_NUMERIC> % <EXACT_NUMERIC>"},
	"||":  {"<STRING> || <STRING>"},
	"AND": {"<BOOLEAN> AND <BOOLEAN>"},
	"OR":  {"<BOOLEAN> OR <BOOLEAN>"},
	"NOT": {"NOT<BOOLEAN>"},
	"u-":  {"-<NUMERIC>", "-<DATETIME_INTERVAL>"},
	"u+":  {"+<NUMERIC>", "+<DATETIME_INTERVAL>"},
}

func compareForms(op string) []string {
	return []string{"<COMPARABLE_TYPE> " + op + " <COMPARABLE_TYPE>"}
}

// cannotApply builds Calcite's CanNotApplyOp2Type error for an operator.
// call is the operand part ("<INTEGER> + <CHAR(1)>").
func cannotApply(pos ast.Pos, op, call string, forms []string) *Error {
	quoted := make([]string, len(forms))
	for i, f := range forms {
		quoted[i] = "'" + f + "'"
	}
	return errorf(pos, ErrCannotApply, "Cannot apply '%s' to arguments of type '%s'. Supported form(s): %s",
		op, call, strings.Join(quoted, "\n"))
}

func binaryCall(op string, l, r *types.Type) string {
	return "<" + functions.CalciteTypeString(l) + "> " + op + " <" + functions.CalciteTypeString(r) + ">"
}

func boolean(nullable bool) *types.Type {
	return types.New(types.Boolean).WithNullable(nullable)
}

func isBool(t *types.Type) bool { return t.Kind == types.Boolean || t.Kind == types.Null }

func (v *Validator) unary(scope *Scope, e *ast.UnaryExpr) (*Typed, error) {
	if l, ok := e.X.(*ast.Literal); ok && e.Op == "-" && (l.Kind == ast.LitInteger || l.Kind == ast.LitDecimal) {
		// -2147483648 is an INT: the sign belongs to the literal.
		x, err := v.literal(l, true)
		if err != nil {
			return nil, err
		}
		return &Typed{Expr: &ast.UnaryExpr{Pos: e.Pos, Op: e.Op, X: x.Expr}, Type: x.Type}, nil
	}
	x, err := v.expr(scope, e.X)
	if err != nil {
		return nil, err
	}
	out := &ast.UnaryExpr{Pos: e.Pos, Op: e.Op, X: x.Expr}
	t := x.Type
	if e.Op == "NOT" {
		if t.Kind == types.Null {
			// NOT types no operand: an untyped NULL is illegal here.
			return nil, errorf(e.X.Position(), ErrNullIllegal, "Illegal use of 'NULL'")
		}
		if !isBool(t) {
			return nil, cannotApply(e.Pos, "NOT", "NOT<"+functions.CalciteTypeString(t)+">", supportedForms["NOT"])
		}
		return &Typed{Expr: out, Type: boolean(t.Nullable())}, nil
	}
	if !t.Kind.IsNumeric() && !functions.IsInterval(t.Kind) {
		if t.Kind == types.Null {
			return nil, errorf(e.Pos, ErrNullIllegal, "Illegal use of 'NULL'")
		}
		return nil, cannotApply(e.Pos, e.Op, e.Op+"<"+functions.CalciteTypeString(t)+">", supportedForms["u"+e.Op])
	}
	return &Typed{Expr: out, Type: functions.Plain(t)}, nil
}

func (v *Validator) binary(scope *Scope, e *ast.BinaryExpr) (*Typed, error) {
	l, err := v.expr(scope, e.L)
	if err != nil {
		return nil, err
	}
	r, err := v.expr(scope, e.R)
	if err != nil {
		return nil, err
	}
	out := &ast.BinaryExpr{Pos: e.Pos, Op: e.Op, L: l.Expr, R: r.Expr}
	lt, rt := l.Type, r.Type
	nullable := functions.AnyNullable(lt, rt)
	fail := func(forms []string) (*Typed, error) {
		return nil, cannotApply(e.Pos, e.Op, binaryCall(e.Op, lt, rt), forms)
	}
	switch e.Op {
	case "AND", "OR":
		if lt.Kind == types.Null || rt.Kind == types.Null {
			// AND and OR type no operand: an untyped NULL is illegal here.
			at := e.L.Position()
			if lt.Kind != types.Null {
				at = e.R.Position()
			}
			return nil, errorf(at, ErrNullIllegal, "Illegal use of 'NULL'")
		}
		if !isBool(lt) || !isBool(rt) {
			return fail(supportedForms[e.Op])
		}
		return &Typed{Expr: out, Type: boolean(nullable)}, nil
	case "=", "<>", "<", "<=", ">", ">=":
		if (e.Op == "=" || e.Op == "<>") && lt.Kind == types.Array && rt.Kind == types.Array {
			// Calcite compares any two arrays (one type family); Flink
			// finds arrays of unrelated elements unequal (coerce.go).
			return &Typed{Expr: out, Type: boolean(nullable)}, nil
		}
		if lt.Kind == types.Map && rt.Kind == types.Map || lt.Kind == types.Variant && rt.Kind == types.Variant {
			// Maps are equal with the same entries in any order, variants
			// with the same encoding; Calcite lets them be ordered too, and
			// Flink's code generator fails.
			if e.Op == "=" || e.Op == "<>" {
				return &Typed{Expr: out, Type: boolean(nullable)}, nil
			}
			return nil, errorf(e.Pos, ErrCodeGen, "Comparable type expected, but was '%s'.", lt)
		}
		if !functions.CanCompare(lt, rt) || !functions.Comparable.Accepts(lt) || !functions.Comparable.Accepts(rt) ||
			e.Op != "=" && e.Op != "<>" && !(ordered(lt) && ordered(rt)) {
			return fail(compareForms(e.Op))
		}
		return &Typed{Expr: out, Type: boolean(nullable)}, nil
	case "||":
		t, ok := concatType(lt, rt)
		if !ok {
			return fail(supportedForms["||"])
		}
		return &Typed{Expr: out, Type: t}, nil
	case "+", "-", "*", "/", "%":
		if lt.Kind == types.Null && rt.Kind == types.Null {
			return nil, errorf(e.Pos, ErrNullIllegal, "Illegal use of 'NULL'")
		}
		t, ok := arithmeticType(e.Op, lt, rt)
		if !ok {
			return fail(supportedForms[e.Op])
		}
		return &Typed{Expr: out, Type: t}, nil
	}
	return nil, errorf(e.Pos, ErrNotSupported, "Operator '%s' is not supported", e.Op)
}

// ordered reports whether values of t have an order (<, BETWEEN, MIN).
func ordered(t *types.Type) bool {
	switch t.Kind {
	case types.Map, types.Multiset, types.Array, types.Raw, types.Variant:
		return false
	}
	return true
}

// arithmeticType types l op r: numbers (functions.NumericArithmetic),
// datetime plus or minus an interval, interval with interval, interval
// times or divided by a number. The result never keeps a time attribute.
func arithmeticType(op string, l, r *types.Type) (*types.Type, bool) {
	lk, rk := l.Kind, r.Kind
	nullable := functions.AnyNullable(l, r)
	numeric := func(k types.Kind) bool { return k.IsNumeric() || k == types.Null }
	interval := func(k types.Kind) bool { return functions.IsInterval(k) || k == types.Null }
	switch {
	case op == "%":
		exact := func(k types.Kind) bool { return functions.IsInteger(k) || k == types.Decimal || k == types.Null }
		if !exact(lk) || !exact(rk) {
			return nil, false
		}
		return functions.NumericArithmetic(op, l, r)
	case numeric(lk) && numeric(rk):
		return functions.NumericArithmetic(op, l, r)
	case (op == "+" || op == "-") && functions.IsDatetime(lk) && interval(rk):
		return functions.Plain(l).WithNullable(nullable), true
	case op == "+" && interval(lk) && functions.IsDatetime(rk):
		return functions.Plain(r).WithNullable(nullable), true
	case (op == "+" || op == "-") && functions.IsInterval(lk) && functions.IsInterval(rk):
		if lk != rk {
			return nil, false
		}
		return l.WithNullable(nullable), true
	case (op == "+" || op == "-") && functions.IsInterval(lk) && rk == types.Null:
		return l.WithNullable(true), true
	case (op == "+" || op == "-") && lk == types.Null && functions.IsInterval(rk):
		return r.WithNullable(true), true
	case (op == "*" || op == "/") && functions.IsInterval(lk) && numeric(rk):
		return l.WithNullable(nullable), true
	case op == "*" && numeric(lk) && functions.IsInterval(rk):
		return r.WithNullable(nullable), true
	}
	return nil, false
}

// concatType types a || b: both character strings or both binary strings;
// the lengths add up, and the result is VARCHAR (VARBINARY) unless both are
// CHAR (BINARY), as Calcite's DYADIC_STRING_SUM_PRECISION.
func concatType(l, r *types.Type) (*types.Type, bool) {
	if l.Kind == types.Null && r.Kind == types.Null {
		return nil, false
	}
	if l.Kind == types.Null {
		l = r
	}
	if r.Kind == types.Null {
		r = l
	}
	char := l.Kind.IsCharacterString() && r.Kind.IsCharacterString()
	bin := functions.Binary.Accepts(l) && functions.Binary.Accepts(r)
	if !char && !bin {
		return nil, false
	}
	n := min(l.Length+r.Length, types.MaxLength)
	nullable := l.Nullable() || r.Nullable()
	var t *types.Type
	switch {
	case char && l.Kind == types.Char && r.Kind == types.Char:
		t = types.NewChar(n)
	case char:
		t = types.NewVarChar(n)
	case l.Kind == types.Binary && r.Kind == types.Binary:
		t = types.NewBinary(n)
	default:
		t = types.NewVarBinary(n)
	}
	return t.WithNullable(nullable), true
}

func (v *Validator) isExpr(scope *Scope, e *ast.IsExpr) (*Typed, error) {
	x, err := v.expr(scope, e.X)
	if err != nil {
		return nil, err
	}
	out := &ast.IsExpr{Pos: e.Pos, X: x.Expr, Not: e.Not, What: e.What}
	name := "IS "
	if e.Not {
		name += "NOT "
	}
	name += e.What
	switch {
	case strings.HasPrefix(e.What, "JSON"):
		// IS JSON [VALUE | SCALAR | ARRAY | OBJECT] tests a character string.
		if !functions.Character.Accepts(x.Type) {
			return nil, cannotApply(e.Pos, name, "<"+functions.CalciteTypeString(x.Type)+"> "+name,
				[]string{"<CHARACTER> " + name})
		}
	case e.What != "NULL" && !isBool(x.Type):
		return nil, cannotApply(e.Pos, name, "<"+functions.CalciteTypeString(x.Type)+"> "+name,
			[]string{"<BOOLEAN> " + name})
	}
	return &Typed{Expr: out, Type: boolean(false)}, nil
}

func (v *Validator) isDistinct(scope *Scope, e *ast.IsDistinctFrom) (*Typed, error) {
	l, err := v.expr(scope, e.L)
	if err != nil {
		return nil, err
	}
	r, err := v.expr(scope, e.R)
	if err != nil {
		return nil, err
	}
	name := "IS DISTINCT FROM"
	if e.Not {
		name = "IS NOT DISTINCT FROM"
	}
	if !functions.CanCompare(l.Type, r.Type) {
		return nil, cannotApply(e.Pos, name, binaryCall(name, l.Type, r.Type), compareForms(name))
	}
	return &Typed{Expr: &ast.IsDistinctFrom{Pos: e.Pos, L: l.Expr, R: r.Expr, Not: e.Not}, Type: boolean(false)}, nil
}

func (v *Validator) between(scope *Scope, e *ast.BetweenExpr) (*Typed, error) {
	ts, err := v.exprs(scope, []ast.Expr{e.X, e.Lo, e.Hi})
	if err != nil {
		return nil, err
	}
	name := "BETWEEN ASYMMETRIC"
	if e.Symmetric {
		name = "BETWEEN SYMMETRIC"
	}
	if e.Not {
		name = "NOT " + name
	}
	x, lo, hi := ts[0].Type, ts[1].Type, ts[2].Type
	if !functions.CanCompare(x, lo) || !functions.CanCompare(x, hi) || !functions.CanCompare(lo, hi) ||
		!ordered(x) || !ordered(lo) || !ordered(hi) {
		call := "<" + functions.CalciteTypeString(x) + "> " + name + " <" + functions.CalciteTypeString(lo) +
			"> AND <" + functions.CalciteTypeString(hi) + ">"
		return nil, cannotApply(e.Pos, name, call, []string{"<COMPARABLE_TYPE> " + name + " <COMPARABLE_TYPE> AND <COMPARABLE_TYPE>"})
	}
	out := &ast.BetweenExpr{Pos: e.Pos, X: ts[0].Expr, Not: e.Not, Symmetric: e.Symmetric, Lo: ts[1].Expr, Hi: ts[2].Expr}
	return &Typed{Expr: out, Type: boolean(functions.AnyNullable(x, lo, hi))}, nil
}

// in types x [NOT] IN (list): the list's values need a common type
// (Calcite's "Values in expression list must have compatible types") that
// compares with x.
func (v *Validator) in(scope *Scope, e *ast.InExpr) (*Typed, error) {
	if e.Query != nil {
		return nil, errorf(e.Pos, ErrNotSupported, "IN sub-queries are not supported in this context")
	}
	x, list, listTypes, err := v.inOperands(scope, e.X, e.List)
	if err != nil {
		return nil, err
	}
	lt, ok := functions.CommonType(listTypes...)
	if !ok {
		return nil, errorf(e.Pos, ErrIncompatible, "Values in expression list must have compatible types")
	}
	if !functions.CanCompare(x.Type, lt) {
		return nil, errorf(e.Pos, ErrIncompatible, "Values passed to IN operator must have compatible types")
	}
	out := &ast.InExpr{Pos: e.Pos, X: x.Expr, Not: e.Not, List: exprsOf(list)}
	return &Typed{Expr: out, Type: boolean(x.Type.Nullable() || lt.Nullable())}, nil
}

func (v *Validator) like(scope *Scope, e *ast.LikeExpr) (*Typed, error) {
	args := []ast.Expr{e.X, e.Pattern}
	if e.Escape != nil {
		args = append(args, e.Escape)
	}
	ts, err := v.exprs(scope, args)
	if err != nil {
		return nil, err
	}
	name := e.Op
	if e.Not {
		name = "NOT " + name
	}
	if e.Op == "ILIKE" {
		// Flink 2.2's parser reads ILIKE, but no operator implements it.
		return nil, errorf(e.Pos, ErrUnknownFunction, "No match found for function signature %s", name)
	}
	if err := likeNull(e.Pos, name, ts); err != nil {
		return nil, err
	}
	for _, t := range ts {
		if !functions.Character.Accepts(t.Type) {
			call := "<" + functions.CalciteTypeString(ts[0].Type) + "> " + name + " <" + functions.CalciteTypeString(ts[1].Type) + ">"
			forms := []string{"<STRING> " + name + " <STRING>", "<STRING> " + name + " <STRING> ESCAPE <STRING>"}
			if len(ts) == 3 {
				call += " ESCAPE <" + functions.CalciteTypeString(ts[2].Type) + ">"
			}
			return nil, cannotApply(e.Pos, name, call, forms)
		}
	}
	out := &ast.LikeExpr{Pos: e.Pos, X: ts[0].Expr, Not: e.Not, Op: e.Op, Pattern: ts[1].Expr}
	if len(ts) == 3 {
		out.Escape = ts[2].Expr
	}
	return &Typed{Expr: out, Type: boolean(functions.AnyNullable(typesOf(ts)...))}, nil
}

// likeNull rejects an untyped NULL operand of LIKE or SIMILAR TO as
// Flink does: the NULL takes the first operand's type, then fails the
// operand check, reported in the function form
// 'LIKE(<NULL>, <CHAR(1)>)'.
func likeNull(pos ast.Pos, name string, ts []*Typed) error {
	null := false
	for _, t := range ts {
		null = null || t.Type.Kind == types.Null
	}
	if !null {
		return nil
	}
	args := make([]string, len(ts))
	forms := make([]string, 3)
	for i, t := range ts {
		tt := t.Type
		if tt.Kind == types.Null {
			tt = ts[0].Type
		}
		args[i] = "<" + functions.CalciteTypeString(tt) + ">"
	}
	for i := range forms {
		forms[i] = "<STRING>"
	}
	return cannotApply(pos, name, name+"("+strings.Join(args, ", ")+")", []string{name + "(" + strings.Join(forms, ", ") + ")"})
}

// cast types CAST(x AS t): t, nullable when x is (Calcite derives the
// nullability from the operand); TRY_CAST is always nullable.
func (v *Validator) cast(scope *Scope, e *ast.Cast) (*Typed, error) {
	x, err := v.expr(scope, e.X)
	if err != nil {
		return nil, err
	}
	if x.Type.Kind.IsNumeric() {
		// Flink's own check, before Calcite's castability.
		switch e.Type.Kind {
		case types.Timestamp:
			return nil, errorf(e.Pos, ErrCastNumericTime, "The cast from NUMERIC type to TIMESTAMP type is not allowed. "+
				"It's recommended to use TO_TIMESTAMP(FROM_UNIXTIME(numeric_col)) instead, note the numeric is in seconds.")
		case types.TimestampLTZ:
			return nil, errorf(e.Pos, ErrCastNumericTime, "The cast from NUMERIC type to TIMESTAMP_LTZ type is not allowed. "+
				"It's recommended to use TO_TIMESTAMP_LTZ(numeric_col, precision) instead.")
		}
	}
	if !functions.CanCastExplicit(x.Type, e.Type) {
		// Calcite prints the operand's type without its nullability.
		return nil, errorf(e.Pos, ErrCast, "Cast function cannot convert value of type %s to type %s",
			functions.CalciteTypeString(x.Type), functions.CalciteTypeString(e.Type))
	}
	t := e.Type.WithNullable(e.Try || x.Type.Nullable())
	return &Typed{Expr: &ast.Cast{Pos: e.Pos, Try: e.Try, X: x.Expr, Type: e.Type, Spelled: e.Spelled}, Type: t}, nil
}

// caseExpr types CASE: every WHEN of a searched CASE is BOOLEAN; in a
// simple CASE each WHEN value compares with the operand; the THEN and ELSE
// values need a common type. Without ELSE the result is nullable.
func (v *Validator) caseExpr(scope *Scope, e *ast.Case) (*Typed, error) {
	out := &ast.Case{Pos: e.Pos}
	var operand *Typed
	if e.Operand != nil {
		t, err := v.expr(scope, e.Operand)
		if err != nil {
			return nil, err
		}
		operand = t
		out.Operand = t.Expr
	}
	var results []*types.Type
	allNull := true
	for _, w := range e.Whens {
		cond, err := v.expr(scope, w.Cond)
		if err != nil {
			return nil, err
		}
		switch {
		case operand != nil && !functions.CanCompare(operand.Type, cond.Type):
			return nil, errorf(w.Cond.Position(), ErrIncompatible, "Illegal mixing of types in CASE or COALESCE statement")
		case operand == nil && !isBool(cond.Type):
			return nil, errorf(w.Cond.Position(), ErrExpectedBoolean, "Expected a boolean type")
		}
		then, err := v.expr(scope, w.Then)
		if err != nil {
			return nil, err
		}
		if then.Type.Kind != types.Null {
			allNull = false
		}
		results = append(results, then.Type)
		out.Whens = append(out.Whens, &ast.When{Pos: w.Pos, Cond: cond.Expr, Then: then.Expr})
	}
	if e.Else != nil {
		el, err := v.expr(scope, e.Else)
		if err != nil {
			return nil, err
		}
		if el.Type.Kind != types.Null {
			allNull = false
		}
		results = append(results, el.Type)
		out.Else = el.Expr
	}
	if allNull {
		return nil, errorf(e.Pos, ErrNullIllegal, "ELSE clause or at least one THEN clause must be non-NULL")
	}
	t, ok := leastRestrictive(results...)
	if !ok {
		return nil, errorf(e.Pos, ErrIncompatible, "Illegal mixing of types in CASE or COALESCE statement")
	}
	if e.Else == nil {
		t = t.WithNullable(true)
	}
	return &Typed{Expr: out, Type: t}, nil
}

// array types ARRAY[...]: ARRAY<common element type> NOT NULL.
func (v *Validator) array(scope *Scope, e *ast.ArrayCtor) (*Typed, error) {
	if len(e.Elems) == 0 {
		return nil, errorf(e.Pos, ErrArgCount, "Require at least 1 argument")
	}
	elems, err := v.exprs(scope, e.Elems)
	if err != nil {
		return nil, err
	}
	t, ok := functions.CommonType(typesOf(elems)...)
	if !ok {
		return nil, errorf(e.Pos, ErrIncompatible, "Parameters must be of the same type")
	}
	if t.Kind == types.Null {
		// Flink 2.2: ARRAY[NULL] finds no element type.
		return nil, errorf(e.Pos, ErrIncompatible, "Parameters must be of the same type")
	}
	return &Typed{Expr: &ast.ArrayCtor{Pos: e.Pos, Elems: exprsOf(elems)}, Type: types.NewArray(t).WithNullable(false)}, nil
}

// mapCtor types MAP[k, v, ...]: MAP<common key, common value> NOT NULL.
func (v *Validator) mapCtor(scope *Scope, e *ast.MapCtor) (*Typed, error) {
	if len(e.Elems) == 0 || len(e.Elems)%2 != 0 {
		return nil, errorf(e.Pos, ErrArgCount, "Map requires an even number of arguments")
	}
	elems, err := v.exprs(scope, e.Elems)
	if err != nil {
		return nil, err
	}
	var keys, vals []*types.Type
	for i, el := range elems {
		if i%2 == 0 {
			keys = append(keys, el.Type)
		} else {
			vals = append(vals, el.Type)
		}
	}
	k, ok1 := functions.CommonType(keys...)
	val, ok2 := functions.CommonType(vals...)
	if !ok1 || !ok2 {
		return nil, errorf(e.Pos, ErrIncompatible, "Parameters must be of the same type")
	}
	if k.Kind == types.Null {
		// Flink 2.2: MAP[NULL, 1] finds no key type.
		return nil, errorf(e.Pos, ErrIncompatible, "Parameters must be of the same type")
	}
	if val.Kind == types.Null {
		return nil, errorf(e.Pos, ErrNullIllegal, "Illegal use of 'NULL'")
	}
	return &Typed{Expr: &ast.MapCtor{Pos: e.Pos, Elems: exprsOf(elems)}, Type: types.NewMap(k, val).WithNullable(false)}, nil
}

// row types ROW(...) and (a, b): ROW<`EXPR$0` t0, ...> NOT NULL, the field
// names Calcite gives unnamed expressions.
func (v *Validator) row(scope *Scope, e *ast.RowCtor) (*Typed, error) {
	elems, err := v.exprs(scope, e.Elems)
	if err != nil {
		return nil, err
	}
	fields := make([]types.Field, len(elems))
	for i, el := range elems {
		if el.Type.Kind == types.Null {
			return nil, errorf(e.Elems[i].Position(), ErrNullIllegal, "Illegal use of 'NULL'")
		}
		fields[i] = types.Field{Name: "EXPR$" + itoa(i), Type: functions.Plain(el.Type)}
	}
	out := &ast.RowCtor{Pos: e.Pos, Explicit: e.Explicit, Elems: exprsOf(elems)}
	return &Typed{Expr: out, Type: types.NewRow(fields...).WithNullable(false)}, nil
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + itoa(i%10)
}

// index types a[i] (1-based array element) and m[k] (map value); both are
// nullable, as a missing element or key gives NULL.
func (v *Validator) index(scope *Scope, e *ast.Index) (*Typed, error) {
	x, err := v.expr(scope, e.X)
	if err != nil {
		return nil, err
	}
	i, err := v.expr(scope, e.Index)
	if err != nil {
		return nil, err
	}
	out := &ast.Index{Pos: e.Pos, X: x.Expr, Index: i.Expr}
	switch {
	case x.Type.Kind == types.Array && functions.Integer.Accepts(i.Type):
		return &Typed{Expr: out, Type: x.Type.Elem.WithNullable(true)}, nil
	case x.Type.Kind == types.Map && (i.Type.Kind == types.Null ||
		functions.CalciteFamily(x.Type.Elem) == functions.CalciteFamily(i.Type)):
		return &Typed{Expr: out, Type: x.Type.Val.WithNullable(true)}, nil
	}
	// Calcite's ITEM lists its forms unquoted, unlike other operators.
	return nil, errorf(e.Pos, ErrCannotApply, "Cannot apply 'ITEM' to arguments of type 'ITEM(<%s>, <%s>)'. "+
		"Supported form(s): <ARRAY>[<INTEGER>]\n<MAP>[<ANY>]\n<ROW>[<CHARACTER>|<INTEGER>]",
		functions.CalciteTypeString(x.Type), functions.CalciteTypeString(i.Type))
}

// extractUnits are the units EXTRACT accepts.
var extractUnits = map[ast.TimeUnit]bool{
	"YEAR": true, "QUARTER": true, "MONTH": true, "WEEK": true, "DAY": true, "HOUR": true, "MINUTE": true,
	"SECOND": true, "MILLISECOND": true, "MICROSECOND": true, "NANOSECOND": true, "EPOCH": true, "DOW": true,
	"DOY": true, "ISODOW": true, "ISOYEAR": true, "DECADE": true, "CENTURY": true, "MILLENNIUM": true,
	"DAYOFWEEK": true, "DAYOFYEAR": true,
}

func (v *Validator) extract(scope *Scope, e *ast.Extract) (*Typed, error) {
	if !extractUnits[e.Unit] {
		return nil, errorf(e.Pos, ErrNotSupported, "EXTRACT of %s is not supported", e.Unit)
	}
	return v.special(scope, e, "EXTRACT", []ast.Expr{e.X}, func(args []ast.Expr) ast.Expr {
		return &ast.Extract{Pos: e.Pos, Unit: e.Unit, X: args[0]}
	})
}

// floorCeil types FLOOR(t TO unit) and CEIL(t TO unit): t's type.
func (v *Validator) floorCeil(scope *Scope, e *ast.FloorCeil) (*Typed, error) {
	x, err := v.expr(scope, e.X)
	if err != nil {
		return nil, err
	}
	name := "FLOOR"
	if e.Ceil {
		name = "CEIL"
	}
	if !functions.Datetime.Accepts(x.Type) || x.Type.Kind == types.Null {
		return nil, cannotApply(e.Pos, name, name+"(<"+functions.CalciteTypeString(x.Type)+"> TO "+string(e.Unit)+")",
			[]string{name + "(<DATETIME> TO <TIME_UNIT>)"})
	}
	out := &ast.FloorCeil{Pos: e.Pos, Ceil: e.Ceil, X: x.Expr, Unit: e.Unit}
	return &Typed{Expr: out, Type: functions.Plain(x.Type)}, nil
}
