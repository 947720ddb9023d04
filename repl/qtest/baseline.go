package qtest

import (
	"bufio"
	"cmp"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
)

// Key names one record: the file, as "flink/<path under the Flink scripts
// folder>" or "eddy/<path under testdata/conformance>", and its number.
type Key struct {
	File   string
	Record int
}

// String returns "file #n".
func (k Key) String() string { return fmt.Sprintf("%s #%d", k.File, k.Record) }

func compareKeys(a, b Key) int {
	return cmp.Or(strings.Compare(a.File, b.File), cmp.Compare(a.Record, b.Record))
}

// ListError is a malformed line of a baseline or skip list.
type ListError struct {
	Path string
	Line int
	Msg  string
}

// Error returns "path:line: message".
func (e *ListError) Error() string { return fmt.Sprintf("%s:%d: %s", e.Path, e.Line, e.Msg) }

// readList reads lines "<file> <record> [rest]"; blank lines and lines
// starting with '#' are comments. rest is what follows the record number,
// trimmed.
func readList(path string, each func(k Key, rest string, line int) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		file, after, _ := strings.Cut(line, " ")
		num, rest, _ := strings.Cut(strings.TrimSpace(after), " ")
		rec, err := strconv.Atoi(num)
		if err != nil || rec < 1 {
			return &ListError{path, n, fmt.Sprintf("want <file> <record number>, got %q", line)}
		}
		if err := each(Key{file, rec}, strings.TrimSpace(rest), n); err != nil {
			return err
		}
	}
	return sc.Err()
}

// Baseline is the set of records known to pass.
type Baseline map[Key]bool

// ReadBaseline reads a baseline file: one "<file> <record>" line per passing
// record. A missing file is an empty baseline.
func ReadBaseline(path string) (Baseline, error) {
	b := Baseline{}
	err := readList(path, func(k Key, rest string, line int) error {
		if rest != "" {
			return &ListError{path, line, "unexpected text after the record number"}
		}
		if b[k] {
			return &ListError{path, line, "duplicate entry " + k.String()}
		}
		b[k] = true
		return nil
	})
	if os.IsNotExist(err) {
		return b, nil
	}
	return b, err
}

// baselineHeader opens a written baseline file.
const baselineHeader = `# Conformance baseline: every .q record listed here passes, and the conformance
# test fails if one of them stops passing. One line per record: <file> <record>,
# where <file> is flink/<path under shared/conformance/flink> or
# eddy/<path under testdata/conformance>. Add newly passing records with
#   go test ./repl/qtest -run TestConformance -update-baseline
`

// Write writes the baseline sorted by file and record number.
func (b Baseline) Write(path string) error {
	keys := make([]Key, 0, len(b))
	for k, ok := range b {
		if ok {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, compareKeys)
	var sb strings.Builder
	sb.WriteString(baselineHeader)
	for _, k := range keys {
		fmt.Fprintf(&sb, "%s %d\n", k.File, k.Record)
	}
	return os.WriteFile(path, []byte(sb.String()), 0o644)
}

// SkipList maps records that cannot pass by design to the reason why.
type SkipList map[Key]string

// ReadSkipList reads a skip list: one "<file> <record> <reason>" line per
// record. An entry without a reason is an error: nothing is skipped
// without saying why. A missing file is an empty list.
func ReadSkipList(path string) (SkipList, error) {
	s := SkipList{}
	err := readList(path, func(k Key, reason string, line int) error {
		if reason == "" {
			return &ListError{path, line, k.String() + " has no reason"}
		}
		if _, dup := s[k]; dup {
			return &ListError{path, line, "duplicate entry " + k.String()}
		}
		s[k] = reason
		return nil
	})
	if os.IsNotExist(err) {
		return s, nil
	}
	return s, err
}

// ForFile returns the skip reasons of one file's records by number.
func (s SkipList) ForFile(file string) map[int]string {
	m := map[int]string{}
	for k, reason := range s {
		if k.File == file {
			m[k.Record] = reason
		}
	}
	return m
}
