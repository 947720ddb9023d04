package functions

import (
	"errors"

	"eddy/engine/types"
)

// Conditional functions (types-and-functions.md §5). CASE is typed by the
// validator with CommonType, as these are.
func (r *Registry) addConditional() {
	r.scalar("COALESCE", coalesce, varsig(1, Any))
	// IF's overloads are Flink's: both branches of one family.
	r.scalar("IF", ifType, sig(Boolean, Numeric, Numeric), sig(Boolean, String, String),
		sig(Boolean, Boolean, Boolean), sig(Boolean, Character, Character), sig(Boolean, Binary, Binary),
		sig(Boolean, DateF, DateF), sig(Boolean, TimestampF, TimestampF), sig(Boolean, TimeF, TimeF))
	r.scalar("IFNULL", ifNull, sig(Any, Any))
	r.scalar("NULLIF", argNullable(0), sig(Any, Any))
	r.scalar("GREATEST", common(0), varsig(1, Comparable))
	r.scalar("LEAST", common(0), varsig(1, Comparable))
}

// coalesce is nullable only when every argument is.
func coalesce(name string, ops []Operand) (*types.Type, error) {
	t, err := common(0)(name, ops)
	var invalid *InvalidCallError
	if errors.As(err, &invalid) {
		return nil, &MixingError{}
	}
	if err != nil {
		return nil, err
	}
	allNullable := true
	for _, op := range ops {
		if !op.Type.Nullable() {
			allNullable = false
		}
	}
	return t.WithNullable(allNullable), nil
}

// ifType is IF(cond, a, b): the common type of a and b.
func ifType(name string, ops []Operand) (*types.Type, error) {
	return common(1)(name, ops)
}

// ifNull is IFNULL(x, repl): nullable only when the replacement is.
func ifNull(name string, ops []Operand) (*types.Type, error) {
	t, err := common(0)(name, ops)
	if err != nil {
		return nil, err
	}
	return t.WithNullable(ops[1].Type.Nullable()), nil
}
