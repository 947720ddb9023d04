package validate

import (
	"eddy/engine/ast"
	"eddy/engine/functions"
	"eddy/engine/plan"
	"eddy/engine/types"
)

// Implicit conversions of comparisons. Flink's validator runs Calcite with
// implicit coercion disabled, so the validated query text keeps what the
// user wrote (SHOW CREATE VIEW prints no CAST), but converting the query
// into relational expressions (Calcite's StandardConvertletTable and
// SqlToRelConverter) and generating code for it (Flink's
// ScalarOperatorGens) add conversions. The plan gets the same ones here, so
// that every kernel sees operands of matching types:
//
//   - <, <=, >, >= and BETWEEN (Calcite's COMPARE consistency): when the
//     operands are not all of one type family, the types that are not
//     character strings, plus BIGINT when they are numbers and a character
//     string takes part, merge into a common type and every operand is cast
//     to it. So '1.5' > 1 compares CAST('1.5' AS BIGINT), which is 1, and
//     'x' > 1 fails at run time; a string meets a DATE, TIME, TIMESTAMP or
//     BOOLEAN as a value of that type.
//   - = and <> (LEAST_RESTRICTIVE consistency, then the code generator): a
//     character string never meets a number (the error below); a string
//     meets a DATE, TIME or TIMESTAMP as that type, NULL when it does not
//     parse; a string never equals a BOOLEAN. IS [NOT] DISTINCT FROM, the
//     WHEN values of a simple CASE and NULLIF compare the same way.
//   - x IN (list) (SqlToRelConverter's ensureSqlType): each list value of
//     another type is cast to x's type, so a string's IN list of numbers
//     compares strings and an INT's IN list of decimals compares integers.
//   - Numbers, arrays and rows of different types meet in = in their common
//     type; arrays without one are never equal; rows do not order.
//   - Joins: an equality of two columns in ON, the semi join of x IN
//     (sub-query) and a correlated equality need key types with a common
//     type (Flink's JoinConditionTypeCoerceRule), else a TableException.

// coerceCall applies the conversions to a comparison call of the plan; pos
// is the position of the expression it came from. Calls that are not
// comparisons come back unchanged.
func coerceCall(pos ast.Pos, e plan.Expr) (plan.Expr, error) {
	c, ok := e.(*plan.Call)
	if !ok || len(c.Args) < 2 {
		return e, nil
	}
	if c.Func != nil {
		if c.Func.Name == "NULLIF" && len(c.Args) == 2 {
			return coerceNullIf(pos, c)
		}
		return e, nil
	}
	switch c.Name {
	case plan.OpEq, plan.OpNe, plan.OpIsDistinct, plan.OpNotDistinct:
		if len(c.Args) != 2 {
			return e, nil
		}
		return coerceEquality(pos, c)
	case plan.OpLt, plan.OpLe, plan.OpGt, plan.OpGe:
		if err := unordered(pos, c.Args); err != nil {
			return nil, err
		}
		args := coerceOrdered(c.Args)
		return &plan.Call{Name: c.Name, Func: c.Func, Args: args, T: c.T}, nil
	case plan.OpIn:
		return coerceIn(c), nil
	}
	return e, nil
}

// coerceOrdered casts the operands of an ordering comparison or of
// BETWEEN (value, low, high) to their comparison type, as Calcite's
// StandardConvertletTable.consistentType does for COMPARE.
func coerceOrdered(args []plan.Expr) []plan.Expr {
	t := compareType(args)
	if t == nil {
		return args
	}
	out := make([]plan.Expr, len(args))
	for i, a := range args {
		out[i] = a
		if a.Type().Kind != types.Null && !sameType(a.Type(), t) {
			out[i] = convertTo(a, t)
		}
	}
	return out
}

