package repl

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"os"
	"os/signal"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"eddy/engine"
	"eddy/repl/render"
)

// Group commit of piped scripts. A script piped into the shell is mostly
// INSERT ... VALUES statements; the engine can run consecutive ones inside
// one shared store transaction (engine.Session.ExecuteDeferred). The shell
// then holds their answers and prints them, in order, only once the shared
// commit succeeded: every answer printed is durable, and a crash loses only
// statements whose answer never appeared — as if they had not been read.
// The shell commits when the next statement cannot join, when reading the
// next line could wait for the writer of the pipe (an interactive pipe sees
// each answer at once), after groupMaxStatements statements or
// groupMaxWait (other writers of the store wait no longer), at the end of
// the input and before a failure stops the script. A terminal session
// never groups.

// deferredSession is a session that can hold statements in a shared
// transaction (*engine.Session, through FromEngine).
type deferredSession interface {
	ExecuteDeferred(ctx context.Context, sql string) (res *engine.Result, deferred bool, err error)
	CommitDeferred(ctx context.Context) error
}

// The bounds of one shared transaction.
const (
	groupMaxStatements = 1000
	groupMaxWait       = 20 * time.Millisecond
)

// errStopped is what a statement gets when the commit before it failed
// and the script stops: it never ran, and nothing of it is printed.
var errStopped = errors.New("the script stopped before this statement")

// heldAnswer is the answer of a statement waiting for the shared commit.
type heldAnswer struct {
	out, err bytes.Buffer
	failed   bool
}

// grouper holds the answers of deferred statements (one piped run).
type grouper struct {
	sh      *Shell
	ds      deferredSession
	w       writers // the run's real writers
	held    []*heldAnswer
	started time.Time // when the first held statement ran
	// The statement running now: its answer goes to cur when holding,
	// nowhere when discard, else straight to w.
	cur     *heldAnswer
	holding bool
	discard bool
	// opt are the display options of the held statements (optOK).
	opt   render.Options
	optOK bool
	// open is set while answers are held; signal is the SIGINT or
	// SIGTERM that arrived meanwhile (see watchSignals).
	open   atomic.Bool
	signal atomic.Value // os.Signal
}

// newGrouper returns the grouper of a piped run, or nil when the session
// cannot defer statements.
func (sh *Shell) newGrouper(w writers) *grouper {
	ds, ok := sh.sess.(deferredSession)
	if !ok {
		return nil
	}
	return &grouper{sh: sh, ds: ds, w: w}
}

// groupingSession is the shell's session while a grouper runs: Execute
// tries the shared transaction first.
type groupingSession struct {
	Session
	g *grouper
}

func (s groupingSession) Execute(ctx context.Context, sql string) (*engine.Result, error) {
	g := s.g
	res, held, err := g.ds.ExecuteDeferred(ctx, sql)
	if errors.Is(err, engine.ErrCommitFirst) {
		if !g.commit(ctx) && !g.sh.cfg.KeepGoing {
			g.discard = true
			return nil, errStopped
		}
		res, held, err = g.ds.ExecuteDeferred(ctx, sql)
	}
	g.holding = held
	return res, err
}

// OptionIsSet forwards to the session (see optionSetter).
func (s groupingSession) OptionIsSet(key string) bool {
	o, ok := s.Session.(optionSetter)
	return ok && o.OptionIsSet(key)
}

// DisplayOptions keeps the options read for a held statement: held
// statements are INSERTs, which change no option, and any other statement
// reads them again.
func (s groupingSession) DisplayOptions() render.Options {
	g := s.g
	if g.optOK {
		return g.opt
	}
	opt := s.Session.DisplayOptions()
	if g.holding {
		g.opt, g.optOK = opt, true
	}
	return opt
}

// holdWriter is one of the streams exec writes a statement's answer to.
type holdWriter struct {
	g     *grouper
	isErr bool
}

func (h holdWriter) target() *bufio.Writer {
	if h.isErr {
		return h.g.w.err
	}
	return h.g.w.out
}

func (h holdWriter) Write(p []byte) (int, error) {
	switch {
	case h.g.discard:
		return len(p), nil
	case h.g.holding:
		if h.isErr {
			return h.g.cur.err.Write(p)
		}
		return h.g.cur.out.Write(p)
	}
	return h.target().Write(p)
}

func (h holdWriter) WriteString(s string) (int, error) { return h.Write([]byte(s)) }

// Flush flushes the real stream unless the answer is held.
func (h holdWriter) Flush() error {
	if h.g.holding || h.g.discard {
		return nil
	}
	return h.target().Flush()
}

