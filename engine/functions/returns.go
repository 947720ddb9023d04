package functions

import (
	"eddy/engine/types"
)

// Result-type rules shared by the function families. Unless a rule says
// otherwise, the result is nullable when any operand is (NULL in, NULL out).

func opTypes(ops []Operand) []*types.Type {
	out := make([]*types.Type, len(ops))
	for i, op := range ops {
		out[i] = op.Type
	}
	return out
}

func opsNullable(ops []Operand) bool { return AnyNullable(opTypes(ops)...) }

// fixed returns t, nullable when any operand is.
func fixed(t *types.Type) ReturnFunc {
	return func(_ string, ops []Operand) (*types.Type, error) {
		return t.WithNullable(opsNullable(ops)), nil
	}
}

// notNull returns t NOT NULL whatever the operands.
func notNull(t *types.Type) ReturnFunc {
	nn := t.WithNullable(false)
	return func(string, []Operand) (*types.Type, error) { return nn, nil }
}

// alwaysNullable returns t nullable whatever the operands (functions that
// give NULL on bad input, such as REGEXP_EXTRACT or TO_TIMESTAMP).
func alwaysNullable(t *types.Type) ReturnFunc {
	nt := t.WithNullable(true)
	return func(string, []Operand) (*types.Type, error) { return nt, nil }
}

// typedArg returns operand i's type, failing for an untyped NULL.
func typedArg(ops []Operand, i int) (*types.Type, error) {
	t := ops[i].Type
	if t.Kind == types.Null {
		return nil, &NullIllegalError{}
	}
	return Plain(t), nil
}

// argType returns the type of operand i, nullable when any operand is.
func argType(i int) ReturnFunc {
	return func(_ string, ops []Operand) (*types.Type, error) {
		t, err := typedArg(ops, i)
		if err != nil {
			return nil, err
		}
		return t.WithNullable(opsNullable(ops)), nil
	}
}

// argNullable returns the type of operand i, always nullable.
func argNullable(i int) ReturnFunc {
	return func(_ string, ops []Operand) (*types.Type, error) {
		t, err := typedArg(ops, i)
		if err != nil {
			return nil, err
		}
		return t.WithNullable(true), nil
	}
}

// argVarying returns the type of operand i with CHAR(n) turned into
// VARCHAR(n) and BINARY(n) into VARBINARY(n) (Calcite's TO_VARYING).
func argVarying(i int) ReturnFunc {
	return func(_ string, ops []Operand) (*types.Type, error) {
		t, err := typedArg(ops, i)
		if err != nil {
			return nil, err
		}
		return varying(t).WithNullable(opsNullable(ops)), nil
	}
}

// argVaryingNullable is argVarying, always nullable.
func argVaryingNullable(i int) ReturnFunc {
	return func(_ string, ops []Operand) (*types.Type, error) {
		t, err := typedArg(ops, i)
		if err != nil {
			return nil, err
		}
		return varying(t).WithNullable(true), nil
	}
}

func varying(t *types.Type) *types.Type {
	switch t.Kind {
	case types.Char:
		return types.NewVarChar(t.Length)
	case types.Binary:
		return types.NewVarBinary(t.Length)
	}
	return t
}

// elemOf returns the element type of the array (or multiset) operand i,
// always nullable.
func elemOf(i int) ReturnFunc {
	return func(_ string, ops []Operand) (*types.Type, error) {
		t, err := typedArg(ops, i)
		if err != nil {
			return nil, err
		}
		return t.Elem.WithNullable(true), nil
	}
}

// common returns the common type of the operands from index from on,
// nullable when any of them is.
func common(from int) ReturnFunc {
	return func(name string, ops []Operand) (*types.Type, error) {
		ts := opTypes(ops[from:])
		t, ok := CommonType(ts...)
		if !ok {
			return nil, &InvalidCallError{Func: name, Args: opTypes(ops)}
		}
		if t.Kind == types.Null {
			return nil, &NullIllegalError{}
		}
		return t, nil
	}
}

// str is STRING, VARCHAR(2147483647).
func str() *types.Type { return types.NewString() }

func bigint() *types.Type  { return types.New(types.BigInt) }
func integer() *types.Type { return types.New(types.Int) }
func double() *types.Type  { return types.New(types.Double) }
func boolean() *types.Type { return types.New(types.Boolean) }
