package e2e

import (
	"fmt"
	"math/rand/v2"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// An INSERT is bound to the table it was planned for: when DDL from
// another shell drops, re-creates or reshapes that table while the INSERT
// runs, the INSERT either completes into the table it was planned for or
// fails with a clear error. A row never lands by position in a reshaped
// table, in a new table that took the old one's name, or in a table
// created after the old one was dropped. Each case runs with two real
// eddy processes on one store, at random timing, and the store is checked
// through eddy and through the sqlite3 command-line shell.

// insertDDLRows is the number of rows the INSERT writes: at the datagen
// rate below it runs about a second.
const insertDDLRows = 4000

// insertScript is shell A's INSERT of insertDDLRows rows (a a sequence,
// w the text 'x') into t (a INT, w STRING).
var insertScript = fmt.Sprintf(`SET 'sql-client.execution.result-mode' = 'tableau';
SET 'table.dml-sync' = 'true';
CREATE TEMPORARY TABLE src (a INT, w STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '%d',
  'rows-per-second' = '4000', 'fields.a.kind' = 'sequence', 'fields.a.start' = '1', 'fields.a.end' = '%d',
  'fields.w.length' = '1');
INSERT INTO t SELECT a, 'x' FROM src;
`, insertDDLRows, insertDDLRows)

type overlapCase struct {
	name string
	ddl  string // shell B's statements while the INSERT runs
	// after runs in a third shell once both ended (or "").
	after string
	// check returns what is wrong with the table t after both shells
	// ended, given whether the INSERT reported success and eddy's and
	// sqlite3's view of t.
	check func(ok bool, view tableView) string
}

// tableView is what t holds after a case: its row count, the rows whose
// w is not NULL, and, from the sqlite3 shell, the storage types of its
// stored values.
type tableView struct {
	rows, withW int
	liteTypes   string // "typeof(c0)/typeof(c1)" of each distinct pair, sorted, or "" when no data table
	liteRows    int
}

func TestInsertOverlappingDDL(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 30 INSERTs against DDL from another process")
	}
	if _, err := exec.LookPath("sqlite3"); err != nil {
		t.Skip("the sqlite3 command-line shell is not installed")
	}
	cases := []overlapCase{
		{
			name: "drop and add a column",
			ddl:  "ALTER TABLE t DROP w;\nALTER TABLE t ADD w INT;\n",
			check: func(ok bool, v tableView) string {
				// Rows the INSERT committed before the DDL lost their w
				// with the column; none may carry the INSERT's 'x' into
				// the new INT column.
				if v.withW != 0 {
					return fmt.Sprintf("%d rows carry a value in the new column w", v.withW)
				}
				if ok && v.rows != insertDDLRows {
					return fmt.Sprintf("the INSERT succeeded but t holds %d rows", v.rows)
				}
				if v.liteTypes != "" && v.liteTypes != "integer/null" {
					return "stored values of types " + v.liteTypes
				}
				return ""
			},
		},
		{
			name: "drop and create with other types",
			ddl:  "DROP TABLE t;\nCREATE TABLE t (a STRING, w DOUBLE);\n",
			check: func(ok bool, v tableView) string {
				if v.rows != 0 || v.liteRows != 0 {
					return fmt.Sprintf("the new table holds %d rows (%d stored)", v.rows, v.liteRows)
				}
				return ""
			},
		},
		{
			name:  "drop",
			ddl:   "DROP TABLE t;\n",
			after: "CREATE TABLE t (a INT, w STRING);\n",
			check: func(ok bool, v tableView) string {
				if v.rows != 0 || v.liteRows != 0 {
					return fmt.Sprintf("a table created after the drop holds %d rows (%d stored)", v.rows, v.liteRows)
				}
				return ""
			},
		},
	}
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 11))
	for _, c := range cases {
		t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) {
			completed, failed := 0, 0
			for i := range 10 {
				delay := time.Duration(rng.IntN(1200)) * time.Millisecond
				ok, msg := runOverlap(t, c, delay)
				if ok {
					completed++
				} else {
					failed++
				}
				if msg != "" {
					t.Errorf("run %d (DDL after %v): %s", i, delay, msg)
				}
			}
			t.Logf("%d INSERTs completed, %d failed with a clear error", completed, failed)
		})
	}
}