// compareType is the type the operands of an ordering comparison meet in,
// or nil when they are left as they are.
func compareType(args []plan.Expr) *types.Type {
	family := ""
	same := true
	var nonChar []*types.Type
	for i, a := range args {
		t := a.Type()
		if isConstructedType(t) {
			return nil
		}
		f := functions.CalciteFamily(t)
		if i == 0 {
			family = f
		} else if f != family {
			same = false
		}
		if f != "CHARACTER" {
			nonChar = append(nonChar, t)
		}
	}
	if same || len(nonChar) == 0 {
		return nil
	}
	if len(nonChar) < len(args) && functions.CalciteFamily(nonChar[0]) == "NUMERIC" {
		nonChar = append(nonChar, types.New(types.BigInt))
	}
	t, ok := functions.CommonType(nonChar...)
	if !ok || t.Kind == types.Null {
		return nil
	}
	return t
}

// coerceEquality handles =, <>, IS DISTINCT FROM and IS NOT DISTINCT FROM.
func coerceEquality(pos ast.Pos, c *plan.Call) (plan.Expr, error) {
	l, r := c.Args[0], c.Args[1]
	lt, rt := l.Type(), r.Type()
	_, lcorr := l.(*plan.CorrelRef)
	_, rcorr := r.(*plan.CorrelRef)
	if c.Name == plan.OpEq && (lcorr || rcorr) && isColumn(l) && isColumn(r) {
		// A correlated column against a column of the sub-query becomes a
		// join condition when Flink decorrelates the sub-query.
		if err := joinKeyError(pos, lt, rt); err != nil {
			return nil, err
		}
	}
	if isNullLiteral(l) || isNullLiteral(r) {
		// A NULL of any type compares with anything (Flink: 'x' =
		// CAST(NULL AS INT) is NULL, no conversion error).
		return nullComparison(c), nil
	}
	if err := implicitConversionDeep(pos, lt, rt); err != nil {
		return nil, err
	}
	rebuild := func(l, r plan.Expr) plan.Expr {
		return &plan.Call{Name: c.Name, Func: c.Func, Args: []plan.Expr{l, r}, T: c.T}
	}
	lc, rc := lt.Kind.IsCharacterString(), rt.Kind.IsCharacterString()
	switch {
	case lc && isTimePoint(rt):
		return rebuild(tryCastTo(l, rt), r), nil
	case rc && isTimePoint(lt):
		return rebuild(l, tryCastTo(r, lt)), nil
	case lc && neverEqualsString(rt), rc && neverEqualsString(lt):
		return neverEqual(c), nil
	case lt.Kind.IsNumeric() && rt.Kind.IsNumeric() && !sameType(lt, rt),
		lt.Kind == types.Array && rt.Kind == types.Array && !sameType(lt, rt),
		lt.Kind == types.Map && rt.Kind == types.Map && !sameType(lt, rt),
		lt.Kind == types.Row && rt.Kind == types.Row && !sameType(lt, rt):
		// Calcite's LEAST_RESTRICTIVE consistency casts both to their
		// common type: DECIMAL 0.1 = DOUBLE 0.1, ARRAY[2] = ARRAY[2.0] and
		// ROW(3, 'a') = ROW(3.0, 'a') are TRUE, and a join on an INT and a
		// DECIMAL key matches 5 with 5.0.
		t, ok := functions.CommonType(lt, rt)
		switch {
		case ok:
			return rebuild(convertTo(l, t), convertTo(r, t)), nil
		case lt.Kind == types.Array, lt.Kind == types.Map:
			// Arrays or maps of unrelated elements are never equal.
			return neverEqual(c), nil
		case lt.Kind == types.Row && len(lt.Fields) == len(rt.Fields) && (c.Name == plan.OpEq || c.Name == plan.OpNe):
			return rowEquality(pos, c)
		}
	}
	return c, nil
}

// rowEquality compares two rows without a common type field by field, as
// Calcite expands a row comparison: = is the AND of the fields'
// comparisons, <> the OR, each converting as a comparison of its own.
func rowEquality(pos ast.Pos, c *plan.Call) (plan.Expr, error) {
	l, r := c.Args[0], c.Args[1]
	join := plan.OpAnd
	if c.Name == plan.OpNe {
		join = plan.OpOr
	}
	var parts []plan.Expr
	for i := range l.Type().Fields {
		lf, rf := rowField(l, i), rowField(r, i)
		b := types.New(types.Boolean).WithNullable(lf.Type().Nullable() || rf.Type().Nullable())
		if len(l.Type().Fields) == 1 {
			b = c.T // the comparison's own type, as the query states it
		}
		part, err := coerceEquality(pos, &plan.Call{Name: c.Name, Args: []plan.Expr{lf, rf}, T: b})
		if err != nil {
			return nil, err
		}
		parts = append(parts, part)
	}
	if len(parts) == 1 {
		return parts[0], nil
	}
	return &plan.Call{Name: join, Args: parts, T: c.T}, nil
}

