package e2e

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

const promptText = "default_catalog.default_database>"

// startTerminal runs eddy on a fresh store in a colour terminal and waits
// for its prompt.
func startTerminal(t *testing.T, extra ...string) (*terminal, string) {
	t.Helper()
	vars, home := env(t)
	vars = append(vars, "TERM=xterm-256color")
	vars = append(vars, extra...)
	term := newTerminal(t, vars, "--store", filepath.Join(home, "store.db"))
	term.waitFor("the prompt", func(s string) bool { return strings.HasSuffix(lastLine(s), promptText) })
	return term, home
}

// run types a statement, waits until answered shows in the answer and a
// fresh prompt follows, and returns the screen.
func (term *terminal) run(stmt, answered string) string {
	term.t.Helper()
	term.keys(stmt, "Enter")
	return term.waitFor(fmt.Sprintf("the answer to %q", stmt), func(s string) bool {
		return strings.Contains(s, answered) && lastLine(s) == promptText
	})
}

// colourLine returns the last line of the screen, with its escape codes,
// that holds text once the codes are removed.
func (term *terminal) colourLine(text string) string {
	term.t.Helper()
	lines := strings.Split(term.tmux("capture-pane", "-e", "-p", "-t", term.name), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.Contains(stripEscapes(lines[i]), text) {
			return lines[i]
		}
	}
	term.t.Fatalf("no line holds %q:\n%s", text, term.screen())
	return ""
}

