package repl

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"eddy/engine"
	"eddy/repl/render"
)

// Group commit of piped scripts. A script piped into the shell is mostly
// INSERT ... VALUES statements; the engine can run consecutive ones inside
// one shared store transaction: the shell runs a piped script's statements
// in a write group of the session (engine.Session.BeginGroup), whose
// Execute says which statements it holds. The shell then holds their
// answers and prints them, in order, only once the group's commit
// succeeded: every answer printed is durable, and a crash loses only
// statements whose answer never appeared — as if they had not been read.
// The shell commits when the next statement cannot join, when reading the
// next line could wait for the writer of the pipe (an interactive pipe
// sees each answer at once), after groupMaxStatements statements or
// groupMaxWait (other writers of the store wait no longer), at the end of
// the input and before a failure stops the script. A terminal session
// never groups.
//
// SIGINT and SIGTERM are caught only while answers are held: the shell
// then commits and prints them, stops reading and reports the signal
// (Shell.Signal), for main to end eddy by it. With nothing held a signal
// ends eddy at once, as it does any program.

// Group is a write group of a session (*engine.Group).
type Group interface {
	// Execute runs one statement in the group's transaction mode; held
	// reports that its answer waits for Commit. engine.ErrCommitFirst
	// refuses a statement that cannot join the open transaction.
	Execute(ctx context.Context, sql string) (res *engine.Result, held bool, err error)
	// Commit commits the group's transaction; an error means that none of
	// its statements was stored.
	Commit(ctx context.Context) error
}

// groupingSession is a session that runs statements in write groups.
type groupingSession interface {
	BeginGroup() Group
}

// BeginGroup returns a write group of the engine's session.
func (s engineSession) BeginGroup() Group { return s.Session.BeginGroup() }

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

// grouper runs the statements of one piped run in a write group and holds
// the answers of the statements the group holds. It is the statement
// runner (stmtRunner) of those statements.
type grouper struct {
	sh    *Shell
	grp   Group
	w     writers // the run's real writers
	held  []*heldAnswer
	spare []*heldAnswer // printed answers, to hold again
	// outw and errw are the streams a statement's answer is written to.
	outw, errw *holdWriter
	started    time.Time // when the first held statement ran
	// The statement running now: its answer goes to cur when holding,
	// nowhere when discard, else straight to w.
	cur     *heldAnswer
	holding bool
	discard bool
	// opt are the display options of the held statements (optOK), and
	// shown what the shell makes of them for their answers (Shell.optionsOf).
	opt, shown render.Options
	optOK      bool
	// sigs receives SIGINT and SIGTERM while answers are held; sig is
	// the one that arrived.
	sigs chan os.Signal
	sig  os.Signal
}

// newGrouper returns the grouper of a piped run, or nil when the session
// has no write groups.
func (sh *Shell) newGrouper(w writers) *grouper {
	gs, ok := sh.sess.(groupingSession)
	if !ok {
		return nil
	}
	return &grouper{sh: sh, grp: gs.BeginGroup(), w: w}
}

// Execute runs sql in the group: when the group cannot take it, the held
// answers are committed and printed first.
func (g *grouper) Execute(ctx context.Context, sql string) (*engine.Result, error) {
	res, held, err := g.grp.Execute(ctx, sql)
	if errors.Is(err, engine.ErrCommitFirst) {
		if !g.commit(ctx) && !g.sh.cfg.KeepGoing {
			g.discard = true
			return nil, errStopped
		}
		res, held, err = g.grp.Execute(ctx, sql)
	}
	g.holding = held
	return res, err
}

// DisplayOptions keeps the options read for a held statement: held
// statements are INSERTs, which change no option, and any other statement
// reads them again.
func (g *grouper) DisplayOptions() render.Options {
	if g.optOK {
		return g.opt
	}
	opt := g.sh.sess.DisplayOptions()
	if g.holding {
		g.opt, g.optOK = opt, true
		g.shown = g.sh.answerOptions(opt, false)
	}
	return opt
}

