package iceberg_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"eddy/catalogs"
	"eddy/catalogs/iceberg"
	"eddy/catalogs/memory"
	"eddy/conf"
	"eddy/engine"
	"eddy/engine/result"
	"eddy/engine/types"
)

// restURI returns the address of the test's Iceberg REST catalog, or skips.
func restURI(t *testing.T) string {
	t.Helper()
	uri := os.Getenv("EDDY_ICEBERG_REST")
	if uri == "" {
		t.Skip("EDDY_ICEBERG_REST is not set: start Iceberg's REST catalog with catalogs/iceberg/testdata/rest/rest.sh start and export its last line")
	}
	return uri
}

// session is an eddy session whose catalogs are default_catalog and those
// of a YAML configuration.
func session(t *testing.T, yaml string) *engine.Session {
	t.Helper()
	ctx := context.Background()
	mgr := catalogs.NewManager(map[string]catalogs.Factory{
		memory.Type:  memory.Factory{},
		iceberg.Type: iceberg.Factory{},
	}, nil)
	t.Cleanup(func() { mgr.Close() })
	desc := catalogs.CatalogDescriptor{Name: "default_catalog", Options: map[string]string{catalogs.OptionType: memory.Type}}
	if err := mgr.RegisterCatalog(ctx, desc, memory.New("default_catalog", "default_database"), catalogs.OriginBuiltIn); err != nil {
		t.Fatal(err)
	}
	if err := mgr.SetCurrentCatalog(ctx, "default_catalog"); err != nil {
		t.Fatal(err)
	}
	if yaml != "" {
		cfg, err := conf.Parse([]byte(yaml), "eddy.yaml")
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cfg.Catalogs {
			if err := mgr.RegisterCatalog(ctx, catalogs.CatalogDescriptor{Name: c.Name, Options: c.AllOptions()}, nil, catalogs.OriginConfig); err != nil {
				t.Fatal(err)
			}
		}
	}
	s, err := engine.NewSession(engine.SessionConfig{Catalogs: mgr,
		Options: map[string]string{"table.dml-sync": "true", "execution.runtime-mode": "batch", "table.local-time-zone": "UTC"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// executor is an eddy session or a Flink SQL Gateway session.
type executor interface {
	Execute(ctx context.Context, sql string) (*result.Result, error)
}

// query runs statements and returns the rows of the last one as
// tab-separated values.
func query(t *testing.T, s executor, stmts ...string) []string {
	t.Helper()
	out, err := tryQuery(s, stmts...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func tryQuery(s executor, stmts ...string) ([]string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	var out []string
	for _, st := range stmts {
		res, err := s.Execute(ctx, st)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", st, err)
		}
		out = nil
		if res.Rows != nil {
			for {
				row, ok, err := res.Rows.Next(ctx)
				if err != nil {
					res.Close()
					return nil, fmt.Errorf("%s: %w", st, err)
				}
				if !ok {
					break
				}
				vals := make([]string, len(row.Values))
				for i, v := range row.Values {
					vals[i] = types.ValueString(v, res.Columns[i].Type)
				}
				out = append(out, strings.Join(vals, "\t"))
			}
		}
		res.Close()
	}
	return out, nil
}

func sorted(rows []string) []string {
	rows = slices.Clone(rows)
	slices.Sort(rows)
	return rows
}

func expectError(t *testing.T, s *engine.Session, stmt, want string) {
	t.Helper()
	_, err := s.Execute(context.Background(), stmt)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("%s: got error %v, want one containing %q", stmt, err, want)
	}
}

func wantRows(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s:\ngot  %q\nwant %q", what, got, want)
	}
}

// pyiceberg runs the independent client (PyIceberg) against the catalog.
func pyiceberg(t *testing.T, uri string, args ...string) []string {
	t.Helper()
	if err := exec.Command("python3", "-c", "import pyiceberg.catalog.rest").Run(); err != nil {
		t.Fatalf("the independent reader needs PyIceberg: python3 -m pip install pyiceberg (%v)", err)
	}
	cmd := exec.Command("python3", append([]string{"testdata/pyiceberg_client.py", uri}, args...)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pyiceberg %v: %v\n%s", args, err, stderr.String())
	}
	s := strings.TrimRight(string(out), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

func unique(prefix string) string {
	return fmt.Sprintf("%s_%d", prefix, time.Now().UnixNano()%1_000_000_000)
}

func yamlCatalog(uri string) string {
	return fmt.Sprintf("catalogs:\n  - name: lake\n    type: iceberg\n    catalog-type: rest\n    uri: %s\n    io-impl: org.apache.iceberg.hadoop.HadoopFileIO\n", uri)
}

// TestSeedDDL runs seed 004's DDL list on an Iceberg REST catalog declared
// in YAML, and checks what it made with PyIceberg.
func TestSeedDDL(t *testing.T) {
	uri := restURI(t)
	s := session(t, yamlCatalog(uri))
	db := unique("arctic_db")
	query(t, s, "CREATE DATABASE lake."+db, "USE CATALOG lake", "USE "+db)
	query(t, s, "CREATE TABLE `lake`.`"+db+"`.`test_table` (id BIGINT, name STRING, op_time TIMESTAMP, PRIMARY KEY (id) NOT ENFORCED) WITH ('format-version' = '2', 'k' = 'v')")
	query(t, s, "CREATE TABLE test_part (id BIGINT, name STRING, op_time TIMESTAMP) PARTITIONED BY (op_time) WITH ('key' = 'value')")
	query(t, s, "CREATE TABLE `lake`.`"+db+"`.`test_table_like` LIKE `lake`.`"+db+"`.`test_table`")

	if dbs := query(t, s, "SHOW DATABASES"); !slices.Contains(dbs, db) {
		t.Errorf("SHOW DATABASES misses %s: %v", db, dbs)
	}
	wantRows(t, "SHOW TABLES", query(t, s, "SHOW TABLES"), "test_part", "test_table", "test_table_like")

	// What PyIceberg sees: the identifier field, the identity partition,
	// the properties' format version.
	wantRows(t, "test_table in PyIceberg", pyiceberg(t, uri, "describe", db, "test_table"),
		"field 1 id long required", "field 2 name string optional", "field 3 op_time timestamp optional",
		"identifier id", "format-version 2")
	wantRows(t, "test_part in PyIceberg", pyiceberg(t, uri, "describe", db, "test_part"),
		"field 1 id long optional", "field 2 name string optional", "field 3 op_time timestamp optional",
		"identifier ", "partition op_time identity", "format-version 2")
	wantRows(t, "test_table_like in PyIceberg", pyiceberg(t, uri, "describe", db, "test_table_like"),
		"field 1 id long required", "field 2 name string optional", "field 3 op_time timestamp optional",
		"identifier id", "format-version 2")

	desc := query(t, s, "DESCRIBE test_table")
	if len(desc) != 3 || !strings.HasPrefix(desc[0], "id\tBIGINT\tFALSE\tPRI(id)") || !strings.HasPrefix(desc[2], "op_time\tTIMESTAMP(6)\tTRUE") {
		t.Errorf("DESCRIBE test_table: %q", desc)
	}
	create := strings.Join(query(t, s, "SHOW CREATE TABLE test_part"), "\n")
	for _, want := range []string{"CREATE TABLE `lake`.`" + db + "`.`test_part`", "`op_time` TIMESTAMP(6)", "PARTITIONED BY (`op_time`)", "'key' = 'value'", "'connector' = 'iceberg'"} {
		if !strings.Contains(create, want) {
			t.Errorf("SHOW CREATE TABLE lacks %q:\n%s", want, create)
		}
	}
	expectError(t, s, "CREATE TABLE bad (a INT) WITH ('connector' = 'iceberg')", "Cannot create the table with 'connector'='iceberg'")
	expectError(t, s, "CREATE TABLE test_table (a INT)", "already exists")

	query(t, s, "DROP TABLE `lake`.`"+db+"`.`test_table_like`")
	wantRows(t, "SHOW TABLES after DROP", query(t, s, "SHOW TABLES"), "test_part", "test_table")
	query(t, s, "USE CATALOG default_catalog")
	expectError(t, s, "DROP DATABASE lake."+db, "is not empty")
	query(t, s, "DROP TABLE lake."+db+".test_table", "DROP TABLE lake."+db+".test_part", "DROP DATABASE lake."+db)
	if dbs := query(t, s, "SHOW DATABASES IN lake"); slices.Contains(dbs, db) {
		t.Errorf("%s still listed after DROP DATABASE: %v", db, dbs)
	}
}

// TestInsertSelectTimeTravel appends in two snapshots, reads both back in
// eddy and PyIceberg, travels to the first by snapshot id and by time, and
// overwrites.
func TestInsertSelectTimeTravel(t *testing.T) {
	uri := restURI(t)
	s := session(t, yamlCatalog(uri))
	db := unique("tt")
	query(t, s, "CREATE DATABASE lake."+db, "USE CATALOG lake", "USE "+db)
	query(t, s, "CREATE TABLE t (id BIGINT, name STRING, price DECIMAL(10, 2), d DATE, ts TIMESTAMP(6), ok BOOLEAN, f DOUBLE, n INT)")
	query(t, s, "INSERT INTO t VALUES (1, 'pen', 1.50, DATE '2024-01-02', TIMESTAMP '2024-01-02 03:04:05.678', TRUE, 0.5, 7), (2, CAST(NULL AS STRING), NULL, NULL, NULL, NULL, NULL, NULL)")
	first := pyiceberg(t, uri, "snapshots", db, "t")
	if len(first) != 1 {
		t.Fatalf("snapshots after the first INSERT: %v", first)
	}
	snap1 := strings.Fields(first[0])[0]
	time.Sleep(20 * time.Millisecond)
	between := time.Now().UnixMilli()
	time.Sleep(20 * time.Millisecond)
	query(t, s, "INSERT INTO t VALUES (3, 'ink', 12.00, DATE '1999-12-31', TIMESTAMP '1970-01-01 00:00:00', FALSE, -1.25, -3)")

	all := []string{
		"1\tpen\t1.50\t2024-01-02\t2024-01-02 03:04:05.678000\tTRUE\t0.5\t7",
		"2\tNULL\tNULL\tNULL\tNULL\tNULL\tNULL\tNULL",
		"3\tink\t12.00\t1999-12-31\t1970-01-01 00:00:00.000000\tFALSE\t-1.25\t-3",
	}
	wantRows(t, "SELECT", sorted(query(t, s, "SELECT * FROM t")), all...)
	wantRows(t, "PyIceberg read", pyiceberg(t, uri, "read", db, "t"),
		"1\tpen\t1.50\t2024-01-02\t2024-01-02 03:04:05.678000\tTrue\t0.5\t7",
		"2\tNULL\tNULL\tNULL\tNULL\tNULL\tNULL\tNULL",
		"3\tink\t12.00\t1999-12-31\t1970-01-01 00:00:00\tFalse\t-1.25\t-3")
	wantRows(t, "snapshot-id", sorted(query(t, s, "SELECT * FROM t /*+ OPTIONS('snapshot-id'='"+snap1+"') */")), all[:2]...)
	wantRows(t, "as-of-timestamp", sorted(query(t, s, fmt.Sprintf("SELECT * FROM t /*+ OPTIONS('as-of-timestamp'='%d') */", between))), all[:2]...)
	wantRows(t, "PyIceberg at the first snapshot", pyiceberg(t, uri, "read", db, "t", snap1),
		"1\tpen\t1.50\t2024-01-02\t2024-01-02 03:04:05.678000\tTrue\t0.5\t7",
		"2\tNULL\tNULL\tNULL\tNULL\tNULL\tNULL\tNULL")
	expectError(t, s, "SELECT * FROM t /*+ OPTIONS('snapshot-id'='x') */", "snapshot-id")

	query(t, s, "INSERT OVERWRITE t SELECT id + 10, name, price, d, ts, ok, f, n FROM t WHERE id = 1")
	wantRows(t, "after INSERT OVERWRITE", query(t, s, "SELECT id, name FROM t"), "11\tpen")
	wantRows(t, "PyIceberg after INSERT OVERWRITE", pyiceberg(t, uri, "read", db, "t"),
		"11\tpen\t1.50\t2024-01-02\t2024-01-02 03:04:05.678000\tTrue\t0.5\t7")
	// The first snapshot is still there to travel to.
	wantRows(t, "snapshot-id after overwrite", sorted(query(t, s, "SELECT * FROM t /*+ OPTIONS('snapshot-id'='"+snap1+"') */")), all[:2]...)
}

// TestPartitionedOverwrite: INSERT OVERWRITE of a partitioned table
// replaces only the partitions it writes, as Iceberg's Flink sink does.
func TestPartitionedOverwrite(t *testing.T) {
	uri := restURI(t)
	s := session(t, yamlCatalog(uri))
	db := unique("part")
	query(t, s, "CREATE DATABASE lake."+db, "USE CATALOG lake", "USE "+db)
	query(t, s, "CREATE TABLE p (id INT, region STRING) PARTITIONED BY (region)")
	query(t, s, "INSERT INTO p VALUES (1, 'eu'), (2, 'us'), (3, 'eu')")
	query(t, s, "INSERT OVERWRITE p VALUES (4, 'eu')")
	wantRows(t, "eddy", sorted(query(t, s, "SELECT * FROM p")), "2\tus", "4\teu")
	wantRows(t, "PyIceberg", pyiceberg(t, uri, "read", db, "p"), "2\tus", "4\teu")
	query(t, s, "INSERT OVERWRITE p PARTITION (region = 'us') SELECT 5")
	wantRows(t, "eddy after static overwrite", sorted(query(t, s, "SELECT * FROM p")), "4\teu", "5\tus")
}

// TestUpsert writes a format-version 2 table with a primary key and
// 'write.upsert.enabled' as Iceberg's Flink sink does: equality deletes by
// the key.
func TestUpsert(t *testing.T) {
	uri := restURI(t)
	s := session(t, yamlCatalog(uri))
	db := unique("up")
	query(t, s, "CREATE DATABASE lake."+db, "USE CATALOG lake", "USE "+db)
	query(t, s, "CREATE TABLE u (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('format-version' = '2', 'write.upsert.enabled' = 'true')")
	query(t, s, "INSERT INTO u VALUES (1, 'a'), (2, 'b')")
	query(t, s, "INSERT INTO u VALUES (1, 'c'), (3, 'd'), (3, 'e')")
	wantRows(t, "eddy", sorted(query(t, s, "SELECT * FROM u")), "1\tc", "2\tb", "3\te")
	files := pyiceberg(t, uri, "files", db, "u")
	eq := 0
	for _, f := range files {
		if f == "2 [1]" {
			eq++
		}
	}
	if eq != 2 {
		t.Errorf("want an equality delete file on field 1 per upsert, files: %v", files)
	}
	query(t, s, "CREATE TABLE v1 (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('format-version' = '1', 'write.upsert.enabled' = 'true')")
	expectError(t, s, "INSERT INTO v1 VALUES (1, 'a')", "format-version 2")
}

// TestReadPyIcebergTable reads a table PyIceberg wrote.
func TestReadPyIcebergTable(t *testing.T) {
	uri := restURI(t)
	s := session(t, yamlCatalog(uri))
	db := unique("py")
	query(t, s, "CREATE DATABASE lake."+db)
	pyiceberg(t, uri, "write", db, "w")
	wantRows(t, "eddy reads PyIceberg's rows", sorted(query(t, s, "SELECT * FROM lake."+db+".w")),
		"1\tpen\t1.5\t2024-01-02\t2024-01-02 03:04:05.678000",
		"2\tNULL\t2.25\t1999-12-31\tNULL",
		"3\tink\tNULL\tNULL\t1970-01-01 00:00:00.000000")
	desc := query(t, s, "DESCRIBE lake."+db+".w")
	if len(desc) != 5 || !strings.HasPrefix(desc[0], "id\tBIGINT\tFALSE") || !strings.HasPrefix(desc[4], "at\tTIMESTAMP(6)\tTRUE") {
		t.Errorf("DESCRIBE: %q", desc)
	}
}

// TestTemporaryTableInIcebergCatalog: a temporary table of another
// connector in an iceberg catalog's namespace keeps its connector.
func TestTemporaryTableInIcebergCatalog(t *testing.T) {
	dir := t.TempDir()
	s := session(t, "")
	query(t, s, "CREATE CATALOG h WITH ('type' = 'iceberg', 'catalog-type' = 'hadoop', 'warehouse' = '"+dir+"')",
		"CREATE DATABASE h.db",
		"CREATE TEMPORARY TABLE h.db.g (a INT) WITH ('connector' = 'datagen', 'number-of-rows' = '3')")
	if rows := query(t, s, "SELECT COUNT(*) FROM h.db.g"); len(rows) != 1 || rows[0] != "3" {
		t.Errorf("temporary datagen table: %v", rows)
	}
}

// TestStreamingInsertCommitsOnCheckpoints: a streaming INSERT commits a
// snapshot at each checkpoint, as Iceberg's Flink sink does.
func TestStreamingInsertCommitsOnCheckpoints(t *testing.T) {
	uri := restURI(t)
	s := session(t, yamlCatalog(uri))
	db := unique("stream")
	query(t, s, "CREATE DATABASE lake."+db, "USE CATALOG lake", "USE "+db)
	query(t, s, "CREATE TABLE st (id BIGINT)")
	query(t, s, "CREATE TEMPORARY TABLE gen (id BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '30', 'rows-per-second' = '20', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '30')")
	query(t, s, "SET 'execution.runtime-mode' = 'streaming'", "SET 'execution.checkpointing.interval' = '200 ms'", "INSERT INTO st SELECT id FROM gen")
	query(t, s, "SET 'execution.runtime-mode' = 'batch'")
	wantRows(t, "rows", query(t, s, "SELECT COUNT(*), MIN(id), MAX(id), COUNT(DISTINCT id) FROM st"), "30\t1\t30\t30")
	if snaps := pyiceberg(t, uri, "snapshots", db, "st"); len(snaps) < 2 {
		t.Errorf("want a snapshot per checkpoint, got %v", snaps)
	}
}

// TestStreamingRead: 'streaming' = 'true' reads the latest snapshot's rows
// (Iceberg's default starting strategy) and then the rows of each snapshot
// appended later.
func TestStreamingRead(t *testing.T) {
	uri := restURI(t)
	s := session(t, yamlCatalog(uri))
	db := unique("sread")
	query(t, s, "CREATE DATABASE lake."+db, "CREATE TABLE lake."+db+".r (id INT)",
		"INSERT INTO lake."+db+".r VALUES (1)", "INSERT INTO lake."+db+".r VALUES (2), (3)")
	expectError(t, s, "SELECT * FROM lake."+db+".r /*+ OPTIONS('streaming'='true', 'snapshot-id'='1') */", "Cannot set snapshot-id option for streaming reader")
	query(t, s, "SET 'execution.runtime-mode' = 'streaming'")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	res, err := s.Execute(ctx, "SELECT id FROM lake."+db+".r /*+ OPTIONS('streaming'='true', 'monitor-interval'='100 ms') */")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	next := func() string {
		t.Helper()
		row, ok, err := res.Rows.Next(ctx)
		if err != nil || !ok {
			t.Fatalf("streaming read: %v %v", ok, err)
		}
		return row.Kind.String() + types.ValueString(row.Values[0], res.Columns[0].Type)
	}
	got := []string{next(), next()}
	wantRows(t, "the latest snapshot's rows", sorted(got), "+I2", "+I3")
	w := session(t, yamlCatalog(uri))
	query(t, w, "INSERT INTO lake."+db+".r VALUES (4)")
	wantRows(t, "a later snapshot's row", []string{next()}, "+I4")
}
