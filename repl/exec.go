package repl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
	"time"

	"eddy/conf"
	"eddy/engine"
	"eddy/engine/parser"
	"eddy/engine/sqlerr"
	"eddy/repl/render"
)

// Client commands: answered by the shell, never sent to the engine.
const (
	cmdHelp  = "HELP"
	cmdQuit  = "QUIT"
	cmdExit  = "EXIT"
	cmdClear = "CLEAR"
)

// clientCommand returns the client command stmt is (HELP, QUIT, EXIT or
// CLEAR, in any case, comments allowed around it), or "". It looks at the
// lexer's tokens only.
func clientCommand(stmt string) string {
	if !mayBeClientCommand(stmt) {
		return ""
	}
	toks, err := parser.Tokenize(stmt)
	if err != nil || len(toks) != 2 || toks[0].Kind != parser.Ident {
		return ""
	}
	switch toks[0].Upper {
	case cmdHelp, cmdQuit, cmdExit, cmdClear:
		return toks[0].Upper
	}
	return ""
}

// clearScreen moves the cursor home and erases the screen.
const clearScreen = "\x1b[H\x1b[2J"

// stmtRunner runs the SQL of a statement for exec and gives the display
// options of its answer: the session itself, or the grouper of a piped
// run, which runs statements in the session's write group.
type stmtRunner interface {
	Execute(ctx context.Context, sql string) (*engine.Result, error)
	DisplayOptions() render.Options
}

// exec runs one statement and writes its answer: results to out, errors to
// errw. A panic below it is recovered and reported as an InternalError.
func (sh *Shell) exec(ctx context.Context, stmt string, out, errw io.Writer, interactive bool) render.Tag {
	return sh.execIn(ctx, sh.sess, stmt, out, errw, interactive)
}

// execIn is exec with the statement's SQL run by r.
func (sh *Shell) execIn(ctx context.Context, r stmtRunner, stmt string, out, errw io.Writer, interactive bool) (tag render.Tag) {
	sh.bare = false
	opt := render.Options{Interactive: interactive, Color: sh.cfg.Color}
	defer func() {
		if r := recover(); r != nil {
			flushWriter(out)
			tag = sh.fail(errw, render.Internal(r, debug.Stack()), opt)
		}
	}()
	if _, _, ok := backslashCommand(stmt); ok {
		return sh.runBackslash(ctx, r, stmt, out, errw, interactive)
	}
	switch clientCommand(stmt) {
	case cmdHelp:
		return render.HelpAnswer(out, backslashHelp()...)
	case cmdQuit, cmdExit:
		sh.exited = true
		if !interactive && render.IsMachineFormat(r.DisplayOptions().Format) {
			// A status line: the answer stream holds only rows.
			sh.bare = true
			return render.Quit(errw, opt)
		}
		return render.Quit(out, opt)
	case cmdClear:
		if interactive {
			io.WriteString(out, clearScreen)
		}
		return render.TagOK
	}
	if path, ok := sourceCommand(stmt); ok {
		return sh.source(ctx, path, out, errw, interactive)
	}
	return sh.execSQL(ctx, r, stmt, out, errw, interactive)
}

// backslashHelp lists the backslash commands for HELP.
func backslashHelp() []render.BackslashHelp {
	h := make([]render.BackslashHelp, len(backslashCommands))
	for i, c := range backslashCommands {
		h[i] = render.BackslashHelp{Syntax: c.syntax, Text: c.help}
	}
	return h
}

// execSQL runs a statement of SQL through r and writes its answer.
func (sh *Shell) execSQL(ctx context.Context, r stmtRunner, stmt string, out, errw io.Writer, interactive bool) (tag render.Tag) {
	started := time.Now()
	var opt render.Options
	var prog *progress
	if interactive && sh.cfg.Progress != nil && sh.running() == nil {
		delay := sh.cfg.ProgressDelay
		if delay <= 0 {
			delay = defaultProgressDelay
		}
		prog = startProgress(sh.cfg.Progress, delay)
		sh.setRunning(prog)
		defer func() {
			prog.stop()
			sh.setRunning(nil)
		}()
	}
	res, err := r.Execute(ctx, stmt)
	if err == nil && isBareSet(stmt) {
		res, err = sh.withDefaults(ctx, res, interactive)
	}
	if prog != nil {
		prog.countRows(res)
	}
	opt = sh.optionsOf(r, interactive, started)
	if err != nil {
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			err = render.Cancelled()
		}
		tag := sh.fail(errw, err, opt)
		sh.javaFunctionNote(ctx, errw, err, opt)
		return tag
	}
	// In a machine format (csv, tsv, json, jsonl) the answer stream holds
	// result rows only, so that it is a clean file: status lines ("[INFO]
	// Execute statement succeeded.") go to the error stream, with the
	// blank line after them.
	machine := !interactive && render.IsMachineFormat(opt.Format)
	rows := res != nil && res.Kind == engine.ResultRows
	sh.bare = machine
	w := out
	if machine && !rows {
		w = errw
	}
	tag, err = render.Result(ctx, w, res, opt)
	if machine && !rows && err == nil {
		io.WriteString(errw, "\n")
	}
	if err != nil {
		flushWriter(out)
		tag = render.Max(tag, sh.fail(errw, sh.hintFor(err), opt))
	} else if key, ok := setKey(stmt); ok {
		if closest, typo := conf.Options().Misspelt(key); typo {
			flushWriter(out)
			tag = render.Max(tag, render.Warning(errw, fmt.Sprintf(msgUnknownOption, key, closest), opt))
		}
	}
	return tag
}

