package hive_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"eddy/engine/gateway"
)

// flinkHive opens a session of the Flink 1.20 SQL Gateway that has Flink's
// Hive connector (testdata/flink120/gateway.sh), in batch mode with
// synchronous INSERTs, or skips the test.
func flinkHive(t *testing.T) *gateway.Session {
	t.Helper()
	endpoint := os.Getenv("EDDY_FLINK_HIVE_GATEWAY")
	if endpoint == "" {
		t.Skip("EDDY_FLINK_HIVE_GATEWAY is not set: start Flink 1.20 with its Hive connector with catalogs/hive/testdata/flink120/gateway.sh start and export its last line")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	s, err := gateway.Open(ctx, gateway.Config{
		ClientConfig: gateway.ClientConfig{Endpoint: endpoint, RequestTimeout: 3 * time.Minute},
		Properties:   map[string]string{"execution.runtime-mode": "batch", "table.dml-sync": "true"},
	})
	if err != nil {
		t.Fatalf("opening a session of the Flink 1.20 gateway: %v", err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("closing the Flink session: %v", err)
		}
	})
	return s
}

// sameRows runs one query in eddy and in Flink and checks both answer
// want, in any order.
func sameRows(t *testing.T, e, f executor, query string, want ...string) {
	t.Helper()
	sort.Strings(want)
	for _, side := range []struct {
		name string
		s    executor
	}{{"eddy", e}, {"Flink", f}} {
		got := run(t, side.s, query)
		sort.Strings(got)
		if strings.Join(got, ";") != strings.Join(want, ";") {
			t.Errorf("%s: %s\n got  %v\n want %v", side.name, query, got, want)
		}
	}
}

