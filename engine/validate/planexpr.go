package validate

import (
	"encoding/hex"
	"math"
	"strconv"
	"strings"

	"eddy/engine/ast"
	"eddy/engine/functions"
	"eddy/engine/plan"
	"eddy/engine/types"
)

// ErrNoPlan marks a query form that validates but that eddy cannot yet
// turn into a logical plan; Analyzed.PlanErr holds it.
var ErrNoPlan = &Kind{"no plan for this query form", classFlink}

// placeholder targets: what a placeholder column of an expression stands
// for in a plan.
type phTarget struct {
	index int       // the column's position in the FROM row
	corr  int       // the correlation id when the column is an outer one, else 0
	name  string    // the column name, for plan printing
	expr  plan.Expr // what a sub-query placeholder stands for, or nil
}

// typeOf types a sub-tree of the expression the environment validated.
func (env *exprEnv) typeOf(e ast.Expr) (*types.Type, error) {
	if t, ok := env.types[e]; ok {
		return t, nil
	}
	// Validating a node records the types of all its sub-trees, so the
	// conversion that walks them next finds them here: one pass, not one
	// per node.
	if env.types == nil {
		env.types = map[ast.Expr]*types.Type{}
	}
	v := New(env.s.a.Funcs)
	v.AllowAggregates = true
	v.Record = env.types
	t, err := v.Expr(NewScope(env.cols...), e)
	if err != nil {
		return nil, err
	}
	return t.Type, nil
}

// final returns the expanded form of a sub-tree of the validated
// expression (placeholders replaced).
func (env *exprEnv) final(e ast.Expr) ast.Expr {
	out, err := mapExpr(e, env.post)
	if err != nil {
		return e
	}
	return out
}

// toPlan converts the validated expression (the tree with placeholders)
// into a plan expression over the FROM row.
func (env *exprEnv) toPlan(e ast.Expr) (plan.Expr, error) {
	return env.convert(e, env.toPlan)
}

