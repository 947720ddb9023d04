package engine

import (
	"slices"
	"strings"
	"testing"

	"eddy/engine/types"
)

const joinLeft = `CREATE TEMPORARY VIEW l AS SELECT * FROM (VALUES (1,'l1'),(2,'l2'),(3,'l3'),(1,'l4')) AS v(id, a)`
const joinRight = `CREATE TEMPORARY VIEW r AS SELECT * FROM (VALUES (1,'r1'),(4,'r4'),(1,'r5'),(3,'r3')) AS v(id, b)`

// Regular joins in streaming mode emit StreamingJoinOperator's changelog.
// eddy's inputs arrive left batch, then right batch; Flink's arrive in
// whatever order the network delivers them. The FULL JOIN sequence below
// is Flink 2.2's output for a run in which all left rows arrived first
// (the order eddy uses); the others are what Flink's operator emits for
// that same order.
func TestStreamingJoin(t *testing.T) {
	s := openQuerySession(t)
	mustExec(t, s, joinLeft)
	mustExec(t, s, joinRight)
	checkChangelog(t, s, "SELECT * FROM l FULL JOIN r ON l.id = r.id",
		"+I 1 l1 NULL NULL", "+I 2 l2 NULL NULL", "+I 3 l3 NULL NULL", "+I 1 l4 NULL NULL",
		"-D 1 l1 NULL NULL", "+I 1 l1 1 r1", "-D 1 l4 NULL NULL", "+I 1 l4 1 r1",
		"+I NULL NULL 4 r4", "+I 1 l1 1 r5", "+I 1 l4 1 r5", "-D 3 l3 NULL NULL", "+I 3 l3 3 r3")
	// An inner join of bounded append-only inputs: the right rows arrive
	// first, each left row meets its matches.
	checkChangelog(t, s, "SELECT * FROM l JOIN r ON l.id = r.id",
		"+I 1 l1 1 r1", "+I 1 l1 1 r5", "+I 3 l3 3 r3", "+I 1 l4 1 r1", "+I 1 l4 1 r5")
	checkChangelog(t, s, "SELECT * FROM l LEFT JOIN r ON l.id = r.id",
		"+I 1 l1 NULL NULL", "+I 2 l2 NULL NULL", "+I 3 l3 NULL NULL", "+I 1 l4 NULL NULL",
		"-D 1 l1 NULL NULL", "+I 1 l1 1 r1", "-D 1 l4 NULL NULL", "+I 1 l4 1 r1",
		"+I 1 l1 1 r5", "+I 1 l4 1 r5", "-D 3 l3 NULL NULL", "+I 3 l3 3 r3")
	checkChangelog(t, s, "SELECT * FROM l RIGHT JOIN r ON l.id = r.id",
		"+I 1 l1 1 r1", "+I 1 l4 1 r1", "+I NULL NULL 4 r4", "+I 1 l1 1 r5", "+I 1 l4 1 r5", "+I 3 l3 3 r3")
	// A residual condition and a join without equality.
	checkChangelog(t, s, "SELECT a, b FROM l JOIN r ON l.id = r.id AND b <> 'r1'",
		"+I l1 r5", "+I l3 r3", "+I l4 r5")
	checkChangelog(t, s, "SELECT a, b FROM l LEFT JOIN r ON l.id < r.id AND r.id = 4",
		"+I l1 NULL", "+I l2 NULL", "+I l3 NULL", "+I l4 NULL",
		"-D l1 NULL", "+I l1 r4", "-D l2 NULL", "+I l2 r4", "-D l3 NULL", "+I l3 r4", "-D l4 NULL", "+I l4 r4")
	// IN is a semi join (Flink 2.2's output).
	checkChangelog(t, s, "SELECT * FROM l WHERE id IN (SELECT id FROM r)", "+I 1 l1", "+I 1 l4", "+I 3 l3")
	// NOT EXISTS is an anti join: left rows leave when a match arrives.
	checkChangelog(t, s, "SELECT * FROM l WHERE NOT EXISTS (SELECT * FROM r WHERE r.id = l.id)",
		"+I 1 l1", "+I 2 l2", "+I 3 l3", "+I 1 l4", "-D 1 l1", "-D 1 l4", "-D 3 l3")
	// Flink 2.2: joining an aggregate's changelog that arrived first.
	mustExec(t, s, topnAgg)
	checkChangelog(t, s, "SELECT agg.n, cnt, l.a FROM agg JOIN (SELECT * FROM (VALUES ('a','x'),('c','y')) AS v(n, a)) l ON agg.n = l.n",
		"+I a 2 x", "+I c 3 y")
}

// A sub-query over an unbounded source is a streaming semi join: rows
// come as matches arrive (evaluating the sub-query first would never end).
func TestStreamingSemiJoinUnboundedSubQuery(t *testing.T) {
	s := openQuerySession(t)
	mustExec(t, s, `CREATE TEMPORARY TABLE ug (id INT) WITH ('connector' = 'datagen', 'rows-per-second' = '1000', 'fields.id.min' = '1', 'fields.id.max' = '2')`)
	got := collect(t, s, "SELECT * FROM (VALUES (1), (2), (3)) AS v(x) WHERE x IN (SELECT id FROM ug) LIMIT 2")
	slices.Sort(got)
	if strings.Join(got, ",") != "+I 1,+I 2" {
		t.Fatalf("rows: %v", got)
	}
}

