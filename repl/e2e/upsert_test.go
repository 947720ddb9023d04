package e2e

import (
	"strings"
	"testing"
)

// TestPrimaryKeyKeepsOneRowPerKey: a managed table with a PRIMARY KEY
// keeps one row per key, in a sqlite catalog (the store) and in an
// in-memory catalog, whichever way the INSERT runs: piped statements that
// share a commit, one statement of several rows of a key, INSERT ...
// SELECT of an updating query, and a later run on the same store.
func TestPrimaryKeyKeepsOneRowPerKey(t *testing.T) {
	st := store(t)
	script := `SET 'table.dml-sync' = 'true';
CREATE CATALOG mem WITH ('type' = 'generic_in_memory');
CREATE TABLE prices (id INT, price INT, PRIMARY KEY (id) NOT ENFORCED);
CREATE TABLE mem.` + "`default`" + `.prices (id INT, price INT, PRIMARY KEY (id) NOT ENFORCED);
CREATE TABLE plain (id INT, price INT);
INSERT INTO prices VALUES (1, 10), (2, 20);
INSERT INTO prices VALUES (1, 11);
INSERT INTO prices VALUES (3, 30), (3, 31), (2, 21);
INSERT INTO mem.` + "`default`" + `.prices VALUES (1, 10), (2, 20), (1, 12);
INSERT INTO plain VALUES (1, 10), (1, 11);
INSERT INTO prices SELECT id, SUM(price) FROM (VALUES (4, 1), (4, 2), (1, 5)) AS t(id, price) GROUP BY id;
SET 'execution.runtime-mode' = 'batch';
SELECT id, price FROM prices ORDER BY id;
SELECT id, price FROM mem.` + "`default`" + `.prices ORDER BY id;
SELECT COUNT(*) AS n FROM plain;
`
	r := eddy(t, script, "--store", st, "--output", "csv")
	want := "id,price\n1,5\n2,21\n3,31\n4,3\n" + "id,price\n1,12\n2,20\n" + "n\n2\n"
	if r.code != 0 || r.stdout != want {
		t.Fatalf("exit %d\n%s\nwant:\n%s\n%s", r.code, r.stdout, want, r.stderr)
	}
	r = eddy(t, "INSERT INTO prices VALUES (2, 22);\n", "--store", st, "-D", "table.dml-sync=true")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	r = eddy(t, "", "--store", st, "--output", "csv", "-D", "execution.runtime-mode=batch", "-e", "SELECT id, price FROM prices ORDER BY id")
	if want := "id,price\n1,5\n2,22\n3,31\n4,3\n"; r.code != 0 || r.stdout != want {
		t.Errorf("after a second run: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if strings.Contains(r.stderr, "ERROR") {
		t.Errorf("stderr: %s", r.stderr)
	}
}
