package validate

import (
	"eddy/engine/ast"
	"eddy/engine/functions"
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
