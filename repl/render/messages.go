package render

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"time"

	"eddy/engine/sqlerr"
)

// Every console string eddy prints lives in this file. Where the Flink SQL
// client has a message, the text is Flink's (CliStrings.java, CliClient.java,
// CliTableauResultView.java, TableauStyle.java); where Flink names itself,
// eddy's name stands in its place.

// Name is the program's name as the console shows it.
const Name = "eddy"

const (
	infoPrefix    = "[INFO] "
	warningPrefix = "[WARNING] "
	errorPrefix   = "[ERROR] "

	// msgStatementSucceeded acknowledges a statement without rows
	// (Flink: CliStrings.MESSAGE_EXECUTE_STATEMENT).
	msgStatementSucceeded = "Execute statement succeeded."
	// msgExecutionError heads every failed statement
	// (CliStrings.MESSAGE_SQL_EXECUTION_ERROR).
	msgExecutionError = "Could not execute SQL statement."
	msgReason         = " Reason:"
	// msgQuit answers QUIT and EXIT (CliStrings.MESSAGE_QUIT names the
	// client: "Exiting Flink SQL CLI Client...").
	msgQuit = "Exiting " + Name + "..."

	msgEmptySet = "Empty set"

	// msgCancelled is the error shown when Ctrl-C stops a statement that
	// has no rows to count (an INSERT, a DDL statement).
	msgCancelled = "The statement was cancelled."

	// Query results in table or changelog mode need a full-screen view;
	// piped input has none (CliClient / ResultMode checks).
	msgNonInteractiveResultMode = "In non-interactive mode, it only supports to use TABLEAU as value of " +
		"sql-client.execution.result-mode when execute query. Please add " +
		"'SET sql-client.execution.result-mode=TABLEAU;' in the sql file."
	msgBatchChangelog = "Results of batch queries can only be served in table or tableau mode."

	nullValue     = "<NULL>"
	truncatedMark = "..."
	opColumn      = "op"
)

// rowsInSet is the footer of a table: "1 row in set", "N rows in set".
func rowsInSet(n int64) string { return fmt.Sprintf("%d %s in set", n, rowTerm(n)) }

// receivedTotal ends a streaming result: "Received a total of N rows".
func receivedTotal(n int64) string { return fmt.Sprintf("Received a total of %d %s", n, rowTerm(n)) }

// queryTerminated ends a result stopped by Ctrl-C.
func queryTerminated(n int64) string {
	return fmt.Sprintf("Query terminated, received a total of %d %s", n, rowTerm(n))
}

// rowTerm follows Flink's rule `n > 1 ? "rows" : "row"`, so the client says
// "0 row" and "1 row".
func rowTerm(n int64) string {
	if n > 1 {
		return "rows"
	}
	return "row"
}

// timeCost is appended to query footers when sql-client.display.print-time-cost
// is on: " (1.23 seconds)".
func timeCost(seconds float64) string { return fmt.Sprintf(" (%.2f seconds)", seconds) }

// verticalRule heads each row of the vertical output format:
// "*************************** 1. row ***************************".
func verticalRule(n int64) string {
	stars := strings.Repeat("*", 27)
	return fmt.Sprintf("%s %d. row %s", stars, n, stars)
}

// SourceError returns the error of a SOURCE statement whose file cannot be
// read (cause says why).
func SourceError(path string, cause error) error {
	var pe *fs.PathError
	if errors.As(cause, &pe) {
		cause = pe.Err
	}
	return clientError(fmt.Sprintf("Could not read file '%s': %v", path, cause))
}

// SourceTooDeep returns the error of a SOURCE nested too deeply (a file
// that sources itself).
func SourceTooDeep(path string, depth int) error {
	return clientError(fmt.Sprintf("SOURCE '%s' is nested more than %d files deep.", path, depth))
}

// Progress is the live status line of a statement that runs longer than a
// second at a terminal.
func Progress(elapsed time.Duration, rows int64) string {
	return fmt.Sprintf("Running for %.1f seconds, %s received so far (Ctrl-C cancels)", elapsed.Seconds(), plural(rows, "row"))
}

// Banner is the one line the interactive shell prints when it starts;
// remote names the Flink SQL Gateway statements run on ("" for the
// embedded engine).
func Banner(version, remote string) string {
	where := ""
	if remote != "" {
		where = " Statements run on the Flink SQL Gateway at " + remote + "."
	}
	return Version(version) + ", a Flink SQL shell." + where + " Enter HELP; for help, QUIT; or Ctrl-D to exit."
}

// helpCommands is the HELP table: Flink's client's (misc.q) in its order,
// with what eddy does not have left out (the --jar and --library startup
// options), then the statements and client commands of eddy's own.
var helpCommands = [][2]string{
	{"HELP", "Prints the available commands."},
	{"QUIT/EXIT", "Quits the SQL CLI client."},
	{"CLEAR", "Clears the current terminal."},
	{"SET", `Sets a session configuration property. Syntax: "SET '<key>'='<value>';". Use "SET;" for listing all properties.`},
	{"RESET", `Resets a session configuration property. Syntax: "RESET '<key>';". Use "RESET;" for reset all session properties.`},
	{"INSERT INTO", "Inserts the results of a SQL SELECT query into a declared table sink."},
	{"INSERT OVERWRITE", "Inserts the results of a SQL SELECT query into a declared table sink and overwrite existing data."},
	// Flink: "Executes a SQL SELECT query on the Flink cluster."
	{"SELECT", "Executes a SQL SELECT query on the " + Name + " engine."},
	{"EXPLAIN", "Describes the execution plan of a query or table with the given name."},
	{"BEGIN STATEMENT SET", `Begins a statement set. Syntax: "BEGIN STATEMENT SET;"`},
	{"END", `Ends a statement set. Syntax: "END;"`},
	{"SHOW", `Lists catalogs, databases, tables, views, functions, modules or jars. Syntax: "SHOW TABLES;", "SHOW CREATE TABLE <name>;"`},
	{"DESCRIBE", `Describes the columns of a table or view. Syntax: "DESCRIBE <name>;"`},
	{"USE", `Makes a catalog or database the current one. Syntax: "USE CATALOG <catalog>;", "USE <database>;"`},
	{"SHOW JOBS", "Lists the jobs (INSERT statements) of this session and their status."},
	{"STOP JOB", `Cancels a running job. Syntax: "STOP JOB '<job id>';"`},
	{"ADD JAR", `Adds the specified jar file to the session (its Java functions run only on Flink, with --gateway). Syntax: "ADD JAR '<path_to_filename>.jar'"`},
	{"REMOVE JAR", `Removes the specified jar file from the session. Syntax: "REMOVE JAR '<path_to_filename>.jar'"`},
	{"SHOW JARS", "Shows the list of jars added with ADD JAR."},
	{"SOURCE", `Runs the statements of a file in this session, stopping at the first failing one. Syntax: "SOURCE '<path>.sql';"`},
}

