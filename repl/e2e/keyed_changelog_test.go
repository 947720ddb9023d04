package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestKeyedTableAppliesChangelog: a managed table with a PRIMARY KEY in
// the store file applies the changelog of an updating query by key, as
// Flink's table store does — a key whose count changes keeps one row with
// its final count, a key a HAVING retracts and a key a debezium-json
// source deletes are gone — checked with the sqlite3 shell; a statement
// that fails part-way leaves the table as it was; a later process reopens
// the store and applies another changelog.
func TestKeyedTableAppliesChangelog(t *testing.T) {
	if _, err := exec.LookPath("sqlite3"); err != nil {
		t.Skip("the sqlite3 command-line shell is not installed")
	}
	st := store(t)
	dir := t.TempDir()
	writeTo(t, filepath.Join(dir, "orders.json"), `{"before":null,"after":{"k":1,"v":10},"op":"c"}
{"before":null,"after":{"k":2,"v":20},"op":"c"}
{"before":null,"after":{"k":3,"v":30},"op":"c"}
{"before":{"k":1,"v":10},"after":{"k":1,"v":11},"op":"u"}
{"before":{"k":2,"v":20},"after":null,"op":"d"}
{"before":{"k":3,"v":30},"after":null,"op":"d"}
{"before":null,"after":{"k":3,"v":33},"op":"c"}
`)
	writeTo(t, filepath.Join(dir, "later.json"), `{"before":{"k":7,"v":7},"after":null,"op":"d"}
{"before":{"k":1,"v":11},"after":{"k":1,"v":12},"op":"u"}
{"before":null,"after":{"k":8,"v":80},"op":"c"}
`)
	script := `SET 'table.dml-sync' = 'true';
SET 'execution.runtime-mode' = 'streaming';
CREATE TABLE counts (k INT, n BIGINT, PRIMARY KEY (k) NOT ENFORCED);
INSERT INTO counts VALUES (3, 0), (5, 500);
INSERT INTO counts SELECT k, COUNT(*) FROM (VALUES (1), (2), (1), (3), (3), (3), (4)) AS t(k) GROUP BY k HAVING COUNT(*) < 3;
CREATE TABLE orders (k INT, v INT) WITH ('connector' = 'filesystem', 'path' = '` + dir + `/orders.json', 'format' = 'debezium-json');
CREATE TABLE later (k INT, v INT) WITH ('connector' = 'filesystem', 'path' = '` + dir + `/later.json', 'format' = 'debezium-json');
CREATE TABLE latest (k INT, v INT, PRIMARY KEY (k) NOT ENFORCED);
INSERT INTO latest VALUES (2, 2), (7, 7);
INSERT INTO latest SELECT k, v FROM orders;
`
	r := eddy(t, script, "--store", st)
	if r.code != 0 || strings.Contains(r.stdout+r.stderr, "ERROR") {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// 1 counted twice, 2 and 4 once, 3 retracted when its count reached
	// 3 (its earlier row gone too); 5 untouched.
	if got := keyedRows(t, st, "counts"); got != "1|2,2|1,4|1,5|500" {
		t.Errorf("counts in the store: %s", got)
	}
	// 2 deleted (and its earlier row), 1 updated, 3 deleted and inserted
	// again; 7 untouched.
	if got := keyedRows(t, st, "latest"); got != "1|11,3|33,7|7" {
		t.Errorf("latest in the store: %s", got)
	}

	// A statement that fails part-way (3 divides by zero after rows of
	// keys 1 and 2 were computed) changes nothing.
	r = eddy(t, "SET 'table.dml-sync' = 'true';\nINSERT INTO latest SELECT k, 100 / (k - 3) FROM orders;\n", "--store", st)
	if !strings.Contains(r.stdout+r.stderr, "[ERROR]") {
		t.Fatalf("the failing statement: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if got := keyedRows(t, st, "latest"); got != "1|11,3|33,7|7" {
		t.Errorf("latest after a failed statement: %s", got)
	}

	// Another process applies a later changelog, committing at
	// checkpoints, and reads the table back.
	r = eddy(t, "INSERT INTO latest SELECT k, v FROM later;\n", "--store", st,
		"-D", "table.dml-sync=true", "-D", "execution.checkpointing.interval=1ms")
	if r.code != 0 || strings.Contains(r.stdout+r.stderr, "ERROR") {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if got := keyedRows(t, st, "latest"); got != "1|12,3|33,8|80" {
		t.Errorf("latest after the later changelog: %s", got)
	}
	r = eddy(t, "", "--store", st, "--output", "csv", "-D", "execution.runtime-mode=batch",
		"-e", "SELECT k, v FROM latest ORDER BY k")
	if want := "k,v\n1,12\n3,33\n8,80\n"; r.code != 0 || r.stdout != want {
		t.Errorf("eddy reads latest: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// keyedRows returns the rows of the managed table name of the default
// database as the sqlite3 shell reads them from the store's data table:
// "c0|c1" cells, rows sorted and joined by commas.
func keyedRows(t *testing.T, st, name string) string {
	t.Helper()
	id := sqlite3(t, st, "SELECT id FROM row_tables WHERE db = 'default_database' AND name = '"+name+"';")
	if id == "" {
		t.Fatalf("no data table for %s", name)
	}
	return strings.ReplaceAll(sqlite3(t, st, "SELECT c0, c1 FROM eddy_rows_"+id+" ORDER BY c0;"), "\n", ",")
}

func writeTo(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