// convert converts one node; rec converts its children, so that the
// aggregate conversion can map grouped sub-trees and aggregate calls.
func (env *exprEnv) convert(e ast.Expr, rec func(ast.Expr) (plan.Expr, error)) (plan.Expr, error) {
	t, err := env.typeOf(e)
	if err != nil {
		return nil, err
	}
	recAll := func(list []ast.Expr) ([]plan.Expr, error) {
		out := make([]plan.Expr, len(list))
		for i, x := range list {
			p, err := rec(x)
			if err != nil {
				return nil, err
			}
			out[i] = p
		}
		return out, nil
	}
	call := func(name string, f *functions.Func, args ...ast.Expr) (plan.Expr, error) {
		ps, err := recAll(args)
		if err != nil {
			return nil, err
		}
		return coerceCall(e.Position(), &plan.Call{Name: name, Func: f, Args: ps, T: t})
	}
	not := func(x plan.Expr, err error) (plan.Expr, error) {
		if err != nil {
			return nil, err
		}
		return &plan.Call{Name: plan.OpNot, Args: []plan.Expr{x}, T: t}, nil
	}
	switch e := e.(type) {
	case *ast.Identifier:
		return env.identifier(e, t)
	case *ast.Literal:
		return literalValue(e, t)
	case *ast.IntervalLit:
		return intervalValue(e, t)
	case *ast.UnaryExpr:
		switch strings.ToUpper(e.Op) {
		case "NOT":
			return call(plan.OpNot, nil, e.X)
		case "-":
			if l, ok := e.X.(*ast.Literal); ok && (l.Kind == ast.LitInteger || l.Kind == ast.LitDecimal || l.Kind == ast.LitFloat) {
				return literalValue(&ast.Literal{Pos: l.Pos, Kind: l.Kind, Value: "-" + l.Value}, t)
			}
			return call(plan.OpNeg, nil, e.X)
		}
		return rec(e.X)
	case *ast.BinaryExpr:
		op := strings.ToUpper(e.Op)
		if op == "!=" {
			op = plan.OpNe
		}
		return call(op, nil, e.L, e.R)
	case *ast.IsExpr:
		if strings.HasPrefix(e.What, "JSON") {
			return env.isJSONPlan(e, t, rec)
		}
		ops := map[string][2]string{"NULL": {plan.OpIsNull, plan.OpIsNotNull}, "UNKNOWN": {plan.OpIsNull, plan.OpIsNotNull},
			"TRUE": {plan.OpIsTrue, plan.OpIsNotTrue}, "FALSE": {plan.OpIsFalse, plan.OpIsNotFalse}}
		pair := ops[strings.ToUpper(e.What)]
		op := pair[0]
		if e.Not {
			op = pair[1]
		}
		return call(op, nil, e.X)
	case *ast.IsDistinctFrom:
		if e.Not {
			return call(plan.OpNotDistinct, nil, e.L, e.R)
		}
		return call(plan.OpIsDistinct, nil, e.L, e.R)
	case *ast.BetweenExpr:
		ps, err := recAll([]ast.Expr{e.X, e.Lo, e.Hi})
		if err != nil {
			return nil, err
		}
		if err := unordered(e.Pos, ps); err != nil {
			return nil, err
		}
		ps = coerceOrdered(ps)
		b := types.New(types.Boolean).WithNullable(t.Nullable())
		in := func(lo, hi plan.Expr) plan.Expr {
			return &plan.Call{Name: plan.OpAnd, T: b, Args: []plan.Expr{
				&plan.Call{Name: plan.OpGe, Args: []plan.Expr{ps[0], lo}, T: b},
				&plan.Call{Name: plan.OpLe, Args: []plan.Expr{ps[0], hi}, T: b}}}
		}
		out := in(ps[1], ps[2])
		if e.Symmetric {
			out = &plan.Call{Name: plan.OpOr, Args: []plan.Expr{out, in(ps[2], ps[1])}, T: b}
		}
		if e.Not {
			return not(out, nil)
		}
		return out, nil
	case *ast.QuantifiedExpr:
		return env.quantifiedList(e, t, rec)
	case *ast.InExpr:
		x, err := call(plan.OpIn, nil, append([]ast.Expr{e.X}, e.List...)...)
		if e.Not {
			return not(x, err)
		}
		return x, err
	case *ast.LikeExpr:
		args := []ast.Expr{e.X, e.Pattern}
		if e.Escape != nil {
			args = append(args, e.Escape)
		}
		op := strings.ToUpper(e.Op)
		x, err := call(op, nil, args...)
		if e.Not {
			return not(x, err)
		}
		return x, err
	case *ast.Cast:
		x, err := rec(e.X)
		if err != nil {
			return nil, err
		}
		return &plan.Cast{X: x, T: t, Try: e.Try}, nil
	case *ast.Case:
		out := &plan.Case{T: t}
		var operand plan.Expr
		if e.Operand != nil {
			if operand, err = rec(e.Operand); err != nil {
				return nil, err
			}
		}
		for _, w := range e.Whens {
			c, err := rec(w.Cond)
			if err != nil {
				return nil, err
			}
			if operand != nil {
				c, err = coerceCall(w.Cond.Position(), &plan.Call{Name: plan.OpEq, Args: []plan.Expr{operand, c},
					T: types.New(types.Boolean).WithNullable(operand.Type().Nullable() || c.Type().Nullable())})
				if err != nil {
					return nil, err
				}
			}
			r, err := rec(w.Then)
			if err != nil {
				return nil, err
			}
			out.Whens = append(out.Whens, plan.When{Cond: c, Result: r})
		}
		if e.Else != nil {
			if out.Else, err = rec(e.Else); err != nil {
				return nil, err
			}
		}
		return out, nil
	case *ast.ArrayCtor:
		return call(plan.OpArray, nil, e.Elems...)
	case *ast.MapCtor:
		return call(plan.OpMap, nil, e.Elems...)
	case *ast.RowCtor:
		return call(plan.OpRow, nil, e.Elems...)
	case *ast.Index:
		return call(plan.OpItem, nil, e.X, e.Index)
	case *ast.FieldAccess:
		x, err := rec(e.X)
		if err != nil {
			return nil, err
		}
		return fieldAccess(x, e.Field.Name), nil
	case *ast.FuncCall:
		f := env.s.lookupFunc(e)
		if f == nil {
			return nil, errorf(e.Pos, ErrNoPlan, "No plan for function %s", ast.String(e.Name))
		}
		if f.Kind != functions.Scalar {
			return nil, errorf(e.Pos, ErrNoPlan, "%s is not allowed here", f.Name)
		}
		if f.Name == "JSON" {
			return nil, errJSONOutside(e.Pos)
		}
		if u, ok := firstTimeUnit(e.Args); ok {
			return env.timeUnitCall(f, u, e.Args[1:], t, rec)
		}
		return call(f.Name, f, e.Args...)
	case *ast.JSONCall:
		return env.jsonPlan(e, t, rec)
	case *ast.Extract:
		return env.unitCall("EXTRACT", string(e.Unit), e.X, t, rec)
	case *ast.FloorCeil:
		name := "FLOOR"
		if e.Ceil {
			name = "CEIL"
		}
		return env.unitCall(name, string(e.Unit), e.X, t, rec)
	case *ast.PositionExpr:
		return call("POSITION", env.fn("POSITION"), presentArgs(e.Sub, e.Str, e.From)...)
	case *ast.Substring:
		return call("SUBSTRING", env.fn("SUBSTRING"), presentArgs(e.X, e.From, e.For)...)
	case *ast.Overlay:
		return call("OVERLAY", env.fn("OVERLAY"), presentArgs(e.X, e.Placing, e.From, e.For)...)
	case *ast.Trim:
		// TRIM(mode chars FROM x): the mode as a string literal first, then
		// x and the characters (a blank when absent).
		x, err := rec(e.X)
		if err != nil {
			return nil, err
		}
		var chars plan.Expr = &plan.Literal{Value: " ", T: types.NewChar(1).WithNullable(false)}
		if e.Chars != nil {
			if chars, err = rec(e.Chars); err != nil {
				return nil, err
			}
		}
		mode := &plan.Literal{Value: strings.ToUpper(e.Mode), T: types.NewVarChar(8).WithNullable(false)}
		return &plan.Call{Name: "TRIM", Func: env.fn("TRIM"), Args: []plan.Expr{mode, x, chars}, T: t}, nil
	}
	return nil, errorf(e.Position(), ErrNoPlan, "No plan for the expression %s", ast.String(e))
}

