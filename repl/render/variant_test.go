package render

import (
	"encoding/json"
	"testing"

	"eddy/engine/types"
)

// A VARIANT prints as its JSON text in the table and text formats and is
// that text, as a JSON string, in the json formats (a variant may hold
// Infinity, which JSON has no number for, and its JSON null must not read
// as SQL NULL).
func TestVariantValues(t *testing.T) {
	vt := types.New(types.Variant)
	for _, tc := range []struct {
		in, text, jsonOut string
	}{
		{`{"b":1,"a":[1,2.50,1e3]}`, `{"a":[1,2.5,1000.0],"b":1}`, `"{\"a\":[1,2.5,1000.0],\"b\":1}"`},
		{`"s"`, `"s"`, `"\"s\""`},
		{`null`, `null`, `"null"`},
		{`[1e400]`, `[Infinity]`, `"[Infinity]"`},
	} {
		v, err := types.ParseVariant(tc.in, false)
		if err != nil {
			t.Fatal(err)
		}
		if got := FormatValue(vt, v, nil); got != tc.text {
			t.Errorf("FormatValue(%s) = %s, want %s", tc.in, got, tc.text)
		}
		got := jsonValue(vt, v, Options{})
		if got != tc.jsonOut || !json.Valid([]byte(got)) {
			t.Errorf("jsonValue(%s) = %s, want %s", tc.in, got, tc.jsonOut)
		}
	}
	if got := jsonValue(vt, nil, Options{}); got != "null" {
		t.Errorf("jsonValue(NULL) = %s", got)
	}
}
