package gateway_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
)

// corpus is the differential test's statements, by section.
type corpus struct {
	setup   []string
	queries []corpusQuery
}

type corpusQuery struct {
	category string
	sql      string
	line     int
}

// readCorpus reads testdata/differential.sql (format in its header).
func readCorpus(path string) (*corpus, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	c := &corpus{}
	section := ""
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "":
		case strings.HasPrefix(line, "-- @setup"):
			section = "@setup"
		case strings.HasPrefix(line, "-- @category "):
			section = strings.TrimSpace(strings.TrimPrefix(line, "-- @category "))
		case strings.HasPrefix(line, "--"):
		case !strings.HasSuffix(line, ";"):
			return nil, fmt.Errorf("%s:%d: a statement must fit on one line and end with ';'", path, n)
		case section == "":
			return nil, fmt.Errorf("%s:%d: a statement before any section", path, n)
		case section == "@setup":
			c.setup = append(c.setup, strings.TrimSuffix(line, ";"))
		default:
			c.queries = append(c.queries, corpusQuery{category: section, sql: strings.TrimSuffix(line, ";"), line: n})
		}
	}
	return c, sc.Err()
}

// normalize makes two rendered answers comparable: a submitted job's id
// differs from run to run, so it is masked; without an ORDER BY of the
// query itself (not one inside OVER or a sub-query) the order of rows is
// not defined, so the rows of a table are sorted.
func normalize(sql, answer string) string {
	answer = jobID.ReplaceAllString(answer, "Job ID: <id>")
	if hasTopLevelOrderBy(sql) {
		return answer
	}
	lines := strings.Split(answer, "\n")
	// A tableau: border, header, border, rows..., border, footer.
	var borders []int
	for i, l := range lines {
		if strings.HasPrefix(l, "+-") {
			borders = append(borders, i)
		}
	}
	if len(borders) == 3 {
		sort.Strings(lines[borders[1]+1 : borders[2]])
	}
	return strings.Join(lines, "\n")
}

// jobID matches the id line of a submitted statement's answer.
var jobID = regexp.MustCompile(`Job ID: [0-9a-f]+`)

// hasTopLevelOrderBy reports an ORDER BY outside parentheses and quotes.
func hasTopLevelOrderBy(sql string) bool {
	var top strings.Builder
	depth, quoted := 0, false
	for _, r := range sql {
		switch {
		case r == '\'':
			quoted = !quoted
		case quoted:
		case r == '(':
			depth++
		case r == ')':
			depth--
		case depth == 0:
			top.WriteRune(r)
		}
	}
	return strings.Contains(strings.Join(strings.Fields(strings.ToUpper(top.String())), " "), "ORDER BY")
}

// mismatchKind names why the two answers differ, for the summary.
func mismatchKind(local, remote string) string {
	switch {
	case strings.HasPrefix(local, "[ERROR]") && !strings.HasPrefix(remote, "[ERROR]"):
		class, _, _ := strings.Cut(secondLine(local), ":")
		return "local error " + class
	case !strings.HasPrefix(local, "[ERROR]") && strings.HasPrefix(remote, "[ERROR]"):
		return "only Flink fails"
	case strings.HasPrefix(local, "[ERROR]"):
		return "different error"
	}
	return "different answer"
}

func secondLine(s string) string {
	lines := strings.SplitN(s, "\n", 3)
	if len(lines) < 2 {
		return ""
	}
	return lines[1]
}

// TestDifferential runs the corpus on the local engine and on the real
// gateway (batch mode) and reports how many answers differ, by category.
// While the local query engine is being written a mismatch does not fail
// the test; EDDY_DIFF_STRICT=1 makes it fail. EDDY_DIFF_REPORT=FILE writes
// every mismatch, both answers, to FILE.
func TestDifferential(t *testing.T) {
	c, err := readCorpus(filepath.Join("testdata", "differential.sql"))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.queries) < 200 {
		t.Fatalf("the corpus has %d queries; it must keep at least 200", len(c.queries))
	}
	needGateway(t)
	ctx := context.Background()
	remote := openRemote(t, map[string]string{"execution.runtime-mode": "batch", "parallelism.default": "1"})
	local := openLocal(t)
	for _, stmt := range c.setup {
		if got := answer(ctx, remote, stmt); strings.HasPrefix(got, "[ERROR]") {
			t.Fatalf("setup on the gateway: %s:\n%s", stmt, got)
		}
		if got := answer(ctx, local, stmt); strings.HasPrefix(got, "[ERROR]") {
			t.Logf("setup on the local engine: %s: %s", stmt, secondLine(got))
		}
	}
	var report strings.Builder
	byCategory := map[string]int{}
	byKind := map[string]int{}
	mismatches := 0
	start := time.Now()
	for _, q := range c.queries {
		qctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
		want := normalize(q.sql, answer(qctx, remote, q.sql))
		got := normalize(q.sql, answer(qctx, local, q.sql))
		cancel()
		if got == want {
			continue
		}
		mismatches++
		byCategory[q.category]++
		byKind[mismatchKind(got, want)]++
		fmt.Fprintf(&report, "== line %d [%s] %s\n-- Flink:\n%s-- eddy:\n%s\n", q.line, q.category, q.sql, want, got)
	}
	localOnly := 0
	for k, n := range byKind {
		if strings.HasPrefix(k, "local error ") {
			localOnly += n
		}
	}
	summary := fmt.Sprintf("differential: %d queries, %d mismatches (%.0fs)\n"+
		"  identical %d, different answers %d, different errors %d, eddy-only failures %d, Flink-only failures %d\n"+
		"  by category: %s\n  by kind: %s\n",
		len(c.queries), mismatches, time.Since(start).Seconds(),
		len(c.queries)-mismatches, byKind["different answer"], byKind["different error"], localOnly, byKind["only Flink fails"],
		top(byCategory), top(byKind))
	// Printed whether or not the test runs verbosely, for CI's log.
	fmt.Print(summary)
	if path := os.Getenv("EDDY_DIFF_REPORT"); path != "" {
		if err := os.WriteFile(path, []byte(summary+"\n"+report.String()), 0o644); err != nil {
			t.Error(err)
		}
	}
	if mismatches > 0 && os.Getenv("EDDY_DIFF_STRICT") == "1" {
		t.Errorf("%d answers differ from Flink's:\n%s", mismatches, report.String())
	}
}

// top lists counts, largest first: "a 3, b 1".
func top(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

func TestHasTopLevelOrderBy(t *testing.T) {
	for sql, want := range map[string]bool{
		"SELECT * FROM t ORDER BY a":                              true,
		"SELECT * FROM t order  by a":                             true,
		"SELECT RANK() OVER (PARTITION BY a ORDER BY b) FROM t":   false,
		"SELECT * FROM (SELECT * FROM t ORDER BY a) LIMIT 1":      false,
		"SELECT 'ORDER BY' FROM t":                                false,
		"SELECT ROW_NUMBER() OVER (ORDER BY a) FROM t ORDER BY 1": true,
	} {
		if got := hasTopLevelOrderBy(sql); got != want {
			t.Errorf("hasTopLevelOrderBy(%q) = %v", sql, got)
		}
	}
}
