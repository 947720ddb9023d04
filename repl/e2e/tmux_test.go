package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// terminal is eddy running in a real terminal: a tmux session on a private
// server socket.
type terminal struct {
	t      *testing.T
	socket string
	name   string
}

func newTerminal(t *testing.T, vars []string, args ...string) *terminal {
	t.Helper()
	// The shell command runs eddy with the test's environment only.
	cmd := append([]string{"env", "-i"}, quoteAll(append(append(vars, binary), args...))...)
	return newTerminalCmd(t, strings.Join(cmd, " "))
}

// newTerminalCmd starts a shell command in a 200x50 tmux terminal.
func newTerminalCmd(t *testing.T, command string) *terminal {
	t.Helper()
	return newTerminalSize(t, 200, 50, command)
}

// newTerminalSize starts a shell command in a tmux terminal of the given
// size.
func newTerminalSize(t *testing.T, width, height int, command string) *terminal {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed; the terminal tests need it (.ci/run installs it)")
	}
	term := &terminal{t: t, socket: fmt.Sprintf("eddy-test-%d-%d", os.Getpid(), time.Now().UnixNano()), name: "eddy"}
	term.tmux("new-session", "-d", "-x", fmt.Sprint(width), "-y", fmt.Sprint(height), "-s", term.name, command)
	t.Cleanup(func() { exec.Command("tmux", "-L", term.socket, "kill-server").Run() })
	return term
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func (term *terminal) tmux(args ...string) string {
	term.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", term.socket}, args...)...).CombinedOutput()
	if err != nil {
		term.t.Fatalf("tmux %q: %v\n%s", args, err, out)
	}
	return string(out)
}

// keys types into the terminal; tmux key names (Enter, Up, C-c) are keys,
// anything else is literal text.
func (term *terminal) keys(keys ...string) {
	term.t.Helper()
	for _, k := range keys {
		switch k {
		case "Enter", "Up", "Down", "C-c", "C-d", "Tab":
			term.tmux("send-keys", "-t", term.name, k)
		default:
			// tmux reads an argument ending in ';' as a command separator.
			if strings.HasSuffix(k, ";") {
				k = strings.TrimSuffix(k, ";") + `\;`
			}
			term.tmux("send-keys", "-t", term.name, "-l", k)
		}
	}
}

func (term *terminal) screen() string {
	term.t.Helper()
	return term.tmux("capture-pane", "-p", "-t", term.name)
}

// waitFor polls the screen until ok accepts it, or fails after a deadline.
// atPrompt waits for the default prompt, then types each statement and
// waits for its answer and the next prompt.
func (term *terminal) atPrompt(stmts ...string) {
	prompt := func(s string) bool { return strings.HasSuffix(lastLine(s), "default_database>") }
	term.waitFor("the prompt", prompt)
	for _, stmt := range stmts {
		term.keys(stmt, "Enter")
		term.waitFor("the answer to "+stmt, func(s string) bool {
			return strings.Contains(s, stmt) && prompt(s) && !strings.HasSuffix(lastLine(s), stmt)
		})
	}
}

