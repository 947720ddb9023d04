package validate

import (
	"strings"

	"eddy/engine/ast"
	"eddy/engine/functions"
	"eddy/engine/plan"
	"eddy/engine/types"
)

// jsonCall types the SQL/JSON functions with their own syntax. The plain
// argument list goes through the registry's signature; RETURNING sets
// JSON_VALUE's type (nullable: a missing path gives NULL); JSON_OBJECT
// keys must be character strings; the aggregates follow the aggregate
// rules of any other call.
func (v *Validator) jsonCall(scope *Scope, e *ast.JSONCall) (*Typed, error) {
	f, ok := v.funcs.Lookup(e.Name)
	if !ok {
		return nil, errorf(e.Pos, ErrUnknownFunction, "No match found for function signature %s", e.Name)
	}
	if f.Kind == functions.Aggregate && !v.AllowAggregates {
		return nil, errorf(e.Pos, ErrNotSupported, "Aggregate function %s is not supported in this context", f.Name)
	}
	out := *e
	args, err := v.exprs(scope, e.Args)
	if err != nil {
		return nil, err
	}
	out.Args = exprsOf(args)
	keys, err := v.exprs(scope, e.Keys)
	if err != nil {
		return nil, err
	}
	vals, err := v.exprs(scope, e.Values)
	if err != nil {
		return nil, err
	}
	out.Keys, out.Values = exprsOf(keys), exprsOf(vals)
	ops := make([]functions.Operand, 0, len(args)+2*len(keys))
	for _, a := range args {
		ops = append(ops, functions.Operand{Type: a.Type})
	}
	for i := range keys {
		if !functions.Character.Accepts(keys[i].Type) || keys[i].Type.Kind == types.Null {
			return nil, cannotApply(e.Keys[i].Position(), e.Name, e.Name+"(KEY <"+
				functions.CalciteTypeString(keys[i].Type)+">)", []string{e.Name + "(KEY <CHARACTER> VALUE <ANY>)"})
		}
		ops = append(ops, functions.Operand{Type: keys[i].Type}, functions.Operand{Type: vals[i].Type})
	}
	t, err := f.InferOperands(ops)
	if err != nil {
		return nil, v.inferError(e.Pos, err)
	}
	if e.Returning != nil {
		t = e.Returning.WithNullable(true)
	}
	if e.Name == "JSON_QUERY" && e.Returning != nil {
		// JsonQueryCallGen: a STRING, or an ARRAY of the strings or values
		// of the selected array; EMPTY OBJECT cannot be an array.
		if t.Kind != types.VarChar && t.Kind != types.Array {
			return nil, errorf(e.Pos, ErrInvalidCall, "Unsupported type '%s' for RETURNING in JSON_QUERY().", t.String())
		}
		for _, b := range [][2]string{{"empty", e.OnEmpty}, {"error", e.OnError}} {
			if t.Kind == types.Array && b[1] == "EMPTY OBJECT" {
				return nil, errorf(e.Pos, ErrInvalidCall, "Illegal on %s behavior 'EMPTY OBJECT' for return type: %s",
					b[0], functions.CalciteTypeString(t.WithNullable(false)))
			}
		}
	}
	for _, d := range []struct {
		in  ast.Expr
		out *ast.Expr
	}{{e.EmptyDefault, &out.EmptyDefault}, {e.ErrorDefault, &out.ErrorDefault}} {
		if d.in == nil {
			continue
		}
		def, err := v.expr(scope, d.in)
		if err != nil {
			return nil, err
		}
		if !functions.CanCast(def.Type, t) {
			return nil, errorf(d.in.Position(), ErrCast, "Cast function cannot convert value of type %s to type %s",
				functions.CalciteTypeString(def.Type), functions.CalciteTypeString(t))
		}
		*d.out = def.Expr
	}
	return &Typed{Expr: &out, Type: t}, nil
}

