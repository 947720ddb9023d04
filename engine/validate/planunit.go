package validate

import (
	"eddy/engine/ast"
	"eddy/engine/functions"
	"eddy/engine/plan"
	"eddy/engine/types"
)

// firstTimeUnit returns the time unit that opens the arguments of
// TIMESTAMPADD and TIMESTAMPDIFF.
func firstTimeUnit(args []ast.Expr) (*ast.TimeUnitArg, bool) {
	if len(args) == 0 {
		return nil, false
	}
	u, ok := args[0].(*ast.TimeUnitArg)
	return u, ok
}

// timeUnitCall converts TIMESTAMPADD(unit, n, t) and TIMESTAMPDIFF(unit,
// t1, t2): the unit as a string literal first, then the operands. When
// TIMESTAMPADD turns a DATE into a TIMESTAMP (HOUR, MINUTE, SECOND), the
// date is cast first, so that the kernel adds to a timestamp.
func (env *exprEnv) timeUnitCall(f *functions.Func, u *ast.TimeUnitArg, args []ast.Expr, t *types.Type, rec func(ast.Expr) (plan.Expr, error)) (plan.Expr, error) {
	unit := string(u.Unit)
	out := []plan.Expr{&plan.Literal{Value: unit, T: types.NewVarChar(len(unit)).WithNullable(false)}}
	for _, a := range args {
		p, err := rec(a)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	if f.Name == "TIMESTAMPADD" && len(out) == 3 && t.Kind == types.Timestamp {
		if dt := out[2].Type(); dt.Kind != types.Timestamp {
			out[2] = &plan.Cast{X: out[2], T: types.NewTimestamp(t.Prec).WithNullable(dt.Nullable())}
		}
	}
	return &plan.Call{Name: f.Name, Func: f, Args: out, T: t}, nil
}