func (term *terminal) waitFor(what string, ok func(screen string) bool) string {
	term.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		s := term.screen()
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			term.t.Fatalf("timed out waiting for %s; the screen:\n%s", what, s)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// lastLine returns the last non-empty line of a screen.
func lastLine(screen string) string {
	lines := strings.Split(strings.TrimRight(screen, "\n "), "\n")
	return lines[len(lines)-1]
}

func TestTerminal(t *testing.T) {
	vars, home := env(t)
	vars = append(vars, "TERM=xterm-256color")
	st := filepath.Join(home, "store.db")
	term := newTerminal(t, vars, "--store", st)
	const prompt = "default_catalog.default_database> "

	s := term.waitFor("the prompt", func(s string) bool { return strings.HasSuffix(lastLine(s), strings.TrimSpace(prompt)) })
	if !strings.Contains(s, "eddy ") || !strings.Contains(s, "HELP;") {
		t.Errorf("no banner:\n%s", s)
	}

	// A statement over two lines: the second line gets the continuation prompt.
	term.keys("SET 'demo.key'", "Enter")
	term.waitFor("the continuation prompt", func(s string) bool { return strings.HasSuffix(lastLine(s), "->") })
	term.keys("  = 'demo-value';", "Enter")
	term.waitFor("the answer", func(s string) bool { return strings.Contains(s, "[INFO] Execute statement succeeded.") })
	term.waitFor("a fresh prompt", func(s string) bool { return lastLine(s) == strings.TrimSpace(prompt) })

	// Up recalls the whole statement as one history entry.
	term.keys("Up")
	term.waitFor("the recalled statement", func(s string) bool {
		return strings.HasSuffix(lastLine(s), "SET 'demo.key' = 'demo-value';")
	})
	// Ctrl-C clears the line and the shell stays.
	term.keys("C-c")
	term.waitFor("a cleared prompt", func(s string) bool { return lastLine(s) == strings.TrimSpace(prompt) })
	term.keys("SET;", "Enter")
	s = term.waitFor("the SET; table", func(s string) bool { return strings.Contains(s, " in set") })
	if !strings.Contains(s, "demo.key") || !strings.Contains(s, "demo-value") {
		t.Errorf("SET; after Ctrl-C lacks the option:\n%s", s)
	}
	term.waitFor("a fresh prompt", func(s string) bool { return lastLine(s) == strings.TrimSpace(prompt) })

	// Errors are bold red at a colour terminal.
	term.keys("THIS IS NOT SQL;", "Enter")
	term.waitFor("the error", func(s string) bool { return strings.Contains(s, "[ERROR] Could not execute SQL statement.") })
	if line := errorLine(term.tmux("capture-pane", "-e", "-p", "-t", term.name)); !strings.Contains(line, "\x1b[") {
		t.Errorf("the error line is not coloured: %q", line)
	}
	term.waitFor("a fresh prompt", func(s string) bool { return lastLine(s) == strings.TrimSpace(prompt) })

	// CLEAR empties the screen.
	term.keys("CLEAR;", "Enter")
	term.waitFor("a cleared screen", func(s string) bool {
		return !strings.Contains(s, "eddy ") && lastLine(s) == strings.TrimSpace(prompt)
	})

	// Ctrl-D on an empty line ends the shell, and with it the tmux session.
	term.keys("C-d")
	deadline := time.Now().Add(10 * time.Second)
	for exec.Command("tmux", "-L", term.socket, "has-session", "-t", term.name).Run() == nil {
		if time.Now().After(deadline) {
			t.Fatalf("eddy still running after Ctrl-D:\n%s", term.screen())
		}
		time.Sleep(20 * time.Millisecond)
	}
	hist, err := os.ReadFile(filepath.Join(home, "state", "eddy", "history"))
	if err != nil || !strings.Contains(string(hist), "SET 'demo.key' = 'demo-value';") {
		t.Errorf("history file: %v\n%s", err, hist)
	}
}

// TestTerminalSigterm stops eddy with SIGTERM at the prompt: it exits and
// leaves the terminal out of raw mode for the shell that started it.
func TestTerminalSigterm(t *testing.T) {
	vars, home := env(t)
	vars = append(vars, "TERM=xterm-256color")
	st := filepath.Join(home, "store.db")
	script := fmt.Sprintf("%s; echo exit=$?; stty -a | tr ' ;' '\\n\\n' | grep -x -- '-\\{0,1\\}icanon'; sleep 60",
		strings.Join(append([]string{"env", "-i"}, quoteAll(append(vars, binary, "--store", st))...), " "))
	term := newTerminalCmd(t, "sh -c "+shellQuote(script))
	term.waitFor("the prompt", func(s string) bool { return strings.Contains(s, "default_database>") })
	shell := strings.TrimSpace(term.tmux("display", "-p", "-t", term.name, "#{pane_pid}"))
	children, err := os.ReadFile(fmt.Sprintf("/proc/%s/task/%s/children", shell, shell))
	if err != nil || len(strings.Fields(string(children))) != 1 {
		t.Skipf("cannot find eddy's process under the pane's shell: %v %q", err, children)
	}
	pid := strings.Fields(string(children))[0]
	if err := exec.Command("kill", "-TERM", pid).Run(); err != nil {
		t.Fatal(err)
	}
	s := term.waitFor("eddy to exit", func(s string) bool { return strings.Contains(s, "icanon") })
	if !strings.Contains(s, "exit=0") || strings.Contains(s, "-icanon") {
		t.Errorf("after SIGTERM the terminal is still raw or eddy failed:\n%s", s)
	}
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = shellQuote(s)
	}
	return out
}

// errorLine returns the line of a captured screen that holds "[ERROR]".
func errorLine(screen string) string {
	for _, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, "[ERROR]") {
			return l
		}
	}
	return ""
}

// TestTerminalNoColor: NO_COLOR turns the colours off.
func TestTerminalNoColor(t *testing.T) {
	vars, home := env(t)
	vars = append(vars, "TERM=xterm-256color", "NO_COLOR=1")
	term := newTerminal(t, vars, "--store", filepath.Join(home, "store.db"))
	term.waitFor("the prompt", func(s string) bool { return strings.Contains(s, "default_database>") })
	term.keys("THIS IS NOT SQL;", "Enter")
	term.waitFor("the error", func(s string) bool { return strings.Contains(s, "[ERROR] Could not execute SQL statement.") })
	if line := errorLine(term.tmux("capture-pane", "-e", "-p", "-t", term.name)); strings.Contains(line, "\x1b[") {
		t.Errorf("coloured despite NO_COLOR: %q", line)
	}
}