// runOne runs a statement of the piped run and reports whether it
// succeeded (a held statement: whether it ran without error; the commit's
// outcome comes later).
func (g *grouper) runOne(ctx context.Context, stmt string) bool {
	sh := g.sh
	if clientCommand(stmt) != "" || isSourceCommand(stmt) {
		// Client commands answer at once, after the answers before them.
		// SOURCE may change options.
		g.optOK = false
		if !g.commit(ctx) && !sh.cfg.KeepGoing {
			return false
		}
		return sh.runOne(ctx, stmt, g.w, false)
	}
	g.cur, g.holding, g.discard = &heldAnswer{}, false, false
	saved := sh.sess
	sh.sess = groupingSession{Session: saved, g: g}
	tag := sh.exec(ctx, stmt, holdWriter{g: g}, holdWriter{g: g, isErr: true}, false)
	sh.sess = saved
	held, discarded := g.holding, g.discard
	g.holding, g.discard = false, false
	if discarded {
		return false
	}
	failed := tag == render.TagError
	if !held {
		g.optOK = false
		if failed {
			g.w.out.Flush()
			g.w.err.WriteString("\n")
		} else if !sh.bare {
			g.w.out.WriteString("\n")
		}
		g.w.flush()
		return !failed
	}
	h := g.cur
	h.failed = failed
	if failed {
		h.err.WriteString("\n")
	} else if !sh.bare {
		h.out.WriteString("\n")
	}
	if len(g.held) == 0 {
		g.started = time.Now()
		g.open.Store(true)
	}
	g.held = append(g.held, h)
	if failed && !sh.cfg.KeepGoing {
		// The script stops here: what ran before is committed and
		// answered, then this statement's error.
		g.commit(ctx)
		return false
	}
	if len(g.held) >= groupMaxStatements || time.Since(g.started) >= groupMaxWait || g.signal.Load() != nil {
		if !g.commit(ctx) {
			return false
		}
	}
	return !failed
}

// pending reports whether answers are held.
func (g *grouper) pending() bool { return len(g.held) > 0 }

// commit commits the shared transaction and prints the held answers in
// order; when the commit fails, each held statement that had succeeded
// reports the failure instead (none of them was stored). It reports
// whether the commit succeeded.
func (g *grouper) commit(ctx context.Context) bool {
	err := g.ds.CommitDeferred(ctx)
	opt := g.sh.options(false, time.Time{})
	for _, h := range g.held {
		if err != nil && !h.failed {
			g.w.out.Flush()
			render.Error(g.w.err, err, opt)
			g.w.err.WriteString("\n")
			g.w.err.Flush()
			continue
		}
		if h.out.Len() > 0 {
			g.w.out.Write(h.out.Bytes())
		}
		if h.err.Len() > 0 {
			g.w.out.Flush()
			g.w.err.Write(h.err.Bytes())
			g.w.err.Flush()
		}
	}
	g.w.flush()
	clear(g.held)
	g.held = g.held[:0]
	g.open.Store(false)
	g.dieIfSignalled()
	return err == nil
}

// mayBeClientCommand is the cheap first test of clientCommand and
// sourceCommand, which tokenize: their statements start with one of their
// words or a comment.
func mayBeClientCommand(stmt string) bool {
	s := strings.TrimLeft(stmt, " \t\r\n")
	if s == "" {
		return true
	}
	switch s[0] | 0x20 {
	case 'h', 'q', 'e', 'c', 's', '-' | 0x20, '/' | 0x20:
		return true
	}
	return false
}

func isSourceCommand(stmt string) bool {
	_, ok := sourceCommand(stmt)
	return ok
}

// lineReady reports whether a whole line is already buffered, so that
// reading it cannot wait for the writer of the input.
func (s *plainSource) lineReady() bool {
	n := s.r.Buffered()
	if n == 0 {
		return false
	}
	b, _ := s.r.Peek(n)
	return bytes.IndexByte(b, '\n') >= 0
}

// watchSignals makes SIGINT and SIGTERM commit and answer the held
// statements before eddy ends as the signal ends it; with nothing held
// the signal ends it at once, as without grouping. stop ends the watch.
func (g *grouper) watchSignals() (stop func()) {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-sigs:
			g.signal.Store(sig)
			// Either this sees the answers held and the loop ends eddy
			// after its commit, or the loop has committed and this does.
			if !g.open.Load() {
				g.die(sig)
			}
		case <-done:
		}
	}()
	return func() {
		signal.Stop(sigs)
		close(done)
	}
}

// dieIfSignalled ends eddy when a signal came while answers were held
// (they have been committed and printed by now).
func (g *grouper) dieIfSignalled() {
	if sig, ok := g.signal.Load().(os.Signal); ok {
		g.die(sig)
	}
}

// die ends the process by sig, with the signal's own exit status.
func (g *grouper) die(sig os.Signal) {
	g.w.flush()
	signal.Reset(os.Interrupt, syscall.SIGTERM)
	if s, ok := sig.(syscall.Signal); ok {
		_ = syscall.Kill(os.Getpid(), s)
	}
	// The signal is delivered asynchronously; nothing runs meanwhile.
	for {
		time.Sleep(time.Second)
	}
}
