package jdbc_test

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// These tests run against a real MySQL-compatible server:
// testdata/mariadb/mariadb.sh start prints its JDBC URL; export it as
// EDDY_MYSQL. What eddy wrote is checked with the server's own command
// line client (mariadb, or mysql), independent of the connector.

func myURL(t testing.TB) string {
	t.Helper()
	u := os.Getenv("EDDY_MYSQL")
	if u == "" {
		t.Skip("EDDY_MYSQL is not set: start MariaDB with engine/connectors/jdbc/testdata/mariadb/mariadb.sh start and export EDDY_MYSQL=<jdbc url>")
	}
	return u
}

// myCLI runs statements with the mariadb (or mysql) client in batch mode
// and returns the rows, columns separated by '|', NULL as NULL.
func myCLI(t testing.TB, sql string) []string {
	t.Helper()
	u, err := url.Parse(strings.TrimPrefix(myURL(t), "jdbc:"))
	if err != nil {
		t.Fatal(err)
	}
	bin, err := exec.LookPath("mariadb")
	if err != nil {
		if bin, err = exec.LookPath("mysql"); err != nil {
			t.Skip("neither the mariadb nor the mysql client is installed")
		}
	}
	cmd := exec.Command(bin, "--protocol=tcp", "-h", u.Hostname(), "-P", u.Port(), "-u", "eddy", "--batch", "--skip-column-names",
		"--default-character-set=utf8mb4", "-e", sql, strings.TrimPrefix(u.Path, "/"))
	cmd.Env = append(os.Environ(), "MYSQL_PWD=eddy")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s", sql, err, stderr.String())
	}
	var rows []string
	for _, line := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
		if line != "" {
			rows = append(rows, strings.ReplaceAll(line, "\t", "|"))
		}
	}
	return rows
}

// myTable creates a table unique to the test from ddl (its name is %s)
// and drops it at the end.
func myTable(t testing.TB, ddl string) string {
	t.Helper()
	name := fmt.Sprintf("t_%s_%d", strings.ToLower(strings.NewReplacer("/", "_", " ", "_", "-", "_").Replace(t.Name())), time.Now().UnixNano()%1e9)
	myCLI(t, "DROP TABLE IF EXISTS "+name+"; "+fmt.Sprintf(ddl, name))
	t.Cleanup(func() { myCLI(t, "DROP TABLE IF EXISTS "+name) })
	return name
}

