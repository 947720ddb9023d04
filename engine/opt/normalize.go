package opt

import (
	"eddy/engine/plan"
	"eddy/engine/sqlerr"
)

// ChangelogSources is a Sources that knows the changelog a scan's source
// produces (the connector's declared Abilities.Produces): Upsert reports
// an upsert stream by key. The sources of a Sources that does not
// implement it produce inserts only.
type ChangelogSources interface {
	Sources
	Upsert(scan *plan.Scan) bool
}

// ChangelogNormalize puts a plan.ChangelogNormalize, keyed by the table's
// PRIMARY KEY, above every scan whose source produces an upsert stream
// (streaming mode): the operators above it then read a full changelog, as
// in Flink's plans. An upsert source of a table without a primary key is
// an error, as Flink reports it.
func ChangelogNormalize(n plan.Node, src Sources) (plan.Node, error) {
	cs, ok := src.(ChangelogSources)
	if !ok {
		return n, nil
	}
	var rewrite rewriteFunc
	rewrite = func(n plan.Node) (plan.Node, error) {
		if sc, ok := n.(*plan.Scan); ok {
			if !cs.Upsert(sc) {
				return n, nil
			}
			if len(sc.PrimaryKey) == 0 {
				return nil, sqlerr.Errorf(sqlerr.ValidationException,
					"Table %s produces an upsert changelog, which requires a PRIMARY KEY constraint on the table.",
					sc.Table)
			}
			return &plan.ChangelogNormalize{Input: sc, Key: append([]int(nil), sc.PrimaryKey...)}, nil
		}
		if _, ok := n.(*plan.ChangelogNormalize); ok {
			return n, nil
		}
		return mapNode(n, rewrite, rewrite)
	}
	return rewrite(n)
}
