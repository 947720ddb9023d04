package gateway

import (
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"eddy/engine/sqlerr"
)

func recordedError(t *testing.T, name string) *HTTPError {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "responses", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	return newHTTPError(http.MethodGet, "/v3/sessions/s/operations/o/result/0", 500, data)
}

func TestRecordedErrorsGiveRootCause(t *testing.T) {
	cases := []struct{ name, class, msg string }{
		{"nosuch.0", "SqlValidatorException", "Object 'nosuch' not found"},
		{"parse.0", "CalciteException", "Non-query expression encountered in illegal context"},
		{"mapkey.0", "SqlExecutionException", "Internal server error. Could not map response to JSON."},
	}
	for _, c := range cases {
		e := statementError(recordedError(t, c.name))
		if e.Class != c.class || e.Message != c.msg {
			t.Errorf("%s: got %s: %s, want %s: %s", c.name, e.Class, e.Message, c.class, c.msg)
		}
		var he *HTTPError
		if !errors.As(e, &he) {
			t.Errorf("%s: the HTTP error is not kept as the cause", c.name)
		}
	}
}

func TestRootCause(t *testing.T) {
	cases := []struct{ trace, class, msg string }{
		{
			// A multi-line message, and a deeper cause without a message.
			"<Exception on server side:\norg.apache.flink.table.api.TableException: outer\n\tat a.b(C.java:1)\n" +
				"Caused by: org.apache.flink.table.api.ValidationException: line one\nline two\n\tat x.y(Z.java:2)\n" +
				"Caused by: java.lang.NullPointerException\n\t... 3 more\n\nEnd of exception on server side>",
			"ValidationException", "line one\nline two",
		},
		{
			"org.apache.flink.runtime.rest.handler.RestHandlerException: Bad request, could not parse parameters\n\tat a.b(C.java:1)\n",
			"RestHandlerException", "Bad request, could not parse parameters",
		},
		{
			"Caused by: org.apache.flink.table.api.SqlParserException$InnerException: nested class: with colon\n\tat a.b(C.java:1)",
			"InnerException", "nested class: with colon",
		},
	}
	for _, c := range cases {
		class, msg, ok := rootCause(c.trace)
		if !ok || class != c.class || msg != c.msg {
			t.Errorf("rootCause: got %q %q %v, want %q %q", class, msg, ok, c.class, c.msg)
		}
	}
	if _, _, ok := rootCause("Internal server error."); ok {
		t.Error("a message without a Java exception has no root cause")
	}
}

func TestStatementErrorWithoutTrace(t *testing.T) {
	e := statementError(fmt.Errorf("dial tcp: connection refused"))
	if e.Class != classSQLExecution || e.Message != "dial tcp: connection refused" {
		t.Errorf("got %s: %s", e.Class, e.Message)
	}
	orig := &sqlerr.Error{Class: "ValidationException", Message: "m"}
	if got := statementError(fmt.Errorf("wrapped: %w", orig)); got != orig {
		t.Errorf("an sqlerr.Error is kept: got %v", got)
	}
}
