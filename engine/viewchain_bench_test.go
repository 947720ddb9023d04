package engine_test

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkViewChain creates a chain of 30 temporary views, each reading
// the one before twice (view n has 2^n rows), reporting the slowest
// CREATE VIEW, then counts the 4,096 rows of view 12 and EXPLAINs view 30 in batch
// and streaming mode, and a chain of 30 common table expressions of the
// same shape.
// Each view is validated once per statement, so creating one takes the
// same time at every level.
func BenchmarkViewChain(b *testing.B) {
	for range b.N {
		s, done := openViewSession(b, filepath.Join(b.TempDir(), "s.db"))
		run := func(sql string) {
			if _, err := s.Execute(b.Context(), sql); err != nil {
				b.Fatalf("%s: %v", sql, err)
			}
		}
		run("SET 'execution.runtime-mode' = 'batch'")
		run("CREATE TEMPORARY VIEW v0 AS SELECT 1 AS x")
		var slowest time.Duration
		for i := 1; i <= 30; i++ {
			start := time.Now()
			run(fmt.Sprintf("CREATE TEMPORARY VIEW v%d AS SELECT x FROM v%d UNION ALL SELECT x FROM v%d", i, i-1, i-1))
			slowest = max(slowest, time.Since(start))
		}
		start := time.Now()
		res, err := s.Execute(b.Context(), "SELECT COUNT(*) FROM v12")
		if err != nil {
			b.Fatal(err)
		}
		row, _, err := res.Rows.Next(b.Context())
		if err != nil || fmt.Sprint(row.Values[0]) != "4096" {
			b.Fatalf("COUNT(*) of v12: %v, %v", row.Values, err)
		}
		res.Close()
		count := time.Since(start)
		start = time.Now()
		run("EXPLAIN SELECT * FROM v30")
		explain := time.Since(start)
		run("SET 'execution.runtime-mode' = 'streaming'")
		start = time.Now()
		run("EXPLAIN SELECT * FROM v30")
		explainStreaming := time.Since(start)
		cte := "WITH c0 AS (SELECT 1 AS x)"
		for i := 1; i <= 30; i++ {
			cte += fmt.Sprintf(", c%d AS (SELECT x FROM c%d UNION ALL SELECT x FROM c%d)", i, i-1, i-1)
		}
		start = time.Now()
		run("EXPLAIN " + cte + " SELECT * FROM c30")
		explainCTE := time.Since(start)
		b.ReportMetric(float64(explainCTE.Microseconds())/1000, "ms/explain-cte30")
		b.ReportMetric(float64(slowest.Microseconds())/1000, "ms/slowest-create")
		b.ReportMetric(float64(count.Microseconds())/1000, "ms/count-v12")
		b.ReportMetric(float64(explain.Microseconds())/1000, "ms/explain-v30")
		b.ReportMetric(float64(explainStreaming.Microseconds())/1000, "ms/explain-v30-streaming")
		done()
	}
}
