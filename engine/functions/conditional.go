package functions

import (
	"errors"
	"fmt"

	"eddy/engine/types"
)

// Conditional functions (types-and-functions.md §5). CASE is typed by the
// validator with CommonType, as these are.
func (r *Registry) addConditional() {
	r.scalar("COALESCE", coalesce, varsig(1, Any))
	// IF's overloads are Flink's: both branches of one family. Flink 2.2
	// lists the first two as IF(<ANY_TYPE>, <NUMERIC_TYPE>, <NUMERIC_TYPE>)
	// and IF(<BOOLEAN>, <CHARACTER>, <CHARACTER>) in its error message.
	r.scalar("IF", ifType, sig(Boolean, Numeric, Numeric).shown("ANY_TYPE", "NUMERIC_TYPE", "NUMERIC_TYPE"),
		sig(Boolean, String, String).shown("BOOLEAN", "CHARACTER", "CHARACTER"),
		sig(Boolean, Boolean, Boolean), sig(Boolean, Character, Character), sig(Boolean, Binary, Binary),
		sig(Boolean, DateF, DateF), sig(Boolean, TimestampF, TimestampF), sig(Boolean, TimeF, TimeF))
	r.scalar("IFNULL", ifNull, sig(Any, Any))
	r.scalar("NULLIF", argNullable(0), sig(Any, Any))
	r.scalar("GREATEST", greatest, varsig(1, Comparable))
	r.scalar("LEAST", greatest, varsig(1, Comparable))
}

// coalesce is nullable only when every argument is. Its type is Flink
// 2.2's common type of the arguments, which differs from CommonType for
// dates: DATE and TIMESTAMP merge to DATE, and a DATE or TIMESTAMP with
// numbers is the date-time type that the numbers cannot be cast to.
func coalesce(name string, ops []Operand) (*types.Type, error) {
	t, err := coalesceType(name, ops)
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

// coalesceType is the common type of COALESCE's and IFNULL's arguments
// (Flink 2.2's answers: COALESCE(DATE, TIMESTAMP) is a DATE,
// COALESCE(DATE, 1) fails at the argument 1, COALESCE(STRING, INT) with
// "Invalid input arguments.").
func coalesceType(name string, ops []Operand) (*types.Type, error) {
	var date, timestamp, ltz, number, other bool
	var datetime *types.Type
	for _, op := range ops {
		switch k := op.Type.Kind; {
		case k == types.Null:
		case k == types.Date:
			date, datetime = true, op.Type
		case k == types.Timestamp:
			timestamp = true
			if datetime == nil || datetime.Kind != types.Date {
				datetime = op.Type
			}
		case k == types.TimestampLTZ:
			ltz, other = true, true
		case k.IsNumeric():
			number = true
		default:
			other = true
		}
	}
	switch {
	case date && ltz:
		return nil, &InputArgumentsError{}
	case other || !(date || timestamp):
	case number && date && timestamp:
		return nil, &InputArgumentsError{}
	case number && (date != timestamp):
		for i, op := range ops {
			if op.Type.Kind.IsNumeric() {
				want := Plain(datetime).WithNullable(op.Type.Nullable())
				return nil, &InputArgumentsError{Msg: fmt.Sprintf(
					"Invalid argument type at position %d. Data type %s expected but %s passed.", i, want, op.Type)}
			}
		}
	case date && timestamp:
		return types.New(types.Date), nil
	}
	t, err := common(0)(name, ops)
	var invalid *InvalidCallError
	if errors.As(err, &invalid) {
		return nil, &InputArgumentsError{}
	}
	return t, err
}

// greatest types GREATEST and LEAST: the common type of the arguments,
// each of which must compare with the next (Flink names the first pair
// that does not: LEAST(c, 1, b) "Can not compare INT NOT NULL with
// STRING").
func greatest(name string, ops []Operand) (*types.Type, error) {
	for i := 1; i < len(ops); i++ {
		l, r := ops[i-1].Type, ops[i].Type
		if l.Kind == types.Null || r.Kind == types.Null {
			continue
		}
		if _, ok := CommonType(l, r); !ok {
			return nil, &ComparisonError{Left: l, Right: r}
		}
	}
	return common(0)(name, ops)
}

// ifType is IF(cond, a, b): the common type of a and b.
func ifType(name string, ops []Operand) (*types.Type, error) {
	return common(1)(name, ops)
}

// ifNull is IFNULL(x, repl): nullable only when the replacement is.
func ifNull(name string, ops []Operand) (*types.Type, error) {
	t, err := coalesceType(name, ops)
	if err != nil {
		return nil, err
	}
	return t.WithNullable(ops[1].Type.Nullable()), nil
}
