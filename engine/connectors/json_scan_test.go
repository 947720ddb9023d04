package connectors

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"eddy/engine/types"
	"eddy/engine/vector"
)

// jsonScanCols are the columns the fast-path tests read.
func jsonScanCols() []Column {
	return []Column{
		{Name: "id", Type: types.New(types.BigInt)}, {Name: "n", Type: types.New(types.Int)},
		{Name: "name", Type: types.NewString()}, {Name: "score", Type: types.New(types.Double)},
		{Name: "ok", Type: types.New(types.Boolean)}, {Name: "ts", Type: types.NewTimestamp(3)},
		{Name: "d", Type: types.NewDecimal(10, 2)}, {Name: "f", Type: types.New(types.Float)},
	}
}

// generalJSON decodes text the general way (the fast path off).
func generalJSON(f *jsonOptions, text []byte, cols []Column) (string, error) {
	d := newJSONDecoder(bytes.NewReader(text), "message", f, cols)
	d.fast = nil
	rows, _, err := decodeAll(d, len(cols))
	return fmt.Sprintf("%#v", rows), err
}

// checkJSONFast: when the fast path reads text, it reads exactly the row
// the general way reads; it declines whatever the general way refuses.
func checkJSONFast(t *testing.T, f *jsonOptions, text []byte) bool {
	t.Helper()
	cols := jsonScanCols()
	fast := newJSONFields(f, cols)
	row := make([]any, len(cols))
	ok := fast.object(text, row)
	want, err := generalJSON(f, text, cols)
	if !ok {
		return false
	}
	if err != nil {
		t.Errorf("%q: the fast path read %#v where the general way fails: %v", text, row, err)
		return true
	}
	if got := fmt.Sprintf("%#v", [][]any{row}); got != want {
		t.Errorf("%q:\nfast:    %s\ngeneral: %s", text, got, want)
	}
	// Straight into vectors: the same values.
	vecs := make([]*vector.Vec, len(cols))
	for i, c := range cols {
		vecs[i] = vector.New(c.Type, 1)
		vecs[i].Append(nil) // a row before, which must stay as it is
	}
	if !fast.appendObject(text, vecs) {
		t.Errorf("%q: read into a row but not into vectors", text)
		return true
	}
	got := make([]any, len(cols))
	for i, v := range vecs {
		if v.Len != 2 || !v.IsNull(0) {
			t.Errorf("%q: column %d has %d values, want 2 with the first NULL", text, i, v.Len)
			return true
		}
		got[i] = v.Get(1)
	}
	if g := fmt.Sprintf("%#v", [][]any{got}); g != want {
		t.Errorf("%q:\nvectors: %s\ngeneral: %s", text, g, want)
	}
	return true
}

var jsonScanSeeds = []string{
	`{"id":1,"n":2,"name":"a","score":1.5,"ok":true,"ts":"2024-01-01 00:00:01","d":12.345,"f":0.1}`,
	` { "id" : -9223372036854775808 , "name" : "x\"y\u00e9\n" , "extra": {"a": [1, {"b": "}"}]}, "more": [] } `,
	`{"id": null, "n": 2147483648}`,
	`{"id": 1.0, "n": "3", "score": "4.5", "ok": "true"}`,
	`{"name": 12, "ok": false, "score": 1e308, "d": -0.5}`,
	`{"score": 1e400}`,
	`{"id": 1, "id": 2}`,
	`{}`,
	`[{"id": 1}, {"id": 2}]`,
	`{"id": 1} {"id": 2}`,
	`{"id": 1,}`,
	`{"id": 01}`,
	`{"id": -}`,
	`{"name": "tab	inside"}`,
	`{"na\u006de": "escaped key"}`,
	`{"name": {"nested": true}}`,
	`{"extra": {"unbalanced": [}, "id": 1}`,
	`{"ts": "2024-13-01 00:00:00"}`,
	`{"ok": tru}`,
	`null`,
	``,
	`{"ts": "2024-02-30 23:59:59.123456789", "name": 12.50, "id": -0, "n": -2147483648}`,
	`{"ts": "1900-02-29 01:02:03.4", "score": 12.5, "name": "été", "ok": null}`,
	`{"ts": "2024-01-01T00:00:00", "name": true, "n": 2147483647, "id": 9223372036854775808}`,
	`{"ts": "2024-01-01 00:00:00.", "d": "1.5", "f": 2, "name": "cafÃ"}`,
	`{"ts": "0000-01-01 00:00:00", "ts": "2024-1-1 00:00:00", "name": ""}`,
	`{"ts": "2024-01-01 24:00:00", "id": 00}`,
	`{"ts": "2024-01-01 00:00:00.1234567891", "id": 1e3, "score": -0.0}`,
}

// TestJSONFastPath: the fast path reads the flat objects it is for (and
// so takes part) and agrees with the general way on every text.
func TestJSONFastPath(t *testing.T) {
	f, err := newJSONOptions(map[string]string{})
	if err != nil {
		t.Fatal(err)
	}
	read := 0
	for _, s := range jsonScanSeeds {
		if checkJSONFast(t, f, []byte(s)) {
			read++
		}
	}
	if read < 10 {
		t.Errorf("the fast path read %d of the texts, want at least 10", read)
	}
	iso, err := newJSONOptions(map[string]string{"json.timestamp-format.standard": "ISO-8601"})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range jsonScanSeeds {
		checkJSONFast(t, iso, []byte(s))
	}
	strict, err := newJSONOptions(map[string]string{"json.fail-on-missing-field": "true"})
	if err != nil {
		t.Fatal(err)
	}
	if checkJSONFast(t, strict, []byte(`{"id": 1}`)) {
		t.Error("the fast path read an object with missing fields under fail-on-missing-field")
	}
}

// FuzzJSONFastPath: on any text, the fast path reads what the general way
// reads, or declines.
func FuzzJSONFastPath(f *testing.F) {
	for _, s := range jsonScanSeeds {
		f.Add(s)
	}
	opts, err := newJSONOptions(map[string]string{})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkJSONFast(t, opts, []byte(s))
	})
}

// TestJavaFloatForm: the JSON writer's numbers are types.JavaFloat's.
func TestJavaFloatForm(t *testing.T) {
	values := []float64{0, math.Copysign(0, -1), 1, -1, 0.1, 1e-3, 9.999e-4, 1e7, 9999999.5, 1e22, 1.5e-300,
		math.MaxFloat64, math.SmallestNonzeroFloat64, 123456.789, -2.5e-5, 100, 1e100}
	r := rand.New(rand.NewPCG(1, 2))
	for range 100_000 {
		values = append(values, math.Float64frombits(r.Uint64()), r.NormFloat64()*math.Pow(10, float64(r.IntN(40)-20)))
	}
	for _, f := range values {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			continue
		}
		if got, want := string(appendJavaFloat(nil, f, 64)), types.JavaFloat(f, 64); got != want {
			t.Fatalf("%v: %s, want %s", f, got, want)
		}
		f32 := float64(float32(f))
		if math.IsInf(f32, 0) {
			continue
		}
		if got, want := string(appendJavaFloat(nil, f32, 32)), types.JavaFloat(f32, 32); got != want {
			t.Fatalf("float32 %v: %s, want %s", f32, got, want)
		}
	}
}
