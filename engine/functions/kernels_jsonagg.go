package functions

import (
	"eddy/engine/types"
	"eddy/engine/vector"
)

// JSON_ARRAYAGG(onNull, raw, item) and JSON_OBJECTAGG(onNull, raw, key,
// value) take the same leading constants as JSON_ARRAY and JSON_OBJECT:
// NULL or ABSENT, then "1" when the item (value) is JSON text of a JSON
// constructor. JSON_ARRAYAGG keeps input order and defaults to ABSENT ON
// NULL; JSON_OBJECTAGG defaults to NULL ON NULL, fails on a repeated key
// and writes its keys in order. Empty input gives [] and {}.

// FailingAccumulator is an Accumulator that can meet a row it cannot
// take; Err reports the first such failure, which fails the statement.
type FailingAccumulator interface {
	Accumulator
	Err() error
}

var (
	_ FailingAccumulator = (*jsonArrayAggAcc)(nil)
	_ FailingAccumulator = (*jsonObjectAggAcc)(nil)
)

func jsonAggKernel(name string, args []*types.Type) func() Accumulator {
	switch name {
	case "JSON_ARRAYAGG":
		return func() Accumulator { return &jsonArrayAggAcc{t: args[len(args)-1]} }
	case "JSON_OBJECTAGG":
		return func() Accumulator { return &jsonObjectAggAcc{t: args[len(args)-1], m: map[string]any{}} }
	}
	return nil
}

type jsonArrayAggAcc struct {
	t     *types.Type
	items []any
	err   error
}

// item returns the JSON value of row i, or ok false when it is left out.
func jsonAggItem(args []*vector.Vec, i int, t *types.Type) (v any, ok bool, err error) {
	last := args[len(args)-1]
	if last.IsNull(i) {
		return nil, asString(args[0].Get(i)) == "NULL", nil
	}
	v, err = jsonMember(last.Get(i), t, asString(args[1].Get(i)), 0)
	return v, true, err
}

func (a *jsonArrayAggAcc) Add(args []*vector.Vec, i int) {
	v, ok, err := jsonAggItem(args, i, a.t)
	if err != nil && a.err == nil {
		a.err = err
	}
	if ok {
		a.items = append(a.items, v)
	}
}

func (a *jsonArrayAggAcc) Retract(args []*vector.Vec, i int) bool {
	v, ok, _ := jsonAggItem(args, i, a.t)
	if !ok {
		return true
	}
	want, _ := marshalJSON(v)
	for k, x := range a.items {
		if s, _ := marshalJSON(x); s == want {
			a.items = append(a.items[:k], a.items[k+1:]...)
			return true
		}
	}
	return true
}

func (a *jsonArrayAggAcc) Result() any {
	items := a.items
	if items == nil {
		items = []any{}
	}
	s, _ := marshalJSON(items)
	return s
}

// Err reports a failure met while adding rows (a nested JSON value that
// does not parse).
func (a *jsonArrayAggAcc) Err() error { return a.err }

type jsonObjectAggAcc struct {
	t   *types.Type
	m   map[string]any
	err error
}

func (a *jsonObjectAggAcc) Add(args []*vector.Vec, i int) {
	key := args[2]
	if key.IsNull(i) {
		if a.err == nil {
			a.err = jsonError("JSON_OBJECTAGG key must not be NULL")
		}
		return
	}
	k := asString(key.Get(i))
	v, ok, err := jsonAggItem(args, i, a.t)
	if err != nil && a.err == nil {
		a.err = err
	}
	if !ok {
		return
	}
	if _, dup := a.m[k]; dup && a.err == nil {
		a.err = jsonError("Key '%s' is already present.", k)
	}
	a.m[k] = v
}

func (a *jsonObjectAggAcc) Retract(args []*vector.Vec, i int) bool {
	if !args[2].IsNull(i) {
		delete(a.m, asString(args[2].Get(i)))
	}
	return true
}

func (a *jsonObjectAggAcc) Result() any {
	s, _ := marshalJSON(a.m)
	return s
}

// Err reports a failure met while adding rows (a NULL or repeated key).
func (a *jsonObjectAggAcc) Err() error { return a.err }
