package hive_test

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/thrift/lib/go/thrift"
	hms "github.com/beltran/gohive/hive_metastore"

	"eddy/catalogs"
	"eddy/catalogs/hive"
	"eddy/catalogs/memory"
	"eddy/engine"
	"eddy/engine/result"
	"eddy/engine/types"
	"eddy/repl"
)

// metastore returns the URI of the test metastore and a conf directory
// holding a hive-site.xml that names it, or skips the test.
func metastore(t *testing.T) (uri, confDir string) {
	t.Helper()
	uri = os.Getenv("EDDY_HIVE_METASTORE")
	if uri == "" {
		t.Skip("EDDY_HIVE_METASTORE is not set: start a metastore with catalogs/hive/testdata/metastore/metastore.sh start and export its last line")
	}
	confDir = t.TempDir()
	site := fmt.Sprintf(`<?xml version="1.0"?>
<configuration>
  <property><name>hive.metastore.uris</name><value>%s</value></property>
</configuration>
`, uri)
	if err := os.WriteFile(filepath.Join(confDir, "hive-site.xml"), []byte(site), 0o644); err != nil {
		t.Fatal(err)
	}
	return uri, confDir
}

// session is one eddy session with its own catalog store.
func session(t *testing.T, opts ...catalogs.ManagerOption) *engine.Session {
	t.Helper()
	store := memory.NewStore()
	mgr := catalogs.NewManager(map[string]catalogs.Factory{
		memory.Type: memory.Factory{},
		hive.Type:   hive.Factory{},
	}, store, opts...)
	ctx := context.Background()
	def := catalogs.CatalogDescriptor{Name: "default_catalog", Options: map[string]string{catalogs.OptionType: memory.Type}}
	if err := mgr.RegisterCatalog(ctx, def, nil, catalogs.OriginBuiltIn); err != nil {
		t.Fatal(err)
	}
	if err := mgr.SetCurrentCatalog(ctx, "default_catalog"); err != nil {
		t.Fatal(err)
	}
	s, err := engine.NewSession(engine.SessionConfig{Catalogs: mgr, Options: map[string]string{"execution.runtime-mode": "batch"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// executor runs statements: eddy's local engine or a session of a Flink
// SQL Gateway.
type executor interface {
	Execute(ctx context.Context, sql string) (*result.Result, error)
}

// run executes statements and returns the rows of the last one, each
// row printed as Flink prints it (+I[1, alan, 18]).
func run(t *testing.T, s executor, stmts ...string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var out []string
	for _, st := range stmts {
		res, err := s.Execute(ctx, st)
		if err != nil {
			t.Fatalf("%s: %v", st, err)
		}
		out = nil
		if res.Rows != nil {
			for {
				row, ok, err := res.Rows.Next(ctx)
				if err != nil {
					t.Fatalf("%s: %v", st, err)
				}
				if !ok {
					break
				}
				vals := make([]string, len(row.Values))
				for i, v := range row.Values {
					vals[i] = types.ValueString(v, res.Columns[i].Type)
				}
				out = append(out, row.Kind.String()+"["+strings.Join(vals, ", ")+"]")
			}
		}
		res.Close()
	}
	return out
}

func expectError(t *testing.T, s executor, stmt, want string) {
	t.Helper()
	_, err := s.Execute(context.Background(), stmt)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("%s: got error %v, want one containing %q", stmt, err, want)
	}
}

// drain runs a query and reads its rows, returning the first error.
func drain(s executor, stmt string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := s.Execute(ctx, stmt)
	if err != nil {
		return err
	}
	defer res.Close()
	for res.Rows != nil {
		_, ok, err := res.Rows.Next(ctx)
		if err != nil || !ok {
			return err
		}
	}
	return nil
}

// thriftClient is a metastore client of the test's own, to check what
// eddy stored.
func thriftClient(t *testing.T, uri string) *hms.ThriftHiveMetastoreClient {
	t.Helper()
	u, err := url.Parse(uri)
	if err != nil {
		t.Fatal(err)
	}
	cfg := &thrift.TConfiguration{ConnectTimeout: 10 * time.Second, SocketTimeout: 60 * time.Second}
	sock := thrift.NewTSocketConf(u.Host, cfg)
	if err := sock.Open(); err != nil {
		t.Fatal(err)
	}
	trans := thrift.NewTBufferedTransport(sock, 8192)
	t.Cleanup(func() { trans.Close() })
	proto := thrift.NewTBinaryProtocolConf(trans, cfg)
	return hms.NewThriftHiveMetastoreClient(thrift.NewTStandardClient(proto, proto))
}

func getTable(t *testing.T, c *hms.ThriftHiveMetastoreClient, db, name string) *hms.Table {
	t.Helper()
	r, err := c.GetTableReq(context.Background(), &hms.GetTableRequest{DbName: db, TblName: name})
	if err != nil {
		t.Fatalf("get_table_req %s.%s: %v", db, name, err)
	}
	return r.Table
}

func uniqueDB(prefix string) string {
	return fmt.Sprintf("%s_%d", prefix, time.Now().UnixNano()%1_000_000_000)
}

// TestSeedWalkthrough runs the Hive-catalog view walk-through of Flink's
// documentation examples (module, catalog from hive-conf-dir, database,
// Hive-dialect table with partition-commit properties, INSERT, a view on
// the table, a view on the view with column names and a comment, DROP
// DATABASE CASCADE) and checks the metastore's own records.
func TestSeedWalkthrough(t *testing.T) {
	uri, conf := metastore(t)
	db := uniqueDB("viewtest_db")
	s := session(t)
	run(t, s,
		"LOAD MODULE hive WITH ('hive-version' = '3.1.2')",
		fmt.Sprintf("CREATE CATALOG alan_hive WITH ('type' = 'hive', 'default-database' = 'default', 'hive-conf-dir' = '%s')", conf),
		"USE CATALOG alan_hive",
		"CREATE DATABASE IF NOT EXISTS "+db,
		"USE "+db,
		"SET 'table.sql-dialect' = 'hive'",
		`CREATE TABLE viewtest (
  id INT,
  name STRING,
  age INT) TBLPROPERTIES (
  'sink.partition-commit.delay'='5 s',
  'sink.partition-commit.trigger'='partition-time',
  'sink.partition-commit.policy.kind'='metastore,success-file')`,
		"INSERT INTO viewtest VALUES (1,'alan',18)",
		"CREATE VIEW test_view_table_V AS SELECT * FROM viewtest",
	)
	if got := run(t, s, "SHOW MODULES"); strings.Join(got, ";") != "+I[core];+I[hive]" {
		t.Errorf("SHOW MODULES = %v", got)
	}
	if got := run(t, s, "SELECT * FROM test_view_table_V"); strings.Join(got, ";") != "+I[1, alan, 18]" {
		t.Errorf("test_view_table_V = %v, want [+I[1, alan, 18]]", got)
	}
	run(t, s, "CREATE VIEW test_view_view_V (v2_id, v2_name, v2_age) COMMENT 'test_view_view_V comment' AS SELECT * FROM test_view_table_V")
	if got := run(t, s, "SELECT * FROM test_view_view_V"); strings.Join(got, ";") != "+I[1, alan, 18]" {
		t.Errorf("test_view_view_V = %v, want [+I[1, alan, 18]]", got)
	}
	if got := run(t, s, "SHOW CREATE VIEW test_view_view_V"); len(got) != 1 || !strings.Contains(got[0], "COMMENT 'test_view_view_V comment'") {
		t.Errorf("SHOW CREATE VIEW = %v, want the comment", got)
	}
	views := run(t, s, "SHOW VIEWS")
	if strings.Join(views, ";") != "+I[test_view_table_v];+I[test_view_view_v]" {
		t.Errorf("SHOW VIEWS = %v", views)
	}

	// The metastore's own records, read over Thrift by a client of the
	// test's own.
	c := thriftClient(t, uri)
	tbl := getTable(t, c, db, "viewtest")
	if tbl.TableType != "MANAGED_TABLE" || tbl.Sd.InputFormat != "org.apache.hadoop.mapred.TextInputFormat" ||
		tbl.Sd.SerdeInfo.SerializationLib != "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe" {
		t.Errorf("viewtest: type %s, input %s, serde %s", tbl.TableType, tbl.Sd.InputFormat, tbl.Sd.SerdeInfo.SerializationLib)
	}
	var cols []string
	for _, f := range tbl.Sd.Cols {
		cols = append(cols, f.Name+" "+f.Type)
	}
	if strings.Join(cols, ",") != "id int,name string,age int" {
		t.Errorf("viewtest columns = %v", cols)
	}
	if tbl.Parameters["sink.partition-commit.policy.kind"] != "metastore,success-file" || tbl.Parameters["is_generic"] != "" {
		t.Errorf("viewtest parameters = %v", tbl.Parameters)
	}
	v1 := getTable(t, c, db, "test_view_table_v")
	if v1.TableType != "VIRTUAL_VIEW" || v1.ViewOriginalText != "SELECT * FROM viewtest" {
		t.Errorf("test_view_table_v: type %s, original %q", v1.TableType, v1.ViewOriginalText)
	}
	if !strings.Contains(v1.ViewExpandedText, "`alan_hive`.`"+db+"`.`viewtest`") {
		t.Errorf("test_view_table_v expanded text %q does not name the table fully", v1.ViewExpandedText)
	}
	v2 := getTable(t, c, db, "test_view_view_v")
	if v2.TableType != "VIRTUAL_VIEW" || v2.Parameters["flink.comment"] != "test_view_view_V comment" ||
		v2.Parameters["is_generic"] != "true" || v2.Parameters["flink.schema.0.name"] != "v2_id" ||
		v2.Parameters["flink.schema.0.data-type"] != "INT" || v2.Parameters["flink.schema.1.data-type"] != "VARCHAR(2147483647)" {
		t.Errorf("test_view_view_v: type %s, parameters %v", v2.TableType, v2.Parameters)
	}
	if !strings.Contains(v2.ViewOriginalText, "SELECT * FROM test_view_table_V") || !strings.Contains(v2.ViewExpandedText, "`test_view_table_V`") {
		t.Errorf("test_view_view_v: original %q, expanded %q", v2.ViewOriginalText, v2.ViewExpandedText)
	}

	// The data file is Hive's text format, read here as bytes; the
	// success file of the commit policy is beside it.
	loc := strings.TrimPrefix(strings.TrimPrefix(tbl.Sd.Location, "file://"), "file:")
	files, _ := filepath.Glob(filepath.Join(loc, "part-*"))
	if len(files) != 1 {
		t.Fatalf("data files under %s: %v", loc, files)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != "1\x01alan\x0118\n" {
		t.Errorf("data file holds %q", data)
	}
	if _, err := os.Stat(filepath.Join(loc, "_SUCCESS")); err != nil {
		t.Errorf("no success file: %v", err)
	}

	run(t, s, "SET 'table.sql-dialect' = 'default'", "USE CATALOG default_catalog", "DROP DATABASE alan_hive."+db+" CASCADE", "UNLOAD MODULE hive")
	if got := run(t, s, "SHOW MODULES"); strings.Join(got, ";") != "+I[core]" {
		t.Errorf("SHOW MODULES after UNLOAD = %v", got)
	}
	if _, err := c.GetDatabase(context.Background(), db); err == nil {
		t.Errorf("database %s is still in the metastore after DROP DATABASE CASCADE", db)
	}
	if _, err := os.Stat(loc); !os.IsNotExist(err) {
		t.Errorf("table directory %s is still there: %v", loc, err)
	}
}

// TestSecondProcess has a second session, with a catalog store of its
// own, list and read what the first one created.
func TestSecondProcess(t *testing.T) {
	uri, conf := metastore(t)
	db := uniqueDB("shared_db")
	create := fmt.Sprintf("CREATE CATALOG h WITH ('type' = 'hive', 'hive-conf-dir' = '%s')", conf)
	a := session(t)
	run(t, a, create, "CREATE DATABASE h."+db+" COMMENT 'shared'",
		"SET 'table.sql-dialect' = 'hive'",
		"CREATE TABLE h."+db+".people (id INT, name STRING) PARTITIONED BY (dt STRING) ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' STORED AS TEXTFILE TBLPROPERTIES ('sink.partition-commit.policy.kind'='metastore')",
		"SET 'table.sql-dialect' = 'default'",
		"INSERT INTO h."+db+".people VALUES (1, 'ann', '2024-01-01'), (2, CAST(NULL AS STRING), '2024-01-02')",
		"CREATE TABLE h."+db+".gen (x BIGINT, s STRING) COMMENT 'generic' WITH ('connector' = 'datagen', 'number-of-rows' = '2')",
		"CREATE VIEW h."+db+".adults COMMENT 'named' AS SELECT id, name FROM h."+db+".people WHERE id > 1",
		"CREATE FUNCTION h."+db+".myfn AS 'com.example.MyFn'",
	)
	t.Cleanup(func() { run(t, a, "DROP DATABASE IF EXISTS h."+db+" CASCADE") })

	b := session(t)
	run(t, b, create)
	if got := run(t, b, "SHOW TABLES FROM h."+db); strings.Join(got, ";") != "+I[adults];+I[gen];+I[people]" {
		t.Errorf("SHOW TABLES = %v", got)
	}
	if got := run(t, b, "SELECT id, name, dt FROM h."+db+".people ORDER BY id"); strings.Join(got, ";") != "+I[1, ann, 2024-01-01];+I[2, NULL, 2024-01-02]" {
		t.Errorf("people = %v", got)
	}
	if got := run(t, b, "SELECT * FROM h."+db+".adults"); strings.Join(got, ";") != "+I[2, NULL]" {
		t.Errorf("adults = %v", got)
	}
	names, err := thriftClient(t, uri).GetPartitionNames(context.Background(), db, "people", -1)
	if err != nil || strings.Join(names, ";") != "dt=2024-01-01;dt=2024-01-02" {
		t.Errorf("partitions in the metastore = %v (%v)", names, err)
	}
	if got := run(t, b, "SELECT count(*) FROM h."+db+".gen"); strings.Join(got, ";") != "+I[2]" {
		t.Errorf("gen count = %v", got)
	}
	if got := run(t, b, "SHOW CREATE TABLE h."+db+".gen"); len(got) != 1 || !strings.Contains(got[0], "'connector' = 'datagen'") || !strings.Contains(got[0], "COMMENT 'generic'") {
		t.Errorf("SHOW CREATE TABLE gen = %v", got)
	}
	if got := run(t, b, "SHOW USER FUNCTIONS FROM h."+db); strings.Join(got, ";") != "+I[myfn]" {
		t.Errorf("functions = %v", got)
	}
	// A Java function stored in the metastore is listed; calling it, the
	// shell says it runs only on Flink.
	var out, errs strings.Builder
	sh := repl.New(shellSession{b}, repl.Config{In: strings.NewReader(""), Out: &out, Err: &errs})
	sh.RunScript(context.Background(), "SELECT h."+db+".myfn(1);")
	if !strings.Contains(errs.String(), "is a Java function (class com.example.MyFn): eddy runs no Java code") {
		t.Errorf("calling a Java function of the metastore:\n%s", errs.String())
	}
	// Changing a Hive table's options keeps its storage (the ','
	// delimiter) and its rows.
	run(t, b, "ALTER TABLE h."+db+".people SET ('k' = 'v')")
	if got := run(t, a, "SELECT count(*) FROM h."+db+".people WHERE name = 'ann'"); strings.Join(got, ";") != "+I[1]" {
		t.Errorf("people after ALTER TABLE SET = %v", got)
	}
	// INSERT OVERWRITE of one partition replaces its rows only.
	run(t, b, "INSERT OVERWRITE h."+db+".people PARTITION (dt = '2024-01-01') VALUES (3, 'cy')")
	if got := run(t, a, "SELECT id, name, dt FROM h."+db+".people ORDER BY id"); strings.Join(got, ";") != "+I[2, NULL, 2024-01-02];+I[3, cy, 2024-01-01]" {
		t.Errorf("people after INSERT OVERWRITE = %v", got)
	}
}

// TestUnreachableMetastore: a metastore that does not answer is an error
// naming its URI, within the catalog open timeout.
func TestUnreachableMetastore(t *testing.T) {
	dir := t.TempDir()
	site := `<configuration><property><name>hive.metastore.uris</name><value>thrift://127.0.0.1:1</value></property></configuration>`
	if err := os.WriteFile(filepath.Join(dir, "hive-site.xml"), []byte(site), 0o644); err != nil {
		t.Fatal(err)
	}
	s := session(t, catalogs.WithOpenTimeout(2*time.Second))
	expectError(t, s, fmt.Sprintf("CREATE CATALOG h WITH ('type' = 'hive', 'hive-conf-dir' = '%s')", dir), "thrift://127.0.0.1:1")
	// A port that accepts connections but never answers.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	silent := t.TempDir()
	site = `<configuration><property><name>hive.metastore.uris</name><value>thrift://` + ln.Addr().String() + `</value></property></configuration>`
	if err := os.WriteFile(filepath.Join(silent, "hive-site.xml"), []byte(site), 0o644); err != nil {
		t.Fatal(err)
	}
	expectError(t, s, fmt.Sprintf("CREATE CATALOG hs WITH ('type' = 'hive', 'hive-conf-dir' = '%s')", silent), "thrift://"+ln.Addr().String())
	expectError(t, s, "CREATE CATALOG h2 WITH ('type' = 'hive', 'hive-conf-dir' = '"+filepath.Join(dir, "nope")+"')", "hive-site.xml")
	expectError(t, s, "CREATE CATALOG h3 WITH ('type' = 'hive', 'hive-conf-dir' = '"+dir+"', 'bogus' = '1')", "Unsupported options found for catalog 'h3'")
}

// TestPartitionDDL: the Hive dialect's ALTER TABLE ADD/DROP PARTITION
// land in the metastore; a table stored as Parquet is written and read,
// and one stored as ORC is refused with a clear error.
func TestPartitionDDL(t *testing.T) {
	uri, conf := metastore(t)
	db := uniqueDB("part_db")
	s := session(t)
	run(t, s, fmt.Sprintf("CREATE CATALOG h WITH ('type' = 'hive', 'hive-conf-dir' = '%s')", conf),
		"CREATE DATABASE h."+db, "USE h."+db, "SET 'table.sql-dialect' = 'hive'",
		"CREATE TABLE pt (a INT, b STRING) PARTITIONED BY (dt STRING, hr INT) STORED AS TEXTFILE",
		"ALTER TABLE pt ADD PARTITION (dt='2024-01-01', hr=1) PARTITION (dt='2024-01-02', hr=2)",
		"ALTER TABLE pt ADD IF NOT EXISTS PARTITION (dt='2024-01-01', hr=1)",
	)
	t.Cleanup(func() { run(t, s, "USE CATALOG default_catalog", "DROP DATABASE IF EXISTS h."+db+" CASCADE") })
	expectError(t, s, "ALTER TABLE pt ADD PARTITION (dt='2024-01-01', hr=1)",
		"Partition CatalogPartitionSpec{{dt=2024-01-01, hr=1}} of table "+db+".pt in catalog h already exists.")
	c := thriftClient(t, uri)
	names, err := c.GetPartitionNames(context.Background(), db, "pt", -1)
	if err != nil || strings.Join(names, ";") != "dt=2024-01-01/hr=1;dt=2024-01-02/hr=2" {
		t.Fatalf("partitions = %v (%v)", names, err)
	}
	p, err := c.GetPartition(context.Background(), db, "pt", []string{"2024-01-02", "2"})
	if err != nil || !strings.HasSuffix(p.Sd.Location, "/pt/dt=2024-01-02/hr=2") {
		t.Fatalf("partition location = %v (%v)", p, err)
	}
	// A file Hive would have written into the partition's directory is
	// read from there, with the partition's values.
	loc := strings.TrimPrefix(strings.TrimPrefix(p.Sd.Location, "file://"), "file:")
	if err := os.MkdirAll(loc, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(loc, "000000_0"), []byte("7\x01seven\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := run(t, s, "SELECT * FROM pt"); strings.Join(got, ";") != "+I[7, seven, 2024-01-02, 2]" {
		t.Errorf("pt = %v", got)
	}
	if got := run(t, s, "SHOW PARTITIONS pt"); strings.Join(got, ";") != "+I[dt=2024-01-01/hr=1];+I[dt=2024-01-02/hr=2]" {
		t.Errorf("SHOW PARTITIONS = %v", got)
	}
	if got := run(t, s, "SHOW PARTITIONS pt PARTITION (hr = 2)"); strings.Join(got, ";") != "+I[dt=2024-01-02/hr=2]" {
		t.Errorf("SHOW PARTITIONS ... PARTITION (hr = 2) = %v", got)
	}
	run(t, s, "ALTER TABLE pt DROP PARTITION (dt='2024-01-01', hr=1)", "ALTER TABLE pt DROP IF EXISTS PARTITION (dt='2024-01-01', hr=1)")
	if names, _ := c.GetPartitionNames(context.Background(), db, "pt", -1); strings.Join(names, ";") != "dt=2024-01-02/hr=2" {
		t.Errorf("partitions after DROP = %v", names)
	}
	run(t, s, "CREATE TABLE pq (a INT) STORED AS PARQUET")
	if tbl := getTable(t, c, db, "pq"); tbl.Sd.SerdeInfo.SerializationLib != "org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe" {
		t.Errorf("pq serde = %s", tbl.Sd.SerdeInfo.SerializationLib)
	}
	run(t, s, "INSERT INTO pq VALUES (1), (CAST(NULL AS INT))")
	if got := run(t, s, "SELECT * FROM pq"); strings.Join(got, ";") != "+I[1];+I[NULL]" {
		t.Errorf("pq = %v", got)
	}
	run(t, s, "CREATE TABLE oc (a INT) STORED AS ORC")
	expectError(t, s, "INSERT INTO oc VALUES (1)", "eddy reads and writes only text files (STORED AS TEXTFILE, LazySimpleSerDe) and Parquet files (STORED AS PARQUET)")
	if err := drain(s, "SELECT * FROM oc"); err == nil || !strings.Contains(err.Error(), "with SerDe org.apache.hadoop.hive.ql.io.orc.OrcSerde") {
		t.Errorf("SELECT * FROM oc: got error %v, want one naming the ORC SerDe", err)
	}
}

// TestWalkthroughScript runs testdata/walkthrough.sql as a script through
// the shell, as `eddy -f` does, and checks what it prints.
func TestWalkthroughScript(t *testing.T) {
	_, conf := metastore(t)
	text, err := os.ReadFile(filepath.Join("testdata", "walkthrough.sql"))
	if err != nil {
		t.Fatal(err)
	}
	db := uniqueDB("script_db")
	script := strings.NewReplacer("${HIVE_CONF_DIR}", conf, "${DB}", db).Replace(string(text))
	s := session(t)
	var out, errs strings.Builder
	sh := repl.New(shellSession{s}, repl.Config{In: strings.NewReader(""), Out: &out, Err: &errs})
	if code := sh.RunScript(context.Background(), script); code != 0 || errs.Len() > 0 {
		t.Fatalf("exit %d, errors:\n%s\noutput:\n%s", code, errs.String(), out.String())
	}
	got := out.String()
	for _, want := range []string{
		"|        hive |",
		"| test_view_table_v |",
		"| id | name | age |\n+----+------+-----+\n|  1 | alan |  18 |\n",
		"| v2_id | v2_name | v2_age |\n+-------+---------+--------+\n|     1 |    alan |     18 |\n",
		"COMMENT 'test_view_view_V comment'",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
}
