package render

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"eddy/engine/result"
	"eddy/engine/types"
)

// roundTripValues are the awkward strings every export format must carry
// unchanged: separators, quotes, line breaks, blanks, unicode, an empty
// string, JSON and HTML specials. nil is NULL.
var roundTripValues = []any{
	"plain", "a,b", `say "hi"`, "line1\nline2", "crlf\r\nend", "tab\there", " padded ", "",
	"日本語 😀", `back\slash`, "<tag>&amp;", `"`, ",", nil, "'single'",
}

func roundTripResult() *result.Result {
	cols := []result.Column{{Name: "id", Type: types.New(types.Int)}, {Name: "s, \"name\"", Type: types.NewString()}}
	rows := make([]result.Row, len(roundTripValues))
	for i, v := range roundTripValues {
		rows[i] = result.Row{Values: []any{int32(i), v}}
	}
	return &result.Result{Kind: result.KindRows, IsQuery: true, Bounded: true, Columns: cols, Rows: result.SliceRows(rows)}
}

func renderFormat(t *testing.T, format string) string {
	t.Helper()
	var out bytes.Buffer
	tag, err := Result(context.Background(), &out, roundTripResult(), Options{Format: format})
	if err != nil || tag != TagOK {
		t.Fatalf("%s: tag %v, error %v", format, tag, err)
	}
	return out.String()
}

// TestFormatsRoundTrip reads csv and tsv back with encoding/csv and json and
// jsonl with encoding/json: every value must come back as it went in (NULL
// as an empty field in csv and tsv, null in JSON), the header first, and
// nothing after the rows.
func TestFormatsRoundTrip(t *testing.T) {
	for _, sep := range []struct {
		format string
		comma  rune
	}{{FormatCSV, ','}, {FormatTSV, '\t'}} {
		text := renderFormat(t, sep.format)
		r := csv.NewReader(strings.NewReader(text))
		r.Comma = sep.comma
		r.FieldsPerRecord = 2
		records, err := r.ReadAll()
		if err != nil {
			t.Fatalf("%s does not read back: %v\n%s", sep.format, err, text)
		}
		want := [][]string{{"id", "s, \"name\""}}
		for i, v := range roundTripValues {
			s, _ := v.(string)
			if sep.format == FormatCSV || sep.format == FormatTSV {
				// encoding/csv turns \r\n inside a quoted field into \n.
				s = strings.ReplaceAll(s, "\r\n", "\n")
			}
			want = append(want, []string{FormatValue(nil, i, nil), s})
		}
		if !reflect.DeepEqual(records, want) {
			t.Errorf("%s read back as\n%q\nwant\n%q", sep.format, records, want)
		}
	}

	check := func(format string, objs []map[string]any) {
		t.Helper()
		if len(objs) != len(roundTripValues) {
			t.Fatalf("%s: %d objects, want %d", format, len(objs), len(roundTripValues))
		}
		for i, o := range objs {
			if id, ok := o["id"].(json.Number); !ok || id.String() != FormatValue(nil, i, nil) {
				t.Errorf("%s row %d: id %#v", format, i, o["id"])
			}
			if got := o["s, \"name\""]; got != roundTripValues[i] {
				t.Errorf("%s row %d: %#v, want %#v", format, i, got, roundTripValues[i])
			}
		}
	}
	text := renderFormat(t, FormatJSON)
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var objs []map[string]any
	if err := dec.Decode(&objs); err != nil {
		t.Fatalf("json does not read back: %v\n%s", err, text)
	}
	if dec.More() {
		t.Errorf("json: text after the array:\n%s", text)
	}
	check(FormatJSON, objs)

	text = renderFormat(t, FormatJSONL)
	objs = nil
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		d := json.NewDecoder(strings.NewReader(sc.Text()))
		d.UseNumber()
		var o map[string]any
		if err := d.Decode(&o); err != nil {
			t.Fatalf("jsonl line %q: %v", sc.Text(), err)
		}
		objs = append(objs, o)
	}
	check(FormatJSONL, objs)
}

// TestJSONValueTypes checks the JSON types of nested and special values.
func TestJSONValueTypes(t *testing.T) {
	row := types.NewRow(types.Field{Name: "a", Type: types.New(types.Int)}, types.Field{Name: "b", Type: types.NewString()})
	for _, tc := range []struct {
		typ  *types.Type
		v    any
		want string
	}{
		{types.New(types.Double), 1e7, `1.0E7`},
		{types.New(types.Double), float64(0) / zero(), `"NaN"`},
		{types.NewArray(types.New(types.Int)), []any{int32(1), nil}, `[1,null]`},
		{row, []any{int32(1), "x\"y"}, `{"a":1,"b":"x\"y"}`},
		{types.NewMap(types.NewString(), types.New(types.Boolean)), map[any]any{"k": true}, `{"k":true}`},
		{types.NewVarBinary(4), []byte{0xff}, `"x'ff'"`},
	} {
		got := jsonValue(tc.typ, tc.v, Options{})
		if got != tc.want {
			t.Errorf("jsonValue(%v, %#v) = %s, want %s", tc.typ, tc.v, got, tc.want)
		}
		if !json.Valid([]byte(got)) {
			t.Errorf("jsonValue(%v, %#v) = %s: not JSON", tc.typ, tc.v, got)
		}
	}
}

func zero() float64 { return 0 }