// neverEqual is a comparison of values that are never equal (a character
// string and a BOOLEAN or an interval, which Flink's generated code
// compares with Object.equals; arrays of unrelated elements): = is FALSE and <> TRUE unless an operand is NULL; IS
// DISTINCT FROM is TRUE unless both are NULL.
func neverEqual(c *plan.Call) plan.Expr {
	l, r := c.Args[0], c.Args[1]
	b := types.New(types.Boolean).WithNullable(false)
	isNull := func(x plan.Expr, op string) plan.Expr {
		return &plan.Call{Name: op, Args: []plan.Expr{x}, T: b}
	}
	switch c.Name {
	case plan.OpIsDistinct:
		return &plan.Call{Name: plan.OpOr, Args: []plan.Expr{isNull(l, plan.OpIsNotNull), isNull(r, plan.OpIsNotNull)}, T: c.T}
	case plan.OpNotDistinct:
		return &plan.Call{Name: plan.OpAnd, Args: []plan.Expr{isNull(l, plan.OpIsNull), isNull(r, plan.OpIsNull)}, T: c.T}
	}
	anyNull := &plan.Call{Name: plan.OpOr, Args: []plan.Expr{isNull(l, plan.OpIsNull), isNull(r, plan.OpIsNull)}, T: b}
	return &plan.Case{
		Whens: []plan.When{{Cond: anyNull, Result: &plan.Literal{Value: nil, T: c.T.WithNullable(true)}}},
		Else:  &plan.Literal{Value: c.Name == plan.OpNe, T: b},
		T:     c.T,
	}
}

// coerceNullIf handles NULLIF(a, b), which Calcite turns into CASE WHEN a =
// b THEN NULL ELSE a END: the comparison converts as = does.
func coerceNullIf(pos ast.Pos, c *plan.Call) (plan.Expr, error) {
	b := types.New(types.Boolean).WithNullable(c.Args[0].Type().Nullable() || c.Args[1].Type().Nullable())
	eq := &plan.Call{Name: plan.OpEq, Args: c.Args, T: b}
	coerced, err := coerceEquality(pos, eq)
	if err != nil || coerced == plan.Expr(eq) {
		return c, err
	}
	return &plan.Case{
		Whens: []plan.When{{Cond: coerced, Result: &plan.Literal{Value: nil, T: c.T.WithNullable(true)}}},
		Else:  convertTo(c.Args[0], c.T),
		T:     c.T,
	}, nil
}

// coerceIn casts each value of an IN list whose type differs from the
// tested value's to that type (SqlToRelConverter.ensureSqlType: a CHAR
// value stays as it is for a VARCHAR operand; character strings keep their
// lengths here, where a cast could only cut them).
func coerceIn(c *plan.Call) plan.Expr {
	x := c.Args[0]
	xt := x.Type()
	if isConstructedType(xt) || xt.Kind == types.Null {
		return c
	}
	args := make([]plan.Expr, len(c.Args))
	args[0] = x
	changed := false
	for i, a := range c.Args[1:] {
		args[i+1] = a
		at := a.Type()
		if at.Kind == xt.Kind || at.Kind == types.Null || isConstructedType(at) ||
			xt.Kind.IsCharacterString() && at.Kind.IsCharacterString() {
			continue
		}
		args[i+1] = convertTo(a, xt)
		changed = true
	}
	if !changed {
		return c
	}
	return &plan.Call{Name: c.Name, Func: c.Func, Args: args, T: c.T}
}

// implicitConversionDeep is implicitConversionError for two values that
// meet in =, looking into the fields of rows, which Calcite compares field
// by field.
func implicitConversionDeep(pos ast.Pos, l, r *types.Type) error {
	if l.Kind == types.Row && r.Kind == types.Row && len(l.Fields) == len(r.Fields) {
		for i := range l.Fields {
			if err := implicitConversionDeep(pos, l.Fields[i].Type, r.Fields[i].Type); err != nil {
				return err
			}
		}
		return nil
	}
	return implicitConversionError(pos, l, r)
}

