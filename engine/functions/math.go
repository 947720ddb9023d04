package functions

import (
	"eddy/engine/types"
)

// Arithmetic and mathematical functions (types-and-functions.md §5).
func (r *Registry) addMath() {
	num := sig(Numeric)
	for _, name := range []string{"SQRT", "LN", "LOG10", "LOG2", "EXP", "SIN", "COS", "TAN", "COT",
		"ASIN", "ACOS", "ATAN", "SINH", "COSH", "TANH", "DEGREES", "RADIANS"} {
		r.scalar(name, fixed(double()), num)
	}
	r.scalar("POWER", fixed(double()), sig(Numeric, Numeric)).Synonyms = []string{"POW"}
	r.scalar("ATAN2", fixed(double()), sig(Numeric, Numeric))
	r.scalar("LOG", fixed(double()), num, sig(Numeric, Numeric))
	r.scalar("ABS", argType(0), num, sig(Interval))
	r.scalar("SIGN", argType(0), num)
	r.scalar("CEIL", roundToInteger, num, sig(Datetime)).Synonyms = []string{"CEILING"}
	r.scalar("FLOOR", roundToInteger, num, sig(Datetime))
	r.scalar("ROUND", roundType, num, sig(Numeric, Integer))
	r.scalar("TRUNCATE", roundType, num, sig(Numeric, Integer))
	r.scalar("MOD", modType, sig(ExactNumeric, ExactNumeric))
	r.scalar("PI", notNull(double()), sig())
	r.scalar("E", notNull(double()), sig())
	r.scalar("BIN", fixed(str()), sig(Integer))
	r.scalar("HEX", fixed(str()), sig(Integer), sig(String))
	r.add(&Func{Name: "RAND", Kind: Scalar, Return: notNull(double()),
		Overloads: []Overload{sig(), sig(Numeric)}})
	r.add(&Func{Name: "RAND_INTEGER", Kind: Scalar, Return: notNull(integer()),
		Overloads: []Overload{sig(Numeric), sig(Numeric, Numeric)}})
	r.add(&Func{Name: "UUID", Kind: Scalar, Return: notNull(types.NewChar(36)), Overloads: []Overload{sig()}})
}

// roundToInteger is CEIL and FLOOR: a DECIMAL loses its fraction digits
// (DECIMAL(p, s) becomes DECIMAL(1+p-s, 0)); other types are kept.
func roundToInteger(_ string, ops []Operand) (*types.Type, error) {
	t, err := typedArg(ops, 0)
	if err != nil {
		return nil, err
	}
	if t.Kind == types.Decimal && t.Scale > 0 {
		t = RoundDecimal(t.Prec, t.Scale, 0).WithNullable(t.Nullable())
	}
	return t, nil
}

// roundType is ROUND and TRUNCATE: a DECIMAL follows RoundDecimal with the
// literal digit count (0 when absent or not a literal).
func roundType(_ string, ops []Operand) (*types.Type, error) {
	t, err := typedArg(ops, 0)
	if err != nil {
		return nil, err
	}
	nullable := opsNullable(ops)
	if t.Kind != types.Decimal {
		return t.WithNullable(nullable), nil
	}
	digits := 0
	if len(ops) > 1 && ops[1].Int != nil {
		digits = int(*ops[1].Int)
	}
	return RoundDecimal(t.Prec, t.Scale, digits).WithNullable(nullable), nil
}

// modType is MOD(a, b), the same as a % b.
func modType(name string, ops []Operand) (*types.Type, error) {
	t, ok := NumericArithmetic("%", ops[0].Type, ops[1].Type)
	if !ok || t.Kind == types.Null {
		return nil, &NullIllegalError{}
	}
	return t, nil
}
