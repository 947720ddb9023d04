package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The expected changelogs in this file are Flink 2.2's output for the same
// statements (SQL Gateway, parallelism.default = 1, result mode
// changelog), recorded by running them on a real Flink cluster.

const topnRows = `CREATE TEMPORARY VIEW t AS SELECT * FROM (VALUES (1,'a',10),(1,'b',30),(1,'c',20),(2,'d',5),(1,'e',40),(1,'f',1),(1,'g',30)) AS v(k, n, x)`

const topnAgg = `CREATE TEMPORARY VIEW agg AS SELECT n, COUNT(*) AS cnt FROM (VALUES ('a'),('b'),('a'),('c'),('b'),('c'),('c'),('d')) AS v(n) GROUP BY n`

func checkChangelog(t *testing.T, s *Session, sql string, want ...string) {
	t.Helper()
	got := collect(t, s, sql)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s\n got:\n  %s\nwant (Flink):\n  %s", sql, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

func TestStreamingTopNAppendOnly(t *testing.T) {
	s := openQuerySession(t)
	mustExec(t, s, topnRows)
	// AppendOnlyTopNFunction with the rank number.
	checkChangelog(t, s, "SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY x DESC) AS rn FROM t) WHERE rn <= 2",
		"+I 1 a 10 1", "-U 1 a 10 1", "+U 1 b 30 1", "+I 1 a 10 2", "-U 1 a 10 2", "+U 1 c 20 2",
		"+I 2 d 5 1", "-U 1 b 30 1", "+U 1 e 40 1", "-U 1 c 20 2", "+U 1 b 30 2")
	// Without the rank number.
	checkChangelog(t, s, "SELECT k, n, x FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY x DESC) AS rn FROM t) WHERE rn <= 2",
		"+I 1 a 10", "+I 1 b 30", "-D 1 a 10", "+I 1 c 20", "+I 2 d 5", "-D 1 c 20", "+I 1 e 40")
	// An offset uses the rank-number algorithm.
	checkChangelog(t, s, "SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY x DESC) AS rn FROM t) WHERE rn > 1 AND rn <= 3",
		"+I 1 a 10 2", "-U 1 a 10 2", "+U 1 c 20 2", "+I 1 a 10 3", "-U 1 c 20 2", "+U 1 b 30 2",
		"-U 1 a 10 3", "+U 1 c 20 3", "-U 1 c 20 3", "+U 1 g 30 3")
	// Top-1 (FastTop1Function): a partitioned one emits no -U.
	checkChangelog(t, s, "SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY x) AS rn FROM t) WHERE rn = 1",
		"+I 1 a 10 1", "+I 2 d 5 1", "+U 1 f 1 1")
	checkChangelog(t, s, "SELECT k, n, x FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY x) AS rn FROM t) WHERE rn = 1",
		"+I 1 a 10", "+I 2 d 5", "+U 1 f 1")
	// ORDER BY ... LIMIT is a Top-N without partitions.
	checkChangelog(t, s, "SELECT * FROM t ORDER BY x DESC LIMIT 2",
		"+I 1 a 10", "+I 1 b 30", "-D 1 a 10", "+I 1 c 20", "-D 1 c 20", "+I 1 e 40")
	checkChangelog(t, s, "SELECT * FROM t ORDER BY x LIMIT 1",
		"+I 1 a 10", "-U 1 a 10", "+U 2 d 5", "-U 2 d 5", "+U 1 f 1")
	checkChangelog(t, s, "SELECT * FROM t LIMIT 3", "+I 1 a 10", "+I 1 b 30", "+I 1 c 20")
	checkChangelog(t, s, "SELECT * FROM t ORDER BY x DESC LIMIT 2 OFFSET 1",
		"+I 1 a 10", "-U 1 a 10", "+U 1 c 20", "+I 1 a 10", "-U 1 c 20", "+U 1 b 30",
		"-U 1 a 10", "+U 1 c 20", "-U 1 c 20", "+U 1 g 30")
	// The rank column counts as read only when a node above reads it
	// (Flink's planner prunes it otherwise): an aggregate over a Top-N.
	const top2 = "(SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY x DESC) AS rn FROM t) WHERE rn <= 2)"
	checkChangelog(t, s, "SELECT k, COUNT(*) AS c FROM "+top2+" GROUP BY k",
		"+I 1 1", "-U 1 1", "+U 1 2", "-U 1 2", "+U 1 1", "-U 1 1", "+U 1 2", "+I 2 1", "-U 1 2", "+U 1 1", "-U 1 1", "+U 1 2")
	checkChangelog(t, s, "SELECT k, SUM(rn) AS c FROM "+top2+" GROUP BY k",
		"+I 1 1", "-D 1 1", "+I 1 1", "-U 1 1", "+U 1 3", "-U 1 3", "+U 1 1", "-U 1 1", "+U 1 3",
		"+I 2 1", "-U 1 3", "+U 1 2", "-U 1 2", "+U 1 3", "-U 1 3", "+U 1 1", "-U 1 1", "+U 1 3")
	// Other conditions apply above the rank.
	checkChangelog(t, s, "SELECT k, n FROM (SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY x DESC) AS rn FROM t) WHERE rn <= 2 AND n <> 'b')",
		"+I 1 a", "-D 1 a", "+I 1 c", "+I 2 d", "-D 1 c", "+I 1 e")
	for _, fn := range []string{"RANK", "DENSE_RANK"} {
		msg := execErr(t, s, "SELECT * FROM (SELECT *, "+fn+"() OVER (PARTITION BY k ORDER BY x DESC) AS rn FROM t) WHERE rn <= 2")
		if msg != fn+"() on streaming table is not supported currently" {
			t.Errorf("%s: %s", fn, msg)
		}
	}
}

// Top-N over an aggregate's changelog: RetractableTopNFunction.
func TestStreamingTopNUpdatingInput(t *testing.T) {
	s := openQuerySession(t)
	mustExec(t, s, topnAgg)
	checkChangelog(t, s, "SELECT * FROM (SELECT *, ROW_NUMBER() OVER (ORDER BY cnt DESC) AS rn FROM agg) WHERE rn <= 2",
		"+I a 1 1", "+I b 1 2", "-U a 1 1", "+U b 1 1", "-D b 1 2", "-U b 1 1", "+U a 2 1", "+I b 1 2",
		"-U b 1 2", "+U c 1 2", "-U c 1 2", "+U b 2 2", "-U a 2 1", "+U c 3 1", "-U b 2 2", "+U a 2 2")
	checkChangelog(t, s, "SELECT n, cnt FROM (SELECT *, ROW_NUMBER() OVER (ORDER BY cnt DESC) AS rn FROM agg) WHERE rn <= 2",
		"+I a 1", "+I b 1", "-D a 1", "+I a 2", "-D b 1", "+I c 1", "-D c 1", "+I b 2", "-D b 2", "+I c 3")
	checkChangelog(t, s, "SELECT * FROM (SELECT *, ROW_NUMBER() OVER (ORDER BY cnt DESC) AS rn FROM agg) WHERE rn = 1",
		"+I a 1 1", "-D a 1 1", "+I b 1 1", "-D b 1 1", "+I a 2 1", "-D a 2 1", "+I c 3 1")
	checkChangelog(t, s, "SELECT * FROM (SELECT *, ROW_NUMBER() OVER (ORDER BY s) AS rn FROM (SELECT n, SUM(x) AS s FROM (VALUES ('a',5),('b',3),('a',-4),('c',2),('b',-2),('d',0)) AS v(n,x) GROUP BY n)) WHERE rn <= 2",
		"+I a 5 1", "-U a 5 1", "+U b 3 1", "+I a 5 2", "-D a 5 2", "-U b 3 1", "+U a 1 1", "+I b 3 2",
		"-U b 3 2", "+U c 2 2", "-U c 2 2", "+U b 1 2", "-U a 1 1", "+U d 0 1", "-U b 1 2", "+U a 1 2")
	// ORDER BY ... LIMIT ... OFFSET over an updating input.
	checkChangelog(t, s, "SELECT n, cnt FROM agg ORDER BY cnt DESC, n LIMIT 2",
		"+I a 1", "+I b 1", "-D a 1", "+I a 2", "-D b 1", "+I c 1", "-D c 1", "+I b 2", "-D b 2", "+I c 3")
	checkChangelog(t, s, "SELECT n, cnt FROM (SELECT *, ROW_NUMBER() OVER (ORDER BY cnt DESC) AS rn FROM agg) WHERE rn > 1 AND rn <= 2",
		"+I b 1", "-D b 1", "+I b 1", "-U b 1", "+U c 1", "-U c 1", "+U b 2", "-U b 2", "+U a 2")
	// An aggregate over the aggregate retracts correctly.
	checkChangelog(t, s, "SELECT cnt, COUNT(*) FROM agg GROUP BY cnt",
		"+I 1 1", "-U 1 1", "+U 1 2", "-U 1 2", "+U 1 1", "+I 2 1", "-U 1 1", "+U 1 2", "-U 1 2", "+U 1 1",
		"-U 2 1", "+U 2 2", "-D 1 1", "-U 2 2", "+U 2 3", "-U 2 3", "+U 2 2", "+I 3 1", "+I 1 1")
}

// rn = 1 ordered by a time attribute is a deduplication.
func TestStreamingDeduplicate(t *testing.T) {
	s := openQuerySession(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "p.csv")
	os.WriteFile(path, []byte("1,a,2024-01-01 00:00:05\n1,b,2024-01-01 00:00:03\n2,c,2024-01-01 00:00:04\n1,d,2024-01-01 00:00:09\n2,e,2024-01-01 00:00:01\n"), 0o644)
	mustExec(t, s, fmt.Sprintf(`CREATE TEMPORARY TABLE ev (k INT, n STRING, ts TIMESTAMP(3), pt AS PROCTIME(),
 WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector'='filesystem','path'='%s','format'='csv')`, path))
	const sub = "(SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY %s) AS rn FROM ev)"
	q := func(cols, order, cond string) string {
		return "SELECT " + cols + " FROM " + fmt.Sprintf(sub, order) + " WHERE " + cond
	}
	// Processing time: keep the first row, or the last.
	checkChangelog(t, s, q("k, n, ts", "pt", "rn = 1"), "+I 1 a 2024-01-01 00:00:05.000", "+I 2 c 2024-01-01 00:00:04.000")
	checkChangelog(t, s, q("k, n, ts", "pt DESC", "rn = 1"),
		"+I 1 a 2024-01-01 00:00:05.000", "-U 1 a 2024-01-01 00:00:05.000", "+U 1 b 2024-01-01 00:00:03.000",
		"+I 2 c 2024-01-01 00:00:04.000", "-U 1 b 2024-01-01 00:00:03.000", "+U 1 d 2024-01-01 00:00:09.000",
		"-U 2 c 2024-01-01 00:00:04.000", "+U 2 e 2024-01-01 00:00:01.000")
	// Event time: the first row fires on the watermark (late rows are
	// dropped); the last row updates at once.
	checkChangelog(t, s, q("k, n, ts", "ts", "rn = 1"), "+I 2 c 2024-01-01 00:00:04.000", "+I 1 a 2024-01-01 00:00:05.000")
	checkChangelog(t, s, q("k, n, ts", "ts DESC", "rn = 1"),
		"+I 1 a 2024-01-01 00:00:05.000", "+I 2 c 2024-01-01 00:00:04.000",
		"-U 1 a 2024-01-01 00:00:05.000", "+U 1 d 2024-01-01 00:00:09.000")
	checkChangelog(t, s, q("k, n, ts, rn", "ts DESC", "rn = 1"),
		"+I 1 a 2024-01-01 00:00:05.000 1", "+I 2 c 2024-01-01 00:00:04.000 1",
		"-U 1 a 2024-01-01 00:00:05.000 1", "+U 1 d 2024-01-01 00:00:09.000 1")
	// A Top-N ordered by processing time keeps the first rows
	// (AppendOnlyFirstNFunction); by event time it is a regular Top-N.
	checkChangelog(t, s, q("k, n, ts", "pt", "rn <= 2"),
		"+I 1 a 2024-01-01 00:00:05.000", "+I 1 b 2024-01-01 00:00:03.000",
		"+I 2 c 2024-01-01 00:00:04.000", "+I 2 e 2024-01-01 00:00:01.000")
	checkChangelog(t, s, q("k, n", "ts DESC", "rn <= 2"),
		"+I 1 a", "+I 1 b", "+I 2 c", "-D 1 b", "+I 1 d", "+I 2 e")
}

// Aggregates over an updating input retract as Flink's *WithRetract
// functions do (MAX, MIN, FIRST_VALUE, LAST_VALUE, LISTAGG keep their
// values).
func TestStreamingAggregateRetractions(t *testing.T) {
	s := openQuerySession(t)
	mustExec(t, s, topnAgg)
	checkChangelog(t, s, "SELECT MAX(cnt) AS mx, MIN(cnt) AS mn, FIRST_VALUE(n) AS f, LAST_VALUE(n) AS l FROM agg",
		"+I 1 1 a a", "-U 1 1 a a", "+U 1 1 a b", "-U 1 1 a b", "+U 1 1 b b", "-U 1 1 b b", "+U 2 1 b a",
		"-U 2 1 b a", "+U 2 1 b c", "-U 2 1 b c", "+U 2 1 a c", "-U 2 1 a c", "+U 2 1 a b", "-U 2 1 a b",
		"+U 2 2 a b", "-U 2 2 a b", "+U 2 2 a c", "-U 2 2 a c", "+U 2 2 a b", "-U 2 2 a b", "+U 3 2 a c",
		"-U 3 2 a c", "+U 3 1 a d")
	checkChangelog(t, s, "SELECT cnt, LISTAGG(n) AS ns, MAX(n) AS mx FROM agg GROUP BY cnt",
		"+I 1 a a", "-U 1 a a", "+U 1 a,b b", "-U 1 a,b b", "+U 1 b b", "+I 2 a a", "-U 1 b b", "+U 1 b,c c",
		"-U 1 b,c c", "+U 1 c c", "-U 2 a a", "+U 2 a,b b", "-D 1 c c", "-U 2 a,b b", "+U 2 a,b,c c",
		"-U 2 a,b,c c", "+U 2 a,b b", "+I 3 c c", "+I 1 d d")
}

// A Top-N partitioned by a window's start and end is Flink's window Top-N:
// each window's ranks once, as +I, when the window is complete.
func TestStreamingWindowTopN(t *testing.T) {
	s := openQuerySession(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "w.csv")
	os.WriteFile(path, []byte("1,a,2024-01-01 00:00:01,5\n2,b,2024-01-01 00:00:02,7\n1,c,2024-01-01 00:00:03,1\n3,d,2024-01-01 00:00:04,9\n"+
		"2,e,2024-01-01 00:00:06,2\n1,f,2024-01-01 00:00:07,8\n3,g,2024-01-01 00:00:08,3\n2,h,2024-01-01 00:00:12,4\n"), 0o644)
	mustExec(t, s, fmt.Sprintf(`CREATE TEMPORARY TABLE w (k INT, n STRING, ts TIMESTAMP(3), v INT,
 WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector'='filesystem','path'='%s','format'='csv')`, path))
	const tvf = "TABLE(TUMBLE(TABLE w, DESCRIPTOR(ts), INTERVAL '5' SECOND))"
	checkChangelog(t, s, "SELECT k, n, v, window_start, rn FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY v DESC) AS rn FROM "+tvf+") WHERE rn <= 2",
		"+I 3 d 9 2024-01-01 00:00:00.000 1", "+I 2 b 7 2024-01-01 00:00:00.000 2",
		"+I 1 f 8 2024-01-01 00:00:05.000 1", "+I 3 g 3 2024-01-01 00:00:05.000 2",
		"+I 2 h 4 2024-01-01 00:00:10.000 1")
	checkChangelog(t, s, "SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY s DESC) AS rn FROM (SELECT window_start, window_end, k, SUM(v) AS s FROM "+tvf+" GROUP BY window_start, window_end, k)) WHERE rn <= 2",
		"+I 2024-01-01 00:00:00.000 2024-01-01 00:00:05.000 3 9 1", "+I 2024-01-01 00:00:00.000 2024-01-01 00:00:05.000 2 7 2",
		"+I 2024-01-01 00:00:05.000 2024-01-01 00:00:10.000 1 8 1", "+I 2024-01-01 00:00:05.000 2024-01-01 00:00:10.000 3 3 2",
		"+I 2024-01-01 00:00:10.000 2024-01-01 00:00:15.000 2 4 1")
}

// Over an unbounded source, window Top-N rows come as windows complete.
func TestStreamingWindowTopNUnbounded(t *testing.T) {
	s := openQuerySession(t)
	mustExec(t, s, `CREATE TABLE g (v INT, ts TIMESTAMP_LTZ(3), WATERMARK FOR ts AS ts - INTERVAL '0' SECOND)
WITH ('connector' = 'datagen', 'rows-per-second' = '200', 'fields.v.min' = '1', 'fields.v.max' = '1000')`)
	start := time.Now()
	got := collect(t, s, "SELECT window_start, v, rn FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY v DESC) AS rn FROM TABLE(TUMBLE(TABLE g, DESCRIPTOR(ts), INTERVAL '1' SECOND))) WHERE rn <= 2 LIMIT 4")
	if len(got) != 4 || time.Since(start) > 6*time.Second {
		t.Fatalf("after %v: %v", time.Since(start), got)
	}
	for i, r := range got {
		f := strings.Fields(r)
		if f[0] != "+I" || f[len(f)-1] != fmt.Sprint(i%2+1) {
			t.Fatalf("row %d %q: want +I with rank %d", i, r, i%2+1)
		}
	}
}
