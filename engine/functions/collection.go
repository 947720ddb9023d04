package functions

import (
	"eddy/engine/types"
)

// Collection functions (types-and-functions.md §5). ARRAY[...], MAP[...],
// ROW(...) and element access are typed by the validator.
func (r *Registry) addCollection() {
	r.scalar("CARDINALITY", fixed(integer()), sig(Collection))
	r.scalar("ELEMENT", elemOf(0), sig(ArrayF), sig(MultisetF))
	r.scalar("ARRAY_CONTAINS", arrayWithElem(fixed(boolean())), sig(ArrayF, Any))
	r.scalar("ARRAY_POSITION", arrayWithElem(fixed(integer())), sig(ArrayF, Any))
	r.scalar("ARRAY_REMOVE", arrayWithElem(argType(0)), sig(ArrayF, Any))
	r.scalar("ARRAY_APPEND", arrayWithElem(argType(0)), sig(ArrayF, Any))
	r.scalar("ARRAY_PREPEND", arrayWithElem(argType(0)), sig(ArrayF, Any))
	r.scalar("ARRAY_DISTINCT", argType(0), sig(ArrayF))
	r.scalar("ARRAY_REVERSE", argType(0), sig(ArrayF))
	r.scalar("ARRAY_SORT", argType(0), sig(ArrayF), sig(ArrayF, Boolean), sig(ArrayF, Boolean, Boolean))
	r.scalar("ARRAY_SLICE", argNullable(0), sig(ArrayF, Integer), sig(ArrayF, Integer, Integer))
	r.scalar("ARRAY_CONCAT", common(0), varsig(1, ArrayF))
	r.scalar("ARRAY_UNION", common(0), sig(ArrayF, ArrayF))
	r.scalar("ARRAY_INTERSECT", common(0), sig(ArrayF, ArrayF))
	r.scalar("ARRAY_EXCEPT", common(0), sig(ArrayF, ArrayF))
	r.scalar("ARRAY_MAX", elemOf(0), sig(ArrayF))
	r.scalar("ARRAY_MIN", elemOf(0), sig(ArrayF))
	r.scalar("ARRAY_JOIN", fixed(str()), sig(ArrayF, Character), sig(ArrayF, Character, Character))
	r.scalar("MAP_KEYS", mapPart(func(m *types.Type) *types.Type { return types.NewArray(m.Elem) }), sig(MapF))
	r.scalar("MAP_VALUES", mapPart(func(m *types.Type) *types.Type { return types.NewArray(m.Val) }), sig(MapF))
	r.scalar("MAP_ENTRIES", mapPart(func(m *types.Type) *types.Type {
		return types.NewArray(types.NewRow(types.Field{Name: "key", Type: m.Elem}, types.Field{Name: "value", Type: m.Val}))
	}), sig(MapF))
	r.scalar("MAP_FROM_ARRAYS", mapFromArrays, sig(ArrayF, ArrayF))
	r.scalar("MAP_UNION", common(0), varsig(1, MapF))
}

// arrayWithElem checks that the second operand fits the array's elements
// before applying ret.
func arrayWithElem(ret ReturnFunc) ReturnFunc {
	return func(name string, ops []Operand) (*types.Type, error) {
		a, e := ops[0].Type, ops[1].Type
		if a.Kind == types.Array && e.Kind != types.Null {
			if _, ok := CommonType(a.Elem, e); !ok {
				return nil, &InvalidCallError{Func: name, Args: opTypes(ops)}
			}
		}
		return ret(name, ops)
	}
}

func mapPart(part func(m *types.Type) *types.Type) ReturnFunc {
	return func(_ string, ops []Operand) (*types.Type, error) {
		m, err := typedArg(ops, 0)
		if err != nil {
			return nil, err
		}
		return part(m).WithNullable(m.Nullable()), nil
	}
}

func mapFromArrays(_ string, ops []Operand) (*types.Type, error) {
	k, err := typedArg(ops, 0)
	if err != nil {
		return nil, err
	}
	v, err := typedArg(ops, 1)
	if err != nil {
		return nil, err
	}
	return types.NewMap(k.Elem, v.Elem).WithNullable(opsNullable(ops)), nil
}
