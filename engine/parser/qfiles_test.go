package parser

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"eddy/engine/ast"
)

// qfileExceptions lists .q records (file relative to conformance/flink,
// then '#' and the 1-based record number) whose statement this parser
// deliberately treats differently from Flink, with the reason.
var qfileExceptions = map[string]string{}

// pinnedParseErrors are the records whose expected answer is a parser
// error text; the test checks that it found each of them.
var pinnedParseErrors = []string{
	"sql-client/catalog_database.q#3", "sql-client/catalog_database.q#64", "sql-client/module.q#6",
	"sql-client/set.q#14", "sql-gateway/catalog_database.q#3", "sql-gateway/statement_set.q#13",
	"sql-gateway/statement_set.q#14", "sql-gateway/statement_set.q#22", "sql-gateway/statement_set.q#23",
}

// qRecord is one statement of a .q file with its expected answer.
type qRecord struct {
	num      int    // 1-based record number
	line     int    // 1-based line where the SQL starts
	sql      string // as the harness sends it
	expected []string
	tag      string
}

// TestQFiles parses every statement of Flink's golden .q scripts: a record
// whose expected answer is a parse error must fail with that exact message;
// every other statement must parse, and its formatted text must parse back
// to an equal tree.
func TestQFiles(t *testing.T) {
	dir := conformanceDir(t)
	var files []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".q") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	if len(files) == 0 {
		t.Skipf("no .q files under %s", dir)
	}
	manifest := readManifest(t, dir)
	checked, parseErrors, skipped := 0, 0, 0
	seenPinned := map[string]bool{}
	for _, path := range files {
		rel, _ := filepath.Rel(dir, path)
		rel = filepath.ToSlash(rel)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		marker := isMarkerDialect(string(data))
		records := readQRecords(string(data), marker)
		if want, ok := manifest[rel]; !ok || want != len(records) {
			t.Errorf("%s: read %d records, MANIFEST.tsv says %d", rel, len(records), want)
		}
		t.Run(rel, func(t *testing.T) {
			for _, r := range records {
				key := rel + "#" + strconv.Itoa(r.num)
				if _, ok := qfileExceptions[key]; ok {
					skipped++
					continue
				}
				checked++
				if class, msg, ok := expectedParseError(r); ok {
					parseErrors++
					seenPinned[key] = true
					checkQParseError(t, key, r, class, msg, marker)
					continue
				}
				stmt, err := Parse(r.sql)
				if err != nil {
					t.Errorf("%s (line %d): %v\n%s", key, r.line, err, r.sql)
					continue
				}
				text := ast.String(stmt)
				again, err := Parse(text)
				if err != nil {
					t.Errorf("%s (line %d): formatted text does not parse: %v\n%s", key, r.line, err, text)
					continue
				}
				if !ast.Equal(stmt, again) {
					t.Errorf("%s (line %d): round trip changed the tree:\n%s\n%s", key, r.line, text, ast.String(again))
				}
			}
		})
	}
	for _, key := range pinnedParseErrors {
		if !seenPinned[key] {
			t.Errorf("%s: no expected parser error found in the record", key)
		}
	}
	if len(seenPinned) != len(pinnedParseErrors) {
		t.Errorf("found %d records expecting a parser error, want the %d pinned ones", len(seenPinned), len(pinnedParseErrors))
	}
	t.Logf("checked %d statements from %d .q files (%d expected parse errors), %d listed as exceptions", checked, len(files), parseErrors, skipped)
}

