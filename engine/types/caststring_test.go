package types

import (
	"errors"
	"testing"
)

// TestCastFromString checks CAST from a string against Flink 2.2's answers
// (each checked on a Flink 2.2 SQL Gateway): the value as the SQL client
// prints it, or the exception class and message.
func TestCastFromString(t *testing.T) {
	str := NewString()
	cases := []struct {
		in   string
		to   *Type
		want string
	}{
		{"1.5", New(BigInt), "1"},
		{" -7.99 ", New(TinyInt), "-7"},
		{".", New(Int), "0"},
		{"127.5", New(TinyInt), "127"},
		{"1e3", New(Int), "NumberFormatException: For input string: '1e3'. Invalid character found."},
		{" ", New(Int), "NumberFormatException: For input string: ''. Input is empty."},
		{"+", New(Int), "NumberFormatException: For input string: '+'. Input has only positive or negative symbol."},
		{"128", New(TinyInt), "NumberFormatException: For input string: '128'. Overflow."},
		{"\t12", New(Int), "NumberFormatException: For input string: '\t12'. Invalid character found."},
		{"x", NewDecimal(10, 0), "0"},
		{" x ", NewDecimal(3, 1), "0.0"},
		{"1x", NewDecimal(10, 0), "1"},
		{"xy", NewDecimal(10, 0), "NumberFormatException: For input string: 'xy'. Overflow."},
		{"12345678901", NewDecimal(10, 0), "NumberFormatException: For input string: '12345678901'. Overflow."},
		{"1e3", NewDecimal(20, 2), "1000.00"},
		{"xyz", NewDecimal(20, 2), `NumberFormatException: Character x is neither a decimal digit number, decimal point, nor "e" notation exponential mark.`},
		{"1.2.3", NewDecimal(20, 2), "NumberFormatException: Character array contains more than one decimal point."},
		{" true ", New(Boolean), "TableException: Cannot parse ' true ' as BOOLEAN."},
		{"YES", New(Boolean), "TRUE"},
		{"1f", New(Float), "1.0"},
		{"inf", New(Double), `NumberFormatException: For input string: "inf"`},
		{"1.5.1", New(Double), "NumberFormatException: multiple points"},
		{"", New(Double), "NumberFormatException: empty String"},
		{"10", New(Date), "0010-01-01"},
		{"2024-05-06 xx", New(Date), "2024-05-06"},
		{"2024-02-30", New(Date), "DateTimeException: For input string: '2024-02-30'."},
		{"10", New(Time), "10:00:00"},
		{"12:00:00+01:00", New(Time), "13:00:00"},
		{"25:00", New(Time), "DateTimeException: Invalid time format: '25:00'. Expected format: HH:mm:ss[.fff] where HH is 00-23, mm is 00-59, ss is 00-59"},
		{"2024-1-1 1:2:3", NewTimestamp(6), "2024-01-01 01:02:03.000000"},
		{"2024-02-30 12:00:00", NewTimestamp(6), "2024-02-29 12:00:00.000000"},
		{"2024-01-01 24:00:00", NewTimestamp(6), "2024-01-02 00:00:00.000000"},
		{"2024-01-01 12:00", NewTimestamp(6), "DateTimeParseException: Text '2024-01-01 12:00' could not be parsed, unparsed text found at index 10"},
		{"x", NewTimestamp(6), "DateTimeParseException: Text 'x' could not be parsed at index 0"},
		{"2024-13-01", NewTimestamp(6), "DateTimeException: Invalid value for MonthOfYear (valid values 1 - 12): 13"},
	}
	for _, c := range cases {
		v, err := CastValue(c.in, str, c.to)
		got := ""
		var ce *CastError
		switch {
		case errors.As(err, &ce):
			got = ce.Class() + ": " + ce.Error()
		case err != nil:
			got = err.Error()
		default:
			got = ValueString(v, c.to)
		}
		if got != c.want {
			t.Errorf("CAST('%s' AS %s) = %s, want %s", c.in, c.to, got, c.want)
		}
	}
}
