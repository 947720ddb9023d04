package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPartitionedParquetTable: rows from datagen go to a partitioned
// Parquet table under k=v/ directories with success files, SHOW
// PARTITIONS lists them, a query of one partition opens only its files
// (a corrupt file in another partition is never read), INSERT OVERWRITE
// of a static partition replaces that partition alone, and ALTER TABLE
// adds and drops partitions.
func TestPartitionedParquetTable(t *testing.T) {
	s, done := openViewSession(t, filepath.Join(t.TempDir(), "s.db"))
	defer done()
	dir := t.TempDir()
	exec(t, s, "SET 'execution.runtime-mode' = 'batch'")
	exec(t, s, "SET 'table.dml-sync' = 'true'")
	exec(t, s, "CREATE TABLE gen (id BIGINT, v STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '90', "+
		"'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '90', 'fields.v.length' = '4')")
	exec(t, s, "CREATE TABLE pt (id BIGINT, v STRING, p STRING) PARTITIONED BY (p) WITH ('connector' = 'filesystem', "+
		"'path' = '"+dir+"', 'format' = 'parquet', 'sink.partition-commit.policy.kind' = 'success-file')")
	exec(t, s, "INSERT INTO pt SELECT id, v, CAST(MOD(id, 3) AS STRING) FROM gen")
	if got := text(t, exec(t, s, "SHOW PARTITIONS pt")); got != "p=0\np=1\np=2\n" {
		t.Fatalf("SHOW PARTITIONS:\n%s", got)
	}
	for _, p := range []string{"p=0", "p=1", "p=2"} {
		if _, err := os.Stat(filepath.Join(dir, p, "_SUCCESS")); err != nil {
			t.Errorf("no success file in %s: %v", p, err)
		}
	}
	if got := text(t, exec(t, s, "SELECT COUNT(*), SUM(id) FROM pt WHERE p = '1'")); got != "30\t1335\n" {
		t.Fatalf("partition p=1: %q", got)
	}
	// Partition pruning: with a file of p=0 made unreadable, p=1 is still
	// read, and a query of every partition fails on that file.
	bad, err := filepath.Glob(filepath.Join(dir, "p=0", "part-*"))
	if err != nil || len(bad) != 1 {
		t.Fatalf("part files of p=0: %v %v", bad, err)
	}
	good, _ := os.ReadFile(bad[0])
	if err := os.WriteFile(bad[0], []byte("not parquet"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := text(t, exec(t, s, "SELECT COUNT(*) FROM pt WHERE p = '1' AND id > 40")); got != "16\n" {
		t.Fatalf("partition p=1 with a corrupt p=0: %q", got)
	}
	if _, err := queryText(t, s, "SELECT COUNT(*) FROM pt"); err == nil || !strings.Contains(err.Error(), bad[0]) {
		t.Fatalf("reading the corrupt file: %v, want an error naming it", err)
	}
	if err := os.WriteFile(bad[0], good, 0o644); err != nil {
		t.Fatal(err)
	}
	exec(t, s, "INSERT OVERWRITE pt PARTITION (p = '1') SELECT id, v FROM gen WHERE id <= 5")
	if got := text(t, exec(t, s, "SELECT p, COUNT(*) FROM pt GROUP BY p ORDER BY p")); got != "0\t30\n1\t5\n2\t30\n" {
		t.Fatalf("after INSERT OVERWRITE of p=1:\n%s", got)
	}
	exec(t, s, "ALTER TABLE pt ADD PARTITION (p = 'x y')")
	if _, err := s.Execute(context.Background(), "ALTER TABLE pt ADD PARTITION (p = 'x y')"); err == nil {
		t.Fatal("adding an existing partition succeeded")
	}
	exec(t, s, "ALTER TABLE pt ADD IF NOT EXISTS PARTITION (p = 'x y')")
	if got := text(t, exec(t, s, "SHOW PARTITIONS pt PARTITION (p = 'x y')")); got != "p=x y\n" {
		t.Fatalf("SHOW PARTITIONS with a spec:\n%s", got)
	}
	exec(t, s, "ALTER TABLE pt DROP PARTITION (p = 'x y'), PARTITION (p = '2')")
	if got := text(t, exec(t, s, "SHOW PARTITIONS pt")); got != "p=0\np=1\n" {
		t.Fatalf("SHOW PARTITIONS after DROP:\n%s", got)
	}
	if _, err := s.Execute(context.Background(), "ALTER TABLE pt DROP PARTITION (p = '2')"); err == nil {
		t.Fatal("dropping a missing partition succeeded")
	}
	if got := text(t, exec(t, s, "SELECT COUNT(*) FROM pt")); got != "35\n" {
		t.Fatalf("rows after DROP PARTITION: %q", got)
	}
	if _, err := s.Execute(context.Background(), "SHOW PARTITIONS gen"); err == nil || !strings.Contains(err.Error(), "is not partitioned") {
		t.Fatalf("SHOW PARTITIONS of a table without partitions: %v", err)
	}
}
