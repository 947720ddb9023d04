package exec

import (
	"eddy/engine/functions"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// retractable makes every accumulator of an aggregate over an updating
// input (a streaming join, a Top-N, another aggregate) able to retract,
// as Flink's *WithRetract aggregate functions (MAX, MIN, FIRST_VALUE,
// LISTAGG...) are: accumulators that retract by themselves do so; for the
// others the argument rows added so far are kept, a retraction removes
// one equal row, and the result is recomputed from the rows left.
func retractable(newAcc func() functions.Accumulator, argTypes []*types.Type, updating bool) func() functions.Accumulator {
	if newAcc == nil || !updating || retractsNatively(newAcc, argTypes) {
		return newAcc
	}
	return func() functions.Accumulator { return &replayAcc{newAcc: newAcc, inner: newAcc(), native: true} }
}

// retractsNatively asks a fresh accumulator to retract a row of NULLs.
func retractsNatively(newAcc func() functions.Accumulator, argTypes []*types.Type) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	args := make([]*vector.Vec, len(argTypes))
	for k, t := range argTypes {
		args[k] = vector.New(t, 1)
		args[k].AppendNull()
	}
	return newAcc().Retract(args, 0)
}

type replayAcc struct {
	newAcc func() functions.Accumulator
	inner  functions.Accumulator
	rows   *vector.Batch // the argument rows added and not retracted
	native bool          // every retraction so far was the inner accumulator's own
	dirty  bool          // inner does not reflect rows
}

func (a *replayAcc) Add(args []*vector.Vec, i int) {
	if a.rows == nil {
		ts := make([]*types.Type, len(args))
		for k, v := range args {
			ts[k] = v.T
		}
		a.rows = vector.NewBatch(ts, 4)
	}
	vals := make([]any, len(args))
	for k, v := range args {
		vals[k] = v.Get(i)
	}
	a.rows.AppendRow(types.Insert, vals)
	if !a.dirty {
		a.inner.Add(args, i)
	}
}

func (a *replayAcc) Retract(args []*vector.Vec, i int) bool {
	if a.rows == nil {
		return true
	}
	vals := make([]any, len(args))
	for k, v := range args {
		vals[k] = v.Get(i)
	}
	pos := -1
	for j := range a.rows.N {
		if sameRow(a.rows.Row(j), vals) {
			pos = j
			break
		}
	}
	if pos < 0 {
		return true // never added: nothing to undo
	}
	sel := make([]int, 0, a.rows.N-1)
	for j := range a.rows.N {
		if j != pos {
			sel = append(sel, j)
		}
	}
	a.rows = a.rows.Gather(sel)
	if a.native && !a.dirty && a.inner.Retract(args, i) {
		return true
	}
	a.native, a.dirty = false, true
	return true
}

func (a *replayAcc) Result() any {
	if a.dirty {
		a.inner = a.newAcc()
		if a.rows != nil {
			for j := range a.rows.N {
				a.inner.Add(a.rows.Cols, j)
			}
		}
		a.dirty = false
	}
	return a.inner.Result()
}
