package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// binary is the eddy executable built once for the process-level tests.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "eddy-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "eddy")
	// The main package is the module root, two directories up.
	build := exec.Command("go", "build", "-o", binary, "../..")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building eddy:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// env returns an environment whose home, XDG directories and eddy
// variables point into a fresh temporary directory, so no test reads or
// writes the machine's own configuration, store or history.
func env(t testing.TB) (vars []string, home string) {
	t.Helper()
	home = t.TempDir()
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case k == "HOME", k == "NO_COLOR", strings.HasPrefix(k, "XDG_"), strings.HasPrefix(k, "EDDY_"):
			continue
		}
		vars = append(vars, kv)
	}
	vars = append(vars,
		"HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(home, "config"),
		"XDG_DATA_HOME="+filepath.Join(home, "data"),
		"XDG_STATE_HOME="+filepath.Join(home, "state"),
	)
	return vars, home
}

type result struct {
	stdout, stderr string
	code           int
}

// eddy runs the binary with input on stdin.
func eddy(t *testing.T, input string, args ...string) result {
	t.Helper()
	vars, _ := env(t)
	return eddyEnv(t, vars, input, args...)
}

func eddyEnv(t testing.TB, vars []string, input string, args ...string) result {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = vars
	cmd.Stdin = strings.NewReader(input)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running eddy: %v", err)
	}
	return result{out.String(), errb.String(), code}
}

func store(t *testing.T) string { return filepath.Join(t.TempDir(), "store.db") }

func TestPipedSet(t *testing.T) {
	r := eddy(t, "SET 'a.b' = 'c';\nSET;\n", "--store", store(t))
	if r.code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	if !strings.HasPrefix(r.stdout, "[INFO] Execute statement succeeded.\n") {
		t.Errorf("no success line first:\n%s", r.stdout)
	}
	if !hasRow(r.stdout, "key", "value") || !hasRow(r.stdout, "a.b", "c") {
		t.Errorf("SET; does not list a.b = c in a key/value table:\n%s", r.stdout)
	}
	if r.stderr != "" {
		t.Errorf("stderr: %q", r.stderr)
	}
}

// hasRow reports whether out holds a table row "| cell | cell |" with
// exactly these cells.
func hasRow(out string, cells ...string) bool {
	for _, line := range strings.Split(out, "\n") {
		if !strings.HasPrefix(line, "|") || !strings.HasSuffix(line, "|") {
			continue
		}
		got := strings.Split(strings.Trim(line, "|"), "|")
		if len(got) != len(cells) {
			continue
		}
		match := true
		for i := range got {
			match = match && strings.TrimSpace(got[i]) == cells[i]
		}
		if match {
			return true
		}
	}
	return false
}

func TestPipedFailureStops(t *testing.T) {
	st := store(t)
	r := eddy(t, "SET 'a' = 'b';\nTHIS IS NOT SQL;\nSET 'c' = 'd';\n", "--store", st)
	if r.code != 1 {
		t.Errorf("exit %d, want 1", r.code)
	}
	if !strings.HasPrefix(r.stderr, "[ERROR] Could not execute SQL statement. Reason:\n") {
		t.Errorf("stderr:\n%s", r.stderr)
	}
	if n := strings.Count(r.stdout, "[INFO] Execute statement succeeded."); n != 1 {
		t.Errorf("%d statements ran before stopping, want 1:\n%s", n, r.stdout)
	}
	r = eddy(t, "SET 'a' = 'b';\nTHIS IS NOT SQL;\nSET 'c' = 'd'", "--store", st, "--keep-going")
	if r.code != 1 {
		t.Errorf("--keep-going: exit %d, want 1", r.code)
	}
	if n := strings.Count(r.stdout, "[INFO] Execute statement succeeded."); n != 2 {
		t.Errorf("--keep-going ran %d statements, want 2:\n%s", n, r.stdout)
	}
}

