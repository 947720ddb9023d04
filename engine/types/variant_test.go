package types

import (
	"testing"
)

// The JSON texts below were checked against Flink 2.2 (its print
// connector writes a VARIANT as Variant.toJson does).
func TestParseVariantPrints(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"b":1,"a":2}`, `{"a":2,"b":1}`},
		{`[1, 2.50, 1e3, "x", true, null, 12345678901, 1.0]`, `[1,2.5,1000.0,"x",true,null,12345678901,1]`},
		{`[-0.0, 0.10, -0, 1.5E+2, 2e-0, 123.456e1]`, `[0,0.1,0,150.0,2.0,1234.56]`},
		{`{"k":0.1234567890123456789012345678901234567890}`, `{"k":0.12345678901234568}`},
		{`123456789012345678901234567890123456789012`, `1.2345678901234568E41`},
		{`12345678901234567890`, `12345678901234567890`},
		{`-9223372036854775808`, `-9223372036854775808`},
		{`{"k":1e400}`, `{"k":Infinity}`},
		{`"\u0001\u001f\n\t\"\/\\"`, `"\u0001\u001F\n\t\"/\\"`},
		{`"\ud83d\ude00"`, `"😀"`},
		{`{"z":{"y":2,"x":[{},[]]},"A":1}`, `{"A":1,"z":{"x":[{},[]],"y":2}}`},
		{`  null  `, `null`},
		{`1 2`, `1`},
	}
	for _, c := range cases {
		v, err := ParseVariant(c.in, false)
		if err != nil {
			t.Errorf("ParseVariant(%s): %v", c.in, err)
			continue
		}
		if got := v.String(); got != c.want {
			t.Errorf("ParseVariant(%s) prints %s, want %s", c.in, got, c.want)
		}
	}
}

func TestParseVariantErrors(t *testing.T) {
	cases := []struct{ in, class, msg string }{
		{`{"a":1,"a":2}`, "VariantTypeException", "VARIANT_DUPLICATE_KEY"},
		{``, "JsonParseException", "Unexpected null token\n at [Source: UNKNOWN; line: 1, column: 1]"},
		{`   `, "JsonParseException", "Unexpected null token\n at [Source: UNKNOWN; line: 1, column: 4]"},
		{`{bad`, "JsonParseException", "Unexpected character ('b' (code 98)): was expecting double-quote to start field name\n at [Source: UNKNOWN; line: 1, column: 2]"},
		{`[1,]`, "JsonParseException", "Unexpected character (']' (code 93)): expected a valid value (JSON String, Number, Array, Object or token 'null', 'true' or 'false')\n at [Source: UNKNOWN; line: 1, column: 4]"},
		{`{"a" 1}`, "JsonParseException", "Unexpected character ('1' (code 49)): was expecting a colon to separate field name and value\n at [Source: UNKNOWN; line: 1, column: 6]"},
		{`[1 2]`, "JsonParseException", "Unexpected character ('2' (code 50)): was expecting comma to separate Array entries\n at [Source: UNKNOWN; line: 1, column: 4]"},
		{`abc`, "JsonParseException", "Unrecognized token 'abc': was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')\n at [Source: UNKNOWN; line: 1, column: 4]"},
		{`[1,`, "JsonParseException", "Unexpected end-of-input within/between Array entries\n at [Source: UNKNOWN; line: 1, column: 4]"},
		{`{"a":1`, "JsonEOFException", "Unexpected end-of-input: expected close marker for Object (start marker at [Source: REDACTED (`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION` disabled); line: 1, column: 1])\n at [Source: UNKNOWN; line: 1, column: 7]"},
		{`"abc`, "JsonEOFException", "Unexpected end-of-input: was expecting closing quote for a string value\n at [Source: UNKNOWN; line: 1, column: 5]"},
		{`01`, "JsonParseException", "Invalid numeric value: Leading zeroes not allowed\n at [Source: UNKNOWN; line: 1, column: 2]"},
		{`1x`, "JsonParseException", "Unexpected character ('x' (code 120)): Expected space separating root-level values\n at [Source: UNKNOWN; line: 1, column: 2]"},
		{`-`, "JsonEOFException", "Unexpected end-of-inputNo digit following sign\n at [Source: UNKNOWN; line: 1, column: 2]"},
		{`{"a":1,}`, "JsonParseException", "Unexpected character ('}' (code 125)): was expecting double-quote to start field name\n at [Source: UNKNOWN; line: 1, column: 8]"},
	}
	for _, c := range cases {
		_, err := ParseVariant(c.in, false)
		pe, ok := err.(*JSONParseError)
		if !ok {
			t.Errorf("ParseVariant(%q): %v, want a *JSONParseError", c.in, err)
			continue
		}
		if pe.Class() != c.class || pe.Error() != c.msg {
			t.Errorf("ParseVariant(%q):\n%s: %s\nwant\n%s: %s", c.in, pe.Class(), pe.Error(), c.class, c.msg)
		}
	}
}

// Equality follows Flink 2.2's comparison of encodings.
func TestVariantEqual(t *testing.T) {
	cases := []struct {
		a, b string
		dup  bool
		want bool
	}{
		{`{"a":1,"b":2}`, `{"b":2,"a":1}`, false, false},
		{`{"a":1,"b":2}`, ` { "a" : 1 , "b" : 2 } `, false, true},
		{`1`, `1.0`, false, false},
		{`1.50`, `1.5`, false, false},
		{`100`, `1E2`, false, false},
		{`1e2`, `100.0e0`, false, true},
		{`{"a":1,"a":2}`, `{"a":2}`, true, true},
		{`{"a":1,"a":{"x":1}}`, `{"a":1}`, true, false},
		{`null`, `null`, false, true},
		{`"a"`, `"a"`, false, true},
		{`[1,[2]]`, `[1,[2,3]]`, false, false},
	}
	for _, c := range cases {
		a, err1 := ParseVariant(c.a, c.dup)
		b, err2 := ParseVariant(c.b, c.dup)
		if err1 != nil || err2 != nil {
			t.Fatalf("%s, %s: %v %v", c.a, c.b, err1, err2)
		}
		if got := a.Equal(b); got != c.want {
			t.Errorf("%s = %s: %v, want %v", c.a, c.b, got, c.want)
		}
		if got := CompareValues(a, b) == 0; got != c.want {
			t.Errorf("CompareValues(%s, %s) == 0: %v, want %v", c.a, c.b, got, c.want)
		}
		if c.want && a.Hash() != b.Hash() {
			t.Errorf("%s and %s are equal with different hashes", c.a, c.b)
		}
	}
}

func TestVariantEncodeRoundTrip(t *testing.T) {
	for _, in := range []string{
		`{"b":[1,2.50,-3.25e-2,"x\ty",true,false,null],"a":{"c":{}}}`,
		`12345678901234567890123456789012345678`, `-0.000`, `[]`, `"é"`, `1e400`,
	} {
		v, err := ParseVariant(in, false)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		w, err := DecodeVariant(v.Encode())
		if err != nil {
			t.Fatalf("%s: decode: %v", in, err)
		}
		if !v.Equal(w) || v.String() != w.String() {
			t.Errorf("%s: round trip gives %s", in, w)
		}
	}
	for _, bad := range [][]byte{nil, {2}, {1, 0}, {1, 0, byte(VariantString), 9, 'a'}, {1, 0, 99}} {
		if _, err := DecodeVariant(bad); err == nil {
			t.Errorf("DecodeVariant(%v) read a value", bad)
		}
	}
}

func TestVariantKindAndType(t *testing.T) {
	typ, err := Parse("VARIANT NOT NULL")
	if err != nil {
		t.Fatal(err)
	}
	if typ.Kind != Variant || typ.Nullable() || typ.String() != "VARIANT NOT NULL" || typ.SerializableString() != "VARIANT NOT NULL" {
		t.Errorf("Parse(VARIANT NOT NULL) = %#v (%s)", typ, typ)
	}
	v, _ := ParseVariant(`{"a":[1]}`, false)
	if got := ValueString(v, typ); got != `{"a":[1]}` {
		t.Errorf("ValueString = %s", got)
	}
	if v.Kind() != VariantObject || v.IsJSONNull() {
		t.Errorf("kind %v", v.Kind())
	}
}
