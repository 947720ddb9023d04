package engine

import (
	"os"
	"path/filepath"
	"testing"
)

// TestScanResidualFilterReadsOnlyReadColumns runs filters a source cannot
// take (a CAST of a column) next to a projection that reads fewer columns
// than the table has, over a managed table and a CSV table: the residual
// filter is evaluated over the read columns only, and the AND of two such
// conjuncts gathers its rows without touching an unread column.
func TestScanResidualFilterReadsOnlyReadColumns(t *testing.T) {
	s := openQuerySession(t)
	mustExec(t, s, "SET 'table.dml-sync' = 'true'")
	mustExec(t, s, "SET 'execution.runtime-mode' = 'batch'")
	mustExec(t, s, "CREATE TABLE m (a INT, b STRING, c INT, d DOUBLE)")
	mustExec(t, s, "INSERT INTO m VALUES (1, 'x', 3, 0.5), (2, 'y', 5, 1.5), (3, 'z', 7, 2.5), (4, NULL, NULL, NULL)")
	dir := filepath.Join(t.TempDir(), "csv")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "part-0.csv"), []byte("1,x,3,0.5\n2,y,5,1.5\n3,z,7,2.5\n4,,,\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mustExec(t, s, "CREATE TABLE f (a INT, b STRING, c INT, d DOUBLE) WITH ('connector' = 'filesystem', 'path' = '"+dir+"', 'format' = 'csv')")
	for _, tbl := range []string{"m", "f"} {
		expectRows(t, s, "SELECT a FROM "+tbl+" WHERE CAST(c AS DOUBLE) > 3.5 AND CAST(c AS DOUBLE) < 6", "2")
		expectRows(t, s, "SELECT b FROM "+tbl+" WHERE CAST(c AS DOUBLE) > 3.5 AND CAST(a AS DOUBLE) < 6 AND b <> 'q'", "y\nz")
		expectRows(t, s, "SELECT d, a FROM "+tbl+" WHERE CAST(c AS DOUBLE) > 6 OR a < 2 AND CAST(d AS INT) = 0", "0.5 | 1\n2.5 | 3")
		expectRows(t, s, "SELECT COUNT(*) FROM "+tbl+" WHERE CAST(c AS DOUBLE) > 3.5 AND CAST(c AS DOUBLE) < 8", "2")
	}
}
