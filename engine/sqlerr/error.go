package sqlerr

import (
	"errors"
	"fmt"
)

// Error is how every failed statement reaches the shell: Flink's short
// exception class name, the root-cause message, and where in the statement
// the problem is (Line 0 when unknown). The REPL prints
// "[ERROR] Could not execute SQL statement. Reason:" then "Class: Message".
type Error struct {
	Class   string // ValidationException, SqlParserException, ...
	Message string
	Line    int // 1-based; 0 if unknown
	Col     int // 1-based; 0 if unknown
	Cause   error
}

func (e *Error) Error() string { return e.Class + ": " + e.Message }

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Cause }

// Classed is implemented by error kinds that know their Flink exception
// class (catalog errors, validation errors, parser errors).
type Classed interface {
	error
	Class() string
}

// Positioned is implemented by errors that point into the statement text.
type Positioned interface {
	Position() (line, col int)
}

// As turns any error into an *Error. An error that knows its class keeps
// it; anything else becomes a TableException, Flink's generic table-API
// failure. As(nil) is nil.
func As(err error) *Error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	out := &Error{Class: TableException, Message: err.Error(), Cause: err}
	var c Classed
	if errors.As(err, &c) {
		out.Class = c.Class()
		out.Message = c.Error()
	}
	var p Positioned
	if errors.As(err, &p) {
		out.Line, out.Col = p.Position()
	}
	return out
}

// Errorf builds an *Error of the given class.
func Errorf(class, format string, args ...any) *Error {
	return &Error{Class: class, Message: fmt.Sprintf(format, args...)}
}