// BackslashHelp is one client command in the help: its use and what it does.
type BackslashHelp struct{ Syntax, Text string }

// Help returns the answer to HELP, laid out as Flink's client lays it out
// (command padded to 19 characters, two tabs, description), ending in a
// newline; the shell's backslash commands follow the statements.
func Help(backslash ...BackslashHelp) string {
	var b strings.Builder
	b.WriteString("The following commands are available:\n\n")
	for _, c := range helpCommands {
		fmt.Fprintf(&b, "%-19s\t\t%s\n", c[0], c[1])
	}
	if len(backslash) > 0 {
		b.WriteString("\nClient commands (one line each, answered by the shell, never sent to a gateway):\n\n")
		for _, c := range backslash {
			fmt.Fprintf(&b, "%-19s\t\t%s\n", c.Syntax, c.Text)
		}
	}
	b.WriteString("\nHint: Make sure that a statement ends with \";\" for finalizing (multi-line) statements.\n")
	b.WriteString("You can also type any Flink SQL statement, please visit " +
		"https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/sql/overview/ for more details.\n")
	return b.String()
}

// Usage is the answer to --help.
const Usage = `Usage: eddy [flags]

eddy is a Flink SQL shell. It reads statements from the terminal, from piped
standard input, from a file (-f) or from the command line (-e).

Flags:
  -f FILE           run the statements in FILE and exit
  -i FILE           run the statements in FILE first, then go on (repeatable)
  -e SQL            run the statements in SQL and exit
  --config FILE     YAML configuration (default $XDG_CONFIG_HOME/eddy/config.yaml
                    when it exists; env EDDY_CONFIG)
  --store FILE      SQLite store of catalogs and tables (env EDDY_STORE; default
                    $XDG_DATA_HOME/eddy/eddy.db)
  -D key=value      set a session option, as SET does (repeatable)
  --output FORMAT   print query results as tableau (the default), csv, tsv,
                    json, jsonl, markdown or vertical
  --keep-going      run the rest of a script after a failed statement
  --gateway URL     run the statements on a Flink SQL Gateway instead of the
                    embedded engine (or gateway: endpoint: in the configuration)
  --version         print the version and exit
  --help            print this help and exit

Exit status: 0 when every statement succeeded, 1 when one failed, 2 for bad
flags or unreadable files.
`

// Messages about the command line and start-up, each printed on one line
// by Problem.
const (
	MsgSeeHelp       = "(see eddy --help)"
	MsgUnexpectedArg = "unexpected argument %q " + MsgSeeHelp
	MsgBadHeader     = "FLINK_REST_CLIENT_HEADERS: ignoring the malformed line %q"
	MsgFileAndExec   = "-f and -e cannot be used together"
	MsgBadDefine     = "-D %q: want key=value"
	MsgBadOutput     = "--output %q: want one of %s"
)

// TimingState answers \timing (psql's words).
func TimingState(on bool) string { return "Timing is " + onOff(on) + "." }

// ExpandedState answers \x (psql's words).
func ExpandedState(on bool) string { return "Expanded display is " + onOff(on) + "." }

func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}

// ClientError returns the error of a client command the shell could not
// run.
func ClientError(msg string) error { return clientError(msg) }

// Version is the answer to --version.
func Version(version string) string { return Name + " " + version }

// Problem writes a one-line message about the command line, a file or the
// terminal: "eddy: <message>".
func Problem(w io.Writer, format string, args ...any) {
	fmt.Fprintf(w, "%s: %s\n", Name, fmt.Sprintf(format, args...))
}

// JobFailed writes the report of a background job that failed (SHOW JOBS
// lists it as FAILED):
//
//	[ERROR] Job <id> (<name>) failed. Reason:
//	<Class>: <message>
func JobFailed(w io.Writer, id, name string, err error, opt Options) {
	e := sqlerr.As(err)
	text := fmt.Sprintf("%sJob %s (%s) failed.%s\n", errorPrefix, id, name, msgReason)
	if e.Class != "" {
		text += e.Class + ": "
	}
	io.WriteString(w, colorize(text+e.Message, TagError, opt.Color)+"\n")
}

// JobsCancelled writes the warning for the background jobs the end of
// the session cancelled.
func JobsCancelled(w io.Writer, ids []string, opt Options) {
	msg := fmt.Sprintf("Cancelled %d running %s at exit: %s", len(ids), jobTerm(len(ids)), strings.Join(ids, ", "))
	Warning(w, msg, opt)
}

func jobTerm(n int) string {
	if n > 1 {
		return "jobs"
	}
	return "job"
}
