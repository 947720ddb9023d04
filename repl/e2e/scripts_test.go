package e2e

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// scriptDDL makes a table and fills it, so that a script's output holds
// status lines before the query's rows.
const scriptDDL = "CREATE TABLE t (id INT, label STRING);\n" +
	"INSERT INTO t VALUES (1, 'plain'), (2, 'a,b'), (3, 'say \"hi\"');\n" +
	"SET 'table.local-time-zone' = 'UTC';\n"

const scriptQuery = "SELECT id, label FROM t ORDER BY id"

// writeFile writes text to name in a fresh directory and returns its path.
func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestMachineFormatsHoldOnlyRows: with --output csv, tsv, json or jsonl
// standard output is the rows and nothing else, whatever the script ran
// before the query; the status lines go to standard error. Every way of
// running a script is checked: piped, -f, -i with -e, -e, SOURCE.
func TestMachineFormatsHoldOnlyRows(t *testing.T) {
	script := scriptDDL + scriptQuery + ";\n"
	ddlFile := writeFile(t, "ddl.sql", scriptDDL)
	scriptFile := writeFile(t, "script.sql", script)
	modes := []struct {
		name  string
		input string
		args  []string
	}{
		{"piped", script, nil},
		{"-f", "", []string{"-f", scriptFile}},
		{"-i", "", []string{"-i", ddlFile, "-e", scriptQuery}},
		{"-e", "", []string{"-e", script}},
		{"SOURCE", "SOURCE '" + ddlFile + "';\n" + scriptQuery + ";\n", nil},
	}
	for _, m := range modes {
		for _, format := range []string{"csv", "tsv", "json", "jsonl"} {
			t.Run(m.name+"/"+format, func(t *testing.T) {
				args := append([]string{"--store", store(t), "--output", format}, m.args...)
				r := eddy(t, m.input, args...)
				if r.code != 0 {
					t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
				}
				if got := parseRows(t, format, r.stdout); !reflect.DeepEqual(got, wantScriptRows) {
					t.Errorf("rows %q, want %q; stdout:\n%s", got, wantScriptRows, r.stdout)
				}
				if !strings.Contains(r.stderr, "[INFO] Execute statement succeeded.") {
					t.Errorf("status lines are not on stderr:\n%s", r.stderr)
				}
			})
		}
	}
}

var wantScriptRows = [][]string{{"1", "plain"}, {"2", "a,b"}, {"3", `say "hi"`}}

// parseRows reads the id and label of each row from out in format; any
// line that is not part of the format fails the test.
func parseRows(t *testing.T, format, out string) [][]string {
	t.Helper()
	var rows [][]string
	switch format {
	case "csv", "tsv":
		r := csv.NewReader(strings.NewReader(out))
		if format == "tsv" {
			r.Comma, r.LazyQuotes = '\t', true
		}
		records, err := r.ReadAll()
		if err != nil {
			t.Fatalf("not %s: %v\n%s", format, err, out)
		}
		if len(records) == 0 || !reflect.DeepEqual(records[0], []string{"id", "label"}) {
			t.Fatalf("no header first:\n%s", out)
		}
		rows = records[1:]
		if format == "tsv" {
			// TSV escapes a quote as nothing special.
			for _, r := range rows {
				r[1] = strings.ReplaceAll(r[1], `""`, `"`)
			}
		}
	case "json":
		var objs []map[string]any
		if err := json.Unmarshal([]byte(out), &objs); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, out)
		}
		for _, o := range objs {
			rows = append(rows, []string{fmt.Sprint(o["id"]), fmt.Sprint(o["label"])})
		}
	case "jsonl":
		sc := bufio.NewScanner(strings.NewReader(out))
		for sc.Scan() {
			var o map[string]any
			if err := json.Unmarshal(sc.Bytes(), &o); err != nil {
				t.Fatalf("line %q is not JSON: %v\n%s", sc.Text(), err, out)
			}
			rows = append(rows, []string{fmt.Sprint(o["id"]), fmt.Sprint(o["label"])})
		}
	}
	return rows
}

