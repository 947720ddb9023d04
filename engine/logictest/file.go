package logictest

import (
	"fmt"
	"strings"
)

// separator begins a record's expected output.
const separator = "----"

// record is one directive of a file with its input and expected output.
type record struct {
	line   int      // 1-based line of the directive
	header string   // the directive line as written
	fields []string // the directive line split at spaces
	input  []string // the lines between the directive and "----" or the blank line

	hasExpected bool   // a "----" line followed the input
	expected    string // the expected output, each line ended by '\n'
}

// chunk is a piece of a file: a record, or lines outside records
// (comments and blank lines) kept as written.
type chunk struct {
	rec  *record
	text []string
}

// parse splits a file into chunks.
func parse(name, src string) ([]chunk, error) {
	lines := strings.Split(strings.TrimSuffix(src, "\n"), "\n")
	var out []chunk
	for i := 0; i < len(lines); {
		l := lines[i]
		if strings.TrimSpace(l) == "" || strings.HasPrefix(strings.TrimSpace(l), "#") {
			out = append(out, chunk{text: []string{l}})
			i++
			continue
		}
		r := &record{line: i + 1, header: l, fields: strings.Fields(l)}
		i++
		for i < len(lines) && strings.TrimSpace(lines[i]) != "" && lines[i] != separator {
			r.input = append(r.input, lines[i])
			i++
		}
		if i < len(lines) && lines[i] == separator {
			r.hasExpected = true
			i++
			var b strings.Builder
			if i < len(lines) && lines[i] == separator {
				// Output with blank lines ends at two "----" lines.
				i++
				for {
					if i+1 >= len(lines) {
						return nil, fmt.Errorf("%s:%d: output opened by two %q lines is never closed", name, r.line, separator)
					}
					if lines[i] == separator && lines[i+1] == separator {
						i += 2
						break
					}
					b.WriteString(lines[i] + "\n")
					i++
				}
			} else {
				for i < len(lines) && strings.TrimSpace(lines[i]) != "" {
					b.WriteString(lines[i] + "\n")
					i++
				}
			}
			r.expected = b.String()
		}
		out = append(out, chunk{rec: r})
	}
	return out, nil
}

// format writes chunks back as a file.
func format(chunks []chunk) string {
	var b strings.Builder
	for _, c := range chunks {
		if c.rec == nil {
			for _, l := range c.text {
				b.WriteString(l + "\n")
			}
			continue
		}
		r := c.rec
		b.WriteString(r.header + "\n")
		for _, l := range r.input {
			b.WriteString(l + "\n")
		}
		if !r.hasExpected {
			continue
		}
		b.WriteString(separator + "\n")
		if hasBlankLine(r.expected) {
			b.WriteString(separator + "\n" + r.expected + separator + "\n" + separator + "\n")
		} else {
			b.WriteString(r.expected)
		}
	}
	return b.String()
}

// hasBlankLine reports whether output needs the two-separator form.
func hasBlankLine(s string) bool {
	if s == "" {
		return false
	}
	for _, l := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
		if strings.TrimSpace(l) == "" {
			return true
		}
	}
	return false
}
