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

// TestColumnsFromTheFiles: filesystem tables created without columns take
// them from a directory of Parquet files (partition directories
// included), a CSV header and JSON lines; SHOW CREATE TABLE prints them.
func TestColumnsFromTheFiles(t *testing.T) {
	s, done := openViewSession(t, filepath.Join(t.TempDir(), "s.db"))
	defer done()
	exec(t, s, "SET 'execution.runtime-mode' = 'batch'")
	exec(t, s, "SET 'table.dml-sync' = 'true'")
	pq := t.TempDir()
	exec(t, s, "CREATE TABLE w (id BIGINT, name STRING, price DECIMAL(10, 2), tags ARRAY<STRING>, attrs ROW<a INT, b DOUBLE>, dt STRING) "+
		"PARTITIONED BY (dt) WITH ('connector' = 'filesystem', 'path' = '"+pq+"', 'format' = 'parquet')")
	exec(t, s, "INSERT INTO w VALUES (1, 'a', 1.50, ARRAY['x'], ROW(1, 0.5), '2024-01-01'), (2, 'b', 2.25, ARRAY['y', 'z'], ROW(2, 1.5), '2024-01-02')")
	exec(t, s, "CREATE TABLE pin WITH ('connector' = 'filesystem', 'path' = '"+pq+"', 'format' = 'parquet')")
	want := "`pin` (\n" +
		"  `id` BIGINT,\n  `name` VARCHAR(2147483647),\n  `price` DECIMAL(10, 2),\n  `tags` ARRAY<VARCHAR(2147483647)>,\n" +
		"  `attrs` ROW<`a` INT, `b` DOUBLE>,\n  `dt` VARCHAR(2147483647)\n)\nPARTITIONED BY (`dt`)\n"
	if got := text(t, exec(t, s, "SHOW CREATE TABLE pin")); !strings.Contains(got, want) {
		t.Fatalf("SHOW CREATE TABLE of a Parquet directory:\n%s\nwant it to hold\n%s", got, want)
	}
	if got := text(t, exec(t, s, "SELECT name, price, tags[2], attrs.b, dt FROM pin WHERE id = 2")); got != "b\t2.25\tz\t1.5\t2024-01-02\n" {
		t.Fatalf("query of the inferred table: %q", got)
	}

	csvDir := t.TempDir()
	csvFile := filepath.Join(csvDir, "prices.csv")
	if err := os.WriteFile(csvFile, []byte("id,name,price,day,ok\n1,apple,1.5,2024-01-01,true\n2,pear,2,2024-01-02,false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	exec(t, s, "CREATE TABLE c WITH ('connector' = 'filesystem', 'path' = '"+csvFile+"', 'format' = 'csv', 'csv.ignore-first-line' = 'true')")
	got := text(t, exec(t, s, "SHOW CREATE TABLE c"))
	if !strings.Contains(got, "`c` (\n  `id` BIGINT,\n  `name` VARCHAR(2147483647),\n  `price` DOUBLE,\n  `day` DATE,\n  `ok` BOOLEAN\n)") {
		t.Fatalf("SHOW CREATE TABLE of a CSV file with a header:\n%s", got)
	}
	if got := text(t, exec(t, s, "SELECT SUM(price), CAST(MAX(`day`) AS STRING), COUNT(*) FROM c WHERE ok")); got != "1.5\t2024-01-01\t1\n" {
		t.Fatalf("query of the CSV table: %q", got)
	}
	if _, err := s.Execute(context.Background(), "CREATE TABLE c2 WITH ('connector' = 'filesystem', 'path' = '"+csvFile+"', 'format' = 'csv')"); err == nil ||
		!strings.Contains(err.Error(), "csv.ignore-first-line") {
		t.Fatalf("a CSV table without columns or header: %v", err)
	}
	// A CSV error names the file and the line.
	bad := filepath.Join(csvDir, "bad.csv")
	if err := os.WriteFile(bad, []byte("id,n\n1,2\nx,3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	exec(t, s, "CREATE TABLE b (id INT, n INT) WITH ('connector' = 'filesystem', 'path' = '"+bad+"', 'format' = 'csv', 'csv.ignore-first-line' = 'true')")
	if _, err := queryText(t, s, "SELECT * FROM b"); err == nil || !strings.Contains(err.Error(), bad) || !strings.Contains(err.Error(), "line 3") {
		t.Fatalf("a bad CSV field: %v, want an error naming %s and line 3", err, bad)
	}

	js := filepath.Join(t.TempDir(), "events.json")
	if err := os.WriteFile(js, []byte(`{"user": "u1", "n": 1, "tags": ["a"], "geo": {"lat": 1.5}}`+"\n"+`{"user": "u2", "n": 2.5, "extra": null}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	exec(t, s, "CREATE TABLE j WITH ('connector' = 'filesystem', 'path' = '"+js+"', 'format' = 'json')")
	got = text(t, exec(t, s, "SHOW CREATE TABLE j"))
	if !strings.Contains(got, "`j` (\n  `user` VARCHAR(2147483647),\n  `n` DOUBLE,\n  `tags` ARRAY<VARCHAR(2147483647)>,\n  `geo` ROW<`lat` DOUBLE>,\n  `extra` VARCHAR(2147483647)\n)") {
		t.Fatalf("SHOW CREATE TABLE of JSON lines:\n%s", got)
	}
	if got := text(t, exec(t, s, "SELECT SUM(n) FROM j")); got != "3.5\n" {
		t.Fatalf("query of the JSON table: %q", got)
	}
}