// TestScriptErrorLocation: a failing statement of a script is followed by
// where it is, FILE:LINE:COLUMN counted in the input, and the statement;
// Flink's lines of the error come first, unchanged.
func TestScriptErrorLocation(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 37; i++ {
		fmt.Fprintf(&b, "SET 'k%d' = 'v';\n", i)
	}
	b.WriteString("SELECT nope\n  FROM (VALUES (1)) AS v(a);\nSET 'after' = 'x';\n")
	script := b.String()
	path := writeFile(t, "script.sql", script)
	const flinkLines = "[ERROR] Could not execute SQL statement. Reason:\n" +
		"SqlValidatorException: Column 'nope' not found in any table\n"
	const echo = "    SELECT nope\n      FROM (VALUES (1)) AS v(a)\n"
	cases := []struct {
		name, input string
		args        []string
		where       string
	}{
		{"-f", "", []string{"-f", path}, path + ":38:8: in this statement:\n"},
		{"piped", script, nil, "<stdin>:38:8: in this statement:\n"},
		{"-i", "", []string{"-i", path, "-e", "SELECT 1"}, path + ":38:8: in this statement:\n"},
		{"-e", "", []string{"-e", script}, "-e:38:8: in this statement:\n"},
		{"SOURCE", "SET 'a' = 'b';\nSOURCE '" + path + "';\n", nil, path + ":38:8: in this statement:\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := eddy(t, c.input, append([]string{"--store", store(t)}, c.args...)...)
			if r.code != 1 {
				t.Errorf("exit %d, want 1", r.code)
			}
			if want := flinkLines + c.where + echo; !strings.Contains(r.stderr, want) {
				t.Errorf("stderr:\n%s\nwant it to hold:\n%s", r.stderr, want)
			}
		})
	}
	// A second statement on a line is located at its own column; a parse
	// error at its own position.
	r := eddy(t, "SET 'a' = 'b'; SELECT FROM;\n", "--store", store(t))
	if !strings.Contains(r.stderr, "\n<stdin>:1:23: in this statement:\n    SELECT FROM\n") {
		t.Errorf("parse error location:\n%s", r.stderr)
	}
}

