package repl

import (
	"os"
	"os/exec"
	"strings"

	"golang.org/x/term"
)

// defaultPager is the pager of a bounded answer taller than the screen
// when $PAGER is unset or empty: -F quits at once when the text fits, -R
// keeps colours, -S does not wrap long lines, -X leaves the text on the
// screen.
const defaultPager = "less -FRSX"

// ttyScreen is the terminal of an interactive shell whose input and
// output are both a terminal: the full-screen result views draw on it and
// long answers go through its pager.
type ttyScreen struct {
	sh      *Shell
	in, out *os.File
}

func (s *ttyScreen) Size() (width, height int) {
	w, h, err := term.GetSize(int(s.out.Fd()))
	if err != nil || w <= 0 || h <= 0 {
		return 80, 24
	}
	return w, h
}

// Open puts the terminal in raw mode (keys unechoed, one at a time, Ctrl-C
// a key) and hides the running statement's status line.
func (s *ttyScreen) Open() (func(), error) {
	state, err := term.MakeRaw(int(s.in.Fd()))
	if err != nil {
		return nil, err
	}
	resume := s.quiet()
	return func() {
		term.Restore(int(s.in.Fd()), state)
		resume()
	}, nil
}

// Page runs $PAGER (defaultPager when unset) through the shell, as psql
// does, with text on its input.
func (s *ttyScreen) Page(text string) error {
	pager := strings.TrimSpace(os.Getenv("PAGER"))
	if pager == "" {
		pager = defaultPager
	}
	defer s.quiet()()
	cmd := exec.Command("/bin/sh", "-c", pager)
	cmd.Stdin = strings.NewReader(text)
	cmd.Stdout = s.out
	cmd.Stderr = os.Stderr
	return cmd.Run()
}

// quiet stops the running statement's status line from drawing until the
// returned function is called.
func (s *ttyScreen) quiet() (resume func()) {
	p := s.sh.running()
	if p == nil {
		return func() {}
	}
	p.suspend()
	return p.resume
}