// TestFlinkInterop has eddy and real Flink (1.20, through its
// HiveCatalog) share one metastore: Flink lists and reads the generic
// tables, Hive tables and views eddy created; eddy, and a second eddy
// process with a catalog store of its own, list and read the tables and
// views Flink created and the rows Flink inserted.
func TestFlinkInterop(t *testing.T) {
	_, conf := metastore(t)
	f := flinkHive(t)
	db := uniqueDB("interop_db")
	data := t.TempDir()
	create := fmt.Sprintf("CREATE CATALOG h WITH ('type' = 'hive', 'hive-conf-dir' = '%s')", conf)

	e := session(t)
	run(t, e, create, "CREATE DATABASE h."+db+" COMMENT 'shared with Flink'", "USE h."+db,
		"CREATE TABLE gen (x BIGINT, s STRING) COMMENT 'generic' WITH ('connector' = 'datagen', 'number-of-rows' = '3')",
		"CREATE TABLE csv_t (id INT, name STRING, price DECIMAL(10, 2)) WITH ('connector' = 'filesystem', 'path' = '"+filepath.Join(data, "csv_t")+"', 'format' = 'csv')",
		"INSERT INTO csv_t VALUES (1, 'ann', 1.50), (2, 'bob', 20.00)",
		"SET 'table.sql-dialect' = 'hive'",
		"CREATE TABLE people (id INT, name STRING, born DATE, score DOUBLE) PARTITIONED BY (dt STRING) ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' STORED AS TEXTFILE",
		"CREATE TABLE plain (id BIGINT, tag STRING, ok BOOLEAN, ts TIMESTAMP)",
		"CREATE TABLE pq (id INT, name STRING, amount DECIMAL(10, 2), d DATE) PARTITIONED BY (region STRING) STORED AS PARQUET",
		"SET 'table.sql-dialect' = 'default'",
		"INSERT INTO pq VALUES (1, 'ann', 12.50, DATE '2024-03-01', 'eu'), (2, CAST(NULL AS STRING), CAST(NULL AS DECIMAL(10, 2)), DATE '2024-03-02', 'us')",
		"INSERT INTO people VALUES (1, 'ann', DATE '2000-01-02', 1.5, '2024-01-01'), (2, CAST(NULL AS STRING), DATE '1999-12-31', -2.25, '2024-01-02')",
		"INSERT INTO plain VALUES (10, 'x', TRUE, TIMESTAMP '2024-01-02 03:04:05.123'), (11, CAST(NULL AS STRING), FALSE, CAST(NULL AS TIMESTAMP))",
		"CREATE VIEW adults COMMENT 'named' AS SELECT id, name, dt FROM people WHERE id > 1",
	)
	t.Cleanup(func() { run(t, e, "USE CATALOG default_catalog", "DROP DATABASE IF EXISTS h."+db+" CASCADE") })

	// Flink lists and reads what eddy created.
	run(t, f, create, "USE CATALOG h", "USE "+db)
	if got := run(t, f, "SHOW TABLES"); strings.Join(got, ";") != "+I[adults];+I[csv_t];+I[gen];+I[people];+I[plain];+I[pq]" {
		t.Errorf("Flink: SHOW TABLES = %v", got)
	}
	if got := run(t, f, "SHOW VIEWS"); strings.Join(got, ";") != "+I[adults]" {
		t.Errorf("Flink: SHOW VIEWS = %v", got)
	}
	sameRows(t, e, f, "SELECT * FROM csv_t", "+I[1, ann, 1.50]", "+I[2, bob, 20.00]")
	sameRows(t, e, f, "SELECT * FROM people", "+I[1, ann, 2000-01-02, 1.5, 2024-01-01]", "+I[2, NULL, 1999-12-31, -2.25, 2024-01-02]")
	sameRows(t, e, f, "SELECT * FROM plain", "+I[10, x, TRUE, 2024-01-02 03:04:05.123000000]", "+I[11, NULL, FALSE, NULL]")
	sameRows(t, e, f, "SELECT * FROM adults", "+I[2, NULL, 2024-01-02]")
	sameRows(t, e, f, "SELECT count(*) FROM gen", "+I[3]")
	sameRows(t, e, f, "SELECT * FROM pq", "+I[1, ann, 12.50, 2024-03-01, eu]", "+I[2, NULL, NULL, 2024-03-02, us]")

	// Flink creates a generic table, a Hive table, a view, and inserts
	// into eddy's Hive table (a new partition).
	run(t, f,
		"CREATE TABLE f_csv (k INT, v STRING) COMMENT 'from Flink' WITH ('connector' = 'filesystem', 'path' = '"+filepath.Join(data, "f_csv")+"', 'format' = 'csv')",
		"INSERT INTO f_csv VALUES (1, 'one'), (2, 'two')",
		"CREATE TABLE f_hive (k INT, v STRING, d DECIMAL(5, 1)) WITH ('connector' = 'hive')",
		"INSERT INTO f_hive VALUES (1, 'a', 1.5), (2, CAST(NULL AS STRING), CAST(NULL AS DECIMAL(5, 1))), (3, 'c', -3.0)",
		"CREATE VIEW f_view COMMENT 'a view of Flink' AS SELECT k, UPPER(v) AS uv FROM f_hive WHERE k > 1",
		"INSERT INTO people VALUES (3, 'cy', DATE '2020-02-29', 0.5, '2024-01-03')",
		"INSERT INTO pq VALUES (3, 'cy', -0.25, DATE '1970-01-01', 'eu')",
		"SET 'table.sql-dialect' = 'hive'",
		"CREATE TABLE f_dlm (a INT, b STRING, c DOUBLE) ROW FORMAT DELIMITED FIELDS TERMINATED BY '|' STORED AS TEXTFILE",
		"CREATE TABLE f_pq (a INT, b STRING, c DECIMAL(6, 3), d DATE, ts TIMESTAMP) PARTITIONED BY (p STRING) STORED AS PARQUET",
		"SET table.sql-dialect=default", // the Hive dialect's SET
		"INSERT INTO f_dlm VALUES (1, 'x', 0.5), (2, CAST(NULL AS STRING), CAST(NULL AS DOUBLE))",
		"INSERT INTO f_pq VALUES (1, 'x', 1.125, DATE '2024-05-06', TIMESTAMP '2024-05-06 07:08:09.5', 'a'), (2, CAST(NULL AS STRING), CAST(NULL AS DECIMAL(6, 3)), CAST(NULL AS DATE), CAST(NULL AS TIMESTAMP), 'b')",
	)
	want := map[string][]string{
		"SELECT * FROM f_csv":  {"+I[1, one]", "+I[2, two]"},
		"SELECT * FROM f_hive": {"+I[1, a, 1.5]", "+I[2, NULL, NULL]", "+I[3, c, -3.0]"},
		"SELECT * FROM f_view": {"+I[2, NULL]", "+I[3, C]"},
		"SELECT * FROM f_dlm":  {"+I[1, x, 0.5]", "+I[2, NULL, NULL]"},
		"SELECT * FROM f_pq":   {"+I[1, x, 1.125, 2024-05-06, 2024-05-06 07:08:09.500000000, a]", "+I[2, NULL, NULL, NULL, NULL, b]"},
		"SELECT * FROM pq":     {"+I[1, ann, 12.50, 2024-03-01, eu]", "+I[2, NULL, NULL, 2024-03-02, us]", "+I[3, cy, -0.25, 1970-01-01, eu]"},
		"SELECT * FROM people": {"+I[1, ann, 2000-01-02, 1.5, 2024-01-01]", "+I[2, NULL, 1999-12-31, -2.25, 2024-01-02]", "+I[3, cy, 2020-02-29, 0.5, 2024-01-03]"},
	}
	queries := make([]string, 0, len(want))
	for q := range want {
		queries = append(queries, q)
	}
	sort.Strings(queries)
	for _, q := range queries {
		sameRows(t, e, f, q, want[q]...)
	}
	// Both sides see the same columns and types.
	for _, name := range []string{"csv_t", "gen", "people", "plain", "pq", "adults", "f_csv", "f_hive", "f_dlm", "f_pq", "f_view"} {
		if de, df := describe(t, e, name), describe(t, f, name); de != df {
			t.Errorf("DESCRIBE %s: eddy %s, Flink %s", name, de, df)
		}
	}
	// Each side shows the other's view with its comment.
	if got := run(t, e, "SHOW CREATE VIEW f_view"); len(got) != 1 || !strings.Contains(got[0], "COMMENT 'a view of Flink'") {
		t.Errorf("eddy: SHOW CREATE VIEW f_view = %v", got)
	}
	if got := run(t, f, "SHOW CREATE VIEW adults"); len(got) != 1 || !strings.Contains(got[0], "COMMENT 'named'") {
		t.Errorf("Flink: SHOW CREATE VIEW adults = %v", got)
	}
	if got := run(t, e, "SHOW VIEWS"); strings.Join(got, ";") != "+I[adults];+I[f_view]" {
		t.Errorf("eddy: SHOW VIEWS = %v", got)
	}
	if got := run(t, e, "SHOW PARTITIONS people"); strings.Join(got, ";") != "+I[dt=2024-01-01];+I[dt=2024-01-02];+I[dt=2024-01-03]" {
		t.Errorf("eddy: SHOW PARTITIONS people = %v", got)
	}

	// A second eddy process, with a SQLite store of its own, sees the same.
	script := create + ";\nUSE h." + db + ";\nSHOW TABLES;\n"
	for _, q := range append([]string{"SELECT * FROM csv_t", "SELECT * FROM plain", "SELECT * FROM adults"}, queries...) {
		script += q + ";\n"
	}
	out := eddyProcess(t, script)
	for _, line := range []string{
		"adults", "csv_t", "f_csv", "f_dlm", "f_hive", "f_pq", "f_view", "gen", "people", "plain", "pq",
		"1\tann\t1.50", "2\tbob\t20.00", "10\tx\tTRUE\t2024-01-02 03:04:05.123000000", "11\t\tFALSE\t", "2\t\t2024-01-02", "3\tcy\t2024-01-03",
		"1\tone", "3\tc\t-3.0", "3\tC", "3\tcy\t2020-02-29\t0.5\t2024-01-03", "3\tcy\t-0.25\t1970-01-01\teu",
		"1\tx\t0.5", "1\tx\t1.125\t2024-05-06\t2024-05-06 07:08:09.500000000\ta",
	} {
		if !containsLine(out, line) {
			t.Errorf("the second eddy process printed no line %q:\n%s", line, out)
		}
	}
}

