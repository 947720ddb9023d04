package repl

import (
	"context"
	"io"
	"strings"
	"time"

	"eddy/repl/render"
)

// Backslash commands are the psql and DuckDB habits the shell answers
// itself: a line that starts with '\' is one command, ended by the line
// (a ';' after it is allowed), never sent as it is to the engine or a
// gateway. \d, \dt, \dv and \l run the SHOW or DESCRIBE statement they
// stand for; \timing and \x change how this shell shows answers.

// backslashCommands lists the commands in the order HELP and completion
// show them, each with its use and what it does.
var backslashCommands = []struct{ name, syntax, help string }{
	{`\d`, `\d [name]`, "Describes the table or view name (DESCRIBE name); without a name lists the tables (SHOW TABLES)."},
	{`\dt`, `\dt`, "Lists the tables and views of the current database (SHOW TABLES)."},
	{`\dv`, `\dv`, "Lists the views of the current database (SHOW VIEWS)."},
	{`\l`, `\l`, "Lists the databases of the current catalog (SHOW DATABASES)."},
	{`\timing`, `\timing [on|off]`, "Shows the time each statement took after its answer, or stops showing it."},
	{`\x`, `\x [on|off]`, "Shows query results one column per line (the vertical format), or as before."},
}

// isBackslashLine reports whether a line typed at the start of a statement
// is a backslash command.
func isBackslashLine(line string) bool {
	return strings.HasPrefix(strings.TrimSpace(line), `\`)
}

// backslashCommand splits a backslash command into its name and argument;
// a trailing ';' is dropped. ok is false for text that is not one.
func backslashCommand(stmt string) (name, arg string, ok bool) {
	s := strings.TrimSpace(stmt)
	if !strings.HasPrefix(s, `\`) {
		return "", "", false
	}
	s = strings.TrimSpace(strings.TrimSuffix(s, ";"))
	name, arg, _ = strings.Cut(s, " ")
	return name, strings.TrimSpace(arg), true
}

// msgBadBackslash answers an unknown backslash command or a wrong argument.
const msgBadBackslash = `Unknown or wrong client command "%s". The commands are \d [name], \dt, \dv, \l, \timing [on|off] and \x [on|off].`

// runBackslash answers a backslash command: the statements \d, \dt, \dv
// and \l stand for run through r as any statement does; \timing and \x
// switch this shell's display.
func (sh *Shell) runBackslash(ctx context.Context, r stmtRunner, stmt string, out, errw io.Writer, interactive bool) render.Tag {
	name, arg, _ := backslashCommand(stmt)
	opt := sh.options(interactive, time.Time{})
	switch name {
	case `\d`:
		if arg == "" {
			return sh.execSQL(ctx, r, "SHOW TABLES", out, errw, interactive)
		}
		return sh.execSQL(ctx, r, "DESCRIBE "+arg, out, errw, interactive)
	case `\dt`, `\dv`, `\l`:
		if arg != "" {
			break
		}
		sql := map[string]string{`\dt`: "SHOW TABLES", `\dv`: "SHOW VIEWS", `\l`: "SHOW DATABASES"}[name]
		return sh.execSQL(ctx, r, sql, out, errw, interactive)
	case `\timing`, `\x`:
		on, ok := toggle(arg, name == `\timing` && sh.display.timing != nil && *sh.display.timing ||
			name == `\x` && sh.display.expanded)
		if !ok {
			break
		}
		if name == `\timing` {
			sh.display.timing = &on
			return render.Info(out, render.TimingState(on), opt)
		}
		sh.display.expanded = on
		return render.Info(out, render.ExpandedState(on), opt)
	}
	return sh.fail(errw, render.ClientError(strings.Replace(msgBadBackslash, "%s", strings.TrimSpace(stmt), 1)), opt)
}

// toggle reads the argument of \timing and \x: "on", "off", or none,
// which flips the current state.
func toggle(arg string, current bool) (on, ok bool) {
	switch strings.ToLower(arg) {
	case "":
		return !current, true
	case "on":
		return true, true
	case "off":
		return false, true
	}
	return false, false
}

// clientDisplay is what \timing and \x changed: it applies over the
// session's display options, in this shell only.
type clientDisplay struct {
	timing   *bool // nil: as sql-client.display.print-time-cost says
	expanded bool  // query results in the vertical format
}

// apply lays the client's display choices over opt.
func (d clientDisplay) apply(opt *render.Options) {
	if d.timing != nil {
		opt.PrintTimeCost = *d.timing
	}
	if d.expanded {
		opt.Format = render.FormatVertical
	}
}
