package exec

import (
	"fmt"
	"strings"

	"eddy/engine/plan"
)

// Explain prints the operators Build makes of an (optimized) plan, one a
// line in the layout of plan.Format: each node's attributes under the
// name of the algorithm that runs it (HashJoin or StreamingJoin,
// HashAggregate, GroupAggregate or WindowAggregate, SortLimit, Rank or
// Deduplicate...). streaming is Options.Streaming.
func Explain(n plan.Node, streaming bool) string {
	return ExplainMiniBatch(n, streaming, MiniBatch{})
}

// ExplainMiniBatch is Explain under mini-batching (mb.Size > 0, streaming
// mode), which shows as Flink shows it: a MiniBatchAssigner over every
// scan, and a group aggregation split into phases as
// GlobalGroupAggregate over LocalGroupAggregate.
func ExplainMiniBatch(n plan.Node, streaming bool, mb MiniBatch) string {
	var b strings.Builder
	if !streaming {
		mb = MiniBatch{}
	}
	e := explainer{b: &b, r: plan.NewReuse(n), streaming: streaming, mb: mb}
	e.node(n, "", "")
	return b.String()
}

type explainer struct {
	b         *strings.Builder
	r         *plan.Reuse
	streaming bool
	mb        MiniBatch
}

func (e *explainer) node(n plan.Node, first, rest string) {
	b := e.b
	name := physicalName(n, e.streaming)
	attrs := ""
	if d := n.Describe(); strings.IndexByte(d, '(') >= 0 {
		attrs = d[strings.IndexByte(d, '('):]
	}
	local := false
	if e.mb.Size > 0 {
		switch x := n.(type) {
		case *plan.Aggregate:
			if name == "GroupAggregate" && e.mb.TwoPhase && len(x.GroupingSets) <= 1 && mergeable(x) {
				name, local = "GlobalGroupAggregate", true
			}
		case *plan.Scan:
			b.WriteString(first)
			fmt.Fprintf(b, "MiniBatchAssigner(interval=[%dms], mode=[ProcTime])\n", e.mb.Latency.Milliseconds())
			first, rest = rest+"+- ", rest+"   "
		}
	}
	b.WriteString(first)
	line, more := e.r.Line(n, name+attrs)
	b.WriteString(line)
	b.WriteByte('\n')
	if !more {
		return
	}
	if local {
		b.WriteString(rest + "+- LocalGroupAggregate" + attrs + "\n")
		rest += "   "
	}
	kids := n.Children()
	for i, c := range kids {
		if i == len(kids)-1 {
			e.node(c, rest+"+- ", rest+"   ")
		} else {
			e.node(c, rest+":- ", rest+":  ")
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