// msgUnknownOption warns of a SET key that looks like a misspelt option:
// Flink accepts any key, so the statement succeeded without effect.
const msgUnknownOption = "'%s' is not an option eddy knows, so it changes nothing. Did you mean '%s'?"

// setKey returns the key of a SET 'key' = 'value' statement. It looks at
// the lexer's tokens only.
func setKey(stmt string) (string, bool) {
	if t := strings.TrimSpace(stmt); len(t) < 3 || !strings.EqualFold(t[:3], "SET") {
		return "", false
	}
	toks, err := parser.Tokenize(stmt)
	if err != nil || len(toks) < 3 || !toks[0].Is("SET") || toks[1].Kind != parser.String {
		return "", false
	}
	return toks[1].Text, true
}

// fail reports a failed statement on errw and, in a script, the location
// line after it (see writeLocation).
func (sh *Shell) fail(errw io.Writer, err error, opt render.Options) render.Tag {
	tag := render.Error(errw, err, opt)
	reservedHint(errw, err, opt)
	if name, why, ok := sh.leftOut(err); ok {
		render.Warning(errw, fmt.Sprintf(msgLeftOut, name, why), opt)
	}
	if loc := sh.place.location(); loc != nil && !sh.cfg.NoErrorLocation {
		writeLocation(errw, loc, err)
	}
	return tag
}

// msgLeftOut follows an error about a catalog the configuration file
// lists but that could not be made at start.
const msgLeftOut = "Catalog %s of the configuration file was left out at start: %s"

// leftOut returns the catalog of Config.LeftOut that err says does not
// exist, and why it was left out.
func (sh *Shell) leftOut(err error) (name, why string, ok bool) {
	if len(sh.cfg.LeftOut) == 0 {
		return "", "", false
	}
	msg := err.Error()
	for name, why := range sh.cfg.LeftOut {
		if strings.Contains(msg, "Catalog "+name+" does not exist") ||
			strings.Contains(msg, "A catalog with name ["+name+"] does not exist") ||
			strings.Contains(msg, "Catalog '"+name+"' does not exist") ||
			strings.Contains(msg, "Object '"+name+"' not found") {
			return name, why, true
		}
	}
	return "", "", false
}

// sqlFileHint ends the refusal of a query result mode that needs a
// terminal; it speaks of a file, which -e is not.
const (
	sqlFileHint = "in the sql file."
	execHint    = "before the query in -e."
)

// hintFor returns err with its hint fitted to the input being run.
func (sh *Shell) hintFor(err error) error {
	e := sqlerr.As(err)
	if sh.input != ExecName || e == nil || !strings.HasSuffix(e.Message, sqlFileHint) {
		return err
	}
	c := *e
	c.Message = strings.TrimSuffix(e.Message, sqlFileHint) + execHint
	return &c
}

// options returns the session's display options for one statement. The
// time cost is shown at a terminal; piped and script output leaves it out
// unless sql-client.display.print-time-cost was set explicitly (by SET, the
// configuration or -D), so that output does not change from run to run.
func (sh *Shell) options(interactive bool, started time.Time) render.Options {
	return sh.optionsOf(sh.sess, interactive, started)
}

// optionsOf is options with the session's display options as r gives them.
func (sh *Shell) optionsOf(r stmtRunner, interactive bool, started time.Time) render.Options {
	if k, ok := r.(interface {
		answerOptions() (render.Options, bool)
	}); ok {
		if opt, ok := k.answerOptions(); ok {
			opt.Started = started
			return opt
		}
	}
	opt := sh.answerOptions(r.DisplayOptions(), interactive)
	opt.Started = started
	return opt
}

// answerOptions returns the options an answer is written with: the
// session's display options opt as the shell applies them.
func (sh *Shell) answerOptions(opt render.Options, interactive bool) render.Options {
	if !interactive && !sh.optionIsSet(conf.PrintTimeCost) {
		opt.PrintTimeCost = false
	}
	if !interactive && !sh.optionIsSet(conf.ResultMode) {
		// Nothing can show the table or changelog view without a
		// terminal: a script's queries print as tableau unless the user
		// chose a result mode (which then is refused as Flink refuses it).
		opt.ResultMode = render.ModeTableau
	}
	opt.Interactive = interactive
	if interactive && sh.screen != nil {
		opt.Screen = sh.screen
	}
	opt.Color = sh.cfg.Color
	sh.display.apply(&opt)
	return opt
}

// optionSetter is implemented by sessions that tell an option set
// explicitly from its default (*engine.Session does).
type optionSetter interface {
	OptionIsSet(key string) bool
}

func (sh *Shell) optionIsSet(key string) bool {
	s, ok := sh.sess.(optionSetter)
	return ok && s.OptionIsSet(key)
}

func flushWriter(w io.Writer) {
	if f, ok := w.(interface{ Flush() error }); ok {
		f.Flush()
	}
}

// historyEntries turns the lines of finished statements into history
// entries (the history file holds one entry per line). The lines are joined
// with blanks into one entry unless that would change the statements — a --
// comment would swallow what follows it, a literal or comment holding a
// line break would change — and then each line is an entry of its own.
func historyEntries(text string) []string {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil
	}
	if !strings.Contains(text, "\n") {
		return []string{text}
	}
	lines := strings.Split(text, "\n")
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	l := parser.NewLexer(text)
	l.KeepComments = true
	lineComment := false // a -- comment, harmless only as the last token
	for {
		tok, err := l.Next()
		if tok.Kind == parser.EOF && err == nil {
			return []string{strings.Join(lines, " ")}
		}
		if err != nil || lineComment || strings.Contains(tok.Raw, "\n") {
			return lines
		}
		lineComment = tok.Kind == parser.Comment && strings.HasPrefix(tok.Raw, "--")
	}
}
