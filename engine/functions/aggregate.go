package functions

import (
	"eddy/engine/types"
)

// Aggregate functions (types-and-functions.md §2 and §5). They ignore NULLs
// and give NULL on empty input, so their results are nullable except
// COUNT's. COUNT(*) reaches Infer with no arguments.
func (r *Registry) addAggregates() {
	agg := func(name string, ret ReturnFunc, overloads ...Overload) *Func {
		f := &Func{Name: name, Kind: Aggregate, Deterministic: true, Return: ret, Overloads: overloads}
		r.add(f)
		return f
	}
	agg("COUNT", notNull(bigint()), varsig(0, Any))
	agg("SUM", sumType, sig(Numeric))
	agg("SUM0", sumType, sig(Numeric))
	agg("AVG", avgType, sig(Numeric))
	for _, name := range []string{"STDDEV_POP", "STDDEV_SAMP", "VAR_POP", "VAR_SAMP"} {
		agg(name, avgType, sig(Numeric))
	}
	agg("VARIANCE", avgType, sig(Numeric))
	agg("STDDEV", avgType, sig(Numeric))
	agg("MIN", notVariant("Min", argNullable(0)), sig(Comparable))
	agg("MAX", notVariant("Max", argNullable(0)), sig(Comparable))
	agg("COLLECT", func(_ string, ops []Operand) (*types.Type, error) {
		t, err := typedArg(ops, 0)
		if err != nil {
			return nil, err
		}
		return types.NewMultiset(t).WithNullable(false), nil
	}, sig(Any))
	agg("ARRAY_AGG", func(_ string, ops []Operand) (*types.Type, error) {
		t, err := typedArg(ops, 0)
		if err != nil {
			return nil, err
		}
		return types.NewArray(t).WithNullable(true), nil
	}, sig(Any))
	agg("LISTAGG", alwaysNullable(str()), sig(Character), sig(Character, Character))
	agg("FIRST_VALUE", argNullable(0), sig(Any))
	agg("LAST_VALUE", argNullable(0), sig(Any))
	agg("PERCENTILE", alwaysNullable(double()), sig(Numeric, Numeric), sig(Numeric, Numeric, Numeric))
	agg("JSON_OBJECTAGG", notNull(str()), sig(Character, Any))
	agg("JSON_ARRAYAGG", notNull(str()), sig(Any))
	agg("BOOL_AND", alwaysNullable(boolean()), sig(Boolean)).Synonyms = []string{"EVERY"}
	agg("BOOL_OR", alwaysNullable(boolean()), sig(Boolean)).Synonyms = []string{"SOME"}
}

// sumType: SUM(DECIMAL(p, s)) is DECIMAL(38, s); SUM keeps any other
// numeric type (LogicalTypeMerging.findSumAggType). Always nullable.
func sumType(_ string, ops []Operand) (*types.Type, error) {
	t, err := typedArg(ops, 0)
	if err != nil {
		return nil, err
	}
	if t.Kind == types.Decimal {
		t = types.NewDecimal(types.MaxDecimalPrecision, t.Scale)
	}
	return t.WithNullable(true), nil
}

// avgType: AVG(DECIMAL(p, s)) is DECIMAL(38, max(6, s)); AVG keeps any
// other numeric type, so AVG(INT) is INT (findAvgAggType). The variance
// and standard deviation functions share it. Always nullable.
func avgType(_ string, ops []Operand) (*types.Type, error) {
	t, err := typedArg(ops, 0)
	if err != nil {
		return nil, err
	}
	if t.Kind == types.Decimal {
		t = types.NewDecimal(types.MaxDecimalPrecision, max(6, t.Scale))
	}
	return t.WithNullable(true), nil
}
