package e2e

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// crashSigns are texts that only a Go crash prints.
var crashSigns = []string{"panic:", "goroutine ", "fatal error:", "runtime error", "InternalError"}

// survives runs input, then a probe query, in one piped eddy with
// --keep-going: the probe must answer (the process kept working), nothing
// may look like a crash, and with wantError the input must have given an
// [ERROR]. It returns the output.
func survives(t *testing.T, vars []string, st, input string, wantError bool) string {
	t.Helper()
	out, _ := combined(t, vars, batchTableau+input+"\nSELECT 1 AS chk_alive;\n", "--store", st, "--keep-going")
	short := out
	if len(short) > 2000 {
		short = short[:1000] + "\n...\n" + short[len(short)-1000:]
	}
	for _, s := range crashSigns {
		if strings.Contains(out, s) {
			t.Fatalf("eddy crashed (%q):\n%s", s, short)
		}
	}
	if checks(out)["chk_alive"] != 1 {
		t.Fatalf("eddy stopped answering:\n%s", short)
	}
	if wantError && !strings.Contains(out, "[ERROR]") {
		t.Fatalf("no [ERROR] for hostile input:\n%s", short)
	}
	return out
}

func TestHostileStatements(t *testing.T) {
	vars, _ := env(t)
	st := store(t)
	big := strings.Repeat("x", 10<<20)
	for _, c := range []struct {
		name      string
		input     string
		wantError bool
	}{
		{"10 MB string literal", "SELECT '" + big + "' AS big;", false},
		{"1 MB of bad tokens", "SELECT " + strings.Repeat("x ", 1<<19) + ";", true},
		{"10 MB of bad words", "SELECT " + strings.Repeat(strings.Repeat("y", 1000)+" ", 10<<10) + ";", true},
		{"10 MB identifier", "SELECT `" + big + "` FROM (VALUES (1)) AS v(a);", true},
		{"10,000 nested parentheses", "SELECT " + strings.Repeat("(", 10000) + "1" + strings.Repeat(")", 10000) + " AS deep;", true},
		{"10,000 nested sub-queries", "SELECT * FROM " + strings.Repeat("(SELECT * FROM ", 10000) + "(VALUES (1)) AS v(a)" +
			strings.Repeat(") AS x", 10000) + ";", true},
		{"unclosed parentheses", strings.Repeat("(", 10000) + ";", true},
		{"invalid UTF-8 in a literal", "SELECT '\xff\xfe\xc3\x28' AS bad;", false},
		{"invalid UTF-8 in a name", "CREATE TABLE \xff\xfe (a INT);", true},
		{"invalid UTF-8 in a quoted name", "CREATE TABLE `\xed\xa0\x80` (a INT) WITH ('connector' = 'blackhole');", false},
		{"NUL in a literal", "SELECT 'a\x00b' AS nul;", false},
		{"NUL between tokens", "SELECT\x001;", true},
		{"NUL in a quoted name", "CREATE VIEW `v\x00w` AS SELECT 1 AS x;", false},
	} {
		t.Run(c.name, func(t *testing.T) { survives(t, vars, st, c.input, c.wantError) })
	}
}

// TestUnterminatedInput: an unclosed string or comment swallows the rest
// of the input, as in Flink; the end of input inside it is an [ERROR],
// and eddy exits with status 1 without a crash.
func TestUnterminatedInput(t *testing.T) {
	vars, _ := env(t)
	st := store(t)
	for _, c := range []struct {
		input string
		code  int
	}{
		{"SELECT 1;\nSELECT 'never closed;\nSELECT 2;\n", 1},
		{"SELECT 1;\nSELECT `never closed;\n", 1},
		{"SELECT 1;\n/* never closed\nSELECT 2;\n", 1},
		{"SELECT 1;\nSELECT /*+ hint never closed\n", 1},
	} {
		out, code := combined(t, vars, batchTableau+c.input, "--store", st)
		for _, s := range crashSigns {
			if strings.Contains(out, s) {
				t.Fatalf("%q: eddy crashed:\n%s", c.input, out)
			}
		}
		if code != c.code || (c.code == 1) != strings.Contains(out, "[ERROR]") {
			t.Errorf("%q: exit %d, want %d:\n%s", c.input, code, c.code, out)
		}
	}
}

// TestLongOperatorChain: a chain of 20,000 additions is a deep tree built
// by the parser from a flat text. It must answer or give an [ERROR]
// quickly; a chain of millions must not overflow the stack.
func TestLongOperatorChain(t *testing.T) {
	vars, _ := env(t)
	survives(t, vars, store(t), "SELECT 1"+strings.Repeat(" + 1", 20000)+" AS s;", false)
	survives(t, vars, store(t), "SELECT 1"+strings.Repeat(" + 1", 2_500_000)+" AS s;", true)
}

