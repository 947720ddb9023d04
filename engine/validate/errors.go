package validate

import (
	"fmt"

	"eddy/engine/ast"
)

// Kind is a class of validation error. Tests and callers match kinds with
// errors.Is; the kind decides the Flink exception class.
type Kind struct {
	name  string
	class string
}

func (k *Kind) Error() string { return k.name }

// Class returns the short Flink exception class of errors of this kind.
func (k *Kind) Class() string { return k.class }

const (
	classCalcite = "SqlValidatorException"
	classFlink   = "ValidationException"
)

// Error kinds.
var (
	ErrColumnNotFound  = &Kind{"column not found", classCalcite}
	ErrTableNotFound   = &Kind{"table not found", classCalcite}
	ErrColumnAmbiguous = &Kind{"ambiguous column", classCalcite}
	ErrUnknownField    = &Kind{"unknown field", classCalcite}
	ErrUnknownFunction = &Kind{"unknown function", classCalcite}
	ErrArgCount        = &Kind{"wrong number of arguments", classCalcite}
	ErrCannotApply     = &Kind{"operand types do not fit", classCalcite}
	ErrCast            = &Kind{"invalid cast", classCalcite}
	ErrIncompatible    = &Kind{"incompatible types", classCalcite}
	ErrNullIllegal     = &Kind{"illegal NULL", classCalcite}
	ErrExpectedBoolean = &Kind{"boolean expected", classCalcite}
	ErrLiteral         = &Kind{"invalid literal", classCalcite}
	// ErrCastNumericTime is a CAST of a number to a timestamp, which
	// Flink refuses before Calcite's castability check.
	ErrCastNumericTime  = &Kind{"numeric to timestamp cast", classFlink}
	ErrInvalidCall      = &Kind{"invalid function call", classFlink}
	ErrNotSupported     = &Kind{"not supported here", classFlink}
	ErrWatermark        = &Kind{"invalid watermark", classFlink}
	ErrAggregateMisused = &Kind{"aggregate misused", classCalcite}
	// ErrArithmetic is an arithmetic failure Flink's planner meets while
	// reducing a constant (Calcite's BigDecimal division by zero).
	ErrArithmetic = &Kind{"arithmetic failure", "ArithmeticException"}
)

// Error is a validation error at a position of the statement.
type Error struct {
	Pos   ast.Pos
	Msg   string
	Kind  *Kind
	Cause error // the error of a lower layer (a function's type inference), or nil
}

func (e *Error) Error() string { return e.Msg }

// Class returns the short Flink exception class.
func (e *Error) Class() string { return e.Kind.class }

// Position returns the 1-based line and column the error points at.
func (e *Error) Position() (line, col int) { return e.Pos.Line, e.Pos.Col }

// Unwrap lets errors.Is find the kind and errors.As the cause.
func (e *Error) Unwrap() []error {
	if e.Cause != nil {
		return []error{e.Kind, e.Cause}
	}
	return []error{e.Kind}
}

func errorf(pos ast.Pos, kind *Kind, format string, args ...any) *Error {
	return &Error{Pos: pos, Kind: kind, Msg: fmt.Sprintf(format, args...)}
}
