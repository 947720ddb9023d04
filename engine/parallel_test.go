package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"eddy/conf"
	"eddy/engine/types"
)

// The parallel tests run the same queries with eddy.exec.parallelism = 1
// and = 4 (more workers than this machine may have cores) over temporary
// tables, whose reader the workers share, of many batches
// (vector.BatchSize rows each), and compare the answers row for row, in
// order: a parallel plan gives the serial plan's rows in the serial
// plan's order.

// parallelTables creates the tables p1 (30,000 rows) and p2 (3,000
// rows) of a, b INT and s STRING with NULLs, the same on every call, with
// create ("CREATE TEMPORARY TABLE " or "CREATE TABLE ", the store's).
func parallelTables(t *testing.T, s *Session, create string) {
	t.Helper()
	r := rand.New(rand.NewPCG(3, 5))
	for _, tb := range []diffTable{genTable(r, "p1", 30000), genTable(r, "p2", 3000)} {
		mustExec(t, s, create+tb.name+" (a INT, b INT, s STRING)")
		for _, ins := range insertSQL(tb, true) {
			if _, err := run(t, s, ins); err != nil {
				t.Fatalf("%s...: %v", ins[:60], err)
			}
		}
	}
}

// orderedRows returns a query's rows as text, in the order eddy returns
// them.
func orderedRows(t *testing.T, s *Session, q string) ([]string, error) {
	t.Helper()
	res, err := run(t, s, q)
	if err != nil {
		return nil, err
	}
	defer res.Close()
	if res.Rows == nil {
		return []string{res.Message}, nil
	}
	var out []string
	for {
		row, ok, err := res.Rows.Next(context.Background())
		if err != nil {
			return nil, err
		}
		if !ok {
			return out, nil
		}
		cells := make([]string, len(row.Values))
		for i, v := range row.Values {
			cells[i] = types.ValueString(v, res.Columns[i].Type)
		}
		out = append(out, strings.Join(cells, "|"))
	}
}

// parallelQueries cover scans with filters and projections, every
// aggregate function (with DISTINCT and FILTER), joins of every type,
// sorts with ties, Top-N and LIMIT without ORDER BY, over NULLs.
var parallelQueries = []string{
	"SELECT a, b, s FROM p1 WHERE a > 20",
	"SELECT a, b + 1, UPPER(s), CASE WHEN b > 0 THEN 'pos' ELSE s END FROM p1 WHERE b IS NOT NULL AND s <> 'fig'",
	"SELECT * FROM p1 WHERE s LIKE 'a%' OR a BETWEEN 3 AND 7",
	"SELECT a, s FROM p1 WHERE b < -400 LIMIT 17",
	"SELECT COUNT(*), COUNT(a), COUNT(DISTINCT a), SUM(b), MIN(b), MAX(b), AVG(b), MIN(s), MAX(s) FROM p1",
	"SELECT a, COUNT(*), COUNT(b), SUM(b), MIN(b), MAX(b), AVG(b), COUNT(DISTINCT s), SUM(DISTINCT b) FROM p1 WHERE b > -300 GROUP BY a",
	"SELECT s, a, COUNT(*) AS n, SUM(b) FILTER (WHERE a > 10), MAX(b) FROM p1 GROUP BY s, a",
	"SELECT s, LISTAGG(CAST(a AS STRING)), FIRST_VALUE(b), LAST_VALUE(b) FROM p1 WHERE a < 3 GROUP BY s",
	"SELECT s, STDDEV_POP(b), VAR_SAMP(b), BOOL_AND(b > 0), BOOL_OR(a > 30) FROM p1 GROUP BY s",
	"SELECT a, SUM(CAST(b AS DOUBLE)), AVG(CAST(b AS DECIMAL(10, 2))) FROM p1 GROUP BY a",
	"SELECT a, s, COUNT(*) FROM p1 GROUP BY GROUPING SETS ((a), (s), ())",
	"SELECT DISTINCT s FROM p1",
	"SELECT p1.a, p1.b, p2.b FROM p1 JOIN p2 ON p1.a = p2.a WHERE p1.b > 400",
	"SELECT p1.a, p2.s FROM p1 LEFT JOIN p2 ON p1.a = p2.a AND p2.b > 450 WHERE p1.b > 300",
	"SELECT p1.a, p2.s FROM p1 RIGHT JOIN p2 ON p1.a = p2.a AND p1.b > 490",
	"SELECT p1.b, p2.b FROM p1 FULL JOIN p2 ON p1.b = p2.b AND p1.a = p2.a",
	"SELECT a, b FROM p1 WHERE a IN (SELECT a FROM p2 WHERE b > 400)",
	"SELECT a, s FROM p1 WHERE NOT EXISTS (SELECT 1 FROM p2 WHERE p2.a = p1.a AND p2.b > 0)",
	"SELECT s, COUNT(*) FROM p1 JOIN p2 ON p1.s = p2.s AND p1.a = p2.a GROUP BY s",
	"SELECT a, b, s FROM p1 ORDER BY a, s",
	"SELECT a, b, s FROM p1 WHERE b > 0 ORDER BY b DESC LIMIT 40",
	"SELECT a, s FROM p1 ORDER BY s LIMIT 25 OFFSET 10",
	"SELECT a, b FROM p1 UNION ALL SELECT a, b FROM p2",
	"SELECT a, ROW_NUMBER() OVER (PARTITION BY s ORDER BY a) FROM p1 WHERE b > 450",
}

