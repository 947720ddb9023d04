package connectors_test

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"eddy/engine/connectors"
	"eddy/engine/types"
)

func TestRawMessages(t *testing.T) {
	for _, c := range []struct {
		options map[string]string
		typ     string
		value   any
		encoded []byte
	}{
		{map[string]string{}, "STRING", "héllo\nworld", []byte("héllo\nworld")},
		{map[string]string{"raw.charset": "UTF-16BE"}, "STRING", "hé", []byte{0, 'h', 0, 0xe9}},
		{map[string]string{"raw.charset": "ISO-8859-1"}, "VARCHAR(5)", "hé", []byte{'h', 0xe9}},
		{map[string]string{}, "BYTES", []byte{0, 1, 2}, []byte{0, 1, 2}},
		{map[string]string{}, "BOOLEAN", true, []byte{1}},
		{map[string]string{}, "TINYINT", int8(-2), []byte{0xfe}},
		{map[string]string{}, "SMALLINT", int16(258), []byte{1, 2}},
		{map[string]string{"raw.endianness": "little-endian"}, "SMALLINT", int16(258), []byte{2, 1}},
		{map[string]string{}, "INT", int32(1), []byte{0, 0, 0, 1}},
		{map[string]string{"raw.endianness": "little-endian"}, "BIGINT", int64(1), []byte{1, 0, 0, 0, 0, 0, 0, 0}},
		{map[string]string{}, "FLOAT", float32(1), []byte{0x3f, 0x80, 0, 0}},
		{map[string]string{}, "DOUBLE", 2.0, []byte{0x40, 0, 0, 0, 0, 0, 0, 0}},
		{map[string]string{}, "INT", nil, nil},
	} {
		c.options["format"] = "raw"
		cols := []connectors.Column{{Name: "v", Type: mustType(t, c.typ)}}
		cd := codec(t, c.options)
		msg, err := connectors.EncodeBytes(cd, types.Insert, []any{c.value}, cols)
		if err != nil || !bytes.Equal(msg, c.encoded) {
			t.Errorf("%v %s: encoded %x, %v; want %x", c.options, c.typ, msg, err, c.encoded)
		}
		rows, _, err := connectors.DecodeBytes(cd, c.encoded, cols)
		if err != nil || !reflect.DeepEqual(rows, [][]any{{c.value}}) {
			t.Errorf("%v %s: decoded %v, %v", c.options, c.typ, rows, err)
		}
	}
}

func TestRawFilesAreLines(t *testing.T) {
	cols := []connectors.Column{{Name: "line", Type: types.NewString()}}
	cd := codec(t, map[string]string{"format": "raw"})
	rows, _, err := decodeFile(cd, []byte("a,b\n\nc\n"), cols)
	if err != nil || !reflect.DeepEqual(rows, [][]any{{"a,b"}, {""}, {"c"}}) {
		t.Errorf("lines: %v %v", rows, err)
	}
	// 'raw.line-delimiter' splits a message; files stay lines, as Flink
	// 2.2 reads and writes them.
	cd = codec(t, map[string]string{"format": "raw", "raw.line-delimiter": "||"})
	rows, _, err = connectors.DecodeBytes(cd, []byte("x||y|z||"), cols)
	if err != nil || !reflect.DeepEqual(rows, [][]any{{"x"}, {"y|z"}}) {
		t.Errorf("line-delimiter: %v %v", rows, err)
	}
	rows, _, err = decodeFile(cd, []byte("x||y\nw\n"), cols)
	if err != nil || !reflect.DeepEqual(rows, [][]any{{"x||y"}, {"w"}}) {
		t.Errorf("file with line-delimiter: %v %v", rows, err)
	}
	var out bytes.Buffer
	enc := cd.Encoder(&out, cols)
	for _, v := range []string{"x", "y"} {
		if err := enc.Write(types.Insert, []any{v}); err != nil {
			t.Fatal(err)
		}
	}
	if err := enc.Flush(); err != nil || out.String() != "x\ny\n" {
		t.Errorf("encoded %q, %v", out.String(), err)
	}
	if err := enc.Write(types.Insert, []any{nil}); err == nil {
		t.Error("a NULL was written to a file")
	}
}

func TestRawErrors(t *testing.T) {
	reg := connectors.NewRegistry()
	f, _ := reg.Format("raw")
	for _, c := range []struct {
		options map[string]string
		want    string
	}{
		{map[string]string{"raw.endianness": "middle"}, "Unsupported endianness name: middle. Valid values of 'raw.endianness' option are 'big-endian' and 'little-endian'."},
		{map[string]string{"raw.charset": "no-such-charset"}, "Unsupported 'raw.charset' name: no-such-charset."},
	} {
		if _, err := f.Configure(c.options); err == nil || err.Error() != c.want {
			t.Errorf("%v: %v, want %q", c.options, err, c.want)
		}
	}
	cd := codec(t, map[string]string{"format": "raw"})
	two := []connectors.Column{{Name: "a", Type: mustType(t, "INT")}, {Name: "b", Type: mustType(t, "STRING")}}
	if _, _, err := connectors.DecodeBytes(cd, []byte("x"), two); err == nil || err.Error() !=
		"The 'raw' format only supports single physical column. However the defined schema contains multiple physical columns: [`a` INT, `b` STRING]" {
		t.Errorf("two columns: %v", err)
	}
	if _, _, err := connectors.DecodeBytes(cd, []byte("x"), []connectors.Column{{Name: "d", Type: mustType(t, "DATE")}}); err == nil ||
		err.Error() != "The 'raw' format doesn't supports 'DATE' as column type." {
		t.Errorf("date: %v", err)
	}
	if _, _, err := connectors.DecodeBytes(cd, []byte("xyz"), []connectors.Column{{Name: "i", Type: mustType(t, "INT")}}); err == nil ||
		!strings.Contains(err.Error(), "takes 4 bytes, the message has 3") {
		t.Errorf("short int: %v", err)
	}
}