// describe returns the columns DESCRIBE lists: name and type.
func describe(t *testing.T, s executor, table string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := s.Execute(ctx, "DESCRIBE "+table)
	if err != nil {
		t.Fatalf("DESCRIBE %s: %v", table, err)
	}
	defer res.Close()
	var cols []string
	for {
		row, ok, err := res.Rows.Next(ctx)
		if err != nil {
			t.Fatalf("DESCRIBE %s: %v", table, err)
		}
		if !ok {
			break
		}
		cols = append(cols, fmt.Sprintf("%v %v", row.Values[0], row.Values[1]))
	}
	return strings.Join(cols, ", ")
}

// eddyProcess builds eddy and runs script in it (eddy -f) with a store of
// its own, printing results as TSV; it returns what eddy printed.
func eddyProcess(t *testing.T, script string) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go tool is not on PATH: cannot build a second eddy process")
	}
	dir := t.TempDir()
	bin := filepath.Join(t.TempDir(), "eddy")
	args := []string{"build", "-o", bin}
	if raceBuild {
		args = append(args, "-race")
	}
	build := exec.Command(goTool, append(args, "eddy")...)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build eddy: %v\n%s", err, out)
	}
	file := filepath.Join(dir, "script.sql")
	if err := os.WriteFile(file, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--store", filepath.Join(dir, "store.db"), "--output", "tsv", "-f", file)
	cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_CONFIG_HOME="+dir, "XDG_DATA_HOME="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("eddy -f: %v\n%s", err, out)
	}
	return string(out)
}

func containsLine(out, line string) bool {
	for _, l := range strings.Split(out, "\n") {
		if l == line {
			return true
		}
	}
	return false
}
