package hive

import (
	"bytes"
	"reflect"
	"testing"

	"eddy/engine/types"
)

func TestTextSerDe(t *testing.T) {
	cols := []*types.Type{
		mustType(t, "INT"), mustType(t, "STRING"), mustType(t, "DOUBLE"), mustType(t, "BOOLEAN"),
		mustType(t, "ARRAY<INT>"), mustType(t, "MAP<STRING, INT>"), mustType(t, "DATE"),
	}
	sd, err := newTextSerDe(map[string]string{"serialization.format": "1"})
	if err != nil {
		t.Fatal(err)
	}
	row := make([]any, len(cols))
	// What Hive writes: \001 between fields, \002 between items, \003
	// between a key and its value, \N for NULL; a field that does not
	// parse is NULL, missing trailing fields are NULL.
	sd.decodeLine("7\x01a b\x01x\x01true\x011\x022\x02\\N\x01k\x031\x01\\N", cols, row)
	want := []any{int32(7), "a b", nil, true, []any{int32(1), int32(2), nil}, map[any]any{"k": int32(1)}, nil}
	if !reflect.DeepEqual(row, want) {
		t.Errorf("decoded %#v\nwant %#v", row, want)
	}
	var buf bytes.Buffer
	sd.encodeRow(&buf, []any{int32(7), "a b", nil, true, []any{int32(1), int32(2)}, map[any]any{"k": int32(1)}, nil}, cols)
	if got := buf.String(); got != "7\x01a b\x01\\N\x01true\x011\x022\x01k\x031\x01\\N\n" {
		t.Errorf("encoded %q", got)
	}

	comma, err := newTextSerDe(map[string]string{"field.delim": ",", "serialization.format": ",", "serialization.null.format": ""})
	if err != nil {
		t.Fatal(err)
	}
	comma.decodeLine("1,,2.5", cols[:3], row[:3])
	if !reflect.DeepEqual(row[:3], []any{int32(1), nil, 2.5}) {
		t.Errorf("comma decoded %#v", row[:3])
	}
	if _, err := newTextSerDe(map[string]string{"line.delim": "\r"}); err == nil {
		t.Error("a line delimiter other than \\n was accepted")
	}
}