// runOverlap runs one case: shell A's INSERT, shell B's DDL after delay.
// It returns whether the INSERT succeeded and what is wrong ("" if
// nothing).
func runOverlap(t *testing.T, c overlapCase, delay time.Duration) (bool, string) {
	vars, _ := env(t)
	st := store(t)
	if r := eddyEnv(t, vars, "CREATE TABLE t (a INT, w STRING);\n", "--store", st); r.code != 0 {
		t.Fatalf("setup: %s%s", r.stdout, r.stderr)
	}
	var wg sync.WaitGroup
	var a, b result
	wg.Add(2)
	go func() {
		defer wg.Done()
		a = eddyEnv(t, vars, insertScript, "--store", st)
	}()
	go func() {
		defer wg.Done()
		time.Sleep(delay)
		b = eddyEnv(t, vars, c.ddl, "--store", st)
	}()
	wg.Wait()
	if b.code != 0 {
		return false, "the DDL failed: " + b.stdout + b.stderr
	}
	if c.after != "" {
		if r := eddyEnv(t, vars, c.after, "--store", st); r.code != 0 {
			return false, "the statements after failed: " + r.stdout + r.stderr
		}
	}
	ok := a.code == 0
	if !ok {
		// Failed at its commit (the table was altered or dropped), or,
		// planned after the DDL, at validation or on a value the new
		// column type cannot take.
		out := a.stdout + a.stderr
		if !strings.Contains(out, "Exception") || !(strings.Contains(out, "was altered") ||
			strings.Contains(out, "was dropped") || strings.Contains(out, "ValidationException") ||
			strings.Contains(out, "TableNotExistException") || strings.Contains(out, "NumberFormatException")) {
			return false, "the INSERT failed without a clear error:\n" + out
		}
	}
	v, err := viewOf(t, vars, st)
	if err != "" {
		return ok, err
	}
	return ok, c.check(ok, v)
}

// viewOf reads t through eddy and through the sqlite3 shell.
func viewOf(t *testing.T, vars []string, st string) (tableView, string) {
	var v tableView
	r := eddyEnv(t, vars, "SET 'sql-client.execution.result-mode' = 'tableau';\n"+
		"SET 'execution.runtime-mode' = 'batch';\n"+
		"SELECT count(*) AS n FROM t;\nSELECT count(w) AS nw FROM t;\n", "--store", st)
	if r.code != 0 {
		return v, "reading t through eddy: " + r.stdout + r.stderr
	}
	n, nw := column(r.stdout, "n"), column(r.stdout, "nw")
	if len(n) != 1 || len(nw) != 1 {
		return v, "unexpected count output:\n" + r.stdout
	}
	v.rows, _ = strconv.Atoi(n[0])
	v.withW, _ = strconv.Atoi(nw[0])
	// The data table of t, as row_tables maps it.
	id := sqlite3(t, st, "SELECT id FROM row_tables WHERE db = 'default_database' AND name = 't';")
	if id == "" {
		return v, ""
	}
	tbl := "eddy_rows_" + id
	v.liteRows, _ = strconv.Atoi(sqlite3(t, st, "SELECT count(*) FROM "+tbl+";"))
	v.liteTypes = strings.ReplaceAll(sqlite3(t, st,
		"SELECT DISTINCT typeof(c0) || '/' || typeof(c1) FROM "+tbl+" ORDER BY 1;"), "\n", ",")
	if v.liteRows != v.rows {
		return v, fmt.Sprintf("eddy counts %d rows, the store holds %d", v.rows, v.liteRows)
	}
	return v, ""
}

// sqlite3 runs a query through the sqlite3 command-line shell, read-only.
func sqlite3(t *testing.T, st, query string) string {
	t.Helper()
	out, err := exec.Command("sqlite3", "-readonly", st, query).CombinedOutput()
	if err != nil {
		t.Fatalf("sqlite3 %q: %v\n%s", query, err, out)
	}
	return strings.TrimSpace(string(out))
}
