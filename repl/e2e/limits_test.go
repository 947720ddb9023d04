package e2e

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// maxRSS is the most memory eddy may hold while refusing endless input.
const maxRSS = 512 << 20

// repeatReader yields unit again and again until n bytes were read.
type repeatReader struct {
	unit []byte
	n    int64
	off  int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n <= 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > r.n {
		p = p[:r.n]
	}
	w := 0
	for w < len(p) {
		c := copy(p[w:], r.unit[r.off:])
		w += c
		r.off = (r.off + c) % len(r.unit)
	}
	r.n -= int64(w)
	return w, nil
}

// bounded runs eddy with stdin and args, and returns its combined output,
// its exit status and the most memory it held (bytes).
func bounded(t *testing.T, stdin io.Reader, args ...string) (string, int, int64) {
	t.Helper()
	vars, _ := env(t)
	cmd := exec.Command(binary, args...)
	cmd.Env = vars
	cmd.Stdin = stdin
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running eddy: %v", err)
	}
	var rss int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = ru.Maxrss << 10 // kilobytes on Linux
	}
	for _, s := range crashSigns {
		if strings.Contains(out.String(), s) {
			t.Fatalf("eddy crashed (%q):\n%.2000s", s, out.String())
		}
	}
	return out.String(), code, rss
}

// TestEndlessInput: input that never ends a statement (3 GB piped without
// a ';', -f, -i, SOURCE and --config on /dev/zero) is a clear error with
// bounded memory, not a crash when memory runs out.
func TestEndlessInput(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	const tooLong = "The statement is longer than 16 MiB"
	for _, c := range []struct {
		name  string
		stdin func() io.Reader
		args  []string
		code  int
		want  string
	}{
		{"3 GB piped without ';'", func() io.Reader { return &repeatReader{unit: []byte("SELECT 1\n"), n: 3 << 30} },
			nil, 1, tooLong},
		{"-f /dev/zero", func() io.Reader { return strings.NewReader("") }, []string{"-f", "/dev/zero"}, 1, tooLong},
		{"SOURCE '/dev/zero'", func() io.Reader { return strings.NewReader("SOURCE '/dev/zero';\nSELECT 1;\n") },
			nil, 1, tooLong},
		{"-i /dev/zero", func() io.Reader { return strings.NewReader("") }, []string{"-i", "/dev/zero"}, 2,
			"/dev/zero: the file is larger than 64 MiB"},
		{"--config /dev/zero", func() io.Reader { return strings.NewReader("SELECT 1;\n") }, []string{"--config", "/dev/zero"}, 2,
			"/dev/zero: the configuration file is larger than 32 MiB"},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{"--store", store(t)}, c.args...)
			out, code, rss := bounded(t, c.stdin(), args...)
			if code != c.code || !strings.Contains(out, c.want) {
				t.Errorf("exit %d, want %d with %q:\n%.2000s", code, c.code, c.want, out)
			}
			if len(out) > 1000 {
				t.Errorf("the error is %d bytes long", len(out))
			}
			if rss > maxRSS {
				t.Errorf("eddy held %d MiB", rss>>20)
			}
			t.Logf("max RSS %d MiB", rss>>20)
		})
	}
}

// TestLongBadStatement: a bad statement of 10 MB quotes at most the start
// of its offending token; one of 50 MB is refused by its length. Both
// errors are short.
func TestLongBadStatement(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []int{10 << 20, 50 << 20} {
		path := filepath.Join(dir, "bad.sql")
		if err := os.WriteFile(path, []byte("SELECT 1 '"+strings.Repeat("a", n)+"';\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		out, code, rss := bounded(t, strings.NewReader(""), "--store", store(t), "-f", path)
		if code != 1 || !strings.Contains(out, "[ERROR]") || len(out) > 1000 {
			t.Errorf("%d MiB: exit %d, %d bytes of output:\n%.2000s", n>>20, code, len(out), out)
		}
		if rss > maxRSS {
			t.Errorf("%d MiB: eddy held %d MiB", n>>20, rss>>20)
		}
		t.Logf("%d MiB statement: max RSS %d MiB", n>>20, rss>>20)
	}
}
