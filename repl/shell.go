package repl

import (
	"bufio"
	"context"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"eddy/engine"
	"eddy/repl/render"
)

// Session is what the shell needs from the engine; *engine.Session (with
// its display options) satisfies it, and tests use a fake.
type Session interface {
	// Execute runs one statement (no trailing ';').
	Execute(ctx context.Context, sql string) (*engine.Result, error)
	// Prompt returns the current catalog and database.
	Prompt() (catalog, database string)
	// DisplayOptions returns how results are shown, from the session's
	// configuration (see OptionsFromConfig).
	DisplayOptions() render.Options
}

// Config sets up a Shell.
type Config struct {
	In  io.Reader // statements; os.Stdin when nil
	Out io.Writer // answers; os.Stdout when nil
	Err io.Writer // errors when not interactive; os.Stderr when nil

	// Interactive means a person at a terminal: readline with a prompt,
	// history and the banner, errors on Out, Ctrl-C cancels the running
	// statement, and query results may use the table and changelog views.
	// Otherwise (piped input, -f, -e, -i) the input is read plainly, nothing
	// is echoed, errors go to Err and the first failure stops the run.
	Interactive bool
	// KeepGoing runs the rest of a script after a failed statement; the
	// exit status is still 1.
	KeepGoing bool
	// HistoryFile keeps interactive history across runs; "" keeps none.
	HistoryFile string
	// Color turns on the ANSI colours of the Flink client.
	Color bool
	// Version is shown in the banner.
	Version string
	// Remote is the Flink SQL Gateway the session runs on, shown in the
	// banner; "" for the embedded engine.
	Remote string
	// Progress, when set, receives the live status line of an interactive
	// statement running longer than ProgressDelay (1 s when 0): a terminal
	// (standard error) only.
	Progress      io.Writer
	ProgressDelay time.Duration
	// GroupMaxWait bounds how long a piped script's INSERTs may wait in a
	// shared transaction before it commits (groupMaxWait when 0).
	GroupMaxWait time.Duration
	// InputName names In in the location line after an error of a script
	// ("FILE:LINE:COLUMN: in this statement:"); StdinName when "".
	InputName string
	// NoErrorLocation leaves that location line out.
	NoErrorLocation bool
	// LeftOut maps the catalogs of the configuration file that could not
	// be made to why ("FILE:LINE: reason"): an error saying such a catalog
	// does not exist is followed by that reason.
	LeftOut map[string]string
	// FlinkSetListing makes `SET;` list only the configured keys, as
	// Flink's client does over a deployment whose configuration file holds
	// the defaults; otherwise the shell adds the essential options nobody
	// set, marked as defaults (see setlist.go).
	FlinkSetListing bool
}

// Shell reads statements, runs them and prints their answers.
type Shell struct {
	sess   Session
	cfg    Config
	exited bool
	// pending holds the earlier lines of the statement being typed, for
	// completion and highlighting (they run on readline's goroutine).
	pendingMu sync.Mutex
	pending   string
	// prog is the status line of the running statement, or nil.
	progMu sync.Mutex
	prog   *progress
	// bare is set when the last answer was rows in a machine format (csv,
	// tsv, json, jsonl): no blank line follows it, so the output is a
	// clean file.
	bare bool
	// sourceDepth counts the SOURCE statements running inside each other.
	sourceDepth int
	interrupts  chan os.Signal // SIGINT while interactive; nil otherwise
	// signal is the SIGINT or SIGTERM that stopped a piped run after
	// its held answers were printed (see groupcommit.go), or nil.
	signal os.Signal
	// screen is the terminal of an interactive shell; nil otherwise.
	screen *ttyScreen
	// input names the script being read (a file, StdinName, ExecName);
	// place is where its running statement starts, for the location
	// line after an error; none at the prompt.
	input string
	place stmtPlace
	// display is what the client commands \timing and \x changed.
	display clientDisplay
}

// New returns a shell over sess.
func New(sess Session, cfg Config) *Shell {
	if cfg.In == nil {
		cfg.In = os.Stdin
	}
	if cfg.Out == nil {
		cfg.Out = os.Stdout
	}
	if cfg.Err == nil {
		cfg.Err = os.Stderr
	}
	sh := &Shell{sess: sess, cfg: cfg}
	if j, ok := sess.(jobSession); ok {
		// A background job fails while other statements run: its report
		// goes straight to the error stream.
		errOut := cfg.Err
		if cfg.Interactive {
			errOut = cfg.Out
		}
		// The options are read now: the handler runs on the job's
		// goroutine, which must not wait for the statement running then.
		opt := sess.DisplayOptions()
		j.SetJobFailureHandler(func(info engine.JobInfo) {
			render.JobFailed(errOut, info.ID, info.Name, info.Err, opt)
		})
	}
	return sh
}

