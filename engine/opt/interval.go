package opt

import (
	"eddy/engine/plan"
	"eddy/engine/sqlerr"
	"eddy/engine/types"
)

// timedJoin returns the physical join Flink's planner chooses for a
// streaming join of two insert-only inputs whose condition ties their
// times: a window join when it equates both window_start and window_end
// of two windowed inputs (windowJoin), else an interval join when it
// bounds the distance between an event-time attribute of each side from
// below and above; nil for a regular join.
//
// Either join of an input that updates is Flink's error.
func timedJoin(j *plan.Join, src Sources) (plan.Node, error) {
	switch j.Kind {
	case plan.InnerJoin, plan.LeftJoin, plan.RightJoin, plan.FullJoin:
	default:
		return nil, nil
	}
	var tj plan.Node
	name := "StreamPhysicalWindowJoin"
	if tj = windowJoin(j); tj == nil {
		tj, name = intervalJoin(j), "StreamPhysicalIntervalJoin"
	}
	if tj == nil {
		return nil, nil
	}
	for _, in := range []plan.Node{j.Left, j.Right} {
		if p := updateProducer(in, src); p != nil {
			return nil, sqlerr.Errorf(sqlerr.TableException,
				"%s doesn't support consuming update and delete changes which is produced by node %s", name, p.Describe())
		}
	}
	return tj, nil
}

// updateProducer returns the node that makes n's rows carry updates,
// below the projections and filters that pass them on, or nil when n is
// insert-only.
func updateProducer(n plan.Node, src Sources) plan.Node {
	if !updating(n, src) {
		return nil
	}
	switch x := n.(type) {
	case *plan.Project:
		if p := updateProducer(x.Input, src); p != nil {
			return p
		}
	case *plan.Filter:
		if p := updateProducer(x.Input, src); p != nil {
			return p
		}
	}
	return n
}

// intervalJoin recognises the time bounds of an interval join among the
// conjuncts of j's residual condition.
func intervalJoin(j *plan.Join) plan.Node {
	nLeft := len(j.Left.Schema())
	l, r := j.Left.Schema(), j.Right.Schema()
	lt, rt := -1, -1
	var lower, upper int64
	hasLower, hasUpper := false, false
	for _, c := range plan.Conjuncts(j.Residual) {
		call, ok := c.(*plan.Call)
		if !ok || call.Func != nil || len(call.Args) != 2 {
			continue
		}
		ca, oa, ok1 := timeTerm(call.Args[0])
		cb, ob, ok2 := timeTerm(call.Args[1])
		if !ok1 || !ok2 {
			continue
		}
		op := call.Name
		// ca + oa  op  cb + ob, with ca of the left side: ca - cb op ob - oa.
		if ca >= nLeft && cb < nLeft {
			ca, cb, oa, ob = cb, ca, ob, oa
			op = flipCompare(op)
		}
		if ca >= nLeft || cb < nLeft {
			continue
		}
		cb -= nLeft
		if l[ca].Type.TimeAttr != types.Rowtime || r[cb].Type.TimeAttr != types.Rowtime {
			continue
		}
		if (lt >= 0 && lt != ca) || (rt >= 0 && rt != cb) {
			return nil
		}
		lt, rt = ca, cb
		k := ob - oa
		switch op {
		case plan.OpGe:
			lower, hasLower = maxIf(hasLower, lower, k), true
		case plan.OpGt:
			lower, hasLower = maxIf(hasLower, lower, k+1), true
		case plan.OpLe:
			upper, hasUpper = minIf(hasUpper, upper, k), true
		case plan.OpLt:
			upper, hasUpper = minIf(hasUpper, upper, k-1), true
		}
	}
	if !hasLower || !hasUpper {
		return nil
	}
	return &plan.IntervalJoin{Kind: j.Kind, Left: j.Left, Right: j.Right, EquiKeys: j.EquiKeys, Residual: j.Residual,
		LeftTime: lt, RightTime: rt, Lower: lower, Upper: upper}
}

func maxIf(has bool, cur, v int64) int64 {
	if has && cur > v {
		return cur
	}
	return v
}

func minIf(has bool, cur, v int64) int64 {
	if has && cur < v {
		return cur
	}
	return v
}

// flipCompare returns the comparison with its operands swapped.
func flipCompare(op string) string {
	switch op {
	case plan.OpLt:
		return plan.OpGt
	case plan.OpLe:
		return plan.OpGe
	case plan.OpGt:
		return plan.OpLt
	case plan.OpGe:
		return plan.OpLe
	}
	return op
}

// timeTerm reads a column, or a column plus or minus a day-time interval
// literal, as the column and the offset in milliseconds.
func timeTerm(e plan.Expr) (int, int64, bool) {
	switch x := e.(type) {
	case *plan.ColumnRef:
		return x.Index, 0, true
	case *plan.Call:
		if x.Func != nil || len(x.Args) != 2 || (x.Name != plan.OpAdd && x.Name != plan.OpSub) {
			return 0, 0, false
		}
		col, lit := x.Args[0], x.Args[1]
		if _, ok := col.(*plan.Literal); ok && x.Name == plan.OpAdd {
			col, lit = lit, col
		}
		r, ok := col.(*plan.ColumnRef)
		l, lok := lit.(*plan.Literal)
		if !ok || !lok || l.T.Kind != types.IntervalDayTime {
			return 0, 0, false
		}
		ms, ok := types.AsInt64(l.Value)
		if !ok {
			return 0, 0, false
		}
		if x.Name == plan.OpSub {
			ms = -ms
		}
		return r.Index, ms, true
	}
	return 0, 0, false
}