// TestBinaryGarbageOnStdin feeds random bytes: eddy reports errors and
// ends with status 1, without a crash; with the quote and comment
// characters taken out of the garbage, a query after it still answers.
func TestBinaryGarbageOnStdin(t *testing.T) {
	vars, _ := env(t)
	st := store(t)
	rng := rand.New(rand.NewPCG(1, 2))
	inputs := 0
	for round := 0; round < 20; round++ {
		garbage := make([]byte, 1+rng.IntN(64<<10))
		for i := range garbage {
			garbage[i] = byte(rng.UintN(256))
		}
		out, code := combined(t, vars, string(garbage), "--store", st)
		inputs++
		for _, s := range crashSigns {
			if strings.Contains(out, s) {
				t.Fatalf("round %d: eddy crashed on garbage (%q)", round, s)
			}
		}
		if code != 1 || !strings.Contains(out, "[ERROR]") {
			t.Fatalf("round %d: exit %d, want 1 with an [ERROR]:\n%.2000s", round, code, out)
		}
		clean := strings.Map(func(r rune) rune {
			if strings.ContainsRune("'\"`/*-", r) {
				return ' '
			}
			return r
		}, string(garbage))
		survives(t, vars, st, clean+"\n;", true)
		inputs++
	}
	t.Logf("%d garbage inputs, no crash", inputs)
}

// TestHostileCSV reads CSV files with ragged rows and bad quoting through
// the filesystem connector: each read is an [ERROR] naming the file, or
// rows; never a crash, and the shell keeps answering.
func TestHostileCSV(t *testing.T) {
	vars, home := env(t)
	st := store(t)
	files := map[string]string{
		"ragged.csv":     "1,a\n2\n3,b,extra\n",
		"quotes.csv":     "1,\"never closed\n2,b\n",
		"inner.csv":      "1,ab\"c\"d\n2,\"x\"\"y\"\n",
		"empty-line.csv": "1,a\n\n\n2,b\n",
		"binary.csv":     "1,\x00\xff\xfe\n\x00,\x01\n",
		"no-newline.csv": "1,a\n2,b",
		"huge-field.csv": "1," + strings.Repeat("z", 4<<20) + "\n",
		"crlf.csv":       "1,a\r\n2,b\r\n",
		"not-a-number":   "one,a\n",
	}
	for name, content := range files {
		path := filepath.Join(home, name)
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		t.Run(name, func(t *testing.T) {
			table := "csv_" + regexp.MustCompile(`\W`).ReplaceAllString(name, "_")
			out := survives(t, vars, st, fmt.Sprintf(
				"CREATE TEMPORARY TABLE %s (a INT, b STRING) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv');\n"+
					"SELECT COUNT(*) AS chk_rows FROM %s;\nSELECT * FROM %s;", table, path, table, table), false)
			for _, r := range reasons(out) {
				if !strings.Contains(out, path) {
					t.Errorf("the error does not name the file %s: %s", path, r)
				}
			}
		})
	}
}

// TestIdentifiersRoundTrip: names, comments and options holding quotes,
// ';' and '--' are stored verbatim: SHOW CREATE prints text that, run
// again after a DROP, gives the same object, and a second process sees it
// byte for byte.
func TestIdentifiersRoundTrip(t *testing.T) {
	vars, _ := env(t)
	st := store(t)
	const table = "`it``s; -- a table`"
	const view = "`view; -- with ``quotes'`"
	setup := "CREATE TABLE " + table + " (`col; --1` INT COMMENT 'it''s; -- a comment', `col'2` STRING, `--` DOUBLE)" +
		" COMMENT 'table; -- comment ''quoted'''" +
		" WITH ('connector' = 'blackhole', 'k; --' = 'v''; -- x');\n" +
		"CREATE VIEW " + view + " COMMENT 'v; --' AS SELECT `col; --1`, '; --' AS `semi; --` FROM " + table + ";\n"
	show := "SHOW CREATE TABLE " + table + ";\nSHOW CREATE VIEW " + view + ";\n"
	out, code := combined(t, vars, setup+show, "--store", st)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	first := definitions(out)
	if len(first) != 2 {
		t.Fatalf("want 2 definitions, got %d:\n%s", len(first), out)
	}
	// Another process reads the same text back from the store.
	out, code = combined(t, vars, show, "--store", st)
	if code != 0 || !equalStrings(definitions(out), first) {
		t.Fatalf("second process (exit %d) shows:\n%s\nfirst showed:\n%s", code, out, strings.Join(first, "\n"))
	}
	// The printed definitions recreate the same objects.
	recreate := "DROP VIEW " + view + ";\nDROP TABLE " + table + ";\n" + first[0] + ";\n" + first[1] + ";\n" + show
	out, code = combined(t, vars, recreate, "--store", st)
	if code != 0 || !equalStrings(definitions(out), first) {
		t.Fatalf("recreating from SHOW CREATE (exit %d):\n%s\nfirst showed:\n%s", code, out, strings.Join(first, "\n"))
	}
}

// definitions returns the CREATE statements a piped shell printed: the
// cell of each one-row "result" table, which starts with "| CREATE " and
// ends with a line holding " |" before the border.
func definitions(out string) []string {
	var defs []string
	lines := strings.Split(out, "\n")
	for i := 0; i < len(lines); i++ {
		first, ok := strings.CutPrefix(lines[i], "| CREATE ")
		if !ok {
			continue
		}
		def := []string{"CREATE " + first}
		for i++; i < len(lines) && !strings.HasPrefix(lines[i], "+-"); i++ {
			def = append(def, lines[i])
		}
		text := strings.TrimSpace(strings.Join(def, "\n"))
		defs = append(defs, strings.TrimSpace(strings.TrimSuffix(text, "|")))
	}
	return defs
}

func equalStrings(a, b []string) bool {
	return strings.Join(a, "\x00") == strings.Join(b, "\x00")
}