func (env *exprEnv) fn(name string) *functions.Func {
	f, _ := env.s.a.Funcs.Lookup(name)
	return f
}

// unitCall converts EXTRACT(unit FROM x), FLOOR(x TO unit) and CEIL(x TO
// unit): the unit as a string literal first, then x.
func (env *exprEnv) unitCall(name, unit string, x ast.Expr, t *types.Type, rec func(ast.Expr) (plan.Expr, error)) (plan.Expr, error) {
	px, err := rec(x)
	if err != nil {
		return nil, err
	}
	u := &plan.Literal{Value: unit, T: types.NewVarChar(len(unit)).WithNullable(false)}
	return &plan.Call{Name: name, Func: env.fn(name), Args: []plan.Expr{u, px}, T: t}, nil
}

func presentArgs(args ...ast.Expr) []ast.Expr {
	var out []ast.Expr
	for _, a := range args {
		if a != nil {
			out = append(out, a)
		}
	}
	return out
}

// identifier converts a placeholder reference and its field path.
func (env *exprEnv) identifier(id *ast.Identifier, t *types.Type) (plan.Expr, error) {
	tgt, ok := env.targets[id.Parts[0].Name]
	if !ok {
		return nil, errorf(id.Parts[0].Pos, ErrNoPlan, "Unresolved reference %s", ast.String(id))
	}
	var x plan.Expr
	switch {
	case tgt.expr != nil:
		x = tgt.expr
	case tgt.corr != 0:
		x = &plan.CorrelRef{ID: tgt.corr, Index: tgt.index, Name: tgt.name, T: env.colType(id.Parts[0].Name)}
	default:
		x = &plan.ColumnRef{Index: tgt.index, Name: tgt.name, T: env.colType(id.Parts[0].Name)}
	}
	for _, f := range id.Parts[1:] {
		x = fieldAccess(x, f.Name)
	}
	return x, nil
}

func (env *exprEnv) colType(name string) *types.Type {
	for _, c := range env.cols {
		if c.Name == name {
			return c.Type
		}
	}
	return types.New(types.Null)
}

// fieldAccess reads field name of a ROW expression.
func fieldAccess(x plan.Expr, name string) plan.Expr {
	rt := x.Type()
	for i, f := range rt.Fields {
		if f.Name == name {
			return &plan.FieldAccess{X: x, Index: i, Name: name, T: withNullable(f.Type, rt.Nullable())}
		}
	}
	return &plan.FieldAccess{X: x, Index: -1, Name: name, T: types.New(types.Null)}
}

// literalText is the type literalValue reads a literal's text as. It is
// never changed.
var literalText = types.NewString()