// isTimePoint reports whether t is a DATE, TIME or TIMESTAMP, which Flink's
// generated code compares with a character string by parsing the string.
func isTimePoint(t *types.Type) bool {
	switch t.Kind {
	case types.Date, types.Time, types.Timestamp, types.TimestampLTZ:
		return true
	}
	return false
}

func isConstructedType(t *types.Type) bool {
	switch t.Kind {
	case types.Row, types.Array, types.Map, types.Multiset, types.Raw:
		return true
	}
	return false
}

// sameType compares two types, nullability aside.
func sameType(a, b *types.Type) bool { return a.WithNullable(false).Equal(b.WithNullable(false)) }

// tryCastTo casts x to t, giving NULL where a value does not convert.
func tryCastTo(x plan.Expr, t *types.Type) plan.Expr {
	return &plan.Cast{X: x, T: t.WithNullable(true), Try: true}
}

// ErrJoinCondition is Flink's refusal of a join whose equality keys have
// types that do not convert to one another (JoinUtil.validateJoinSpec).
var ErrJoinCondition = &Kind{"join keys of unrelated types", "TableException"}

// joinKeyError returns Flink's error for a join key pairing a value of
// type l (the left input's) with one of type r, or nil when the pair is
// fine: two character strings, two binary strings, or types with a common
// type (to which Calcite casts both).
func joinKeyError(pos ast.Pos, l, r *types.Type) error {
	switch {
	case l.Kind.IsCharacterString() && r.Kind.IsCharacterString(),
		functions.Binary.Accepts(l) && functions.Binary.Accepts(r),
		l.Kind == types.Null || r.Kind == types.Null:
		return nil
	}
	if _, ok := functions.CommonType(l, r); ok {
		return nil
	}
	return errorf(pos, ErrJoinCondition, "implicit type conversion between %s and %s is not supported on join's condition now",
		functions.CalciteTypeString(l), functions.CalciteTypeString(r))
}

// coerceInSubquery prepares x IN (sub-query), which Flink runs as a semi
// join on x = the sub-query's column: the key types must fit together
// (joinKeyError), and numbers of different types are cast to their common
// type on both sides so that equal values meet. cols are the sub-query's
// output columns.
func coerceInSubquery(pos ast.Pos, sq *plan.SubQuery, cols []OutputColumn) error {
	if len(sq.Left) != len(cols) {
		return nil
	}
	target := make([]OutputColumn, len(cols))
	changed := false
	for i, c := range cols {
		target[i] = c
		lt := sq.Left[i].Type()
		if err := joinKeyError(pos, lt, c.Type); err != nil {
			return err
		}
		if !lt.Kind.IsNumeric() || !c.Type.Kind.IsNumeric() || sameType(lt, c.Type) {
			continue
		}
		t, _ := functions.CommonType(lt, c.Type)
		sq.Left[i] = convertTo(sq.Left[i], t)
		target[i].Type = t.WithNullable(c.Type.Nullable())
		changed = true
	}
	if changed && sq.Query != nil {
		sq.Query = castPlan(sq.Query, target)
	}
	return nil
}

// checkJoinKeys applies joinKeyError to each equality of two columns among
// the conjuncts of the ON condition (the environment's expression), as
// Flink's JoinConditionTypeCoerceRule does, whichever inputs the columns
// come from; the message names the types in the written order.
func (env *exprEnv) checkJoinKeys() error {
	for _, c := range astConjuncts(env.pre) {
		b, ok := c.(*ast.BinaryExpr)
		if !ok || b.Op != "=" {
			continue
		}
		pl, err1 := env.toPlan(b.L)
		pr, err2 := env.toPlan(b.R)
		if err1 != nil || err2 != nil || !isColumn(pl) || !isColumn(pr) {
			continue
		}
		if err := joinKeyError(b.Pos, pl.Type(), pr.Type()); err != nil {
			return err
		}
	}
	return nil
}