func TestParallelMatchesSerial(t *testing.T) {
	for _, create := range []string{"CREATE TEMPORARY TABLE ", "CREATE TABLE "} {
		t.Run(strings.Fields(create)[1], func(t *testing.T) { parallelMatchesSerial(t, create) })
	}
}

func parallelMatchesSerial(t *testing.T, create string) {
	s := openQuerySession(t)
	mustExec(t, s, "SET 'execution.runtime-mode' = 'batch'")
	parallelTables(t, s, create)
	r := rand.New(rand.NewPCG(17, 19))
	qs := append([]string{}, parallelQueries...)
	for range 150 {
		qs = append(qs, strings.NewReplacer("t1", "p1", "t2", "p2").Replace(genQuery(r)))
	}
	for i, q := range qs {
		mustExec(t, s, "SET 'eddy.exec.parallelism' = '1'")
		want, werr := orderedRows(t, s, q)
		mustExec(t, s, "SET 'eddy.exec.parallelism' = '4'")
		got, gerr := orderedRows(t, s, q)
		if fmt.Sprint(werr) != fmt.Sprint(gerr) {
			t.Errorf("query %d: %s\nserial error %v, parallel error %v", i, q, werr, gerr)
			continue
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("query %d: %s\nparallel %d rows, serial %d rows; first difference: %s", i, q, len(got), len(want), firstDiff(got, want))
		}
		if i < len(parallelQueries) && len(want) == 0 && werr == nil {
			t.Errorf("query %d gives no rows: %s", i, q)
		}
	}
}