// jsonPlan converts a SQL/JSON call into the kernel call of package
// functions, its clauses passed as leading constant arguments (the
// layouts documented there).
func (env *exprEnv) jsonPlan(e *ast.JSONCall, t *types.Type, rec func(ast.Expr) (plan.Expr, error)) (plan.Expr, error) {
	f := env.fn(e.Name)
	if f == nil || f.Kind != functions.Scalar {
		return nil, errorf(e.Pos, ErrNoPlan, "%s is not supported by the local engine yet", e.Name)
	}
	args := make([]plan.Expr, 0, len(e.Args)+2*len(e.Keys)+4)
	if e.Name != "JSON_ARRAY" {
		for _, a := range e.Args {
			x, err := rec(a)
			if err != nil {
				return nil, err
			}
			args = append(args, x)
		}
	}
	behaviour := func(what string, def ast.Expr, dflt string) ([]plan.Expr, error) {
		if what == "" {
			what = dflt
		}
		var d plan.Expr = &plan.Literal{T: t.WithNullable(true)}
		if def != nil {
			x, err := rec(def)
			if err != nil {
				return nil, err
			}
			d = castTo(x, t)
		}
		return []plan.Expr{jsonLit(what), d}, nil
	}
	switch e.Name {
	case "JSON_VALUE":
		empty, err := behaviour(e.OnEmpty, e.EmptyDefault, "NULL")
		if err != nil {
			return nil, err
		}
		failed, err := behaviour(e.OnError, e.ErrorDefault, "NULL")
		if err != nil {
			return nil, err
		}
		args = append(append(args, empty...), failed...)
	case "JSON_QUERY":
		wrapper := e.Wrapper
		if wrapper == "" {
			wrapper = "WITHOUT ARRAY"
		}
		args = append(args, jsonLit(wrapper), jsonLit(orDefault(e.OnEmpty, "NULL")), jsonLit(orDefault(e.OnError, "NULL")))
	case "JSON_EXISTS":
		args = append(args, jsonLit(orDefault(e.OnError, "FALSE")))
	case "JSON_OBJECT", "JSON_ARRAY":
		onNull := orDefault(e.OnNull, "NULL")
		if e.Name == "JSON_ARRAY" {
			onNull = orDefault(e.OnNull, "ABSENT")
		}
		var raw strings.Builder
		var vals []plan.Expr
		if e.Name == "JSON_OBJECT" {
			for i := range e.Keys {
				k, err := rec(e.Keys[i])
				if err != nil {
					return nil, err
				}
				v, err := env.jsonValuePlan(e.Values[i], rec)
				if err != nil {
					return nil, err
				}
				vals = append(vals, k, v)
				raw.WriteString(rawFlag(v))
			}
		} else {
			for _, a := range e.Args {
				v, err := env.jsonValuePlan(a, rec)
				if err != nil {
					return nil, err
				}
				vals = append(vals, v)
				raw.WriteString(rawFlag(v))
			}
		}
		args = append([]plan.Expr{jsonLit(onNull), jsonLit(raw.String())}, vals...)
	}
	return &plan.Call{Name: f.Name, Func: f, Args: args, T: t}, nil
}

// jsonValuePlan converts a value of JSON_OBJECT or an element of
// JSON_ARRAY, the only places where JSON(s) may appear.
func (env *exprEnv) jsonValuePlan(x ast.Expr, rec func(ast.Expr) (plan.Expr, error)) (plan.Expr, error) {
	fc, ok := x.(*ast.FuncCall)
	if !ok {
		return rec(x)
	}
	f := env.s.lookupFunc(fc)
	if f == nil || f.Name != "JSON" || fc.Over != nil {
		return rec(x)
	}
	t, err := env.typeOf(fc)
	if err != nil {
		return nil, err
	}
	args := make([]plan.Expr, len(fc.Args))
	for i, a := range fc.Args {
		if args[i], err = rec(a); err != nil {
			return nil, err
		}
	}
	return &plan.Call{Name: f.Name, Func: f, Args: args, T: t}, nil
}

// errJSONOutside is JSON(s) used elsewhere than as a JSON_OBJECT value or
// a JSON_ARRAY element (Flink's message).
func errJSONOutside(pos ast.Pos) error {
	return errorf(pos, ErrInvalidCall,
		"The JSON() function is currently only supported inside JSON_ARRAY() or as the VALUE param of JSON_OBJECT()")
}

