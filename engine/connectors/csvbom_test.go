package connectors

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"eddy/engine/types"
)

// TestSkipBOM: a leading UTF-8 byte-order mark is dropped, anything else
// (a shorter input, a BOM later on) is read as it is, one byte at a time
// too.
func TestSkipBOM(t *testing.T) {
	for in, want := range map[string]string{
		"\uFEFF1,a\n":   "1,a\n",
		"1,a\n":         "1,a\n",
		"\uFEFF":        "",
		"":              "",
		"1":             "1",
		"\xEF\xBB":      "\xEF\xBB",
		"1,\uFEFF\n":    "1,\uFEFF\n",
		"\uFEFF\uFEFFx": "\uFEFFx",
	} {
		for _, r := range []io.Reader{strings.NewReader(in), iotest.OneByteReader(strings.NewReader(in)), bytes.NewReader([]byte(in))} {
			got, err := io.ReadAll(skipBOM(r))
			if err != nil || string(got) != want {
				t.Errorf("skipBOM(%q) = %q, %v; want %q", in, got, err, want)
			}
		}
	}
}

// TestCSVFileWithBOM reads a file that starts with a byte-order mark with
// both CSV readers (the byte scanner, and encoding/csv for a delimiter
// beyond ASCII): its first field is a number, not three odd bytes before
// one.
func TestCSVFileWithBOM(t *testing.T) {
	cols := []Column{{Name: "a", Type: types.New(types.Int)}, {Name: "s", Type: types.NewString()}}
	for _, delim := range []string{",", "§"} {
		data := strings.ReplaceAll("\uFEFF1,a\n2,b\n", ",", delim)
		tbl := csvTable(t, map[string]string{"part-0": data}, cols, map[string]string{"csv.field-delimiter": delim})
		got, err := scanRows(t, tbl, nil)
		if err != nil {
			t.Fatalf("delimiter %q: %v", delim, err)
		}
		check(t, got, "1|a", "2|b")
	}
}