// answerOptions returns the options of a held statement's answer, when
// they are kept.
func (g *grouper) answerOptions() (render.Options, bool) {
	return g.shown, g.optOK
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

// dest is where the statement's answer goes now: its held buffer, the
// real stream, or nowhere (nil) when it is discarded.
func (h holdWriter) dest() interface {
	io.Writer
	io.StringWriter
} {
	switch {
	case h.g.discard:
		return nil
	case h.g.holding:
		if h.isErr {
			return &h.g.cur.err
		}
		return &h.g.cur.out
	}
	return h.target()
}

func (h holdWriter) Write(p []byte) (int, error) {
	if d := h.dest(); d != nil {
		return d.Write(p)
	}
	return len(p), nil
}

func (h holdWriter) WriteString(s string) (int, error) {
	if d := h.dest(); d != nil {
		return d.WriteString(s)
	}
	return len(s), nil
}

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
	if _, _, bs := backslashCommand(stmt); bs || clientCommand(stmt) != "" || isSourceCommand(stmt) {
		// Client commands answer at once, after the answers before them.
		// SOURCE may change options.
		g.optOK = false
		if !g.commit(ctx) && !sh.cfg.KeepGoing {
			return false
		}
		return sh.runOne(ctx, stmt, g.w, false)
	}
	g.cur, g.holding, g.discard = g.newAnswer(), false, false
	if g.outw == nil {
		g.outw, g.errw = &holdWriter{g: g}, &holdWriter{g: g, isErr: true}
	}
	tag := sh.execIn(ctx, g, stmt, g.outw, g.errw, false)
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
		g.catchSignals()
	}
	g.held = append(g.held, h)
	if failed && !sh.cfg.KeepGoing {
		// The script stops here: what ran before is committed and
		// answered, then this statement's error.
		g.commit(ctx)
		return false
	}
	maxWait := sh.cfg.GroupMaxWait
	if maxWait <= 0 {
		maxWait = groupMaxWait
	}
	if len(g.held) >= groupMaxStatements || time.Since(g.started) >= maxWait || g.caught() != nil {
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
	err := g.grp.Commit(ctx)
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
	for _, h := range g.held {
		h.out.Reset()
		h.err.Reset()
		h.failed = false
	}
	g.spare = append(g.spare, g.held...)
	clear(g.held)
	g.held = g.held[:0]
	g.releaseSignals()
	return err == nil
}

// newAnswer returns an empty answer to hold, one that a commit printed
// when there is one.
func (g *grouper) newAnswer() *heldAnswer {
	if n := len(g.spare); n > 0 {
		h := g.spare[n-1]
		g.spare[n-1] = nil
		g.spare = g.spare[:n-1]
		return h
	}
	return &heldAnswer{}
}

// mayBeClientCommand is the cheap first test of clientCommand and
// sourceCommand, which tokenize: their statements start with one of their
// words or a comment.
func mayBeClientCommand(stmt string) bool {
	i := 0
	for i < len(stmt) && (stmt[i] == ' ' || stmt[i] == '\t' || stmt[i] == '\r' || stmt[i] == '\n') {
		i++
	}
	if i == len(stmt) {
		return true
	}
	switch stmt[i] | 0x20 {
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

// catchSignals catches SIGINT and SIGTERM while answers are held.
func (g *grouper) catchSignals() {
	if g.sigs == nil {
		g.sigs = make(chan os.Signal, 1)
		signal.Notify(g.sigs, os.Interrupt, syscall.SIGTERM)
	}
}

// caught returns the signal that arrived while answers were held, or nil.
func (g *grouper) caught() os.Signal {
	if g.sig == nil && g.sigs != nil {
		select {
		case g.sig = <-g.sigs:
		default:
		}
	}
	return g.sig
}

// releaseSignals ends catching signals once no answer is held; a signal
// caught meanwhile stops the run (Shell.Signal), now that every answer
// held is printed.
func (g *grouper) releaseSignals() {
	if g.sigs == nil {
		return
	}
	signal.Stop(g.sigs)
	if sig := g.caught(); sig != nil {
		g.sh.signal = sig
	}
	g.sigs = nil
}
