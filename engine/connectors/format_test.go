package connectors_test

import (
	"reflect"
	"strings"
	"testing"

	"eddy/engine/connectors"
	"eddy/engine/types"
)

func codec(t *testing.T, options map[string]string) connectors.Codec {
	t.Helper()
	f, ok := connectors.NewRegistry().Format(options["format"])
	if !ok {
		t.Fatalf("no format %q", options["format"])
	}
	c, err := f.Configure(options)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestFormatsRoundTripMessages(t *testing.T) {
	cols := []connectors.Column{{Name: "id", Type: types.New(types.BigInt)}, {Name: "s", Type: types.NewString()}}
	for _, c := range []struct {
		options map[string]string
		encoded string
	}{
		{map[string]string{"format": "csv"}, "7,\"a,b\"\n"},
		// Text holding a character below the delimiter is quoted, as Flink's
		// (Jackson's) CSV writer quotes it.
		{map[string]string{"format": "csv", "csv.field-delimiter": ";"}, "7;\"a,b\"\n"},
		{map[string]string{"format": "csv", "csv.field-delimiter": "|"}, "7|\"a,b\"\n"},
		{map[string]string{"format": "csv", "csv.field-delimiter": ";", "csv.disable-quote-character": "true"}, "7;a,b\n"},
		{map[string]string{"format": "json"}, `{"id":7,"s":"a,b"}` + "\n"},
	} {
		cd := codec(t, c.options)
		msg, err := connectors.EncodeBytes(cd, types.Insert, []any{int64(7), "a,b"}, cols)
		if err != nil || string(msg) != c.encoded {
			t.Errorf("%v: encoded %q, %v; want %q", c.options, msg, err, c.encoded)
		}
		rows, kinds, err := connectors.DecodeBytes(cd, msg, cols)
		if err != nil || !reflect.DeepEqual(rows, [][]any{{int64(7), "a,b"}}) || !reflect.DeepEqual(kinds, []types.RowKind{types.Insert}) {
			t.Errorf("%v: decoded %v %v, %v", c.options, rows, kinds, err)
		}
	}
	// A JSON array is several rows.
	rows, _, err := connectors.DecodeBytes(codec(t, map[string]string{"format": "json"}), []byte(`[{"id":1},{"id":2,"s":"x"}]`), cols)
	if err != nil || !reflect.DeepEqual(rows, [][]any{{int64(1), nil}, {int64(2), "x"}}) {
		t.Errorf("json array: %v, %v", rows, err)
	}
	_, _, err = connectors.DecodeBytes(codec(t, map[string]string{"format": "json"}), []byte(`{"id":`), cols)
	if err == nil || !strings.Contains(err.Error(), "Failed to deserialize JSON row 'message' (line 1)") {
		t.Errorf("bad json: %v", err)
	}
}

func TestFormatOptionErrors(t *testing.T) {
	reg := connectors.NewRegistry()
	for _, c := range []struct {
		options map[string]string
		want    string
	}{
		{map[string]string{"format": "csv", "csv.field-delimiter": ";;"}, "Option 'csv.field-delimiter' must be a string with single character, but was: ;;"},
		{map[string]string{"format": "json", "json.ignore-parse-errors": "true", "json.fail-on-missing-field": "true"},
			"fail-on-missing-field and ignore-parse-errors shouldn't both be true."},
	} {
		f, _ := reg.Format(c.options["format"])
		if _, err := f.Configure(c.options); err == nil || err.Error() != c.want {
			t.Errorf("%v: %v, want %q", c.options, err, c.want)
		}
	}
}

func TestMessagesKeepFormatOptions(t *testing.T) {
	cols := []connectors.Column{{Name: "id", Type: types.New(types.BigInt)}, {Name: "s", Type: types.NewString()}}
	for _, c := range []struct {
		options map[string]string
		msg     string
		want    [][]any
	}{
		{map[string]string{"format": "csv", "csv.quote-character": "'"}, "7,'a,b'", [][]any{{int64(7), "a,b"}}},
		{map[string]string{"format": "csv", "csv.null-literal": "NUL"}, "NUL,NUL\n8,x\n", [][]any{{nil, nil}, {int64(8), "x"}}},
		{map[string]string{"format": "json"}, "{\n  \"id\": 7,\n  \"s\": \"x\"\n}", [][]any{{int64(7), "x"}}},
		{map[string]string{"format": "json"}, "", nil},
	} {
		rows, _, err := connectors.DecodeBytes(codec(t, c.options), []byte(c.msg), cols)
		if err != nil || !reflect.DeepEqual(rows, c.want) {
			t.Errorf("%v %q: %v, %v; want %v", c.options, c.msg, rows, err, c.want)
		}
	}
}

// BenchmarkDecodeMessage measures decoding one message per call, as a
// message queue's connector does.
func BenchmarkDecodeMessage(b *testing.B) {
	cols := []connectors.Column{{Name: "id", Type: types.New(types.BigInt)}, {Name: "s", Type: types.NewString()}}
	for _, c := range []struct {
		options map[string]string
		msg     string
	}{
		{map[string]string{"format": "csv"}, "7,abc"},
		{map[string]string{"format": "json"}, `{"id":7,"s":"abc"}`},
		{map[string]string{"format": "debezium-json"}, `{"before":{"id":7,"s":"abc"},"after":{"id":7,"s":"abd"},"op":"u"}`},
	} {
		f, _ := connectors.NewRegistry().Format(c.options["format"])
		cd, err := f.Configure(c.options)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.options["format"], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := connectors.DecodeBytes(cd, []byte(c.msg), cols); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
