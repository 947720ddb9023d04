package engine

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"eddy/engine/connectors"
	"eddy/engine/opt"
	"eddy/engine/plan"
	"eddy/engine/sink"
	"eddy/engine/sqlerr"
	"eddy/engine/types"
)

// Checks Flink's streaming planner makes on a whole plan, with its texts.

// streamingSort refuses, in streaming mode, a query's final ORDER BY
// without a LIMIT whose first key is not an ascending time attribute
// (Flink plans only a temporal sort there). Only the sort at the top of
// the statement's plan is checked: sorts inside a sub-query are dropped.
func streamingSort(n plan.Node) error {
	for {
		switch x := n.(type) {
		case *plan.Sink:
			n = x.Input
		case *plan.Project:
			n = x.Input
		case *plan.Filter:
			n = x.Input
		case *plan.Limit:
			if x.Fetch >= 0 {
				return nil // a Top-N
			}
			n = x.Input
		case *plan.Sort:
			if len(x.Keys) > 0 && !x.Keys[0].Desc && x.Keys[0].Expr.Type().TimeAttr != types.Regular {
				return nil
			}
			if !readsConnector(x) {
				return nil // eddy's own stored tables sort in either mode
			}
			return Errorf(sqlerr.TableException, "Sort on a non-time-attribute field is not supported.")
		default:
			return nil
		}
	}
}

// streamingOver refuses, in streaming mode, an OVER window over an
// updating input (an OVER over a GROUP BY result, directly or through a
// sub-query): eddy's OVER operator reads inserts only. Without an ORDER BY
// Flink refuses it too, with the text given here; ordered, Flink 2.2
// emits a changelog eddy does not compute. Ranking calls alone (a Top-N's
// ROW_NUMBER, RANK, DENSE_RANK) are left to the Top-N operators.
func streamingOver(n plan.Node, src opt.Sources) error {
	var err error
	plan.WalkOnce(n, func(x plan.Node) {
		o, ok := x.(*plan.Over)
		if !ok || err != nil || !opt.Updates(o.Input, src) {
			return
		}
		ordered, ranking := false, true
		for _, c := range o.Calls {
			ordered = ordered || len(c.Order) > 0
			switch c.Name {
			case "ROW_NUMBER", "RANK", "DENSE_RANK":
			default:
				ranking = false
			}
		}
		if ranking {
			return // a Top-N's ranking, which the optimizer plans apart
		}
		if ordered {
			err = Errorf(sqlerr.TableException, "The local engine does not support an OVER window over an updating input (a GROUP BY result) in streaming mode; it runs in batch mode.")
			return
		}
		desc, _ := updatingProducer(o.Input)
		if desc == "" {
			err = Errorf(sqlerr.TableException, "StreamPhysicalOverAggregate doesn't support consuming update changes.")
			return
		}
		err = Errorf(sqlerr.TableException, "StreamPhysicalOverAggregate doesn't support consuming update changes which is produced by node %s", desc)
	})
	return err
}

// readsConnector reports whether a plan reads a table of a connector
// (one with a 'connector' option), not only eddy's stored tables.
func readsConnector(n plan.Node) bool {
	found := false
	plan.WalkOnce(n, func(x plan.Node) {
		if sc, ok := x.(*plan.Scan); ok && sc.Options["connector"] != "" {
			found = true
		}
	})
	return found
}

// updatingProducer describes, as Flink's plan names it, the node nearest
// to a sink that makes its input updating; "" when it is not one eddy
// names (the caller then names the query's operator generically).
//
// Flink names an aggregate call after the query column it becomes, so
// the names of the columns are carried down from the query's top (the
// sink's own projection onto its columns aside).
func updatingProducer(n plan.Node) (desc string, deletes bool) {
	if sk, ok := n.(*plan.Sink); ok {
		n = sk.Input
		if p, ok := n.(*plan.Project); ok {
			n = p.Input
		}
	}
	names := n.Schema().Names()
	for i, s := range names {
		// A column the query left unnamed (an identity projection of
		// it was dropped): Calcite's name of the select item.
		if strings.HasPrefix(s, "$f") {
			names[i] = "EXPR$" + strconv.Itoa(i)
		}
	}
	for {
		switch x := n.(type) {
		case *plan.Project:
			in := x.Input.Schema().Names()
			for i, e := range x.Exprs {
				if r, ok := e.(*plan.ColumnRef); ok && r.Index < len(in) && i < len(names) {
					in[r.Index] = names[i]
				}
			}
			n, names = x.Input, in
		case *plan.Filter:
			n = x.Input
		case *plan.Aggregate:
			if x.GroupingSets != nil {
				return "", false
			}
			in := x.Input.Schema()
			name := func(e plan.Expr) (string, bool) {
				if r, ok := e.(*plan.ColumnRef); ok && r.Index < len(in) {
					return in[r.Index].Name, true
				}
				return "", false
			}
			var group, sel []string
			for _, g := range x.Group {
				s, ok := name(g)
				if !ok {
					return "", false
				}
				group = append(group, s)
			}
			sel = append(sel, group...)
			for _, a := range x.Aggs {
				if a.Filter != nil || len(a.OrderBy) > 0 {
					return "", false
				}
				args := make([]string, len(a.Args))
				for i, e := range a.Args {
					s, ok := name(e)
					if !ok {
						return "", false
					}
					args[i] = s
				}
				call := a.Name + "("
				if a.Distinct {
					call += "DISTINCT "
				}
				if len(a.Args) == 0 && a.Name == "COUNT" {
					call += "*"
				}
				alias := a.Alias
				if k := len(x.Group) + len(sel) - len(group); k < len(names) {
					alias = names[k]
				}
				sel = append(sel, call+strings.Join(args, ", ")+") AS "+alias)
			}
			return fmt.Sprintf("GroupAggregate(groupBy=[%s], select=[%s])", strings.Join(group, ", "), strings.Join(sel, ", ")), false
		default:
			return "", true
		}
	}
}

// appendOnly refuses, in streaming mode, an updating query written into
// a sink that takes inserts only and refuses updates (a filesystem table
// whose format takes inserts only), as Flink does; other sinks that take
// inserts only receive the query's final rows. It reads the plan before
// the optimizer merges the query's projections into the sink's.
func (s *Session) appendOnly(ctx context.Context, sk *plan.Sink) error {
	if !s.streaming() {
		return nil
	}
	if a := s.connectors().Abilities(sink.Table(sk)); !a.RefusesUpdates || a.Accepts != connectors.InsertOnly {
		return nil
	}
	if !opt.Updates(sk.Input, planSources{ctx: ctx, s: s}) {
		return nil
	}
	return appendOnlySink(sk.Table.Catalog+"."+sk.Table.Database+"."+sk.Table.Object, sk)
}

// appendOnlySink is Flink's error for an updating query written into a
// sink that takes inserts only.
func appendOnlySink(table string, input plan.Node) error {
	desc, deletes := updatingProducer(input)
	changes := "update changes"
	if deletes {
		changes = "update and delete changes"
	}
	if desc == "" {
		return Errorf(sqlerr.TableException, "Table sink '%s' doesn't support consuming %s.", table, changes)
	}
	return Errorf(sqlerr.TableException, "Table sink '%s' doesn't support consuming %s which is produced by node %s", table, changes, desc)
}