// TestParallelChunkedTable runs the bench's kinds of analytics at
// parallelism 1 and 4 over a managed table large enough to be kept as
// column chunks and a delta (whose scan decodes chunks ahead and hands
// them out to the workers), with filters the chunks apply, a DOUBLE SUM,
// a join, a Top-N and window functions over many partitions and over
// one, and compares the answers row for row.
func TestParallelChunkedTable(t *testing.T) {
	s := openQuerySession(t)
	mustExec(t, s, "SET 'execution.runtime-mode' = 'batch'")
	mustExec(t, s, "SET 'eddy.exec.parallelism' = '1'")
	parallelTables(t, s, "CREATE TABLE ")
	mustExec(t, s, "CREATE TABLE big (id INT, k INT, v DOUBLE, s STRING)")
	mustExec(t, s, "INSERT INTO big SELECT a + 1000 * x, MOD(ABS(a * 7 + x), 97), CAST(b AS DOUBLE) / 7, s "+
		"FROM p1, (VALUES (1), (2), (3), (4), (5)) AS m (x)")
	for i, q := range []string{
		"SELECT COUNT(*) FROM big",
		"SELECT COUNT(*), SUM(k), MIN(id), MAX(s) FROM big WHERE v > 10 AND k < 50",
		"SELECT k, COUNT(*), SUM(v), MAX(v) FROM big GROUP BY k",
		"SELECT SUM(v), COUNT(v) FROM big WHERE k < 90",
		"SELECT id, v, s FROM big WHERE k <> 3",
		"SELECT COUNT(*), SUM(p2.b) FROM big JOIN p2 ON big.k = p2.a",
		"SELECT id, v FROM big ORDER BY v DESC, s LIMIT 50",
		"SELECT id, ROW_NUMBER() OVER (PARTITION BY k ORDER BY v) FROM big",
		"SELECT id, RANK() OVER (ORDER BY s, v) FROM big WHERE k < 60",
	} {
		mustExec(t, s, "SET 'eddy.exec.parallelism' = '1'")
		want, werr := orderedRows(t, s, q)
		mustExec(t, s, "SET 'eddy.exec.parallelism' = '4'")
		got, gerr := orderedRows(t, s, q)
		if werr != nil || gerr != nil {
			t.Fatalf("query %d: %s\nserial error %v, parallel error %v", i, q, werr, gerr)
		}
		if len(want) == 0 {
			t.Errorf("query %d gives no rows: %s", i, q)
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("query %d: %s\nparallel %d rows, serial %d rows; first difference: %s", i, q, len(got), len(want), firstDiff(got, want))
		}
	}
}

// TestParallelismSetting checks the option's values.
func TestParallelismSetting(t *testing.T) {
	s := openQuerySession(t)
	for _, bad := range []string{"0", "-2", "many", "1.5"} {
		if _, err := s.Execute(context.Background(), "SET 'eddy.exec.parallelism' = '"+bad+"'"); err == nil {
			t.Errorf("parallelism %q accepted", bad)
		} else if !strings.Contains(err.Error(), "eddy.exec.parallelism") {
			t.Errorf("parallelism %q: %v", bad, err)
		}
	}
	want := runtime.NumCPU()
	if v, err := strconv.Atoi(os.Getenv(conf.ParallelismEnv)); err == nil && v >= 1 {
		want = v
	}
	if n, err := s.conf.parallelism(); err != nil || n != want {
		t.Errorf("default parallelism %d, %v; want %d", n, err, want)
	}
	mustExec(t, s, "SET 'eddy.exec.parallelism' = '3'")
	if n, _ := s.conf.parallelism(); n != 3 {
		t.Errorf("parallelism %d after SET to 3", n)
	}
}

// TestParallelErrorAndCancel checks that an error in one worker fails the
// statement with that error, that a cancelled statement stops, and that
// no worker outlives its statement.
func TestParallelErrorAndCancel(t *testing.T) {
	s := openQuerySession(t)
	mustExec(t, s, "SET 'execution.runtime-mode' = 'batch'")
	parallelTables(t, s, "CREATE TEMPORARY TABLE ")
	mustExec(t, s, "SET 'eddy.exec.parallelism' = '4'")
	before := runtime.NumGoroutine()
	// Division by zero on one row late in the table.
	_, err := orderedRows(t, s, "SELECT a / (b - 17) FROM p1 WHERE s = 'fig' OR b = 17")
	if err == nil || !strings.Contains(strings.ToLower(err.Error()), "zero") {
		t.Errorf("division by zero in a worker: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	res, err := s.Execute(ctx, "SELECT p1.a, p2.b FROM p1 JOIN p2 ON p1.a = p2.a WHERE p1.b > -500")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := res.Rows.Next(ctx); err != nil {
		t.Fatal(err)
	}
	cancel()
	for {
		_, ok, err := res.Rows.Next(ctx)
		if err != nil || !ok {
			break
		}
	}
	res.Close()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines after the statements, %d before", n, before)
	}
}
