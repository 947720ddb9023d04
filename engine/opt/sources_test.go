package opt_test

import (
	"context"
	"strings"
	"testing"

	"eddy/engine/opt"
	"eddy/engine/plan"
)

// refuseSources takes projections but no filter on column `note`.
type refuseSources struct{ opt.DefaultSources }

func (refuseSources) Push(s *plan.Scan, filters []plan.Expr) (bool, []bool) {
	accepted := make([]bool, len(filters))
	for i, f := range filters {
		accepted[i] = !strings.Contains(f.String(), "note")
	}
	return true, accepted
}

// noSources takes nothing.
type noSources struct{ opt.DefaultSources }

func (noSources) Push(s *plan.Scan, filters []plan.Expr) (bool, []bool) {
	return false, make([]bool, len(filters))
}

func TestPushDownAsksSources(t *testing.T) {
	s := openSession(t)
	ctx := context.Background()
	for _, stmt := range []string{
		"SET 'execution.runtime-mode' = 'batch'",
		"CREATE TABLE orders (id INT, customer STRING, amount DOUBLE, note STRING)",
	} {
		if _, err := s.Execute(ctx, stmt); err != nil {
			t.Fatal(err)
		}
	}
	logical, _, err := s.PlanPasses(ctx, "SELECT id FROM orders WHERE amount > 10 AND note LIKE 'x%'")
	if err != nil {
		t.Fatal(err)
	}
	before := plan.Format(logical)
	cases := []struct {
		name string
		src  opt.Sources
		want string
	}{
		{"default", nil, "" +
			"Project(select=[id])\n" +
			"+- TableSourceScan(table=[`lake`.`default`.`orders`], fields=[id], project=[0], filter=[>(amount, 10), LIKE(note, 'x%')])\n"},
		// The refused filter stays above the scan, which must then also
		// read the column it tests, renumbered.
		{"refuse one filter", refuseSources{}, "" +
			"Project(select=[id])\n" +
			"+- Filter(condition=[LIKE(note, 'x%')])\n" +
			"   +- TableSourceScan(table=[`lake`.`default`.`orders`], fields=[id, note], project=[0, 3], filter=[>(amount, 10)])\n"},
		{"take nothing", noSources{}, "" +
			"Project(select=[id])\n" +
			"+- Filter(condition=[AND(>(amount, 10), LIKE(note, 'x%'))])\n" +
			"   +- TableSourceScan(table=[`lake`.`default`.`orders`], fields=[id, customer, amount, note])\n"},
	}
	for _, c := range cases {
		got := plan.Format(opt.PushDown(logical, c.src))
		if got != c.want {
			t.Errorf("%s:\ngot:\n%s\nwant:\n%s", c.name, got, c.want)
		}
	}
	if plan.Format(logical) != before {
		t.Fatalf("push-down modified its input plan:\n%s", plan.Format(logical))
	}
	// The Project refers to the filter's output by position: the refused
	// filter's column reference must point at `note` in the pruned row.
	f := opt.PushDown(logical, refuseSources{}).(*plan.Project).Input.(*plan.Filter)
	var ref *plan.ColumnRef
	plan.WalkExpr(f.Cond, func(e plan.Expr) bool {
		if r, ok := e.(*plan.ColumnRef); ok {
			ref = r
		}
		return true
	})
	if ref == nil || ref.Index != 1 {
		t.Fatalf("the filter above the scan reads %v, want column 1 (note)", ref)
	}
}

func TestOptimizeTrace(t *testing.T) {
	s := openSession(t)
	ctx := context.Background()
	if _, err := s.Execute(ctx, "CREATE TABLE t (k STRING, v INT)"); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []struct {
		set   string
		names string
	}{
		{"SET 'execution.runtime-mode' = 'batch'", "prune-projections push-down direct-insert"},
		{"SET 'execution.runtime-mode' = 'streaming'", "changelog-normalize prune-projections push-down semi-join top-n changelog direct-insert"},
	} {
		if _, err := s.Execute(ctx, mode.set); err != nil {
			t.Fatal(err)
		}
		logical, trace, err := s.PlanPasses(ctx, "SELECT k, COUNT(*) FROM t WHERE v > 1 GROUP BY k")
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, st := range trace {
			names = append(names, st.Pass)
		}
		if got := strings.Join(names, " "); got != mode.names {
			t.Errorf("%s: passes %q, want %q", mode.set, got, mode.names)
		}
		before := plan.Format(logical)
		out, none, err := opt.Optimize(logical, opt.Options{Streaming: strings.Contains(mode.set, "streaming")})
		if err != nil {
			t.Fatal(err)
		}
		if none != nil {
			t.Errorf("a trace was recorded without Options.Trace")
		}
		if got, want := plan.Format(out), plan.Format(trace[len(trace)-1].Plan); got != want {
			t.Errorf("Optimize gave\n%s\nthe trace's last plan is\n%s", got, want)
		}
		if plan.Format(logical) != before {
			t.Errorf("Optimize modified its input plan")
		}
	}
}