func wantCLI(t *testing.T, got []string, want ...string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("table:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestMySQLScanTypes(t *testing.T) {
	url := myURL(t)
	name := myTable(t, "CREATE TABLE %s (id INT PRIMARY KEY, b BIGINT, s SMALLINT, ti TINYINT, n DECIMAL(10,2), txt TEXT, v VARCHAR(10), "+
		"ts DATETIME(3), d DATE, tm TIME, ok BOOLEAN, f8 DOUBLE, f4 FLOAT, bin VARBINARY(8), js JSON, `order` INT)")
	myCLI(t, "INSERT INTO "+name+` VALUES
		(1, 10000000000, 7, -3, 12.50, 'hello', 'vc', '2024-01-02 03:04:05.678', '2024-02-29', '12:34:56', true, 1.5, 2.25, 'ab', '{"a": 1}', 5),
		(2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
		(3, -1, 0, 0, -0.01, 'B', 'Vc', '1999-12-31 23:59:59', '1970-01-01', '00:00:00', false, -0.5, 0, '', '[]', 0)`)
	s := session(t, "batch")
	exec1(t, s, "CREATE TABLE dim (id INT, b BIGINT, s SMALLINT, ti TINYINT, n DECIMAL(10,2), txt STRING, v VARCHAR(10), "+
		"ts TIMESTAMP(3), d DATE, tm TIME, ok BOOLEAN, f8 DOUBLE, f4 FLOAT, bin BYTES, js STRING, `order` INT, PRIMARY KEY (id) NOT ENFORCED) "+with(url, name))
	wantRows(t, mustQuery(t, s, "SELECT * FROM dim ORDER BY id"),
		`+I 1 10000000000 7 -3 12.50 hello vc 2024-01-02 03:04:05.678 19782 12h34m56s true 1.5 2.25 ab {"a": 1} 5`,
		"+I 2 <nil> <nil> <nil> <nil> <nil> <nil> <nil> <nil> <nil> <nil> <nil> <nil> <nil> <nil> <nil>",
		"+I 3 -1 0 0 -0.01 B Vc 1999-12-31 23:59:59.000 0 0s false -0.5 0  [] 0")
	// Projection and pushed-down filters (identifiers quoted with
	// backticks; strings ordered byte-wise: 'B' < 'hello', 'Vc' < 'vc').
	wantRows(t, mustQuery(t, s, "SELECT txt, id FROM dim WHERE id > 0 AND b IS NOT NULL AND v = 'vc'"), "+I hello 1")
	wantRows(t, mustQuery(t, s, "SELECT id FROM dim WHERE v < 'w' AND v >= 'W' ORDER BY id"), "+I 1")
	wantRows(t, mustQuery(t, s, "SELECT id, `order` FROM dim WHERE `order` < 3 ORDER BY id"), "+I 3 0")
	// Types the MySQL dialect refuses, with Flink's texts.
	for ddl, want := range map[string]string{
		"(id INT, tz TIMESTAMP_LTZ(3))": "The MySQL dialect doesn't support type: TIMESTAMP_LTZ(3).",
		"(id INT, a ARRAY<INT>)":        "The MySQL dialect doesn't support type: ARRAY<INT>.",
		"(id INT, x DECIMAL(38, 2))":    "",
		"(id INT, b VARBINARY(3))":      "The MySQL dialect doesn't support type: VARBINARY(3).",
		"(id INT, t TIMESTAMP(0))":      "",
	} {
		exec1(t, s, "CREATE TEMPORARY TABLE ty "+ddl+" "+with(url, name))
		_, err := query(s, "SELECT id FROM ty WHERE id = 1", -1)
		if want == "" && err != nil || want != "" && (err == nil || !strings.Contains(err.Error(), want)) {
			t.Errorf("%s: %v, want %q", ddl, err, want)
		}
		exec1(t, s, "DROP TEMPORARY TABLE ty")
	}
}

func TestMySQLScanPartitioned(t *testing.T) {
	url := myURL(t)
	name := myTable(t, "CREATE TABLE %s (id INT, v TEXT)")
	myCLI(t, "INSERT INTO "+name+" WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < 1000) SELECT n, CONCAT('v', n) FROM g")
	s := session(t, "batch")
	exec1(t, s, "CREATE TABLE p (id INT, v STRING) "+with(url, name,
		"'scan.partition.column' = 'id'", "'scan.partition.num' = '7'",
		"'scan.partition.lower-bound' = '1'", "'scan.partition.upper-bound' = '1000'", "'scan.fetch-size' = '100'"))
	wantRows(t, mustQuery(t, s, "SELECT COUNT(*), SUM(id), COUNT(DISTINCT v) FROM p"), "+I 1000 500500 1000")
	exec1(t, s, "CREATE TABLE p2 (id INT, v STRING) "+with(url, name,
		"'scan.partition.column' = 'id'", "'scan.partition.num' = '3'",
		"'scan.partition.lower-bound' = '11'", "'scan.partition.upper-bound' = '20'"))
	wantRows(t, mustQuery(t, s, "SELECT COUNT(*), MIN(id), MAX(id) FROM p2 WHERE id <> 15"), "+I 9 11 20")
	exec1(t, s, "CREATE TABLE p3 (id INT, v STRING) "+with(url, name, "'scan.auto-commit' = 'false'"))
	wantRows(t, mustQuery(t, s, "SELECT COUNT(*) FROM p3 WHERE id <= 10"), "+I 10")
}

func TestMySQLSinkAppend(t *testing.T) {
	url := myURL(t)
	name := myTable(t, "CREATE TABLE %s (id INT, name TEXT, amount DECIMAL(10,2), ts DATETIME(3), d DATE, tm TIME(3), ok TINYINT(1), f FLOAT)")
	s := session(t, "batch")
	exec1(t, s, "CREATE TABLE out1 (id INT, name STRING, amount DECIMAL(10,2), ts TIMESTAMP(3), d DATE, tm TIME(3), ok BOOLEAN, f FLOAT) "+
		with(url, name, "'sink.buffer-flush.max-rows' = '2'"))
	exec1(t, s, `INSERT INTO out1 VALUES (1, 'a''b', 1.50, TIMESTAMP '2024-01-01 10:00:00.123', DATE '2024-02-29', TIME '12:34:56.789', true, 0.5),
		(2, 'b', NULL, NULL, NULL, NULL, NULL, NULL), (3, 'ü', -3.25, TIMESTAMP '2024-01-01 00:00:00', DATE '1970-01-01', TIME '00:00:00', false, -1)`)
	wantCLI(t, myCLI(t, "SELECT id, name, amount, ts, d, tm, ok, f FROM "+name+" ORDER BY id"),
		"1|a'b|1.50|2024-01-01 10:00:00.123|2024-02-29|12:34:56.789|1|0.5",
		"2|b|NULL|NULL|NULL|NULL|NULL|NULL",
		"3|ü|-3.25|2024-01-01 00:00:00.000|1970-01-01|00:00:00.000|0|-1")
}

func TestMySQLSinkUpsertChangelog(t *testing.T) {
	url := myURL(t)
	name := myTable(t, "CREATE TABLE %s (id INT PRIMARY KEY, name TEXT, qty INT)")
	myCLI(t, "INSERT INTO "+name+" VALUES (9, 'kept', 9), (4, 'old', 0)")
	dir := t.TempDir()
	msgs := []string{
		`{"before":null,"after":{"id":1,"name":"a","qty":1},"op":"c"}`,
		`{"before":null,"after":{"id":2,"name":"b","qty":2},"op":"c"}`,
		`{"before":{"id":1,"name":"a","qty":1},"after":{"id":1,"name":"a2","qty":10},"op":"u"}`,
		`{"before":null,"after":{"id":3,"name":"c","qty":3},"op":"c"}`,
		`{"before":{"id":2,"name":"b","qty":2},"after":null,"op":"d"}`,
		`{"before":{"id":4,"name":"old","qty":0},"after":null,"op":"d"}`,
	}
	if err := os.WriteFile(dir+"/cdc.json", []byte(strings.Join(msgs, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, rows := range []string{"1", "100"} {
		s := session(t, "streaming")
		exec1(t, s, fmt.Sprintf(`CREATE TABLE cdc (id INT, name STRING, qty INT) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'debezium-json')`, dir))
		exec1(t, s, "CREATE TABLE up (id INT, name STRING, qty INT, PRIMARY KEY (id) NOT ENFORCED) "+with(url, name, "'sink.buffer-flush.max-rows' = '"+rows+"'"))
		exec1(t, s, "INSERT INTO up SELECT * FROM cdc")
		wantCLI(t, myCLI(t, "SELECT id, name, qty FROM "+name+" ORDER BY id"), "1|a2|10", "3|c|3", "9|kept|9")
	}
	// An aggregate's updates end as its final rows.
	name2 := myTable(t, "CREATE TABLE %s (k VARCHAR(10) PRIMARY KEY, n BIGINT)")
	s := session(t, "streaming")
	exec1(t, s, "CREATE TABLE agg (k STRING, n BIGINT, PRIMARY KEY (k) NOT ENFORCED) "+with(url, name2))
	exec1(t, s, "INSERT INTO agg SELECT k, COUNT(*) FROM (VALUES ('x'), ('y'), ('x'), ('x')) AS v(k) GROUP BY k")
	wantCLI(t, myCLI(t, "SELECT k, n FROM "+name2+" ORDER BY k"), "x|3", "y|1")
}

func TestMySQLSinkBadValue(t *testing.T) {
	url := myURL(t)
	name := myTable(t, "CREATE TABLE %s (id INT, code VARCHAR(3) NOT NULL)")
	s := session(t, "batch")
	exec1(t, s, "CREATE TABLE bad (id INT, code STRING) "+with(url, name, "'sink.buffer-flush.max-rows' = '2'"))
	_, err := query(s, "INSERT INTO bad VALUES (1, 'abc'), (2, 'xyz'), (3, 'abcd'), (4, 'ok')", -1)
	if err == nil {
		t.Fatal("a value longer than VARCHAR(3) was accepted")
	}
	for _, part := range []string{"Data too long for column 'code'", "+I(3, abcd)", "MySQL database 'eddy' at 127.0.0.1:"} {
		if !strings.Contains(err.Error(), part) {
			t.Errorf("error %q lacks %q", err, part)
		}
	}
	wantCLI(t, myCLI(t, "SELECT id FROM "+name+" ORDER BY id"), "1", "2")
}

func TestMySQLLookupJoin(t *testing.T) {
	url := myURL(t)
	name := myTable(t, "CREATE TABLE %s (id INT PRIMARY KEY, name TEXT, tier INT)")
	myCLI(t, "INSERT INTO "+name+" VALUES (1, 'ann', 1), (2, 'bob', 2), (3, 'cy', 1)")
	s := session(t, "streaming")
	for _, cache := range []string{"", ", 'lookup.cache' = 'PARTIAL', 'lookup.partial-cache.max-rows' = '10', 'lookup.partial-cache.expire-after-write' = '1 min'"} {
		exec1(t, s, "CREATE TEMPORARY TABLE dim (id INT, name STRING, tier INT, PRIMARY KEY (id) NOT ENFORCED) "+strings.TrimSuffix(with(url, name), ")")+cache+")")
		exec1(t, s, "CREATE TEMPORARY VIEW orders AS SELECT o, cust, PROCTIME() AS pt FROM (VALUES (10, 2), (11, 1), (12, 9), (13, 2), (14, CAST(NULL AS INT))) AS v(o, cust)")
		wantRows(t, mustQuery(t, s, "SELECT o.o, d.name FROM orders AS o JOIN dim FOR SYSTEM_TIME AS OF o.pt AS d ON o.cust = d.id"),
			"+I 10 bob", "+I 11 ann", "+I 13 bob")
		wantRows(t, mustQuery(t, s, "SELECT o.o, d.name, d.tier FROM orders AS o LEFT JOIN dim FOR SYSTEM_TIME AS OF o.pt AS d ON o.cust = d.id AND d.tier = 1"),
			"+I 10 <nil> <nil>", "+I 11 ann 1", "+I 12 <nil> <nil>", "+I 13 <nil> <nil>", "+I 14 <nil> <nil>")
		exec1(t, s, "DROP TEMPORARY VIEW orders")
		exec1(t, s, "DROP TEMPORARY TABLE dim")
	}
}

func TestMySQLCatalog(t *testing.T) {
	url := myURL(t)
	base := url[:strings.LastIndex(url, "/")]
	myCLI(t, "DROP DATABASE IF EXISTS eddy_shop; CREATE DATABASE eddy_shop")
	t.Cleanup(func() { myCLI(t, "DROP DATABASE IF EXISTS eddy_shop") })
	myCLI(t, "CREATE TABLE eddy_shop.items (id INT PRIMARY KEY, name VARCHAR(20) NOT NULL, price DECIMAL(8,2), body TEXT, "+
		"made DATETIME(3), big BIGINT UNSIGNED, tiny TINYINT UNSIGNED, flag TINYINT(1), b BIT(1), kind ENUM('a', 'bb'), doc JSON, at TIMESTAMP NULL, day DATE, ti TIME(3), raw BLOB) "+
		"CHARACTER SET utf8mb4; "+
		"INSERT INTO eddy_shop.items (id, name, price, kind, flag) VALUES (1, 'pen', 1.50, 'bb', 1), (2, 'ink', 12.00, NULL, 0); "+
		"CREATE TABLE eddy_shop.years (y YEAR); CREATE TABLE eddy_shop.sold (id INT PRIMARY KEY, n INT)")
	s := catalogSession(t, "")
	exec1(t, s, fmt.Sprintf("CREATE CATALOG my WITH ('type' = 'jdbc', 'base-url' = '%s', 'default-database' = 'eddy', 'username' = 'eddy', 'password' = 'eddy')", base))
	dbs := mustQuery(t, s, "SHOW DATABASES IN my")
	if got := strings.Join(dbs, ","); !strings.Contains(got, "+I eddy_shop") || !strings.Contains(got, "+I eddy") || strings.Contains(got, "information_schema") {
		t.Errorf("SHOW DATABASES: %v", dbs)
	}
	wantRows(t, mustQuery(t, s, "SHOW TABLES IN my.eddy_shop"), "+I items", "+I sold", "+I years")
	wantRows(t, mustQuery(t, s, "DESCRIBE my.eddy_shop.items"),
		"+I id INT FALSE PRI(id)  ",
		"+I name VARCHAR(20) FALSE   ",
		"+I price DECIMAL(8, 2) TRUE   ",
		"+I body VARCHAR(16383) TRUE   ",
		"+I made TIMESTAMP(3) TRUE   ",
		"+I big DECIMAL(20, 0) TRUE   ",
		"+I tiny SMALLINT TRUE   ",
		"+I flag BOOLEAN TRUE   ",
		"+I b BOOLEAN TRUE   ",
		"+I kind CHAR(2) TRUE   ",
		"+I doc STRING TRUE   ",
		"+I at TIMESTAMP(0) TRUE   ",
		"+I day DATE TRUE   ",
		"+I ti TIME(3) TRUE   ",
		"+I raw BYTES TRUE   ")
	wantRows(t, mustQuery(t, s, "SELECT id, name, price, kind, flag FROM my.eddy_shop.items ORDER BY id"), "+I 1 pen 1.50 bb true", "+I 2 ink 12.00 <nil> false")
	// The default database's tables are named by their names alone.
	def := myTable(t, "CREATE TABLE %s (k BIGINT, v DOUBLE)")
	myCLI(t, "INSERT INTO "+def+" VALUES (7, 0.5)")
	wantRows(t, mustQuery(t, s, "SELECT * FROM my.eddy.`"+def+"`"), "+I 7 0.5")
	// Writes and lookups through the catalog's tables.
	exec1(t, s, "INSERT INTO my.eddy_shop.sold VALUES (1, 5), (2, 6), (1, 7)")
	wantCLI(t, myCLI(t, "SELECT id, n FROM eddy_shop.sold ORDER BY id"), "1|7", "2|6")
	exec1(t, s, "SET 'execution.runtime-mode' = 'streaming'")
	wantRows(t, mustQuery(t, s, "SELECT o.o, i.name FROM (SELECT o, PROCTIME() AS pt FROM (VALUES (1), (3), (2)) AS v(o)) AS o "+
		"JOIN my.eddy_shop.items FOR SYSTEM_TIME AS OF o.pt AS i ON o.o = i.id"), "+I 1 pen", "+I 2 ink")
	// A type the MySQL type mapper does not know.
	if _, err := query(s, "DESCRIBE my.eddy_shop.years", -1); err == nil || !strings.Contains(err.Error(), "Doesn't support MySQL type 'YEAR' on column 'y'") {
		t.Errorf("YEAR: %v", err)
	}
	// DDL a jdbc catalog refuses.
	if _, err := query(s, "CREATE DATABASE my.other", -1); err == nil {
		t.Error("CREATE DATABASE in a jdbc catalog succeeded")
	}
	if _, err := query(s, "SHOW TABLES IN my.nowhere", -1); err == nil || !strings.Contains(err.Error(), "nowhere") {
		t.Errorf("SHOW TABLES of a missing database: %v", err)
	}
	// The same catalog from a YAML configuration.
	y := catalogSession(t, fmt.Sprintf("catalogs:\n  - name: my\n    type: jdbc\n    base-url: %s\n    default-database: eddy_shop\n    username: eddy\n    password: eddy\n", base))
	exec1(t, y, "USE CATALOG my")
	wantRows(t, mustQuery(t, y, "SHOW TABLES"), "+I items", "+I sold", "+I years")
	wantRows(t, mustQuery(t, y, "SELECT SUM(n) FROM sold"), "+I 13")
	// A wrong password fails the CREATE CATALOG with MySqlCatalog's text.
	_, err := query(s, fmt.Sprintf("CREATE CATALOG bad WITH ('type' = 'jdbc', 'base-url' = '%s', 'default-database' = 'eddy', 'username' = 'eddy', 'password' = 'sesame-wrong')", base), -1)
	if err == nil || !strings.Contains(err.Error(), "Failed in getting MySQL driver version by "+base+"/eddy.") || strings.Contains(err.Error(), "sesame") {
		t.Errorf("wrong password: %v", err)
	}
}

func TestMySQLConnectErrors(t *testing.T) {
	url := myURL(t)
	s := session(t, "batch")
	start := time.Now()
	exec1(t, s, fmt.Sprintf("CREATE TABLE wp (id INT) WITH ('connector' = 'jdbc', 'url' = '%s', 'table-name' = 'x', 'username' = 'eddy', 'password' = 'sesame-wrong')", url))
	_, err := query(s, "SELECT * FROM wp", -1)
	if err == nil || !strings.Contains(err.Error(), "Access denied for user 'eddy'") || !strings.Contains(err.Error(), "MySQL database 'eddy' at 127.0.0.1:") {
		t.Errorf("wrong password: %v", err)
	}
	if err != nil && strings.Contains(err.Error(), "sesame") {
		t.Errorf("the password is in the message: %v", err)
	}
	exec1(t, s, "CREATE TABLE down (id INT) WITH ('connector' = 'jdbc', 'url' = 'jdbc:mysql://127.0.0.1:1/nodb', 'table-name' = 'x', 'username' = 'u', 'password' = 'sesame')")
	for _, sql := range []string{"SELECT * FROM down", "INSERT INTO down VALUES (1)"} {
		_, err = query(s, sql, -1)
		if err == nil || !strings.Contains(err.Error(), "MySQL database 'nodb' at 127.0.0.1:1") || strings.Contains(err.Error(), "sesame") {
			t.Errorf("%s, database down: %v", sql, err)
		}
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("the failures took %v", d)
	}
	rows := mustQuery(t, s, "SHOW CREATE TABLE wp")
	if strings.Contains(strings.Join(rows, "\n"), "sesame") {
		t.Errorf("SHOW CREATE TABLE shows the password: %v", rows)
	}
}

// TestMySQLLookupStreamingCache joins an unbounded datagen stream with a
// MariaDB dimension through a partial cache; a row updated mid-run (by
// the mariadb client) is seen once its cached entry expires.
func TestMySQLLookupStreamingCache(t *testing.T) {
	url := myURL(t)
	tbl := myTable(t, "CREATE TABLE %s (id INT PRIMARY KEY, name TEXT)")
	myCLI(t, "INSERT INTO "+tbl+" VALUES (0, 'zero'), (1, 'one')")
	s := session(t, "streaming")
	exec1(t, s, "CREATE TABLE dim (id INT, name STRING, PRIMARY KEY (id) NOT ENFORCED) "+with(url, tbl,
		"'lookup.cache' = 'PARTIAL'", "'lookup.partial-cache.expire-after-write' = '1s'", "'lookup.partial-cache.max-rows' = '100'"))
	exec1(t, s, `CREATE TABLE events (seq BIGINT, pt AS PROCTIME()) WITH ('connector' = 'datagen', 'rows-per-second' = '50',
		'fields.seq.kind' = 'sequence', 'fields.seq.start' = '1', 'fields.seq.end' = '1000000')`)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := s.Execute(ctx, "SELECT e.seq, d.name FROM events AS e JOIN dim FOR SYSTEM_TIME AS OF e.pt AS d ON CAST(e.seq % 2 AS INT) = d.id")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	var updatedAt time.Time
	seen := map[string]bool{}
	for {
		row, ok, err := res.Rows.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			t.Fatal("the stream ended")
		}
		seq, name := row.Values[0].(int64), fmt.Sprint(row.Values[1])
		if seq%2 == 0 && name != "zero" && name != "ZERO" || seq%2 == 1 && name != "one" {
			t.Fatalf("seq %d joined %q", seq, name)
		}
		seen[name] = true
		if updatedAt.IsZero() && seq >= 20 {
			myCLI(t, "UPDATE "+tbl+" SET name = 'ZERO' WHERE id = 0")
			updatedAt = time.Now()
		}
		if name == "ZERO" {
			if time.Since(updatedAt) > 5*time.Second {
				t.Errorf("the new value came %v after the update", time.Since(updatedAt))
			}
			break
		}
		if !updatedAt.IsZero() && time.Since(updatedAt) > 20*time.Second {
			t.Fatal("the join never saw the updated row")
		}
	}
	if !seen["zero"] || !seen["one"] {
		t.Errorf("values seen: %v", seen)
	}
}

// TestMySQLSinkServerRestart stops MariaDB while an unbounded INSERT
// writes: the sink retries per sink.max-retries, then fails; batches
// written before stay.
func TestMySQLSinkServerRestart(t *testing.T) {
	url := myURL(t)
	if os.Getenv("EDDY_MYSQL_RESTART") == "" && os.Getenv("CI") == "" {
		t.Skip("restarts the MariaDB server: set EDDY_MYSQL_RESTART=1")
	}
	name := myTable(t, "CREATE TABLE %s (id BIGINT PRIMARY KEY)")
	s := session(t, "streaming")
	exec1(t, s, "CREATE TABLE gen (id BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '200', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '100000000')")
	exec1(t, s, "CREATE TABLE sinkr (id BIGINT, PRIMARY KEY (id) NOT ENFORCED) "+with(url, name, "'sink.buffer-flush.max-rows' = '50'", "'sink.max-retries' = '1'", "'sink.buffer-flush.interval' = '200ms'"))
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := s.Execute(ctx, "INSERT INTO sinkr SELECT id FROM gen")
		done <- err
	}()
	time.Sleep(2 * time.Second)
	script := "testdata/mariadb/mariadb.sh"
	if out, err := exec.Command(script, "stop").CombinedOutput(); err != nil {
		t.Fatalf("stop: %v\n%s", err, out)
	}
	var insertErr error
	select {
	case insertErr = <-done:
	case <-time.After(60 * time.Second):
		t.Error("the INSERT did not fail while the server was down")
	}
	cancel()
	out, err := exec.Command(script, "start").CombinedOutput()
	if err != nil {
		t.Fatalf("start: %v\n%s", err, out)
	}
	if got := strings.TrimSpace(string(out[strings.LastIndex(strings.TrimSpace(string(out)), "\n")+1:])); got != url {
		t.Fatalf("the server came back at %s, not %s", got, url)
	}
	if insertErr == nil || !strings.Contains(insertErr.Error(), "Writing records to JDBC failed after 1 retries") {
		t.Errorf("INSERT error: %v", insertErr)
	}
	// The batches written before stay, whole: the ids are 1..n.
	got := myCLI(t, "SELECT COUNT(*) > 0, COUNT(*) = MAX(id) FROM "+name)
	if len(got) != 1 || got[0] != "1|1" {
		t.Errorf("the rows written are not whole batches from the first (rows > 0, count = max id): %v", got)
	}
}
