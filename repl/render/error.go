package render

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"eddy/engine/sqlerr"
)

// Error writes a failed statement's answer and returns TagError:
//
//	[ERROR] Could not execute SQL statement. Reason:
//	<Class>: <message>
//
// Class is Flink's short exception class name (sqlerr.As finds it).
// With opt.Verbose the chain of underlying errors follows, one
// "Caused by: ..." line each, where Flink would print a stack trace.
func Error(w io.Writer, err error, opt Options) Tag {
	e := sqlerr.As(err)
	var b strings.Builder
	b.WriteString(errorPrefix + msgExecutionError + msgReason + "\n")
	if e.Class != "" {
		b.WriteString(e.Class + ": ")
	}
	b.WriteString(e.Message)
	if opt.Verbose {
		for c := errors.Unwrap(error(e)); c != nil; c = errors.Unwrap(c) {
			fmt.Fprintf(&b, "\nCaused by: %T: %s", c, c.Error())
		}
	}
	io.WriteString(w, colorize(b.String(), TagError, opt.Color)+"\n")
	return TagError
}

// Internal returns the error reported for a failure inside eddy itself: a
// panic recovered at the session boundary. stack, when given, shows in
// verbose mode.
func Internal(v any, stack []byte) error {
	return &sqlerr.Error{Class: sqlerr.InternalError, Message: fmt.Sprint(v), Cause: &panicError{stack: stack}}
}

type panicError struct{ stack []byte }

func (p *panicError) Error() string { return "panic\n" + strings.TrimRight(string(p.stack), "\n") }

// Cancelled returns the error reported when Ctrl-C stops a statement that
// has no rows to count.
func Cancelled() error { return clientError(msgCancelled) }
