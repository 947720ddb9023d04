package functions

import (
	"fmt"
	"strings"

	"eddy/engine/types"
)

// JSON functions (types-and-functions.md §5). The ON EMPTY / ON ERROR /
// RETURNING clauses are the parser's; these are the plain call forms.
func (r *Registry) addJSON() {
	r.scalar("JSON_EXISTS", jsonOverVariant(false, alwaysNullable(boolean())), sig(Any, Character).shown("CHARACTER"))
	r.scalar("JSON_STRING", jsonStringReturn, sig(Any))
	r.scalar("JSON_VALUE", jsonOverVariant(true, alwaysNullable(str())), sig(Any, Character).shown("CHARACTER"))
	r.scalar("JSON_QUERY", jsonOverVariant(true, alwaysNullable(str())), sig(Any, Character).shown("CHARACTER"))
	r.scalar("JSON_OBJECT", notNull(str()), varsig(0, Character, Any))
	r.scalar("JSON_ARRAY", notNull(str()), varsig(0, Any))
	r.scalar("IS_JSON", fixed(boolean()), sig(Character))
	// JSON(s) marks JSON text that JSON_OBJECT and JSON_ARRAY insert as JSON
	// rather than as a string.
	r.scalar("JSON", alwaysNullable(str()), sig(Character))
	r.scalar("JSON_QUOTE", characterOnly, sig(Any))
	r.scalar("JSON_UNQUOTE", characterOnly, sig(Any))
}

// characterOnly types JSON_QUOTE and JSON_UNQUOTE: STRING over a character
// string, with the message of Flink's family check otherwise.
func characterOnly(_ string, ops []Operand) (*types.Type, error) {
	if t := ops[0].Type; !t.Kind.IsCharacterString() && t.Kind != types.Null {
		return nil, &InputArgumentsError{Msg: fmt.Sprintf(
			"Unsupported argument type. Expected type of family 'CHARACTER_STRING' but actual type was '%s'.", t)}
	}
	return str().WithNullable(opsNullable(ops)), nil
}

// jsonStringReturn types JSON_STRING: STRING, nullable with its argument.
// Flink 2.2's JSON_STRING takes no VARIANT and says so with its
// character-string family check.
func jsonStringReturn(name string, ops []Operand) (*types.Type, error) {
	if t := ops[0].Type; t.Kind == types.Variant {
		return nil, &InputArgumentsError{Msg: fmt.Sprintf(
			"Unsupported argument type. Expected type of family 'CHARACTER_STRING' but actual type was '%s'.", t)}
	}
	return fixed(str())(name, ops)
}

// jsonOverVariant types the SQL/JSON functions whose document is their
// first argument: a character string, or in Flink 2.2 a VARIANT, which
// JSON_VALUE and JSON_QUERY read as its JSON text and JSON_EXISTS's code
// generator refuses. Other types fail with Calcite's message for the
// functions' CHARACTER signature.
func jsonOverVariant(variant bool, ret ReturnFunc) ReturnFunc {
	return func(name string, ops []Operand) (*types.Type, error) {
		switch t := ops[0].Type; {
		case t.Kind == types.Variant && !variant:
			args := make([]string, len(ops))
			for i, op := range ops {
				args[i] = op.Type.String()
			}
			return nil, &CodeGenError{Msg: fmt.Sprintf("Unsupported call: %s(%s) \n"+
				"If you think this function should be supported, you can create an issue and start a discussion for it.",
				name, strings.Join(args, ", "))}
		case t.Kind != types.Variant && !Character.Accepts(t):
			args := make([]*types.Type, len(ops))
			for i, op := range ops {
				args[i] = op.Type
			}
			return nil, &ArgTypeError{Func: name, Args: args, Forms: []string{name + "(<CHARACTER>, <CHARACTER>)"}}
		}
		return ret(name, ops)
	}
}
