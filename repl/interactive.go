package repl

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/chzyer/readline"

	"eddy/conf"
	"eddy/engine"
	"eddy/repl/render"
)

// readlineSource reads lines at a terminal with editing, history (Up, Down,
// Ctrl-R) and Ctrl-C / Ctrl-D handling.
type readlineSource struct {
	rl     *readline.Instance
	out    io.Writer
	closed atomic.Bool

	// asyncMu guards prompting (ReadLine is waiting for a line) and held
	// (messages that arrived while a statement ran).
	asyncMu   sync.Mutex
	prompting bool
	held      []byte
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
		AutoComplete:           &completer{names: names, pending: sh.pendingText, jobs: sh.runningJobIDs},
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
	// One Ctrl-C clears the line even when a completion list is open
	// (readline's own Ctrl-C would only close the list). The filter runs
	// on readline's goroutine, the one that owns the line, and only once
	// ReadLine has been called, after rl is set.
	var rl *readline.Instance
	rc.FuncFilterInputRune = func(r rune) (rune, bool) {
		if r == readline.CharInterrupt && rl != nil && rl.Operation.IsInCompleteMode() {
			rl.Operation.ExitCompleteMode(true)
		}
		return r, true
	}
	rl, err := readline.NewEx(rc)
	if err != nil {
		return nil, err
	}
	return &readlineSource{rl: rl, out: cfg.Out}, nil
}

// asyncWriter writes the messages that arrive on other goroutines (a
// background job's failure). At the prompt readline clears the prompt and
// the line being typed, the message is written, and both are drawn again
// under it. While a statement runs the message waits and is written after
// the statement's answer, before the next prompt.
type asyncWriter struct {
	src *readlineSource
}

func (a asyncWriter) Write(b []byte) (int, error) {
	s := a.src
	s.asyncMu.Lock()
	defer s.asyncMu.Unlock()
	if !s.prompting {
		s.held = append(s.held, b...)
		return len(b), nil
	}
	return s.rl.Stdout().Write(b)
}

// reportJobsAtPrompt sends background job failures through readline, so
// they never land in a statement's answer and the prompt is redrawn after
// them.
func (sh *Shell) reportJobsAtPrompt(src *readlineSource) {
	j, ok := sh.sess.(jobSession)
	if !ok {
		return
	}
	opt := sh.sess.DisplayOptions()
	w := asyncWriter{src: src}
	j.SetJobFailureHandler(func(info engine.JobInfo) {
		var b bytes.Buffer
		render.JobFailed(&b, info.ID, info.Name, info.Err, opt)
		w.Write(b.Bytes())
	})
}

// jobLister is implemented by sessions that run jobs themselves
// (*engine.Session does).
type jobLister interface {
	Jobs() []engine.JobInfo
}

// runningJobIDs returns the ids of the session's running jobs, for
// completion after STOP JOB '.
func (sh *Shell) runningJobIDs() []string {
	l, ok := sh.sess.(jobLister)
	if !ok {
		return nil
	}
	var ids []string
	for _, j := range l.Jobs() {
		if j.Status == engine.JobRunning {
			ids = append(ids, j.ID)
		}
	}
	return ids
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
	s.asyncMu.Lock()
	if len(s.held) > 0 {
		s.out.Write(s.held)
		s.held = nil
	}
	s.prompting = true
	s.asyncMu.Unlock()
	line, err := s.rl.Readline()
	s.asyncMu.Lock()
	s.prompting = false
	s.asyncMu.Unlock()
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
	sh.reportJobsAtPrompt(src)
	if scr := newScreen(sh); scr != nil {
		sh.screen = scr
		defer func() { sh.screen = nil }()
	}
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
