package repl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"

	"github.com/chzyer/readline"

	"eddy/repl/render"
)

// readlineSource reads lines at a terminal with editing, history (Up, Down,
// Ctrl-R) and Ctrl-C / Ctrl-D handling.
type readlineSource struct {
	rl *readline.Instance
}

func newReadlineSource(cfg Config) (*readlineSource, error) {
	rc := &readline.Config{
		HistoryFile:            cfg.HistoryFile,
		DisableAutoSaveHistory: true, // whole statements are saved, not lines
		HistorySearchFold:      true,
		Stdout:                 cfg.Out,
		Stderr:                 cfg.Out,
	}
	if cfg.HistoryFile != "" {
		if err := os.MkdirAll(filepath.Dir(cfg.HistoryFile), 0o700); err != nil {
			rc.HistoryFile = "" // a shell without saved history beats no shell
		}
	}
	if cfg.In != os.Stdin {
		rc.Stdin = io.NopCloser(cfg.In)
	}
	rl, err := readline.NewEx(rc)
	if err != nil {
		return nil, err
	}
	return &readlineSource{rl: rl}, nil
}

func (s *readlineSource) ReadLine(prompt string) (string, error) {
	s.rl.SetPrompt(prompt)
	line, err := s.rl.Readline()
	if errors.Is(err, readline.ErrInterrupt) {
		return "", errInterrupt
	}
	return line, err
}

func (s *readlineSource) SaveHistory(entry string) { s.rl.SaveHistory(entry) }

func (s *readlineSource) Close() error { return s.rl.Close() }

// runInteractive is Run at a terminal: the banner, then the loop with
// Ctrl-C routed to the running statement.
func (sh *Shell) runInteractive(ctx context.Context) int {
	src, err := newReadlineSource(sh.cfg)
	if err != nil {
		render.Problem(sh.cfg.Err, "%v", err)
		return 1
	}
	defer src.Close()
	fmt.Fprintf(sh.cfg.Out, "%s\n\n", render.Banner(sh.cfg.Version))
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt)
	defer signal.Stop(sigs)
	sh.interrupts = sigs
	return sh.runLines(ctx, src, true)
}

// execInterruptible runs a statement whose context Ctrl-C cancels. At the
// prompt the terminal is in raw mode and Ctrl-C reaches readline as a key;
// while a statement runs it arrives as SIGINT.
func (sh *Shell) execInterruptible(ctx context.Context, stmt string, w writers) render.Tag {
	if sh.interrupts == nil {
		return sh.exec(ctx, stmt, w.out, w.err, true)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	select { // a Ctrl-C from before this statement is not meant for it
	case <-sh.interrupts:
	default:
	}
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-sh.interrupts:
			cancel()
		case <-done:
		}
	}()
	return sh.exec(ctx, stmt, w.out, w.err, true)
}
