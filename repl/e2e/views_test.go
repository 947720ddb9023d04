package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The result views, the pager and the prompt at a real 160x45 terminal.

// startScreen runs eddy on a fresh store in a 160x45 colour terminal,
// with the default pager unless vars name one, and waits for its prompt.
func startScreen(t *testing.T, command func(eddy string) string, extra ...string) (*terminal, string) {
	t.Helper()
	vars, home := env(t)
	kept := vars[:0]
	for _, v := range vars {
		if !strings.HasPrefix(v, "PAGER=") && !strings.HasPrefix(v, "LESS=") {
			kept = append(kept, v)
		}
	}
	vars = append(append(kept, "TERM=xterm-256color"), extra...)
	eddyCmd := strings.Join(append([]string{"env", "-i"}, quoteAll(append(vars, binary, "--store", filepath.Join(home, "store.db")))...), " ")
	if command != nil {
		eddyCmd = command(eddyCmd)
	}
	term := newTerminalSize(t, 160, 45, eddyCmd)
	term.waitFor("the prompt", func(s string) bool { return strings.HasSuffix(lastLine(s), promptText) })
	return term, home
}

// waitWithin is waitFor with its own deadline.
func (term *terminal) waitWithin(d time.Duration, what string, ok func(screen string) bool) string {
	term.t.Helper()
	deadline := time.Now().Add(d)
	for {
		s := term.screen()
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			term.t.Fatalf("timed out waiting for %s; the screen:\n%s", what, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

var changesReceived = regexp.MustCompile(`(\d+) changes? received`)

// received returns the number of changes the view's footer counts.
func received(t *testing.T, screen string) int {
	t.Helper()
	m := changesReceived.FindStringSubmatch(screen)
	if m == nil {
		t.Fatalf("no count of changes on the screen:\n%s", screen)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// TestTerminalTableView: the table result mode shows an updating,
// unbounded query in Flink's full-screen table view, refreshed while it
// runs, paged with N/P/G/L, a row opened with O, the refresh interval
// changed with + and -, and Q returns to the prompt with one line that
// counts the rows in the table and the changes received.
func TestTerminalTableView(t *testing.T) {
	term, _ := startScreen(t, nil)
	term.keys("SELECT customer_id, COUNT(*) FROM examples.marketplace.orders GROUP BY customer_id;", "Enter")
	s := term.waitFor("the table view", func(s string) bool {
		return strings.Contains(s, "SQL Query Result (Table)") && changesReceived.MatchString(s)
	})
	for _, want := range []string{"Refresh: 1 s", "Page: Last of ", "Updated: ", "customer_id", "Q Quit", "N Next Page", "P Prev Page", "O Open Row"} {
		if !strings.Contains(s, want) {
			t.Errorf("the view lacks %q:\n%s", want, s)
		}
	}
	first := received(t, s)
	s = term.waitWithin(30*time.Second, "a refresh with more changes", func(s string) bool { return received(t, s) > first })

	// Two pages: 45 lines leave 38 for rows.
	s = term.waitWithin(60*time.Second, "a second page", func(s string) bool {
		return regexp.MustCompile(`Page: Last of [2-9]`).MatchString(s)
	})
	pages := regexp.MustCompile(`Page: Last of (\d+)`).FindStringSubmatch(s)[1]
	n, _ := strconv.Atoi(pages)
	term.keys("P")
	term.waitFor("the previous page", func(s string) bool { return strings.Contains(s, "Page: "+strconv.Itoa(n-1)+" of ") })
	term.keys("G")
	term.waitFor("the first page", func(s string) bool { return strings.Contains(s, "Page: 1 of ") })
	term.keys("N")
	term.waitFor("the next page", func(s string) bool { return strings.Contains(s, "Page: 2 of ") })
	term.keys("L")
	term.waitFor("the last page", func(s string) bool { return strings.Contains(s, "Page: Last of ") })

	term.keys("Down", "O")
	s = term.waitFor("the open row", func(s string) bool { return strings.Contains(s, "Row Summary") })
	if !regexp.MustCompile(`customer_id: \d+`).MatchString(s) {
		t.Errorf("the open row lacks its customer_id:\n%s", s)
	}
	term.keys("q")
	term.waitFor("the table again", func(s string) bool { return strings.Contains(s, "SQL Query Result (Table)") })
	term.keys("+")
	term.waitFor("a longer refresh interval", func(s string) bool { return strings.Contains(s, "Refresh: 5 s") })
	term.keys("-", "-")
	term.waitFor("a shorter refresh interval", func(s string) bool { return strings.Contains(s, "Refresh: 500 ms") })

	term.keys("Q")
	s = term.waitFor("the prompt after Q", func(s string) bool { return lastLine(s) == promptText })
	if !regexp.MustCompile(`\d+ rows in the table, \d+ changes received`).MatchString(s) {
		t.Errorf("no count line after the view:\n%s", s)
	}
	if strings.Contains(s, "in set") || strings.Contains(s, "received a total") || strings.Contains(s, "SQL Query Result") {
		t.Errorf("more than one count, or the view left on the screen:\n%s", s)
	}
	term.run("SHOW TABLES;", "Empty set")
}

// TestTerminalChangelogView: the changelog result mode shows the changes
// with their kinds, live; Ctrl-C leaves it.
func TestTerminalChangelogView(t *testing.T) {
	term, _ := startScreen(t, nil)
	term.run("SET 'sql-client.execution.result-mode' = 'changelog';", "[INFO] Execute statement succeeded.")
	term.keys("SELECT customer_id, COUNT(*) FROM examples.marketplace.orders GROUP BY customer_id;", "Enter")
	s := term.waitWithin(30*time.Second, "an update in the changelog view", func(s string) bool {
		return strings.Contains(s, "SQL Query Result (Changelog)") && strings.Contains(s, " -U ") && strings.Contains(s, " +U ")
	})
	if !strings.Contains(s, " op ") || !strings.Contains(s, " +I ") || !strings.Contains(s, "Refresh: Fastest") {
		t.Errorf("the changelog view:\n%s", s)
	}
	term.keys("C-c")
	s = term.waitFor("the prompt after Ctrl-C", func(s string) bool { return lastLine(s) == promptText })
	if !changesReceived.MatchString(s) || strings.Contains(s, "SQL Query Result") {
		t.Errorf("after the changelog view:\n%s", s)
	}
}

// pagerStatements make a bounded 5,000-row result.
var pagerStatements = []string{
	"SET 'execution.runtime-mode' = 'batch';",
	"CREATE TABLE gen (n INT) WITH ('connector' = 'datagen', 'number-of-rows' = '5000', 'fields.n.kind' = 'sequence', 'fields.n.start' = '1', 'fields.n.end' = '5000');",
}

// TestTerminalPager: a bounded result taller than the screen opens in
// the pager (less -FRSX when PAGER is empty); q returns to the prompt.
// eddy.display.pager = false prints it whole.
func TestTerminalPager(t *testing.T) {
	if _, err := os.Stat("/usr/bin/less"); err != nil {
		t.Skip("less is not installed")
	}
	term, _ := startScreen(t, nil, "PAGER=")
	term.run(pagerStatements[0], "[INFO] Execute statement succeeded.")
	term.run(pagerStatements[1], "[INFO] Execute statement succeeded.")
	term.keys("SELECT n FROM gen;", "Enter")
	s := term.waitFor("the pager", func(s string) bool { return lastLine(s) == ":" })
	if !hasRow(s, "1") || !hasRow(s, "40") || strings.Contains(s, "5000 rows in set") {
		t.Errorf("the pager's first page:\n%s", s)
	}
	term.keys(">") // less: the end
	term.waitFor("the end of the result", func(s string) bool { return strings.Contains(s, "5000 rows in set") })
	term.keys("q")
	term.waitFor("the prompt after the pager", func(s string) bool { return lastLine(s) == promptText })

	term.run("SET 'eddy.display.pager' = 'false';", "[INFO] Execute statement succeeded.")
	term.keys("SELECT n FROM gen;", "Enter")
	s = term.waitFor("the whole result", func(s string) bool {
		return strings.Contains(s, "5000 rows in set") && lastLine(s) == promptText
	})
	if !hasRow(s, "4999") {
		t.Errorf("without the pager:\n%s", s)
	}
}

// TestTerminalNoPagerWhenPiped: output that is not a terminal never goes
// through the pager.
func TestTerminalNoPagerWhenPiped(t *testing.T) {
	term, home := startScreen(t, func(eddy string) string {
		return "sh -c " + shellQuote(eddy+" | cat")
	}, "PAGER=")
	_ = home
	term.run(pagerStatements[0], "[INFO] Execute statement succeeded.")
	term.run(pagerStatements[1], "[INFO] Execute statement succeeded.")
	term.keys("SELECT n FROM gen;", "Enter")
	term.waitFor("the whole result, no pager", func(s string) bool {
		return strings.Contains(s, "5000 rows in set") && lastLine(s) == promptText
	})
}

// TestTerminalJobFailureRedrawsPrompt: a background job that fails while
// a statement is being typed reports above the prompt, and the prompt and
// the line typed so far are drawn again under the report.
func TestTerminalJobFailureRedrawsPrompt(t *testing.T) {
	term, home := startScreen(t, nil)
	dir := filepath.Join(home, "watched")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.csv"), []byte("1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	term.run("CREATE TABLE w (x INT) WITH ('connector' = 'filesystem', 'path' = '"+dir+"', 'format' = 'csv', 'source.monitor-interval' = '100ms');",
		"[INFO] Execute statement succeeded.")
	term.run("CREATE TABLE bh (x INT) WITH ('connector' = 'blackhole');", "[INFO] Execute statement succeeded.")
	term.run("INSERT INTO bh SELECT 10 / x FROM w;", "Job ID: ")
	term.keys("SELECT 1")
	term.waitFor("the typed text", func(s string) bool { return lastLine(s) == promptText+" SELECT 1" })
	if err := os.WriteFile(filepath.Join(dir, "b.csv"), []byte("0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := term.waitFor("the job's failure", func(s string) bool { return strings.Contains(s, "ArithmeticException") })
	s = term.waitFor("the prompt redrawn", func(s string) bool { return lastLine(s) == promptText+" SELECT 1" })
	if !strings.Contains(s, "[ERROR] Job ") {
		t.Errorf("the failure:\n%s", s)
	}
	term.keys(";", "Enter")
	term.waitFor("the typed statement's answer", func(s string) bool {
		return strings.Contains(s, "1 row in set") && lastLine(s) == promptText
	})
}

// TestTerminalStopJobCompletion: the ids of running jobs complete after
// STOP JOB '.
func TestTerminalStopJobCompletion(t *testing.T) {
	term, _ := startScreen(t, nil)
	term.run("CREATE TABLE ticks (n BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '10');", "[INFO] Execute statement succeeded.")
	term.run("CREATE TABLE bh (n BIGINT) WITH ('connector' = 'blackhole');", "[INFO] Execute statement succeeded.")
	s := term.run("INSERT INTO bh SELECT n FROM ticks;", "Job ID: ")
	id := regexp.MustCompile(`Job ID: ([0-9a-f]{32})`).FindStringSubmatch(s)
	if id == nil {
		t.Fatalf("no job id:\n%s", s)
	}
	term.keys("STOP JOB '", "Tab")
	term.waitFor("the job id completed", func(s string) bool {
		return strings.HasSuffix(lastLine(s), "STOP JOB '"+id[1]+"'")
	})
	term.keys(";", "Enter")
	term.waitFor("the job stopped", func(s string) bool {
		return strings.Contains(s, "[INFO] Execute statement succeeded.") && lastLine(s) == promptText
	})
}

// TestTerminalCtrlCClosesCompletion: one Ctrl-C closes an open list of
// completions and clears the line.
func TestTerminalCtrlCClosesCompletion(t *testing.T) {
	term, _ := startScreen(t, nil)
	term.keys("S", "Tab", "Tab")
	term.waitFor("the list of completions", func(s string) bool {
		return strings.Contains(s, "SELECT") && strings.Contains(s, "SHOW")
	})
	term.keys("C-c")
	s := term.waitFor("a cleared prompt", func(s string) bool { return lastLine(s) == promptText })
	if strings.Contains(s, "SHOW") {
		t.Errorf("the completions stayed:\n%s", s)
	}
}
