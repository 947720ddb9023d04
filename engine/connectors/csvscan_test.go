package connectors

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// scanAll reads every record of data with a scanner whose buffer starts at
// bufSize bytes, as "field|field" lines, and each syntax error as
// "error LINE: MESSAGE" in its place.
func scanAll(t *testing.T, data string, f *csvOptions, bufSize int) []string {
	t.Helper()
	s := newCSVScanner(strings.NewReader(data), f)
	s.buf = make([]byte, bufSize)
	var out []string
	for range 10_000 {
		ok, err := s.next()
		if err != nil {
			var se *csvSyntaxError
			if !errors.As(err, &se) {
				t.Fatal(err)
			}
			out = append(out, fmt.Sprintf("error %d: %s", se.line, se.msg))
			continue
		}
		if !ok {
			return out
		}
		fields := make([]string, len(s.refs))
		for k := range s.refs {
			fields[k] = string(s.field(k))
		}
		out = append(out, fmt.Sprintf("%q", fields))
	}
	t.Fatal("the scanner does not end")
	return nil
}

// readAllStd reads data as encoding/csv does (the reader the format used
// before), in the same form as scanAll.
func readAllStd(data string, comments bool) []string {
	r := csv.NewReader(strings.NewReader(data))
	r.FieldsPerRecord = -1
	if comments {
		r.Comment = '#'
	}
	var out []string
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return out
		}
		if err != nil {
			var pe *csv.ParseError
			if !errors.As(err, &pe) {
				return append(out, "fatal "+err.Error())
			}
			out = append(out, fmt.Sprintf("error %d: %s", pe.StartLine, pe.Err))
			continue
		}
		out = append(out, fmt.Sprintf("%q", rec))
	}
}

// TestCSVScannerMatchesEncodingCSV: on random inputs made of the
// characters that matter, the scanner finds the records, fields and
// errors (with their lines) encoding/csv finds, whatever the buffer size.
func TestCSVScannerMatchesEncodingCSV(t *testing.T) {
	alphabet := []string{"a", "1", ",", "\"", "\n", "\r", "\r\n", "#", " ", "é"}
	rng := rand.New(rand.NewPCG(7, 11))
	for i := range 4000 {
		var b strings.Builder
		for range rng.IntN(40) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		data := b.String()
		comments := i%2 == 1
		f := &csvOptions{delim: ',', quote: '"', allowComments: comments}
		want := readAllStd(data, comments)
		for _, size := range []int{1, 2, 3, 5, 8, 64} {
			got := scanAll(t, data, f, size)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("input %q (comments %v, buffer %d):\ngot  %v\nwant %v", data, comments, size, got, want)
			}
		}
	}
}

func TestCSVScannerOptions(t *testing.T) {
	cases := []struct {
		name string
		f    csvOptions
		in   string
		want []string
	}{
		{"quote character", csvOptions{delim: ',', quote: '\''}, "'a,b','it''s'\n\"x\",y\n",
			[]string{`["a,b" "it's"]`, `["\"x\"" "y"]`}},
		{"quote disabled", csvOptions{delim: ',', quote: '"', noQuote: true}, "\"a,b\"\n",
			[]string{`["\"a" "b\""]`}},
		{"escape outside quotes", csvOptions{delim: ',', quote: '"', escape: '\\'}, `a\,b,c\\d,e\nf,g\`,
			[]string{`["a,b" "c\\d" "e\nf" "g\\"]`}},
		{"escape inside quotes", csvOptions{delim: ',', quote: '"', escape: '\\'}, `"a\"b\tc",x` + "\n",
			[]string{`["a\"b\tc" "x"]`}},
		{"tab delimiter", csvOptions{delim: '\t', quote: '"'}, "1\t\"a\tb\"\n",
			[]string{`["1" "a\tb"]`}},
		{"error lines", csvOptions{delim: ',', quote: '"'}, "a\n\"b\nc\"x\nd\n",
			[]string{`["a"]`, `error 2: extraneous or missing " in quoted-field`, `["d"]`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, size := range []int{1, 4, 1024} {
				got := scanAll(t, c.in, &c.f, size)
				if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
					t.Fatalf("buffer %d:\ngot  %v\nwant %v", size, got, c.want)
				}
			}
		})
	}
}

// TestParseCSVNumbers: the fast number paths give what strconv gives, and
// leave to it every form they do not read.
func TestParseCSVNumbers(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	digits := "0123456789"
	for range 200_000 {
		var b []byte
		if rng.IntN(4) == 0 {
			b = append(b, "-+"[rng.IntN(2)])
		}
		n := 1 + rng.IntN(22)
		dot := rng.IntN(n + 2)
		for k := range n {
			if k == dot {
				b = append(b, '.')
			}
			b = append(b, digits[rng.IntN(10)])
		}
		if x, ok := parseCSVFloat(b); ok {
			want, err := strconv.ParseFloat(string(b), 64)
			if err != nil || (x != want || (x == 0 && fmt.Sprint(1/x) != fmt.Sprint(1/want))) {
				t.Fatalf("parseCSVFloat(%q) = %v, strconv gives %v (%v)", b, x, want, err)
			}
		}
		if x, ok := parseCSVInt(b); ok {
			want, err := strconv.ParseInt(string(b), 10, 64)
			if err != nil || x != want {
				t.Fatalf("parseCSVInt(%q) = %v, strconv gives %v (%v)", b, x, want, err)
			}
		}
	}
	for _, s := range []string{"", "-", "+", ".", " 1", "1 ", "1e5", "0x10", "NaN", "Infinity", "1_000", "1.2.3", "--1"} {
		if _, ok := parseCSVFloat([]byte(s)); ok {
			t.Errorf("parseCSVFloat(%q) read it", s)
		}
		if _, ok := parseCSVInt([]byte(s)); ok && !bytes.ContainsAny([]byte(s), ".") {
			t.Errorf("parseCSVInt(%q) read it", s)
		}
	}
}
