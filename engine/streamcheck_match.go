package engine

import (
	"eddy/engine/opt"
	"eddy/engine/plan"
	"eddy/engine/sqlerr"
)

// streamingMatch refuses, in streaming mode, MATCH_RECOGNIZE over an
// updating input, as Flink's planner does: its CEP operator reads inserts
// only.
func streamingMatch(n plan.Node, src opt.Sources) error {
	var err error
	plan.WalkOnce(n, func(x plan.Node) {
		m, ok := x.(*plan.Match)
		if !ok || err != nil || !opt.Updates(m.Input, src) {
			return
		}
		desc, deletes := updatingProducer(m.Input)
		changes := "update changes"
		if deletes || desc == "" {
			changes = "update and delete changes"
		}
		if desc == "" {
			err = Errorf(sqlerr.TableException, "Match Recognize doesn't support consuming %s.", changes)
			return
		}
		err = Errorf(sqlerr.TableException, "Match Recognize doesn't support consuming %s which is produced by node %s", changes, desc)
	})
	return err
}
