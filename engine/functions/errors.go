package functions

import (
	"fmt"
	"strings"

	"eddy/engine/types"
)

// classValidator is the short class name of Calcite's validation errors.
const classValidator = "SqlValidatorException"

// ArgCountError is a call with a number of arguments no overload takes;
// the text is Calcite's InvalidArgCount.
type ArgCountError struct {
	Func string
	Want int // the fewest arguments the function takes
}

func (e *ArgCountError) Error() string {
	return fmt.Sprintf("Invalid number of arguments to function '%s'. Was expecting %d arguments", e.Func, e.Want)
}

// Class returns the Flink exception class of the error.
func (*ArgCountError) Class() string { return classValidator }

// ArgTypeError is a call whose argument types fit none of the function's
// overloads; the text is Calcite's CanNotApplyOp2Type.
type ArgTypeError struct {
	Func  string
	Args  []*types.Type
	Forms []string // the supported signatures
}

func (e *ArgTypeError) Error() string {
	args := make([]string, len(e.Args))
	for i, a := range e.Args {
		args[i] = "<" + CalciteTypeString(a) + ">"
	}
	forms := make([]string, len(e.Forms))
	for i, f := range e.Forms {
		forms[i] = "'" + f + "'"
	}
	return fmt.Sprintf("Cannot apply '%s' to arguments of type '%s(%s)'. Supported form(s): %s",
		e.Func, e.Func, strings.Join(args, ", "), strings.Join(forms, "\n"))
}

// Class returns the Flink exception class of the error.
func (*ArgTypeError) Class() string { return classValidator }

// NullIllegalError is an untyped NULL where a function needs to know the
// argument's type (UPPER(NULL)); the text is Calcite's NullIllegal.
type NullIllegalError struct{}

func (*NullIllegalError) Error() string { return "Illegal use of 'NULL'" }

// Class returns the Flink exception class of the error.
func (*NullIllegalError) Class() string { return classValidator }

// InvalidCallError is Flink's own type-inference failure, for functions
// whose operands type-check but do not fit together (MAP_FROM_ARRAYS of
// arrays of different lengths is a runtime matter; ARRAY_CONTAINS of an
// element of the wrong type is this).
type InvalidCallError struct {
	Func string
	Args []*types.Type
}

func (e *InvalidCallError) Error() string {
	args := make([]string, len(e.Args))
	for i, a := range e.Args {
		args[i] = a.String()
	}
	return fmt.Sprintf("Invalid function call:\n%s(%s)", e.Func, strings.Join(args, ", "))
}

// Class returns the Flink exception class of the error.
func (*InvalidCallError) Class() string { return "ValidationException" }

// InputArgumentsError is Flink's own type inference rejecting a call's
// arguments (COALESCE of a STRING and an INT): "Invalid input arguments.",
// or Msg when Flink names the argument.
type InputArgumentsError struct {
	Msg string
}

func (e *InputArgumentsError) Error() string {
	if e.Msg != "" {
		return e.Msg
	}
	return "Invalid input arguments."
}

// Class returns the Flink exception class of the error.
func (*InputArgumentsError) Class() string { return "ValidationException" }

// ComparisonError is GREATEST or LEAST over values that do not compare
// with each other (Flink's comparable-arguments check).
type ComparisonError struct {
	Left, Right *types.Type
}

func (e *ComparisonError) Error() string {
	return fmt.Sprintf("All types in a comparison should support both 'EQUALS' and 'ORDER' comparison with each other. Can not compare %s with %s", e.Left, e.Right)
}

// Class returns the Flink exception class of the error.
func (*ComparisonError) Class() string { return "ValidationException" }

// MixingError is COALESCE over values without a common type, which Calcite
// rewrites to CASE and rejects with IllegalMixingOfTypes.
type MixingError struct{}

func (*MixingError) Error() string { return "Illegal mixing of types in CASE or COALESCE statement" }

// Class returns the Flink exception class of the error.
func (*MixingError) Class() string { return classValidator }
