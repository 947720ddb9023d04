package engine

import (
	"fmt"
	"sort"
	"strings"
	"testing"
)

// TestMemoryBudgetSpillsGiveSameRows runs a sort, an aggregation and every
// join kind under eddy.exec.memory-budget = 16kb (which makes each of
// them spill: sorted runs, aggregation partitions, a grace hash join) and
// under the default budget: the rows are the same. (logictest's
// connectors.test has the refusal of a bad budget.)
func TestMemoryBudgetSpillsGiveSameRows(t *testing.T) {
	s := openQuerySession(t)
	mustExec(t, s, "SET 'execution.runtime-mode' = 'batch'")
	mustExec(t, s, "CREATE TABLE a (k INT, s STRING)")
	mustExec(t, s, "CREATE TABLE b (k INT, s STRING)")
	for _, tbl := range []struct {
		name       string
		rows, mod  int
		nullEvery  int
		tagPrefix  string
		keyStretch int
	}{{"a", 3000, 700, 53, "la", 1}, {"b", 2500, 900, 61, "rb", 3}} {
		var vals []string
		for i := range tbl.rows {
			k := fmt.Sprint((i * tbl.keyStretch) % tbl.mod)
			if i%tbl.nullEvery == 0 {
				k = "CAST(NULL AS INT)"
			}
			vals = append(vals, fmt.Sprintf("(%s, '%s%d')", k, tbl.tagPrefix, i%11))
		}
		mustExec(t, s, "INSERT INTO "+tbl.name+" VALUES "+strings.Join(vals, ", "))
	}
	queries := []struct {
		sql     string
		ordered bool
	}{
		{"SELECT k, s FROM a ORDER BY k NULLS FIRST, s DESC", true},
		{"SELECT k, COUNT(*), MAX(s), COUNT(DISTINCT s) FROM a GROUP BY k", false},
		{"SELECT s, k, COUNT(*) FROM b GROUP BY s, k", false},
		{"SELECT a.k, a.s, b.s FROM a JOIN b ON a.k = b.k", false},
		{"SELECT a.k, a.s, b.s FROM a LEFT JOIN b ON a.k = b.k", false},
		{"SELECT a.s, b.k, b.s FROM a RIGHT JOIN b ON a.k = b.k", false},
		{"SELECT a.k, a.s, b.k, b.s FROM a FULL JOIN b ON a.k = b.k AND a.s < 'la5'", false},
		{"SELECT k, s FROM a WHERE k IN (SELECT k FROM b)", false},
		{"SELECT k, s FROM a WHERE NOT EXISTS (SELECT 1 FROM b WHERE b.k = a.k)", false},
	}
	results := func() []string {
		var out []string
		for _, q := range queries {
			lines := collect(t, s, q.sql)
			if !q.ordered {
				sort.Strings(lines)
			}
			out = append(out, strings.Join(lines, "\n"))
		}
		return out
	}
	want := results()
	mustExec(t, s, "SET 'eddy.exec.memory-budget' = '16kb'")
	got := results()
	for i, q := range queries {
		if strings.Count(want[i], "\n") < 100 {
			t.Fatalf("%s: only %d rows: the test data is too small to spill", q.sql, strings.Count(want[i], "\n")+1)
		}
		if got[i] != want[i] {
			t.Errorf("%s: rows under a 16kb budget differ from the default budget's", q.sql)
		}
	}
}
