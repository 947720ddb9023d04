package repl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sync/atomic"
	"syscall"

	"github.com/chzyer/readline"

	"eddy/conf"
	"eddy/repl/render"
)

// readlineSource reads lines at a terminal with editing, history (Up, Down,
// Ctrl-R) and Ctrl-C / Ctrl-D handling.
type readlineSource struct {
	rl     *readline.Instance
	closed atomic.Bool
}

func newReadlineSource(sh *Shell) (*readlineSource, error) {
	cfg := sh.cfg
	names, _ := sh.sess.(nameSource)
	rc := &readline.Config{
		HistoryFile:            cfg.HistoryFile,
		DisableAutoSaveHistory: true, // whole statements are saved, not lines
		HistorySearchFold:      true,
		Stdout:                 cfg.Out,
		Stderr:                 cfg.Out,
		AutoComplete:           &completer{names: names, pending: sh.pendingText},
	}
	if cfg.Color {
		// Highlighting follows sql-client.display.color-schema as it is now.
		rc.Painter = newHighlighter(sh.pendingText, sh.highlightOn)
	}
	if cfg.HistoryFile != "" && !prepareHistory(cfg.HistoryFile) {
		rc.HistoryFile = "" // a shell without saved history beats no shell
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

// optionReader is implemented by sessions that read one option cheaply
// (*engine.Session does); highlighting asks on every key.
type optionReader interface {
	Option(key string) string
}

// highlightOn reports whether sql-client.display.color-schema asks for
// highlighting now.
func (sh *Shell) highlightOn() bool {
	if r, ok := sh.sess.(optionReader); ok {
		return OptionsFromConfig(func(key string) (string, bool) {
			if key != conf.ColorSchema {
				return "", false
			}
			v := r.Option(key)
			return v, v != ""
		}).Highlight
	}
	return sh.sess.DisplayOptions().Highlight
}

// prepareHistory creates the history file's directory and the file itself,
// readable by its owner only: statements may hold passwords.
func prepareHistory(path string) bool {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return false
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return false
	}
	return f.Close() == nil
}

func (s *readlineSource) ReadLine(prompt string) (string, error) {
	s.rl.SetPrompt(prompt)
	line, err := s.rl.Readline()
	if errors.Is(err, readline.ErrInterrupt) {
		return "", errInterrupt
	}
	return line, err
}

// SaveHistory records a statement with its secrets masked (the history
// file outlives the session).
func (s *readlineSource) SaveHistory(entry string) { s.rl.SaveHistory(maskSecrets(entry)) }

// Close ends readline: a pending ReadLine returns io.EOF and leaves raw
// mode. It may be called from another goroutine, and more than once; only
// the first call does the work (readline's Close can wait for its input
// reader, and a second caller must not wait with it).
func (s *readlineSource) Close() error {
	if !s.closed.CompareAndSwap(false, true) {
		return nil
	}
	return s.rl.Close()
}

// runInteractive is Run at a terminal: the banner, then the loop with
// Ctrl-C routed to the running statement.
func (sh *Shell) runInteractive(ctx context.Context) int {
	src, err := newReadlineSource(sh)
	if err != nil {
		render.Problem(sh.cfg.Err, "%v", err)
		return 1
	}
	defer src.Close()
	fmt.Fprintf(sh.cfg.Out, "%s\n\n", render.Banner(sh.cfg.Version, sh.cfg.Remote))
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt)
	defer signal.Stop(sigs)
	sh.interrupts = sigs
	// SIGTERM and SIGHUP end the session cleanly: the running statement is
	// cancelled and the terminal leaves raw mode before eddy exits.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(stop)
	go func() {
		select {
		case <-stop:
			cancel()
			src.Close()
		case <-ctx.Done():
		}
	}()
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
