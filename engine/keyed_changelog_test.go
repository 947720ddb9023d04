package engine

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// An unbounded updating query into a managed table with a primary key
// commits its changelog at every checkpoint while it runs: the table
// holds one row per key, and a key the query retracts (HAVING) is deleted
// from it, without waiting for an end the stream never reaches.
func TestKeyedTableCommitsChangelogAtCheckpoints(t *testing.T) {
	s := openQuerySession(t)
	mustExec(t, s, `SET 'execution.checkpointing.interval' = '20 ms'`)
	mustExec(t, s, `CREATE TEMPORARY TABLE gen (k INT) WITH ('connector' = 'datagen', 'rows-per-second' = '20000', 'fields.k.min' = '0', 'fields.k.max' = '3')`)
	mustExec(t, s, `CREATE TABLE counts (k INT, n BIGINT, PRIMARY KEY (k) NOT ENFORCED)`)
	mustExec(t, s, `CREATE TABLE few (k INT, n BIGINT, PRIMARY KEY (k) NOT ENFORCED)`)
	mustExec(t, s, `INSERT INTO few VALUES (0, -1), (1, -1), (2, -1), (3, -1), (9, 9)`)
	counts := jobID(t, s, `INSERT INTO counts SELECT k, COUNT(*) FROM gen GROUP BY k`)
	few := jobID(t, s, `INSERT INTO few SELECT k, COUNT(*) FROM gen GROUP BY k HAVING COUNT(*) < 50`)
	defer mustExec(t, s, "STOP JOB '"+counts+"'")
	defer mustExec(t, s, "STOP JOB '"+few+"'")

	read := func(table string) []string {
		rows := collect(t, s, "SELECT k, n FROM "+table)
		slices.Sort(rows)
		return rows
	}
	// Both jobs run until STOP JOB; their rows must appear meanwhile.
	deadline := time.Now().Add(30 * time.Second)
	var got, gotFew []string
	for time.Now().Before(deadline) {
		got, gotFew = read("counts"), read("few")
		keys := make([]string, len(got))
		for i, r := range got {
			f := strings.Fields(r)
			keys[i] = f[1]
			if f[2] == "0" {
				t.Fatalf("counts holds a key counted 0 times: %v", got)
			}
		}
		if strings.Join(keys, ",") == "0,1,2,3" && slices.Equal(gotFew, []string{"+I 9 9"}) {
			for _, id := range []string{counts, few} {
				if j, _ := jobStatus(s, id); j.Status != JobRunning {
					t.Fatalf("job %s: %+v", id, j)
				}
			}
			return
		}
		if len(keys) > 4 {
			t.Fatalf("counts holds more than one row per key: %v", got)
		}
		time.Sleep(20 * time.Millisecond)
	}
	jc, _ := jobStatus(s, counts)
	jf, _ := jobStatus(s, few)
	t.Fatalf("jobs %+v %+v; while the jobs ran: counts %v (want one row for each of 0..3), few %v (want only +I 9 9)", jc, jf, got, gotFew)
}