// isJSONPlan converts x IS [NOT] JSON [VALUE | SCALAR | ARRAY | OBJECT].
func (env *exprEnv) isJSONPlan(e *ast.IsExpr, t *types.Type, rec func(ast.Expr) (plan.Expr, error)) (plan.Expr, error) {
	x, err := rec(e.X)
	if err != nil {
		return nil, err
	}
	kind := orDefault(strings.TrimSpace(strings.TrimPrefix(e.What, "JSON")), "VALUE")
	var out plan.Expr = &plan.Call{Name: "IS_JSON", Func: env.fn("IS_JSON"), Args: []plan.Expr{x, jsonLit(kind)}, T: t}
	if e.Not {
		out = &plan.Call{Name: plan.OpNot, Args: []plan.Expr{out}, T: t}
	}
	return out, nil
}

// rawFlag is "1" for a value that is JSON text of a JSON constructor (to be
// inserted as JSON, not as a string), else "0".
func rawFlag(v plan.Expr) string {
	if c, ok := v.(*plan.Call); ok && functions.JSONConstructor(c.Name) {
		return "1"
	}
	return "0"
}

func jsonLit(s string) plan.Expr {
	return &plan.Literal{Value: s, T: types.NewString().WithNullable(false)}
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// jsonAggCall adds a JSON_OBJECTAGG or JSON_ARRAYAGG call to the
// aggregation (or finds an equal one) and returns the reference to its
// column, as aggCall does for plain aggregate calls. Its arguments are
// those of jsonAggKernel in package functions: NULL or ABSENT, the raw
// flag of the value, then the key and the value (or the item).
func (s *state) jsonAggCall(env *exprEnv, e *ast.JSONCall, f *functions.Func, fin ast.Expr, ab *aggBuilder) (plan.Expr, error) {
	t, err := env.typeOf(e)
	if err != nil {
		return nil, err
	}
	base := len(ab.g.plans)
	for k, a := range ab.finals {
		if ast.Equal(fin, a) {
			return &plan.ColumnRef{Index: base + k, Name: ab.aggs[k].Alias, T: ab.aggs[k].T}, nil
		}
	}
	onNull := orDefault(e.OnNull, "ABSENT")
	var vals []plan.Expr
	if e.Name == "JSON_OBJECTAGG" {
		onNull = orDefault(e.OnNull, "NULL")
		for i := range e.Keys {
			k, err := env.toPlan(e.Keys[i])
			if err != nil {
				return nil, err
			}
			v, err := env.toPlan(e.Values[i])
			if err != nil {
				return nil, err
			}
			vals = append(vals, k, v)
		}
	} else {
		for _, a := range e.Args {
			v, err := env.toPlan(a)
			if err != nil {
				return nil, err
			}
			vals = append(vals, v)
		}
	}
	if len(vals) == 0 {
		return nil, errorf(e.Pos, ErrNoPlan, "%s needs a value", e.Name)
	}
	call := plan.AggCall{Name: f.Name, Func: f, Alias: "$f" + itoa(base+len(ab.aggs)), T: t,
		Args: append([]plan.Expr{jsonLit(onNull), jsonLit(rawFlag(vals[len(vals)-1]))}, vals...)}
	ab.aggs = append(ab.aggs, call)
	ab.finals = append(ab.finals, fin)
	return &plan.ColumnRef{Index: base + len(ab.aggs) - 1, Name: call.Alias, T: t}, nil
}

// isJSONAggregate reports whether e is a call of JSON_OBJECTAGG or
// JSON_ARRAYAGG, for the planner's search of aggregate calls.
func (s *state) isJSONAggregate(e ast.Node) (*ast.JSONCall, *functions.Func, bool) {
	jc, ok := e.(*ast.JSONCall)
	if !ok {
		return nil, nil, false
	}
	f, ok := s.a.Funcs.Lookup(jc.Name)
	if !ok || f.Kind != functions.Aggregate {
		return nil, nil, false
	}
	return jc, f, true
}