func checkQParseError(t *testing.T, key string, r qRecord, class, msg string, marker bool) {
	t.Helper()
	_, err := Parse(r.sql)
	if err == nil {
		t.Errorf("%s (line %d): parsed, but Flink fails with %s: %s\n%s", key, r.line, class, msg, r.sql)
		return
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Errorf("%s: not a *parser.Error: %v", key, err)
		return
	}
	if e.Class() != class {
		t.Errorf("%s: error class %s, Flink's is %s", key, e.Class(), class)
	}
	got := e.Msg
	if marker {
		// The gateway harness rewrites the line of a parse error to 0.
		got = atLine.ReplaceAllString(got, "at line 0,")
	} else {
		// The client harness strips trailing spaces from every line.
		lines := strings.Split(got, "\n")
		for i, l := range lines {
			lines[i] = strings.TrimRight(l, " ")
		}
		got = strings.Join(lines, "\n")
	}
	if got != msg {
		t.Errorf("%s (line %d): message differs\n got: %q\nwant: %q", key, r.line, got, msg)
	}
}

var (
	atLine       = regexp.MustCompile(`at line \d+,`)
	parseErrLine = regexp.MustCompile(`^(?:[a-z][\w$]*\.)*(ParseException|TokenMgrError|SqlParserException): (.*)$`)
)

// expectedParseError reports whether the record expects a parser error and
// returns its class (without the Java package) and message.
func expectedParseError(r qRecord) (class, msg string, ok bool) {
	if r.tag != "!error" {
		return "", "", false
	}
	for i, l := range r.expected {
		m := parseErrLine.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		rest := append([]string{m[2]}, r.expected[i+1:]...)
		return m[1], strings.Join(rest, "\n"), true
	}
	return "", "", false
}

// isMarkerDialect reports whether a .q file separates SQL from the answer
// with !output lines (the gateway scripts).
func isMarkerDialect(text string) bool {
	for _, l := range strings.Split(text, "\n") {
		if strings.TrimSpace(l) == "!output" {
			return true
		}
	}
	return false
}

// readQRecords cuts a .q file into records as Flink's SqlScriptReader does
// (see conformance/flink/README.md).
func readQRecords(text string, marker bool) []qRecord {
	lines := strings.Split(text, "\n")
	var out []qRecord
	i := 0
	for {
		for i < len(lines) && (strings.HasPrefix(lines[i], "#") || strings.TrimSpace(lines[i]) == "") {
			i++
		}
		if i >= len(lines) {
			return out
		}
		r := qRecord{num: len(out) + 1, line: i + 1}
		start := i
		if marker {
			for i < len(lines) && strings.TrimSpace(lines[i]) != "!output" {
				i++
			}
			sql := strings.TrimSpace(strings.Join(lines[start:i], "\n"))
			r.sql = strings.TrimSuffix(sql, ";")
			i++ // !output
		} else {
			for i < len(lines) {
				i++
				sql := strings.Join(lines[start:i], "\n")
				if strings.HasSuffix(strings.TrimSpace(lines[i-1]), ";") && IsComplete(sql) {
					break
				}
			}
			r.sql = strings.Join(lines[start:i], "\n")
		}
		for i < len(lines) && !strings.HasPrefix(lines[i], "!") {
			r.expected = append(r.expected, lines[i])
			i++
		}
		if i < len(lines) {
			r.tag = strings.TrimSpace(lines[i])
			i++
		}
		out = append(out, r)
	}
}

// readManifest returns the record count of each .q file from MANIFEST.tsv
// (file, bytes, sha256, records, date), the check that the records are cut
// as Flink's reader cuts them.
func readManifest(t *testing.T, dir string) map[string]int {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	for _, line := range strings.Split(string(data), "\n")[1:] {
		f := strings.Split(line, "\t")
		if len(f) < 4 || !strings.HasSuffix(f[0], ".q") {
			continue
		}
		n, err := strconv.Atoi(f[3])
		if err != nil {
			t.Fatalf("MANIFEST.tsv: %q: %v", line, err)
		}
		counts[f[0]] = n
	}
	return counts
}

// conformanceDir finds ../shared/conformance/flink from the module root, or
// skips the test.
func conformanceDir(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("module root not found")
		}
		dir = parent
	}
	q := filepath.Join(dir, "..", "shared", "conformance", "flink")
	if _, err := os.Stat(q); err != nil {
		t.Skipf("Flink .q files not found at %s", q)
	}
	return q
}