// literalValue turns a literal into its engine value of type t.
func literalValue(l *ast.Literal, t *types.Type) (plan.Expr, error) {
	v, err := literalDatum(l, t)
	if err != nil {
		return nil, err
	}
	return &plan.Literal{Value: v, T: t}, nil
}

// literalDatum is the engine value of a literal of type t.
func literalDatum(l *ast.Literal, t *types.Type) (any, error) {
	switch l.Kind {
	case ast.LitNull, ast.LitUnknown:
		return nil, nil
	case ast.LitBool:
		return strings.EqualFold(l.Value, "TRUE"), nil
	case ast.LitString:
		return l.Value, nil
	case ast.LitBinary:
		b, err := hex.DecodeString(l.Value)
		if err != nil {
			return nil, errorf(l.Pos, ErrLiteral, "Illegal binary string %s", l.Value)
		}
		return b, nil
	case ast.LitInteger:
		// The cast from the literal's digits (below) gives the same
		// value; plain digits within the type's range need no cast.
		if t.Kind == types.Int || t.Kind == types.BigInt {
			if n, err := strconv.ParseInt(l.Value, 10, 64); err == nil && l.Value[0] != '+' && l.Value[0] != '-' &&
				(t.Kind == types.BigInt || n >= math.MinInt32 && n <= math.MaxInt32) {
				return types.IntegerValue(t.Kind, n), nil
			}
		}
	}
	v, err := types.CastValue(l.Value, literalText, t)
	if err != nil {
		return nil, errorf(l.Pos, ErrLiteral, "Illegal literal %s: %v", ast.String(l), err)
	}
	return v, nil
}

// intervalValue turns an INTERVAL literal into months (year-month) or
// milliseconds (day-time).
func intervalValue(l *ast.IntervalLit, t *types.Type) (plan.Expr, error) {
	s := strings.TrimSpace(l.Value)
	neg := l.Negative
	if strings.HasPrefix(s, "-") {
		neg, s = !neg, s[1:]
	} else {
		s = strings.TrimPrefix(s, "+")
	}
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ':' || r == '-' })
	units := []ast.TimeUnit{"YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND"}
	start := 0
	for i, u := range units {
		if u == l.Qualifier.Start {
			start = i
		}
	}
	ms := map[ast.TimeUnit]int64{"DAY": 86400000, "HOUR": 3600000, "MINUTE": 60000, "SECOND": 1000}
	var months, millis int64
	for i, f := range fields {
		if start+i >= len(units) {
			break
		}
		u := units[start+i]
		// A fraction of a second keeps its milliseconds and drops the
		// rest, as Flink's interval values do.
		f, frac, _ := strings.Cut(f, ".")
		n, err := strconv.ParseInt(f, 10, 64)
		if err != nil || (frac != "" && u != "SECOND") {
			return nil, errorf(l.Pos, ErrLiteral, "Illegal interval literal '%s'", l.Value)
		}
		switch u {
		case "YEAR":
			months += n * 12
		case "MONTH":
			months += n
		default:
			millis += n * ms[u]
		}
		if frac != "" {
			frac = (frac + "000")[:3]
			m, err := strconv.ParseInt(frac, 10, 64)
			if err != nil {
				return nil, errorf(l.Pos, ErrLiteral, "Illegal interval literal '%s'", l.Value)
			}
			millis += m
		}
	}
	if t.Kind == types.IntervalYearMonth {
		if neg {
			months = -months
		}
		return &plan.Literal{Value: int32(months), T: t}, nil
	}
	v := millis
	if neg {
		v = -v
	}
	return &plan.Literal{Value: v, T: t}, nil
}

// castTo casts x to t unless it already has t (nullability aside).
func castTo(x plan.Expr, t *types.Type) plan.Expr {
	to := *t
	to.NotNull = x.Type().NotNull
	if x.Type().Equal(&to) {
		return x
	}
	return &plan.Cast{X: x, T: t.WithNullable(t.Nullable() || x.Type().Nullable())}
}

// LiteralValue is the plan expression of a literal of type t (its
// LiteralType), as the validator plans it; a negative literal is given
// with its '-' in Value.
func LiteralValue(l *ast.Literal, t *types.Type) (plan.Expr, error) {
	return literalValue(l, t)
}

// LiteralDatum is the value LiteralValue plans for a literal of type t.
func LiteralDatum(l *ast.Literal, t *types.Type) (any, error) {
	return literalDatum(l, t)
}