func stripEscapes(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '[' {
			j := i + 2
			for j < len(s) && (s[j] < '@' || s[j] > '~') {
				j++
			}
			i = j
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// TestTerminalCompletion: Tab completes a table created a moment ago in
// the same session, qualified and not, and then a column of it.
func TestTerminalCompletion(t *testing.T) {
	term, _ := startTerminal(t)
	term.run("CREATE TABLE orders_2024 (order_id INT, amount DOUBLE);", "[INFO] Execute statement succeeded.")

	term.keys("SELECT * FROM orders_2", "Tab")
	term.waitFor("the table name completed", func(s string) bool {
		return strings.HasSuffix(lastLine(s), "SELECT * FROM orders_2024")
	})
	term.keys(" WHERE order_", "Tab")
	term.waitFor("the column name completed", func(s string) bool {
		return strings.HasSuffix(lastLine(s), "SELECT * FROM orders_2024 WHERE order_id")
	})
	term.keys("C-c")
	term.waitFor("a cleared prompt", func(s string) bool { return lastLine(s) == promptText })

	term.keys("SELECT am", "Tab")
	term.waitFor("a column before FROM", func(s string) bool { return strings.HasSuffix(lastLine(s), "SELECT amount") })
	term.keys("C-c")
	term.keys("select * from default_database.ord", "Tab")
	term.waitFor("a qualified table name", func(s string) bool {
		return strings.HasSuffix(lastLine(s), "select * from default_database.orders_2024")
	})
	term.keys("C-c")
	term.keys("sel", "Tab")
	term.waitFor("a keyword in the case typed", func(s string) bool { return strings.HasSuffix(lastLine(s), "> select") })
}

// TestTerminalHighlight: keywords, literals and numbers are coloured while
// typing; SET 'sql-client.display.color-schema' = 'DEFAULT' and NO_COLOR
// turn it off.
func TestTerminalHighlight(t *testing.T) {
	term, _ := startTerminal(t)
	const typed = "SELECT 'text', 42 FROM t"
	term.keys(typed)
	term.waitFor("the typed line", func(s string) bool { return strings.HasSuffix(lastLine(s), typed) })
	line := term.colourLine(typed)
	if !strings.Contains(line, "\x1b[") || strings.Contains(line, typed) {
		t.Errorf("the typed line is not highlighted: %q", line)
	}
	term.keys("C-c")
	term.run("SET 'sql-client.display.color-schema' = 'DEFAULT';", "[INFO] Execute statement succeeded.")
	term.keys(typed)
	term.waitFor("the typed line", func(s string) bool { return strings.HasSuffix(lastLine(s), typed) })
	if line := term.colourLine(typed); !strings.Contains(line, typed) {
		t.Errorf("highlighted under the DEFAULT colour schema: %q", line)
	}

	for _, v := range []string{"NO_COLOR=1", "TERM=dumb"} {
		plain, _ := startTerminal(t, v)
		plain.keys(typed)
		plain.waitFor("the typed line", func(s string) bool { return strings.HasSuffix(lastLine(s), typed) })
		if line := plain.colourLine(typed); strings.Contains(line, "\x1b[") {
			t.Errorf("highlighted despite %s: %q", v, line)
		}
	}
}

// writeNumbers writes a one-column CSV file of the numbers 1..n.
func writeNumbers(t *testing.T, dir string, n int) string {
	t.Helper()
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%d\n", i)
	}
	p := filepath.Join(dir, "numbers.csv")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// longQuery sets up a batch query that runs for seconds: a cross join of
// n numbers with themselves.
func longQuery(path string) []string {
	return []string{
		"SET 'execution.runtime-mode' = 'batch';",
		"CREATE TABLE numbers (x INT) WITH ('connector' = 'filesystem', 'path' = '" + path + "', 'format' = 'csv');",
		"SELECT COUNT(*) FROM numbers a, numbers b;",
	}
}

// TestTerminalProgress: a statement running longer than a second shows a
// live status line, which goes when the statement ends; Ctrl-C stops it
// and the session answers the next statement.
func TestTerminalProgress(t *testing.T) {
	term, home := startTerminal(t)
	stmts := longQuery(writeNumbers(t, home, 20000))
	term.run(stmts[0], "[INFO] Execute statement succeeded.")
	term.run(stmts[1], "[INFO] Execute statement succeeded.")
	term.keys(stmts[2], "Enter")
	s := term.waitFor("the status line", func(s string) bool {
		return strings.Contains(s, "Running for ") || strings.Contains(s, "row in set")
	})
	if !strings.Contains(s, "Running for ") || !strings.Contains(s, "received so far (Ctrl-C cancels)") {
		t.Fatalf("no status line while the query runs:\n%s", s)
	}
	pressed := time.Now()
	term.keys("C-c")
	s = term.waitFor("the query to stop", func(s string) bool {
		return strings.Contains(s, "Query terminated, received a total of") && lastLine(s) == promptText
	})
	t.Logf("the cross join stopped %v after Ctrl-C", time.Since(pressed).Round(time.Millisecond))
	if strings.Contains(s, "Running for ") {
		t.Errorf("the status line stayed:\n%s", s)
	}
	term.run("SHOW TABLES;", "1 row in set")
	if s := term.screen(); !hasRow(s, "numbers") {
		t.Errorf("SHOW TABLES after Ctrl-C:\n%s", s)
	}
}

// TestPipedNoProgress runs the same long query piped in a terminal: no
// status line ever shows.
func TestPipedNoProgress(t *testing.T) {
	vars, home := env(t)
	vars = append(vars, "TERM=xterm-256color")
	stmts := longQuery(writeNumbers(t, home, 3000))
	script := filepath.Join(home, "long.sql")
	text := "SET 'sql-client.execution.result-mode' = 'tableau';\n" + strings.Join(stmts, "\n") + "\n"
	if err := os.WriteFile(script, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	eddyCmd := strings.Join(append([]string{"env", "-i"}, quoteAll(append(vars, binary, "--store", filepath.Join(home, "store.db")))...), " ")
	term := newTerminalCmd(t, "sh -c "+shellQuote(eddyCmd+" < "+shellQuote(script)+"; echo EXIT=$?; sleep 60"))
	deadline := time.Now().Add(60 * time.Second)
	for {
		s := term.screen()
		if strings.Contains(s, "Running for") {
			t.Fatalf("status line in piped mode:\n%s", s)
		}
		if strings.Contains(s, "EXIT=") {
			if !strings.Contains(s, "EXIT=0") || !strings.Contains(s, "9000000") {
				t.Errorf("piped run:\n%s", s)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("piped run did not end:\n%s", s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestTerminalCtrlCUnbounded: Ctrl-C ends a running unbounded query within
// a second and the session still answers SHOW TABLES.
func TestTerminalCtrlCUnbounded(t *testing.T) {
	term, _ := startTerminal(t)
	term.run("SET 'sql-client.execution.result-mode' = 'tableau';", "[INFO] Execute statement succeeded.")
	term.run("CREATE TABLE ticks (n BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '20');",
		"[INFO] Execute statement succeeded.")
	term.keys("SELECT n FROM ticks;", "Enter")
	s := term.waitFor("rows or an error", func(s string) bool {
		return strings.Contains(s, "| +I |") || strings.Contains(s, "[ERROR]")
	})
	if strings.Contains(s, "[ERROR]") {
		t.Fatalf("unbounded query failed:\n%s", s)
	}
	time.Sleep(1500 * time.Millisecond) // let it run
	pressed := time.Now()
	term.keys("C-c")
	term.waitFor("the query to stop", func(s string) bool {
		return strings.Contains(s, "Query terminated, received a total of") && lastLine(s) == promptText
	})
	if took := time.Since(pressed); took > time.Second {
		t.Errorf("Ctrl-C took %v to end the query, want under a second", took)
	}
	term.run("SHOW TABLES;", "1 row in set")
	if s := term.screen(); !hasRow(s, "ticks") {
		t.Errorf("SHOW TABLES after Ctrl-C:\n%s", s)
	}
}

// TestTerminalPromptOption: the prompt option and line numbers.
func TestTerminalPromptOption(t *testing.T) {
	term, _ := startTerminal(t)
	term.keys("SET 'sql-client.display.prompt' = 'eddy [%d]> ';", "Enter")
	term.waitFor("the new prompt", func(s string) bool { return lastLine(s) == "eddy [default_database]>" })
	term.keys("SET 'sql-client.display.show-line-numbers' = 'true';", "Enter")
	term.waitFor("the new prompt", func(s string) bool {
		return strings.Count(s, "[INFO] Execute statement succeeded.") == 2 && lastLine(s) == "eddy [default_database]>"
	})
	term.keys("SHOW", "Enter")
	term.waitFor("a numbered continuation", func(s string) bool { return lastLine(s) == "                     2->" })
}

// TestExport is the README's export one-liner: --output csv and json print
// the rows and nothing else.
func TestExport(t *testing.T) {
	const query = `SELECT * FROM (VALUES (1, 'plain'), (2, 'a,b'), (3, 'say "hi"'), (4, CAST(NULL AS STRING)), (5, '日本語')) AS t(id, label)`
	r := eddy(t, "", "--store", store(t), "-e", query, "--output", "csv")
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	records, err := csv.NewReader(strings.NewReader(r.stdout)).ReadAll()
	if err != nil {
		t.Fatalf("not CSV: %v\n%s", err, r.stdout)
	}
	want := [][]string{{"id", "label"}, {"1", "plain"}, {"2", "a,b"}, {"3", `say "hi"`}, {"4", ""}, {"5", "日本語"}}
	if !reflect.DeepEqual(records, want) {
		t.Errorf("CSV export %q, want %q\n%s", records, want, r.stdout)
	}
	r = eddy(t, "", "--store", store(t), "-e", query, "--output", "json")
	var rows []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &rows); err != nil || r.code != 0 {
		t.Fatalf("not JSON (exit %d): %v\n%s%s", r.code, err, r.stdout, r.stderr)
	}
	if len(rows) != 5 || rows[3]["label"] != nil || rows[2]["label"] != `say "hi"` || rows[0]["id"] != float64(1) {
		t.Errorf("JSON export: %v", rows)
	}
	if r := eddy(t, "", "--output", "xml"); r.code != 2 || !strings.HasPrefix(r.stderr, "eddy: --output \"xml\"") {
		t.Errorf("bad --output: exit %d, %q", r.code, r.stderr)
	}
}

// TestPipedTimeCost: piped output shows no time cost unless the option is
// given.
func TestPipedTimeCost(t *testing.T) {
	in := "SET 'sql-client.execution.result-mode' = 'tableau';\nSELECT 1 AS n;\n"
	if r := eddy(t, in, "--store", store(t)); r.code != 0 || strings.Contains(r.stdout, "seconds)") {
		t.Errorf("piped: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r := eddy(t, in, "--store", store(t), "-D", "sql-client.display.print-time-cost=true")
	if r.code != 0 || !strings.Contains(r.stdout, "1 row (0.") {
		t.Errorf("piped with print-time-cost=true: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestPipedSource runs a file from piped input with SOURCE.
func TestPipedSource(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "setup.sql")
	if err := os.WriteFile(file, []byte("CREATE TABLE from_file (id INT);\nSET 'from.file' = 'yes';\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := eddy(t, "SOURCE '"+file+"';\nSHOW TABLES;\n", "--store", store(t))
	if r.code != 0 || !hasRow(r.stdout, "from_file") || strings.Count(r.stdout, "[INFO] Execute statement succeeded.") != 2 {
		t.Errorf("SOURCE: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestReadmeExport runs the export one-liner of README.md and compares the
// file it writes with the text shown there.
func TestReadmeExport(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	const prefix, suffix = `$ eddy --store "$(mktemp -u)" --output csv -e "`, `" > orders.csv`
	_, block, ok := strings.Cut(string(data), prefix)
	if !ok {
		t.Fatal("README.md has no export one-liner")
	}
	query, block, ok := strings.Cut(block, suffix+"\n$ cat orders.csv\n")
	if !ok {
		t.Fatal("the export one-liner is not followed by `cat orders.csv`")
	}
	want, _, _ := strings.Cut(block, "```")
	r := eddy(t, "", "--store", store(t), "--output", "csv", "-e", strings.ReplaceAll(query, `\"`, `"`))
	if r.code != 0 || r.stdout != want {
		t.Errorf("export: exit %d, output:\n%s\nREADME shows:\n%s%s", r.code, r.stdout, want, r.stderr)
	}
}