// isColumn reports whether e reads a column as it is (Calcite's
// RexInputRef, or a correlated column, which decorrelation turns into one).
func isColumn(e plan.Expr) bool {
	switch e.(type) {
	case *plan.ColumnRef, *plan.CorrelRef:
		return true
	}
	return false
}

// astConjuncts splits e at its top-level ANDs.
func astConjuncts(e ast.Expr) []ast.Expr {
	if b, ok := e.(*ast.BinaryExpr); ok && b.Op == "AND" {
		return append(astConjuncts(b.L), astConjuncts(b.R)...)
	}
	if e == nil {
		return nil
	}
	return []ast.Expr{e}
}

// unordered refuses an ordering comparison of rows, which Calcite accepts
// and Flink's code generator does not
// (ScalarOperatorGens.generateComparison).
func unordered(pos ast.Pos, args []plan.Expr) error {
	for _, a := range args {
		if a.Type().Kind == types.Row {
			return errorf(pos, ErrCodeGen, "Comparable type expected, but was '%s'.", args[0].Type())
		}
	}
	return nil
}

// convertTo casts x to t (castTo); a literal that converts is converted
// now, as Calcite's RexBuilder does, so the plan reads >(CAST(b AS
// BIGINT), 1). A literal that does not convert keeps its CAST and fails
// when it runs, as in Flink.
func convertTo(x plan.Expr, t *types.Type) plan.Expr {
	if l, ok := x.(*plan.Literal); ok && l.Value != nil {
		if v, err := types.CastValue(l.Value, l.T, t); err == nil {
			return &plan.Literal{Value: v, T: t.WithNullable(l.T.Nullable())}
		}
	}
	return castTo(x, t)
}

// leastRestrictive is the common type Calcite's validator finds for the
// branches of CASE and the columns of a set operation (with implicit
// coercion off): functions.CommonType, except that a DATE does not merge
// with a TIMESTAMP (Flink: "Illegal mixing of types in CASE or COALESCE
// statement", "Type mismatch in column 1 of UNION ALL").
func leastRestrictive(ts ...*types.Type) (*types.Type, bool) {
	date, timestamp := false, false
	for _, t := range ts {
		switch t.Kind {
		case types.Date:
			date = true
		case types.Timestamp, types.TimestampLTZ:
			timestamp = true
		}
	}
	if date && timestamp {
		return nil, false
	}
	return functions.CommonType(ts...)
}

// neverEqualsString reports whether values of t are never equal to a
// character string (Flink compares them with Object.equals): BOOLEAN and
// intervals.
func neverEqualsString(t *types.Type) bool {
	return t.Kind == types.Boolean || functions.IsInterval(t.Kind)
}

// isNullLiteral reports whether e is a NULL literal, typed by CAST or not.
func isNullLiteral(e plan.Expr) bool {
	switch e := e.(type) {
	case *plan.Literal:
		return e.Value == nil
	case *plan.Cast:
		return isNullLiteral(e.X)
	}
	return false
}

// nullComparison is a comparison with a NULL literal: = and <> are NULL;
// IS DISTINCT FROM tests the other operand for NULL.
func nullComparison(c *plan.Call) plan.Expr {
	other := c.Args[0]
	if isNullLiteral(other) {
		other = c.Args[1]
	}
	b := types.New(types.Boolean).WithNullable(false)
	switch c.Name {
	case plan.OpIsDistinct:
		return &plan.Call{Name: plan.OpIsNotNull, Args: []plan.Expr{other}, T: b}
	case plan.OpNotDistinct:
		return &plan.Call{Name: plan.OpIsNull, Args: []plan.Expr{other}, T: b}
	}
	return &plan.Literal{Value: nil, T: c.T.WithNullable(true)}
}

// rowField reads field i of a ROW-typed expression: the element itself of
// a ROW constructor.
func rowField(x plan.Expr, i int) plan.Expr {
	if c, ok := x.(*plan.Call); ok && c.Name == plan.OpRow && c.Func == nil && i < len(c.Args) {
		return c.Args[i]
	}
	f := x.Type().Fields[i]
	return &plan.FieldAccess{X: x, Index: i, Name: f.Name, T: withNullable(f.Type, x.Type().Nullable())}
}
