//go:build unix

package repl

import (
	"errors"
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
	"golang.org/x/term"
)

// newScreen returns the shell's screen, or nil when its input or its
// output is not a terminal.
func newScreen(sh *Shell) *ttyScreen {
	in, okIn := sh.cfg.In.(*os.File)
	out, okOut := sh.cfg.Out.(*os.File)
	if !okIn || !okOut || !term.IsTerminal(int(in.Fd())) || !term.IsTerminal(int(out.Fd())) {
		return nil
	}
	return &ttyScreen{sh: sh, in: in, out: out}
}

// ReadKeys waits for input with poll(2), so no read is left waiting on
// the terminal when the view ends: readline reads the next keys.
func (s *ttyScreen) ReadKeys(timeout time.Duration) ([]byte, error) {
	fds := []unix.PollFd{{Fd: int32(s.in.Fd()), Events: unix.POLLIN}}
	n, err := unix.Poll(fds, int(timeout.Milliseconds()))
	if errors.Is(err, syscall.EINTR) || n == 0 {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	buf := make([]byte, 256)
	n, err = unix.Read(int(s.in.Fd()), buf)
	if errors.Is(err, syscall.EINTR) || errors.Is(err, syscall.EAGAIN) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return buf[:n], nil
}