// jobSession is a session that runs background jobs (the embedded
// engine; a Flink cluster keeps its jobs itself).
type jobSession interface {
	SetJobFailureHandler(func(engine.JobInfo))
	CloseJobs() []string
}

// closeJobs ends the session's background jobs when the shell stops:
// unbounded ones are cancelled, with a warning naming them.
func (sh *Shell) closeJobs() {
	j, ok := sh.sess.(jobSession)
	if !ok {
		return
	}
	if ids := j.CloseJobs(); len(ids) > 0 {
		w := sh.cfg.Err
		if sh.cfg.Interactive {
			w = sh.cfg.Out
		}
		render.JobsCancelled(w, ids, sh.sess.DisplayOptions())
	}
}

// CloseJobs ends the session's background jobs as the end of Run does;
// the caller of RunScript calls it once the last script has run.
func (sh *Shell) CloseJobs() { sh.closeJobs() }

// Exited reports whether QUIT or EXIT has run: the caller should stop.
func (sh *Shell) Exited() bool { return sh.exited }

// Signal returns the signal (SIGINT or SIGTERM) that stopped the run, or
// nil. A piped run catches these signals only while it holds answers of a
// write group; it then commits and prints them, stops, and leaves it to
// the caller to end the process by the signal, as the signal would have.
func (sh *Shell) Signal() os.Signal { return sh.signal }

// Run reads statements from the configured input until it ends (or QUIT,
// EXIT, Ctrl-D) and returns the exit status: 0 when every statement
// succeeded, 1 when one failed. Interactive sessions always end with 0
// unless the terminal fails.
func (sh *Shell) Run(ctx context.Context) int {
	defer sh.closeJobs()
	if sh.cfg.Interactive {
		return sh.runInteractive(ctx)
	}
	sh.input = sh.cfg.InputName
	if sh.input == "" {
		sh.input = StdinName
	}
	return sh.runLines(ctx, newPlainSource(sh.cfg.In), false)
}

// RunScript runs the statements of text non-interactively (for -e), with
// Run's error policy, and returns the exit status.
func (sh *Shell) RunScript(ctx context.Context, text string) int {
	return sh.RunFile(ctx, ExecName, text)
}

// RunFile runs the statements of text, read from the input called name (a
// file given with -i, or ExecName), as RunScript does; errors are located
// in name.
func (sh *Shell) RunFile(ctx context.Context, name, text string) int {
	sh.input = name
	return sh.runLines(ctx, newPlainSource(strings.NewReader(text)), false)
}

// ExecStatement runs one statement text — a client command or SQL, without
// its ';' — and writes its whole answer, results and errors alike, to w as
// the interactive Flink SQL client shows it, without the blank line the
// shell prints after each answer. It returns the answer's tag. QUIT and EXIT
// answer and set Exited.
func (sh *Shell) ExecStatement(ctx context.Context, stmt string, w io.Writer) render.Tag {
	return sh.exec(ctx, stmt, w, w, true)
}

// pendingText returns the earlier lines of the statement being typed.
func (sh *Shell) pendingText() string {
	sh.pendingMu.Lock()
	defer sh.pendingMu.Unlock()
	return sh.pending
}

func (sh *Shell) setPending(text string) {
	sh.pendingMu.Lock()
	defer sh.pendingMu.Unlock()
	sh.pending = text
}

// running returns the status line of the running statement, or nil.
func (sh *Shell) running() *progress {
	sh.progMu.Lock()
	defer sh.progMu.Unlock()
	return sh.prog
}

func (sh *Shell) setRunning(p *progress) {
	sh.progMu.Lock()
	defer sh.progMu.Unlock()
	sh.prog = p
}

// writers returns the buffered answer and error streams of a run.
type writers struct {
	out, err *bufio.Writer
}

func (sh *Shell) newWriters(interactive bool) writers {
	var w io.Writer = sh.cfg.Out
	if interactive && sh.cfg.Progress != nil {
		w = clearingWriter{w: w, sh: sh}
	}
	out := bufio.NewWriter(w)
	if interactive {
		return writers{out: out, err: out}
	}
	return writers{out: out, err: bufio.NewWriter(sh.cfg.Err)}
}

func (w writers) flush() {
	w.out.Flush()
	w.err.Flush()
}