// materialize applies a changelog and returns the resulting rows, sorted.
func materialize(t *testing.T, log []string) []string {
	t.Helper()
	var rows []string
	for _, l := range log {
		kind, row, _ := strings.Cut(l, " ")
		switch kind {
		case types.Insert.String(), types.UpdateAfter.String():
			rows = append(rows, row)
		default:
			i := slices.Index(rows, row)
			if i < 0 {
				t.Fatalf("retraction of a row that is not there: %s\nlog: %v", l, log)
			}
			rows = slices.Delete(rows, i, i+1)
		}
	}
	slices.Sort(rows)
	return rows
}

// Retractions flow through joins: a join over an updating input, and an
// aggregate over an updating join, end in the batch result.
func TestStreamingJoinRetractions(t *testing.T) {
	s := openQuerySession(t)
	mustExec(t, s, joinLeft)
	mustExec(t, s, joinRight)
	mustExec(t, s, topnAgg)
	queries := []string{
		"SELECT a, COUNT(*) AS c, COUNT(b) AS cb FROM l LEFT JOIN r ON l.id = r.id GROUP BY a",
		"SELECT a, MAX(b), MIN(b), COUNT(DISTINCT b), STDDEV_POP(r.id) FROM l LEFT JOIN r ON l.id = r.id GROUP BY a",
		"SELECT b, COUNT(*) FROM l FULL JOIN r ON l.id = r.id GROUP BY b",
		"SELECT l.a, agg.n, agg.cnt FROM l LEFT JOIN agg ON l.a = CONCAT('l', CAST(agg.cnt AS STRING))",
		"SELECT agg.n, agg.cnt, r.b FROM agg FULL JOIN r ON agg.cnt = r.id",
		"SELECT cnt, COUNT(*) FROM (SELECT agg.n, agg.cnt, r.b FROM agg JOIN r ON agg.cnt = r.id) GROUP BY cnt",
		"SELECT * FROM l WHERE EXISTS (SELECT * FROM r WHERE r.id = l.id AND b <> 'r3') AND a <> 'l4'",
		"SELECT * FROM r WHERE id IN (SELECT cnt FROM agg)",
		"SELECT * FROM r WHERE NOT EXISTS (SELECT * FROM agg WHERE agg.cnt = r.id)",
		"SELECT * FROM l WHERE id NOT IN (SELECT id FROM r)",
		"SELECT * FROM l WHERE id = (SELECT MAX(id) - 1 FROM r)",
		"SELECT * FROM l WHERE id IN (SELECT id FROM (SELECT *, ROW_NUMBER() OVER (ORDER BY id DESC) AS rn FROM r) WHERE rn <= 2)",
	}
	for _, q := range queries {
		mustExec(t, s, "SET 'execution.runtime-mode' = 'streaming'")
		streamed := materialize(t, collect(t, s, q))
		mustExec(t, s, "SET 'execution.runtime-mode' = 'batch'")
		batch := collect(t, s, q)
		for i, r := range batch {
			batch[i] = strings.TrimPrefix(r, "+I ")
		}
		slices.Sort(batch)
		if strings.Join(streamed, "|") != strings.Join(batch, "|") {
			t.Errorf("%s\nstreaming ends in %v\nbatch gives      %v", q, streamed, batch)
		}
	}
}

// An INSERT of an updating query into a table that stores rows writes the
// query's final rows; a print sink shows the changelog.
func TestStreamingInsertOfUpdatingQuery(t *testing.T) {
	s := openQuerySession(t)
	var out lockedBuffer
	s.SetPrintOutput(&out, &out)
	mustExec(t, s, joinLeft)
	mustExec(t, s, joinRight)
	mustExec(t, s, "CREATE TABLE j (a STRING, b STRING)")
	mustExec(t, s, "CREATE TABLE c (k INT, n BIGINT)")
	mustExec(t, s, "INSERT INTO j SELECT a, b FROM l LEFT JOIN r ON l.id = r.id")
	mustExec(t, s, "INSERT INTO c SELECT k, COUNT(*) FROM (VALUES (1), (1), (2)) AS v(k) GROUP BY k")
	mustExec(t, s, "CREATE TABLE p (k INT, n BIGINT) WITH ('connector' = 'print')")
	mustExec(t, s, "INSERT INTO p SELECT k, COUNT(*) FROM (VALUES (1), (1)) AS v(k) GROUP BY k")
	mustExec(t, s, "SET 'execution.runtime-mode' = 'batch'")
	got := collect(t, s, "SELECT * FROM j")
	slices.Sort(got)
	if strings.Join(got, "|") != "+I l1 r1|+I l1 r5|+I l2 NULL|+I l3 r3|+I l4 r1|+I l4 r5" {
		t.Errorf("join rows: %v", got)
	}
	if got := strings.Join(collect(t, s, "SELECT * FROM c ORDER BY k"), "|"); got != "+I 1 2|+I 2 1" {
		t.Errorf("aggregate rows: %s", got)
	}
	if out.String() != "+I[1, 1]\n-U[1, 1]\n+U[1, 2]\n" {
		t.Errorf("print sink: %q", out.String())
	}
}
