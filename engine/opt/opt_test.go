package opt_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"eddy/catalogs"
	"eddy/catalogs/memory"
	"eddy/catalogs/sqlite"
	"eddy/engine"
	"eddy/engine/opt"
	"eddy/engine/plan"
)

// TestPasses runs the files under testdata/ against a session over a real
// SQLite store (catalog `lake`, current) and an in-memory catalog
// (`mem`). Directives:
//
//	exec                 input: statements (DDL, SET), each ending in ';'
//	                     at the end of a line; output: nothing, or the
//	                     first error.
//	optimize [pass=...]  input: a query or INSERT; output: the validated
//	                     plan, then the plan after each pass that ran
//	                     (or only after the named ones), or "unchanged".
//	changelog            input: a query or INSERT (streaming mode);
//	                     output: the optimized plan with each node's
//	                     changelog, [I] insert-only or [U] updating.
//	explain              input: a query or INSERT; output: EXPLAIN's text.
//
// Regenerate with: go test ./engine/opt -run TestPasses -rewrite
func TestPasses(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		s := openSession(t)
		ctx := context.Background()
		datadriven.RunTest(t, path, func(t *testing.T, td *datadriven.TestData) string {
			switch td.Cmd {
			case "exec":
				for _, stmt := range statements(td.Input) {
					if _, err := s.Execute(ctx, stmt); err != nil {
						return fmt.Sprintf("error: %v\n", err)
					}
				}
				return ""
			case "optimize":
				logical, trace, err := s.PlanPasses(ctx, td.Input)
				if err != nil {
					return fmt.Sprintf("error: %v\n", err)
				}
				return formatTrace(td, logical, trace)
			case "changelog":
				_, trace, err := s.PlanPasses(ctx, td.Input)
				if err != nil {
					return fmt.Sprintf("error: %v\n", err)
				}
				var b strings.Builder
				formatModes(&b, trace[len(trace)-1].Plan, "", "")
				return b.String()
			case "explain":
				res, err := s.Execute(ctx, "EXPLAIN "+td.Input)
				if err != nil {
					return fmt.Sprintf("error: %v\n", err)
				}
				defer res.Close()
				row, ok, err := res.Rows.Next(ctx)
				if err != nil || !ok || len(row.Values) == 0 {
					t.Fatalf("%s: EXPLAIN gave no row: %v", td.Pos, err)
				}
				return fmt.Sprint(row.Values[0])
			}
			t.Fatalf("%s: unknown directive %q", td.Pos, td.Cmd)
			return ""
		})
	})
}

func openSession(t *testing.T) *engine.Session {
	t.Helper()
	ctx := context.Background()
	store, err := sqlite.OpenStore(filepath.Join(t.TempDir(), "eddy.db"))
	if err != nil {
		t.Fatal(err)
	}
	mgr := catalogs.NewManager(map[string]catalogs.Factory{memory.Type: memory.Factory{}, sqlite.Type: store}, store)
	t.Cleanup(func() { mgr.Close(); store.Close() })
	for _, c := range []catalogs.CatalogDescriptor{
		{Name: "lake", Options: map[string]string{catalogs.OptionType: sqlite.Type}},
		{Name: "mem", Options: map[string]string{catalogs.OptionType: memory.Type}},
	} {
		if err := mgr.RegisterCatalog(ctx, c, nil, catalogs.OriginConfig); err != nil {
			t.Fatal(err)
		}
	}
	if err := mgr.SetCurrentCatalog(ctx, "lake"); err != nil {
		t.Fatal(err)
	}
	s, err := engine.NewSession(engine.SessionConfig{Catalogs: mgr})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// statements splits the input after every line that ends in ';'.
func statements(in string) []string {
	var out []string
	var cur strings.Builder
	for _, l := range strings.Split(in, "\n") {
		cur.WriteString(l + "\n")
		if strings.HasSuffix(strings.TrimSpace(l), ";") {
			out = append(out, cur.String())
			cur.Reset()
		}
	}
	if strings.TrimSpace(cur.String()) != "" {
		out = append(out, cur.String())
	}
	return out
}

// formatTrace prints the validated plan and the plan after each pass
// (only those of the pass arguments when given).
func formatTrace(td *datadriven.TestData, logical plan.Node, trace opt.Trace) string {
	want := map[string]bool{}
	for _, a := range td.CmdArgs {
		if a.Key == "pass" {
			for _, v := range a.Vals {
				want[v] = true
			}
		}
	}
	var b strings.Builder
	b.WriteString("validated:\n" + plan.Format(logical))
	prev := plan.Format(logical)
	for _, st := range trace {
		text := plan.Format(st.Plan)
		if len(want) == 0 || want[st.Pass] {
			if text == prev {
				fmt.Fprintf(&b, "%s: unchanged\n", st.Pass)
			} else {
				fmt.Fprintf(&b, "%s:\n%s", st.Pass, text)
			}
		}
		prev = text
	}
	return b.String()
}

// formatModes prints a plan as plan.Format does, each node preceded by
// its changelog.
func formatModes(b *strings.Builder, n plan.Node, first, rest string) {
	mode := "[I] "
	if _, ok := n.(*plan.Sink); !ok && opt.Updates(n, nil) {
		mode = "[U] "
	}
	b.WriteString(first + mode + n.Describe() + "\n")
	kids := n.Children()
	for i, c := range kids {
		if i == len(kids)-1 {
			formatModes(b, c, rest+"+- ", rest+"   ")
		} else {
			formatModes(b, c, rest+":- ", rest+":  ")
		}
	}
}
