package exec

import (
	"strings"

	"eddy/engine/plan"
)

// Explain prints the operators Build makes of an (optimized) plan, one a
// line in the layout of plan.Format: each node's attributes under the
// name of the algorithm that runs it (HashJoin or StreamingJoin,
// HashAggregate, GroupAggregate or WindowAggregate, SortLimit, Rank or
// Deduplicate...). streaming is Options.Streaming.
func Explain(n plan.Node, streaming bool) string {
	var b strings.Builder
	explainNode(&b, plan.NewReuse(n), n, streaming, "", "")
	return b.String()
}

func explainNode(b *strings.Builder, r *plan.Reuse, n plan.Node, streaming bool, first, rest string) {
	b.WriteString(first)
	line := physicalName(n, streaming)
	d := n.Describe()
	if i := strings.IndexByte(d, '('); i >= 0 {
		line += d[i:]
	}
	line, more := r.Line(n, line)
	b.WriteString(line)
	b.WriteByte('\n')
	if !more {
		return
	}
	kids := n.Children()
	for i, c := range kids {
		if i == len(kids)-1 {
			explainNode(b, r, c, streaming, rest+"+- ", rest+"   ")
		} else {
			explainNode(b, r, c, streaming, rest+":- ", rest+":  ")
		}
	}
}

// physicalName names the operator Build chooses for n.
func physicalName(n plan.Node, streaming bool) string {
	switch x := n.(type) {
	case *plan.Scan:
		return "TableSourceScan"
	case *plan.Values:
		return "Values"
	case *plan.Project:
		return "Calc"
	case *plan.Filter:
		return "Calc"
	case *plan.Sink:
		return "Sink"
	case *plan.Join:
		if streaming && x.Strategy != plan.JoinHash {
			return "StreamingJoin"
		}
		if len(x.EquiKeys) == 0 {
			return "NestedLoopJoin"
		}
		return "HashJoin"
	case *plan.Aggregate:
		if w, ok := x.Input.(*plan.WindowTVF); ok && streaming && x.GroupingSets == nil && x.GroupsByWindow(w) {
			return "WindowAggregate"
		}
		if streaming {
			return "GroupAggregate"
		}
		return "HashAggregate"
	case *plan.Limit:
		if _, ok := x.Input.(*plan.Sort); ok && x.Fetch >= 0 && !streaming {
			return "SortLimit"
		}
		return "Limit"
	case *plan.Sort:
		return "Sort"
	case *plan.Over:
		return "OverAggregate"
	case *plan.TopN:
		return rankName(x)
	case *plan.SetOp:
		return "SetOp"
	case *plan.Correlate:
		return "Correlate"
	case *plan.Unnest:
		return "Unnest"
	case *plan.WindowTVF:
		return "WindowTableFunction"
	case *plan.Match:
		return "Match"
	}
	d := n.Describe()
	if i := strings.IndexByte(d, '('); i >= 0 {
		return d[:i]
	}
	return d
}

// rankName names the algorithm rankOver picks for a Top-N.
func rankName(n *plan.TopN) string { return rankAlgoNames[chooseRank(n)] }
