package gateway

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"eddy/engine/sqlerr"
)

// HTTPError is a response with a failing HTTP status. Errors holds the
// ErrorResponseBody's entries: for a failed statement the generic
// "Internal server error." and then the server's stack trace.
type HTTPError struct {
	Method, Path string
	Status       int
	Errors       []string
}

func (e *HTTPError) Error() string {
	msg := "no error body"
	if len(e.Errors) > 0 {
		msg = firstLine(e.Errors[len(e.Errors)-1])
	}
	return fmt.Sprintf("%s %s: HTTP %d: %s", e.Method, e.Path, e.Status, msg)
}

// errorBody is Flink's ErrorResponseBody.
type errorBody struct {
	Errors []string `json:"errors"`
}

func newHTTPError(method, path string, status int, body []byte) *HTTPError {
	e := &HTTPError{Method: method, Path: path, Status: status}
	var eb errorBody
	if json.Unmarshal(body, &eb) == nil && len(eb.Errors) > 0 {
		e.Errors = eb.Errors
	} else if s := strings.TrimSpace(string(body)); s != "" {
		e.Errors = []string{s}
	}
	return e
}

// classSQLExecution is the class the Flink SQL client gives to failures of
// its own gateway calls (SqlExecutionException).
const classSQLExecution = "SqlExecutionException"

// statementError turns a failed gateway call into the *sqlerr.Error the
// shell prints: the root cause of the server's stack trace — the last
// "Caused by:" with a non-empty message, as the Flink SQL client's
// CliStrings.messageError walks the cause chain — with its short class
// name. A failure without a Java trace (the gateway unreachable, a bad
// answer) is an SqlExecutionException.
func statementError(err error) *sqlerr.Error {
	var he *HTTPError
	if errors.As(err, &he) {
		for i := len(he.Errors) - 1; i >= 0; i-- {
			if class, msg, ok := rootCause(he.Errors[i]); ok {
				return &sqlerr.Error{Class: class, Message: msg, Cause: err}
			}
		}
		if len(he.Errors) > 0 {
			return &sqlerr.Error{Class: classSQLExecution, Message: firstLine(he.Errors[len(he.Errors)-1]), Cause: err}
		}
	}
	var ee *sqlerr.Error
	if errors.As(err, &ee) {
		return ee
	}
	return &sqlerr.Error{Class: classSQLExecution, Message: err.Error(), Cause: err}
}

// rootCause reads a Java stack trace as the gateway sends it and returns
// the short class name and message of its innermost cause with a message.
// Messages may span several lines: everything up to the first "\tat" or
// "\t..." line belongs to the exception above it.
func rootCause(trace string) (class, msg string, ok bool) {
	type cause struct{ class, msg string }
	var causes []cause
	lines := strings.Split(trace, "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		head, isCause := strings.CutPrefix(line, "Caused by: ")
		if !isCause {
			if len(causes) > 0 || !looksLikeException(line) {
				continue
			}
			head = line // the outermost exception
		}
		c, m, _ := strings.Cut(head, ": ")
		if !looksLikeException(c) {
			continue
		}
		body := []string{m}
		for i+1 < len(lines) && !isTraceLine(lines[i+1]) {
			i++
			body = append(body, lines[i])
		}
		causes = append(causes, cause{class: shortClass(c), msg: strings.TrimRight(strings.Join(body, "\n"), "\n ")})
	}
	for i := len(causes) - 1; i >= 0; i-- {
		if strings.TrimSpace(causes[i].msg) != "" {
			return causes[i].class, causes[i].msg, true
		}
	}
	if len(causes) > 0 {
		return causes[0].class, causes[0].msg, true
	}
	return "", "", false
}

// isTraceLine reports a line that ends an exception's message: a stack
// frame, an elision, the next cause or the end of the server's trace.
func isTraceLine(line string) bool {
	t := strings.TrimLeft(line, " \t")
	return strings.HasPrefix(t, "at ") && strings.HasPrefix(line, "\t") ||
		strings.HasPrefix(t, "... ") && strings.HasPrefix(line, "\t") ||
		strings.HasPrefix(line, "Caused by: ") ||
		strings.HasPrefix(line, "Suppressed: ") ||
		strings.HasPrefix(line, "End of exception on server side")
}

// looksLikeException reports a fully qualified Java class name of an
// exception or error ("org.apache.flink.table.api.ValidationException").
func looksLikeException(s string) bool {
	if i := strings.Index(s, ": "); i >= 0 {
		s = s[:i]
	}
	if s == "" || strings.ContainsAny(s, " \t<>") || !strings.Contains(s, ".") {
		return false
	}
	short := shortClass(s)
	return strings.HasSuffix(short, "Exception") || strings.HasSuffix(short, "Error") ||
		strings.HasSuffix(short, "Throwable")
}

// shortClass drops the Java package (and an outer class) from a class name.
func shortClass(name string) string {
	if i := strings.LastIndexAny(name, ".$"); i >= 0 {
		return name[i+1:]
	}
	return name
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}
