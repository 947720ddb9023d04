package types

import (
	"errors"
	"testing"
	"time"
)

func TestCastValue(t *testing.T) {
	dec := func(s string) any {
		d, err := ParseDecimal(s)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	ts := time.Date(2021, 4, 13, 20, 12, 11, 123456789, time.UTC)
	cases := []struct {
		v        any
		from, to *Type
		want     string // ValueString of the result in type to, or "error"
	}{
		{int32(300), New(Int), New(TinyInt), "44"}, // Java narrowing wraps
		{int64(-1), New(BigInt), New(Int), "-1"},
		{3.99, New(Double), New(Int), "3"},                          // truncation
		{-3.99, New(Double), New(Int), "-3"},                        // toward zero
		{1e20, New(Double), New(Int), "2147483647"},                 // saturation
		{dec("2.675"), NewDecimal(4, 3), NewDecimal(3, 2), "2.68"},  // half up
		{dec("123.45"), NewDecimal(5, 2), NewDecimal(3, 1), "NULL"}, // overflow is NULL
		{dec("-7.9"), NewDecimal(2, 1), New(Int), "-7"},
		{" 42 ", NewString(), New(Int), "42"},
		{"4x", NewString(), New(Int), "error"},
		{"99999999999", NewString(), New(Int), "error"},
		{"yes", NewString(), New(Boolean), "TRUE"},
		{"0", NewString(), New(Boolean), "FALSE"},
		{"maybe", NewString(), New(Boolean), "error"},
		{"1.5", NewString(), NewDecimal(5, 2), "1.50"},
		{"abc", NewString(), NewChar(5), "abc  "}, // CHAR pads
		{"abcdef", NewString(), NewVarChar(3), "abc"},
		{true, New(Boolean), NewString(), "TRUE"},
		{1.0, New(Double), NewString(), "1.0"},
		{1e7, New(Double), NewString(), "1.0E7"},
		{float32(0.1), New(Float), New(Double), "0.10000000149011612"},
		{"2021-04-13", NewString(), New(Date), "2021-04-13"},
		{"2021-02-30", NewString(), New(Date), "error"},
		{"2021-04-13 20:12:11.123456789", NewString(), NewTimestamp(3), "2021-04-13 20:12:11.123"},
		{ts, NewTimestamp(9), New(Date), "2021-04-13"},
		{ts, NewTimestamp(9), NewTime(0), "20:12:11"},
		{int32(18730), New(Date), NewTimestamp(0), "2021-04-13 00:00:00"},
		{"20:12:11.5", NewString(), NewTime(1), "20:12:11.5"},
		{[]any{int32(1), nil}, NewArray(New(Int)), NewArray(New(BigInt)), "[1, NULL]"},
		{nil, New(Int), NewString(), "NULL"},
	}
	for _, c := range cases {
		got, err := CastValue(c.v, c.from, c.to)
		if c.want == "error" {
			var ce *CastError
			if !errors.As(err, &ce) {
				t.Errorf("CAST(%v AS %s) = %v, %v; want a CastError", c.v, c.to, got, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("CAST(%v AS %s): %v", c.v, c.to, err)
			continue
		}
		if s := ValueString(got, c.to); s != c.want {
			t.Errorf("CAST(%v AS %s) = %s, want %s", c.v, c.to, s, c.want)
		}
	}
}

func TestCompareValues(t *testing.T) {
	nan := func() float64 { var z float64; return z / z }()
	cases := []struct {
		a, b any
		want int
	}{
		{int32(1), int32(2), -1},
		{"b", "a", 1},
		{false, true, -1},
		{nan, 1e300, 1}, // NaN sorts above everything, as in Java
		{[]any{int32(1), nil}, []any{int32(1), int32(0)}, -1},
	}
	for _, c := range cases {
		if got := CompareValues(c.a, c.b); got != c.want {
			t.Errorf("CompareValues(%v, %v) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}
