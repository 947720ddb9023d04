package e2e

import (
	"strings"
	"testing"
)

// TestSetListsDefaults: `SET;` in a fresh session lists the options whose
// defaults shape every answer, with their effective values marked as
// defaults; a configured key is listed unmarked, and RESET brings the
// default back.
func TestSetListsDefaults(t *testing.T) {
	r := eddy(t, "", "--store", store(t), "-e", "SET;")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	for _, row := range [][]string{
		{"execution.runtime-mode", "streaming (default)"},
		// A script prints its queries as tableau.
		{"sql-client.execution.result-mode", "tableau (default)"},
		{"table.dml-sync", "false (default)"},
		{"eddy.exec.memory-budget", "256mb (default)"},
	} {
		if !hasRow(r.stdout, row...) {
			t.Errorf("a fresh SET; lacks %q:\n%s", row, r.stdout)
		}
	}
	in := "SET 'table.dml-sync' = 'true';\nSET;\nRESET 'table.dml-sync';\nSET;\n"
	r = eddy(t, in, "--store", store(t), "-D", "execution.runtime-mode=batch")
	set, reset, _ := strings.Cut(r.stdout, " in set")
	if r.code != 0 || !hasRow(set, "table.dml-sync", "true") || !hasRow(set, "execution.runtime-mode", "batch") ||
		!hasRow(reset, "table.dml-sync", "false (default)") || !hasRow(reset, "execution.runtime-mode", "batch") {
		t.Errorf("configured keys: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestPromptRuntimeMode: %m in the prompt shows the runtime mode, and at a
// terminal SET; shows the table result mode as the default.
func TestPromptRuntimeMode(t *testing.T) {
	vars, home := env(t)
	vars = append(vars, "TERM=xterm-256color")
	term := newTerminal(t, vars, "--store", home+"/store.db", "-D", "sql-client.display.prompt=%d [%m]> ")
	term.waitFor("the streaming prompt", func(s string) bool { return lastLine(s) == "default_database [streaming]>" })
	term.keys("SET;", "Enter")
	s := term.waitFor("the listing", func(s string) bool {
		return strings.Contains(s, " in set") && lastLine(s) == "default_database [streaming]>"
	})
	if !hasRow(s, "sql-client.execution.result-mode", "table (default)") {
		t.Errorf("SET; at a terminal:\n%s", s)
	}
	term.keys("SET 'execution.runtime-mode' = 'batch';", "Enter")
	term.waitFor("the batch prompt", func(s string) bool { return lastLine(s) == "default_database [batch]>" })
}
