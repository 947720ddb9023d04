package main

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
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed; the terminal tests need it (.ci/run installs it)")
	}
	term := &terminal{t: t, socket: fmt.Sprintf("eddy-test-%d-%d", os.Getpid(), time.Now().UnixNano()), name: "eddy"}
	// The shell command runs eddy with the test's environment.
	quoted := make([]string, 0, len(vars)+len(args)+2)
	quoted = append(quoted, "env", "-i")
	for _, v := range vars {
		quoted = append(quoted, shellQuote(v))
	}
	quoted = append(quoted, shellQuote(binary))
	for _, a := range args {
		quoted = append(quoted, shellQuote(a))
	}
	term.tmux("new-session", "-d", "-x", "200", "-y", "50", "-s", term.name, strings.Join(quoted, " "))
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
		case "Enter", "Up", "Down", "C-c", "C-d":
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
	if !strings.Contains(s, "eddy "+version) || !strings.Contains(s, "HELP;") {
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
