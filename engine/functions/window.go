package functions

import (
	"eddy/engine/types"
)

// Window functions: ranking and offsets, valid only with OVER
// (types-and-functions.md §5). Any aggregate may also take OVER.
func (r *Registry) addWindow() {
	win := func(name string, ret ReturnFunc, overloads ...Overload) {
		r.add(&Func{Name: name, Kind: Window, Deterministic: true, Return: ret, Overloads: overloads})
	}
	win("ROW_NUMBER", notNull(bigint()), sig())
	win("RANK", notNull(bigint()), sig())
	win("DENSE_RANK", notNull(bigint()), sig())
	win("PERCENT_RANK", notNull(double()), sig())
	win("CUME_DIST", notNull(double()), sig())
	win("NTILE", notNull(bigint()), sig(Integer))
	win("LAG", leadLag, sig(Any), sig(Any, Integer), sig(Any, Integer, Any))
	win("LEAD", leadLag, sig(Any), sig(Any, Integer), sig(Any, Integer, Any))
}

// leadLag is LEAD/LAG(x[, offset[, default]]): x's type, nullable unless a
// NOT NULL default covers the missing rows of a NOT NULL x.
func leadLag(name string, ops []Operand) (*types.Type, error) {
	t, err := typedArg(ops, 0)
	if err != nil {
		return nil, err
	}
	if len(ops) < 3 {
		return t.WithNullable(true), nil
	}
	c, ok := CommonType(t, ops[2].Type)
	if !ok {
		return nil, &InvalidCallError{Func: name, Args: opTypes(ops)}
	}
	return c.WithNullable(t.Nullable() || ops[2].Type.Nullable()), nil
}
