package functions

import (
	"math"
	"sort"

	"eddy/engine/types"
	"eddy/engine/vector"
)

// percentileAcc is PERCENTILE(value, percentage[, frequency]) as Flink's
// PercentileAggFunction computes it: the continuous percentile of the
// non-null values, each counted frequency times (a NULL or non-positive
// frequency skips the row), interpolating linearly between the two values
// around position percentage*(n-1)+1. The percentage is taken from the
// first row added.
type percentileAcc struct {
	pct    float64
	hasPct bool
	counts map[float64]int64
}

func (a *percentileAcc) update(args []*vector.Vec, i int, sign int64) {
	if !a.hasPct && !args[1].IsNull(i) {
		a.pct, a.hasPct = toFloat(args[1].Get(i)), true
	}
	freq := int64(1)
	if len(args) > 2 {
		if args[2].IsNull(i) {
			return
		}
		f, _ := types.AsInt64(args[2].Get(i))
		if f <= 0 {
			return
		}
		freq = f
	}
	if args[0].IsNull(i) {
		return
	}
	if a.counts == nil {
		a.counts = map[float64]int64{}
	}
	v := toFloat(args[0].Get(i))
	if c := a.counts[v] + sign*freq; c != 0 {
		a.counts[v] = c
	} else {
		delete(a.counts, v)
	}
}

func (a *percentileAcc) Add(args []*vector.Vec, i int) { a.update(args, i, 1) }

func (a *percentileAcc) Retract(args []*vector.Vec, i int) bool {
	a.update(args, i, -1)
	return true
}

func (a *percentileAcc) Result() any {
	if !a.hasPct {
		return nil
	}
	keys := make([]float64, 0, len(a.counts))
	var total int64
	for k, c := range a.counts {
		keys = append(keys, k)
		total += c
	}
	if total <= 0 {
		return nil
	}
	sort.Float64s(keys)
	pos := a.pct*float64(total-1) + 1
	lower, higher := int64(math.Floor(pos)), int64(math.Ceil(pos))
	j, pre := 0, a.counts[keys[0]]
	for pre < lower {
		j++
		pre += a.counts[keys[j]]
	}
	if pre >= higher {
		return keys[j]
	}
	return (float64(higher)-pos)*keys[j] + (pos-float64(lower))*keys[j+1]
}