func TestExecAndInit(t *testing.T) {
	st := store(t)
	r := eddy(t, "", "--store", st, "-e", "SET 'x.y' = 'z'; SET")
	if r.code != 0 || !strings.Contains(r.stdout, "x.y") {
		t.Errorf("-e: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	dir := t.TempDir()
	init := filepath.Join(dir, "init.sql")
	if err := os.WriteFile(init, []byte("SET 'from.init' = 'yes';\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = eddy(t, "SET;\n", "--store", st, "-i", init)
	if r.code != 0 || !strings.Contains(r.stdout, "from.init") {
		t.Errorf("-i then stdin: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	script := filepath.Join(dir, "script.sql")
	if err := os.WriteFile(script, []byte("\uFEFFSET 'from.file' = 'yes';\nSET"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = eddy(t, "SET 'never' = 'read';\n", "--store", st, "-f", script)
	if r.code != 0 || !strings.Contains(r.stdout, "from.file") || strings.Contains(r.stdout, "never") {
		t.Errorf("-f: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

func TestDefines(t *testing.T) {
	r := eddy(t, "SET;\n", "--store", store(t), "-D", "my.key=my value", "-Dother.key=2")
	if r.code != 0 || !strings.Contains(r.stdout, "my value") || !strings.Contains(r.stdout, "other.key") {
		t.Errorf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

func TestUsageErrors(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.sql")
	for _, args := range [][]string{
		{"--no-such-flag"},
		{"-f", missing},
		{"-f", t.TempDir()},
		{"-i", t.TempDir()},
		{"-i", missing},
		{"--config", missing},
		{"stray-argument"},
		{"-D", "novalue"},
	} {
		r := eddy(t, "", args...)
		if r.code != 2 {
			t.Errorf("%q: exit %d, want 2", args, r.code)
		}
		if lines := strings.Count(r.stderr, "\n"); lines != 1 || !strings.HasPrefix(r.stderr, "eddy: ") {
			t.Errorf("%q: want a one-line error, got %q", args, r.stderr)
		}
	}
}

func TestVersionAndHelp(t *testing.T) {
	if r := eddy(t, "", "--version"); r.code != 0 || !regexp.MustCompile(`^eddy \d+\.\d+\.\d+\n$`).MatchString(r.stdout) {
		t.Errorf("--version: %d %q", r.code, r.stdout)
	}
	if r := eddy(t, "", "--help"); r.code != 0 || !strings.Contains(r.stdout, "--keep-going") {
		t.Errorf("--help: %d %q", r.code, r.stdout)
	}
}

func TestConfigFile(t *testing.T) {
	vars, home := env(t)
	dir := filepath.Join(home, "config", "eddy")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	yaml := "store: ./from-config.db\nconfiguration:\n  from.yaml: here\n"
	if err := os.WriteFile(filepath.Join(dir, "config.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	r := eddyEnv(t, vars, "SET;\n")
	if r.code != 0 || !strings.Contains(r.stdout, "from.yaml") {
		t.Errorf("default config not read: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "from-config.db")); err != nil {
		t.Errorf("store not created beside the configuration: %v", err)
	}
}

// TestStartupTime measures `eddy -e 'SET;'`, the answer a script waits for.
// BenchmarkStartup measures the built binary answering `eddy -e 'SET;'`
// on an existing store: process start, store open, one statement, exit.
func BenchmarkStartup(b *testing.B) {
	vars, _ := env(b)
	st := filepath.Join(b.TempDir(), "store.db")
	eddyEnv(b, vars, "", "--store", st, "-e", "SET;") // create the store
	for b.Loop() {
		if r := eddyEnv(b, vars, "", "--store", st, "-e", "SET;"); r.code != 0 {
			b.Fatalf("exit %d: %s", r.code, r.stderr)
		}
	}
}

// TestReadmeExample runs the piped example of README.md and compares the
// output with the text shown there, so the README shows real output.
func TestReadmeExample(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(data), "```console\n")
	if !ok {
		t.Fatal("README.md has no console example")
	}
	block, _, _ = strings.Cut(block, "```")
	command, want, _ := strings.Cut(block, "\n")
	const prefix, suffix = `$ printf "`, `" | eddy --store "$(mktemp -u)"`
	if !strings.HasPrefix(command, prefix) || !strings.HasSuffix(command, suffix) {
		t.Fatalf("example command not in the form %s...%s: %s", prefix, suffix, command)
	}
	input := strings.ReplaceAll(strings.TrimSuffix(strings.TrimPrefix(command, prefix), suffix), `\n`, "\n")
	r := eddy(t, input, "--store", store(t))
	if r.code != 0 || r.stdout != want {
		t.Errorf("README example: exit %d, output:\n%s\nREADME shows:\n%s%s", r.code, r.stdout, want, r.stderr)
	}
}

func TestPipedReset(t *testing.T) {
	r := eddy(t, "SET 'a.b' = 'c';\nSET 'x.y' = 'z';\nRESET 'a.b';\nSET;\nRESET;\nSET;\n", "--store", store(t))
	if r.code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	answers := strings.Split(strings.TrimSuffix(r.stdout, "\n\n"), "\n\n")
	if len(answers) != 6 {
		t.Fatalf("%d answers, want 6:\n%s", len(answers), r.stdout)
	}
	if hasRow(answers[3], "a.b", "c") || !hasRow(answers[3], "x.y", "z") {
		t.Errorf("SET; after RESET 'a.b':\n%s", answers[3])
	}
	if strings.Contains(answers[5], "x.y") {
		t.Errorf("SET; after RESET;:\n%s", answers[5])
	}
}

// TestIcebergNeedsItsBuild: the shell the tests build has no Apache
// Iceberg library (it is built without the tag iceberg); CREATE CATALOG of
// type 'iceberg' says how to get a shell that has it, and changes nothing.
func TestIcebergNeedsItsBuild(t *testing.T) {
	r := eddy(t, "CREATE CATALOG ice WITH ('type' = 'iceberg', 'catalog-type' = 'rest', 'uri' = 'http://127.0.0.1:1');\nSHOW CATALOGS;\n",
		"--store", store(t), "--keep-going")
	if !strings.Contains(r.stderr, "Catalog type 'iceberg' is not in this eddy: it is built with the tag iceberg") {
		t.Errorf("stderr:\n%s", r.stderr)
	}
	if strings.Contains(r.stdout, "ice ") || r.code == 0 {
		t.Errorf("exit %d, stdout:\n%s", r.code, r.stdout)
	}
}
