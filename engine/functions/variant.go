package functions

import (
	"fmt"
	"strings"

	"eddy/engine/types"
)

// VARIANT functions of Flink 2.2 (FLIP-521): PARSE_JSON(json [,
// allowDuplicateKeys]) and TRY_PARSE_JSON, which gives NULL where
// PARSE_JSON fails. Flink 2.2 has no other function over VARIANT: no
// element access (ITEM), no CAST to or from it; = and <> compare encodings.
func (r *Registry) addVariant() {
	for _, name := range []string{"PARSE_JSON", "TRY_PARSE_JSON"} {
		f := r.scalar(name, parseJSONReturn(name == "TRY_PARSE_JSON"),
			sig(Any).shown("CHARACTER_STRING"), sig(Any, Any).shown("CHARACTER_STRING", "BOOLEAN"))
		f.ArgCount = parseJSONArgCount
	}
}

// parseJSONArgCount is Calcite's message for a call of PARSE_JSON or
// TRY_PARSE_JSON with a number of arguments neither signature takes.
func parseJSONArgCount(name string, ops []Operand) error {
	args := make([]*types.Type, len(ops))
	for i, op := range ops {
		args[i] = op.Type
	}
	return &SignatureError{Func: name, Args: args, Forms: parseJSONSignatures(name)}
}

// parseJSONSignatures are the forms Flink lists for PARSE_JSON and
// TRY_PARSE_JSON.
func parseJSONSignatures(name string) []string {
	return []string{name + "(<CHARACTER_STRING>)", name + "(<CHARACTER_STRING>, <BOOLEAN>)"}
}

// parseJSONReturn types PARSE_JSON and TRY_PARSE_JSON: VARIANT, nullable
// when an argument is (PARSE_JSON) or always (TRY_PARSE_JSON).
func parseJSONReturn(try bool) ReturnFunc {
	return func(name string, ops []Operand) (*types.Type, error) {
		if k := ops[0].Type.Kind; !k.IsCharacterString() && k != types.Null {
			return nil, &InputArgumentsError{}
		}
		if len(ops) == 2 {
			if k := ops[1].Type.Kind; k != types.Boolean && k != types.Null {
				return nil, &InputArgumentsError{}
			}
		}
		return types.New(types.Variant).WithNullable(try || opsNullable(ops)), nil
	}
}

// parseJSONKernel parses each row's text; TRY_PARSE_JSON turns a failure
// into NULL. A NULL flag reads as FALSE.
func parseJSONKernel(name string, ret *types.Type) ScalarKernel {
	try := name == "TRY_PARSE_JSON"
	return lenient(ret, func(_ *Env, a []any) (any, error) {
		if a[0] == nil {
			return nil, nil
		}
		allowDup := len(a) > 1 && a[1] == true
		v, err := types.ParseVariant(asString(a[0]), allowDup)
		if err != nil {
			if try {
				return nil, nil
			}
			if pe, ok := err.(*types.JSONParseError); ok {
				return nil, &EvalError{Exception: pe.Exception, Msg: pe.Msg}
			}
			return nil, err
		}
		return v, nil
	})
}

// SignatureError is a call of a function with Flink's own type inference
// whose number of arguments fits none of its signatures; the text is
// Calcite's validator message with Flink's list of signatures.
type SignatureError struct {
	Func  string
	Args  []*types.Type
	Forms []string
}

func (e *SignatureError) Error() string {
	args := make([]string, len(e.Args))
	for i, a := range e.Args {
		args[i] = "<" + CalciteFamily(a) + ">"
	}
	return fmt.Sprintf("No match found for function signature %s(%s).\nSupported signatures are:\n%s",
		e.Func, strings.Join(args, ", "), strings.Join(e.Forms, "\n"))
}

// Class returns the Flink exception class of the error.
func (*SignatureError) Class() string { return classValidator }

// Unwrap makes the error an *ArgCountError to callers that ask (errors.As).
func (e *SignatureError) Unwrap() error { return &ArgCountError{Func: e.Func, Want: 1} }

// notVariant refuses a VARIANT argument where Flink's planner has no
// aggregate for it (MIN and MAX), and otherwise types the call with ret.
func notVariant(label string, ret ReturnFunc) ReturnFunc {
	return func(name string, ops []Operand) (*types.Type, error) {
		if len(ops) > 0 && ops[0].Type.Kind == types.Variant {
			return nil, &TableError{Msg: fmt.Sprintf(
				"%s aggregate function does not support type: ''VARIANT''.\nPlease re-check the data type.", label)}
		}
		return ret(name, ops)
	}
}

// TableError is a call the planner refuses after validation (Flink's
// TableException).
type TableError struct{ Msg string }

func (e *TableError) Error() string { return e.Msg }

// Class returns the Flink exception class of the error.
func (*TableError) Class() string { return "TableException" }

// CodeGenError is a call Flink's code generator refuses
// (CodeGenException), such as JSON_EXISTS over a VARIANT.
type CodeGenError struct{ Msg string }

func (e *CodeGenError) Error() string { return e.Msg }

// Class returns the Flink exception class of the error.
func (*CodeGenError) Class() string { return "CodeGenException" }
