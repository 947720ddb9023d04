package functions

import (
	"eddy/engine/types"
)

// Temporal functions (types-and-functions.md §5). The current-time
// functions are NOT NULL and not deterministic: Flink evaluates them per
// record in streaming mode and once per query in batch mode.
func (r *Registry) addTemporal() {
	now := func(name string, t *types.Type, syn ...string) {
		r.add(&Func{Name: name, Synonyms: syn, Kind: Scalar, Return: notNull(t), Overloads: []Overload{sig()}})
	}
	now("CURRENT_DATE", types.New(types.Date))
	now("CURRENT_TIME", types.NewTime(0))
	now("LOCALTIME", types.NewTime(0))
	now("LOCALTIMESTAMP", types.NewTimestamp(3))
	now("CURRENT_TIMESTAMP", types.NewTimestampLTZ(3))
	now("NOW", types.NewTimestampLTZ(3))
	now("CURRENT_ROW_TIMESTAMP", types.NewTimestampLTZ(3))
	now("PROCTIME", types.NewTimestampLTZ(3).WithTimeAttr(types.Proctime))
	r.add(&Func{Name: "UNIX_TIMESTAMP", Kind: Scalar, Return: unixTimestamp,
		Overloads: []Overload{sig(), sig(String), sig(String, String)}})

	dt := sig(Datetime)
	for _, name := range []string{"YEAR", "QUARTER", "MONTH", "WEEK", "DAYOFYEAR", "DAYOFMONTH",
		"DAYOFWEEK", "HOUR", "MINUTE", "SECOND"} {
		r.scalar(name, fixed(bigint()), dt)
	}
	// EXTRACT(unit FROM x): the validator checks the unit and passes x.
	r.scalar("EXTRACT", fixed(bigint()), dt, sig(Interval))
	r.scalar("DATE_FORMAT", alwaysNullable(str()), sig(TimestampF, Character), sig(Character, Character))
	// TIMESTAMPADD(unit, n, t) and TIMESTAMPDIFF(unit, t1, t2): the
	// validator checks the unit and passes the other arguments.
	r.scalar("TIMESTAMPADD", argType(1), sig(Integer, Datetime))
	r.scalar("TIMESTAMPDIFF", fixed(integer()), sig(Datetime, Datetime))
	r.scalar("CONVERT_TZ", alwaysNullable(str()), sig(String, String, String))
	r.scalar("FROM_UNIXTIME", alwaysNullable(str()), sig(Integer), sig(Integer, String))
	r.scalar("TO_DATE", alwaysNullable(types.New(types.Date)), sig(String), sig(String, String))
	r.scalar("TO_TIMESTAMP", alwaysNullable(types.NewTimestamp(3)), sig(Character), sig(Character, Character))
	r.scalar("TO_TIMESTAMP_LTZ", toTimestampLTZ, sig(Numeric), sig(Numeric, Integer),
		sig(Character), sig(Character, Character), sig(Character, Character, Character))
	r.scalar("CURRENT_WATERMARK", currentWatermark, sig(TimestampF))
}

// unixTimestamp is UNIX_TIMESTAMP: the current time is NOT NULL and not
// deterministic; parsing a string gives a nullable BIGINT.
func unixTimestamp(_ string, ops []Operand) (*types.Type, error) {
	if len(ops) == 0 {
		return bigint().WithNullable(false), nil
	}
	return bigint().WithNullable(opsNullable(ops)), nil
}

// toTimestampLTZ is TO_TIMESTAMP_LTZ(n[, precision]), where precision is
// the unit of n (0 seconds, 3 milliseconds), and TO_TIMESTAMP_LTZ(string[,
// format[, zone]]). The result is always TIMESTAMP_LTZ(3): select.q prints
// TO_TIMESTAMP_LTZ(1, 0) as 1970-01-01 08:00:01.000.
func toTimestampLTZ(_ string, ops []Operand) (*types.Type, error) {
	// Flink forces the result nullable: a bad input gives NULL.
	return types.NewTimestampLTZ(3).WithNullable(true), nil
}

// currentWatermark is CURRENT_WATERMARK(rowtime): the rowtime's type, with
// no time attribute, NULL before the first watermark.
func currentWatermark(_ string, ops []Operand) (*types.Type, error) {
	t, err := typedArg(ops, 0)
	if err != nil {
		return nil, err
	}
	return t.WithNullable(true), nil
}