// TestScriptsDefaultToTableau: a query of a script prints as tableau when
// the user chose no result mode; a chosen table mode is refused as Flink
// refuses it, and for -e the hint does not speak of a file.
func TestScriptsDefaultToTableau(t *testing.T) {
	const want = "+----+-------------+\n| op |      EXPR$0 |\n+----+-------------+\n| +I |           1 |\n" +
		"+----+-------------+\nReceived a total of 1 row\n"
	for _, r := range []result{
		eddy(t, "", "--store", store(t), "-e", "SELECT 1"),
		eddy(t, "SELECT 1;\n", "--store", store(t)),
	} {
		if r.code != 0 || !strings.HasPrefix(r.stdout, want) || r.stderr != "" {
			t.Errorf("exit %d, stdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
		}
	}
	r := eddy(t, "", "--store", store(t), "-e", "SET 'sql-client.execution.result-mode' = 'table'; SELECT 1")
	if r.code != 1 || !strings.Contains(r.stderr, "In non-interactive mode, it only supports to use TABLEAU") ||
		strings.Contains(r.stderr, "sql file") || !strings.Contains(r.stderr, "before the query in -e.") {
		t.Errorf("explicit table mode with -e: exit %d, stderr:\n%s", r.code, r.stderr)
	}
	r = eddy(t, "SET 'sql-client.execution.result-mode' = 'changelog';\nSELECT 1;\n", "--store", store(t))
	if r.code != 1 || !strings.Contains(r.stderr, "Please add 'SET sql-client.execution.result-mode=TABLEAU;' in the sql file.") {
		t.Errorf("explicit changelog mode piped: exit %d, stderr:\n%s", r.code, r.stderr)
	}
}

// TestTextAnswersAreWhole: EXPLAIN, SHOW CREATE and HELP answer with text,
// which is never cut at sql-client.display.max-column-width (Flink prints
// results that are not a query's rows at their full width).
func TestTextAnswersAreWhole(t *testing.T) {
	const script = "CREATE TABLE orders (id INT, label STRING);\n" +
		"SET 'sql-client.display.max-column-width' = '20';\n" +
		"EXPLAIN SELECT id, label FROM orders WHERE label = 'a long enough literal';\n" +
		"SHOW CREATE TABLE orders;\nHELP;\n"
	r := eddy(t, script, "--store", store(t))
	if r.code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	for _, want := range []string{
		"| == Abstract Syntax Tree ==\n",
		"== Optimized Execution Plan ==\n",
		"'a long enough literal'",
		"| CREATE TABLE `default_catalog`.`default_database`.`orders` (\n",
		"Hint: Make sure that a statement ends with \";\" for finalizing (multi-line) statements.\n",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "...") {
		t.Errorf("a text answer was cut:\n%s", r.stdout)
	}
}

// TestConfigCatalogsNeverStopTheShell: a catalog of the configuration file
// that cannot be made (an unknown type, an unknown option, a name a CREATE
// CATALOG of the store holds) is one warning naming its line and the
// reason; the rest of the configuration is used and the shell starts.
func TestConfigCatalogsNeverStopTheShell(t *testing.T) {
	db := store(t)
	if r := eddy(t, "", "--store", db, "-e", "CREATE CATALOG made WITH ('type' = 'generic_in_memory')"); r.code != 0 {
		t.Fatalf("CREATE CATALOG: exit %d, %s", r.code, r.stderr)
	}
	cfg := writeFile(t, "config.yaml", "catalogs:\n"+
		"  - name: good\n    type: generic_in_memory\n"+
		"  - name: lake\n    type: arctic\n    metastore.url: thrift://x\n"+
		"  - name: odd\n    type: generic_in_memory\n    nonsense: 1\n"+
		"  - name: made\n    type: generic_in_memory\n"+
		"execution:\n  current-catalog: lake\n")
	r := eddy(t, "", "--store", db, "--config", cfg, "-e", "SHOW CATALOGS")
	if r.code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	for _, name := range []string{"default_catalog", "good", "made"} {
		if !hasRow(r.stdout, name) {
			t.Errorf("catalog %s missing:\n%s", name, r.stdout)
		}
	}
	if hasRow(r.stdout, "lake") || hasRow(r.stdout, "odd") {
		t.Errorf("a catalog that cannot be made is listed:\n%s", r.stdout)
	}
	for _, want := range []string{
		cfg + ":4: warning: catalog \"lake\" is left out: Invalid value for option 'metastore.url': 'thrift://x' is not of the form thrift://<host>:<port>/<catalog_name_in_metastore>",
		cfg + ":7: warning: catalog \"odd\" is left out: Unsupported options found for catalog 'odd'",
		cfg + ":10: warning: catalog \"made\" is left out: Catalog made already exists",
		cfg + ": warning: execution: A catalog with name [lake] does not exist. The shell starts in default_catalog.default_database.",
	} {
		if strings.Count(r.stderr, want) != 1 {
			t.Errorf("stderr does not hold once %q:\n%s", want, r.stderr)
		}
	}
	// Using a catalog that was left out says why it is missing.
	for _, stmt := range []string{"USE CATALOG lake", "SELECT * FROM lake.db.t"} {
		r = eddy(t, "", "--store", db, "--config", cfg, "-e", stmt)
		want := "\n[WARNING] Catalog lake of the configuration file was left out at start: " + cfg +
			":4: Invalid value for option 'metastore.url'"
		if r.code != 1 || !strings.Contains(r.stderr, want) {
			t.Errorf("%s: exit %d, stderr:\n%s\nwant it to hold %q", stmt, r.code, r.stderr, want)
		}
	}
}

// TestMisspeltOptionWarns: SET of a key in Flink's or eddy's namespace
// that eddy does not know, but is a few edits from one it knows, succeeds
// as in Flink and warns naming the closest key; other keys do not warn.
func TestMisspeltOptionWarns(t *testing.T) {
	r := eddy(t, "SET 'execution.runtime-mod' = 'batch';\nSET 'a.b' = 'c';\nSET 'table.exec.mini-batch.enabled' = 'true';\n", "--store", store(t))
	if r.code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	const want = "[WARNING] 'execution.runtime-mod' is not an option eddy knows, so it changes nothing. " +
		"Did you mean 'execution.runtime-mode'?\n"
	if r.stderr != want {
		t.Errorf("stderr %q, want %q", r.stderr, want)
	}
	if strings.Count(r.stdout, "[INFO] Execute statement succeeded.") != 3 {
		t.Errorf("stdout:\n%s", r.stdout)
	}
}
