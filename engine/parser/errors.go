package parser

import (
	"fmt"

	"eddy/engine/ast"
)

// Error is a lexical or syntax error. Msg is the complete message in
// Flink's words; Pos is relative to the parsed text.
type Error struct {
	Pos ast.Pos
	Msg string
	// Lexical marks errors of the tokenizer (Flink's TokenMgrError), the
	// rest are syntax errors (Flink's ParseException).
	Lexical bool
	// Incomplete marks a lexical error caused by the end of input inside
	// a literal, quoted identifier or comment: more input may complete it.
	Incomplete bool
	// Validation marks a well-formed type whose parameters Flink's type
	// classes reject (its ValidationException).
	Validation bool
}

func (e *Error) Error() string { return e.Msg }

// Class returns the Flink exception class the Flink SQL client shows as the
// root cause of such an error.
func (e *Error) Class() string {
	if e.Lexical {
		return "TokenMgrError"
	}
	if e.Validation {
		return "ValidationException"
	}
	return "ParseException"
}

// Position returns the 1-based line and column of the error.
func (e *Error) Position() (line, col int) { return e.Pos.Line, e.Pos.Col }

func lexError(pos ast.Pos, incomplete bool, format string, args ...any) *Error {
	return &Error{Pos: pos, Msg: fmt.Sprintf(format, args...), Lexical: true, Incomplete: incomplete}
}
