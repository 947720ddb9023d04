package e2e

import (
	"strings"
	"testing"
)

// TestClientCommandsPiped: psql's backslash commands in a script run the
// statement they stand for; \x switches to the vertical display.
func TestClientCommandsPiped(t *testing.T) {
	in := "CREATE TABLE orders (id INT, amount DOUBLE);\nCREATE VIEW big AS SELECT * FROM orders WHERE amount > 10;\n" +
		"\\dt\n\\dv\n\\d orders\n\\l\n\\x\nSELECT 1 AS n;\n"
	r := eddy(t, in, "--store", store(t))
	if r.code != 0 {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, row := range [][]string{{"orders"}, {"big"}, {"id", "INT", "TRUE", "", "", ""}, {"default_database"}} {
		if !hasRow(r.stdout, row...) {
			t.Errorf("no row %q:\n%s", row, r.stdout)
		}
	}
	if !strings.Contains(r.stdout, "[INFO] Expanded display is on.") || !strings.Contains(r.stdout, "1. row ***") || !strings.Contains(r.stdout, "n: 1") {
		t.Errorf("\\x does not turn on the vertical display:\n%s", r.stdout)
	}
	r = eddy(t, "\\dx\n", "--store", store(t))
	if r.code != 1 || !strings.Contains(r.stderr, `Unknown or wrong client command "\dx"`) || !strings.Contains(r.stderr, "<stdin>:1:1: in this statement:") {
		t.Errorf("an unknown command: exit %d\n%s", r.code, r.stderr)
	}
}

// TestClientCommandsTerminal: at a terminal Tab completes a backslash
// command, \d lists the tables, \timing switches the time cost, and a
// reserved word used as a name gets a hint after Flink's parse error.
func TestClientCommandsTerminal(t *testing.T) {
	term, _ := startTerminal(t)
	term.run("CREATE TABLE orders (id INT);", "[INFO] Execute statement succeeded.")
	term.keys(`\ti`, "Tab")
	term.waitFor("the completed command", func(s string) bool { return strings.HasSuffix(lastLine(s), `\timing`) })
	term.keys("off")
	term.run("", "Timing is off.")
	s := term.run("SELECT 1 AS n;", "1 row in set")
	if strings.Contains(s, "seconds)") {
		t.Errorf("\\timing off still shows the time:\n%s", s)
	}
	term.keys(`\d ord`, "Tab")
	term.waitFor("the completed table", func(s string) bool { return strings.HasSuffix(lastLine(s), `\d orders`) })
	if s := term.run("", "| TRUE |"); !hasRow(s, "id", "INT", "TRUE", "", "", "") {
		t.Errorf("\\d orders does not describe the table:\n%s", s)
	}
	s = term.run("CREATE TABLE t (id INT, month INT);", "[ERROR]")
	if !strings.Contains(s, "Hint: month is a reserved word: quote it as `month` to use it as a name.") {
		t.Errorf("no hint for a reserved word:\n%s", s)
	}
	s = term.run("HELP;", "The following commands are available")
	if !strings.Contains(s, `\timing [on|off]`) {
		t.Errorf("HELP lacks the client commands:\n%s", s)
	}
}
