package gateway_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"eddy/engine"
	"eddy/engine/gateway"
	"eddy/repl"
	"eddy/repl/render"
)

// optioner is what both sessions give the shell's display options from.
type optioner interface {
	Option(key string) string
}

// shellSession adapts a session to the shell the way main does: display
// options come from the session's configuration.
type shellSession struct {
	executor
	optioner
	prompt func() (string, string)
}

func (s shellSession) Prompt() (string, string) { return s.prompt() }

func (s shellSession) DisplayOptions() render.Options {
	return repl.OptionsFromConfig(func(key string) (string, bool) {
		v := s.Option(key)
		return v, v != ""
	})
}

var _ repl.Session = shellSession{}

func remoteShell(s *gateway.Session) shellSession {
	return shellSession{executor: s, optioner: s, prompt: s.Prompt}
}

func localShell(s *engine.Session) shellSession {
	return shellSession{executor: s, optioner: s, prompt: s.Prompt}
}

// runShell pipes a script through the shell, as `eddy < script` does, and
// returns what it printed on stdout and stderr and its exit status.
func runShell(sess repl.Session, script string) (string, string, int) {
	var out, errw bytes.Buffer
	sh := repl.New(sess, repl.Config{In: strings.NewReader(script), Out: &out, Err: &errw})
	code := sh.Run(context.Background())
	return out.String(), errw.String(), code
}

// TestShellOverGateway runs remote mode's acceptance script through the
// shell on the real gateway: SHOW CATALOGS, a view, a query over VALUES. The
// output must be laid out as in local mode.
func TestShellOverGateway(t *testing.T) {
	needGateway(t)
	props := map[string]string{"execution.runtime-mode": "batch", "sql-client.execution.result-mode": "tableau"}
	remote := openRemote(t, props)
	script := "SHOW CATALOGS;\nCREATE VIEW v AS SELECT 1 AS a;\nSHOW VIEWS;\nSELECT * FROM (VALUES (1, 'a')) AS t(x, y);\nSELECT * FROM nosuch;\n"
	out, errs, code := runShell(remoteShell(remote), script)
	// Flink's answers, in the layout the local shell prints.
	want := "+-----------------+\n|    catalog name |\n+-----------------+\n| default_catalog |\n+-----------------+\n1 row in set\n\n" +
		"[INFO] Execute statement succeeded.\n\n" +
		"+-----------+\n| view name |\n+-----------+\n|         v |\n+-----------+\n1 row in set\n\n" +
		"+---+---+\n| x | y |\n+---+---+\n| 1 | a |\n+---+---+\n1 row in set\n\n"
	if out != want {
		t.Errorf("remote stdout:\n%s\nwant:\n%s", out, want)
	}
	wantErr := "[ERROR] Could not execute SQL statement. Reason:\nSqlValidatorException: Object 'nosuch' not found\n"
	if !strings.HasPrefix(errs, wantErr) || code != 1 {
		t.Errorf("remote stderr (exit %d):\n%s\nwant:\n%s", code, errs, wantErr)
	}

	// The local shell prints the statements it can already run the same way.
	local := openLocal(t)
	for k, v := range props {
		if _, err := local.Execute(context.Background(), "SET '"+k+"' = '"+v+"'"); err != nil {
			t.Fatal(err)
		}
	}
	lout, _, _ := runShell(localShell(local), "SHOW CATALOGS;\nCREATE VIEW v AS SELECT 1 AS a;\nSHOW VIEWS;\n")
	if !strings.HasPrefix(out, lout) {
		t.Errorf("local stdout:\n%s\nremote stdout:\n%s", lout, out)
	}
}
