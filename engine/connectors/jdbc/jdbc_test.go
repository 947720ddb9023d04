package jdbc_test

import (
	"fmt"
	"strings"
	"testing"
)

func TestScanTypes(t *testing.T) {
	url := pgURL(t)
	c := pg(t)
	name := table(t, c, `CREATE TABLE %s (id INT PRIMARY KEY, b BIGINT, s SMALLINT, n NUMERIC(10,2), txt TEXT, v VARCHAR(10),
		ts TIMESTAMP(3), tz TIMESTAMPTZ, d DATE, tm TIME, ok BOOLEAN, f8 DOUBLE PRECISION, f4 REAL, arr INT[], js JSONB)`)
	pgExec(t, c, "INSERT INTO "+name+` VALUES
		(1, 10000000000, 7, 12.50, 'hello', 'vc', '2024-01-02 03:04:05.678', '2024-01-02 03:04:05+00', '2024-02-29', '12:34:56', true, 1.5, 2.25, '{1,2,3}', '{"a": 1}'),
		(2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)`)
	s := session(t, "batch")
	exec1(t, s, `CREATE TABLE dim (id INT, b BIGINT, s SMALLINT, n DECIMAL(10,2), txt STRING, v VARCHAR(10),
		ts TIMESTAMP(3), tz TIMESTAMP(6), d DATE, tm TIME, ok BOOLEAN, f8 DOUBLE, f4 FLOAT, arr ARRAY<INT>, js STRING,
		PRIMARY KEY (id) NOT ENFORCED) `+with(url, name))
	wantRows(t, mustQuery(t, s, "SELECT * FROM dim ORDER BY id"),
		`+I 1 10000000000 7 12.50 hello vc 2024-01-02 03:04:05.678 2024-01-02 03:04:05.000 19782 12h34m56s true 1.5 2.25 [1 2 3] {"a": 1}`,
		"+I 2 <nil> <nil> <nil> <nil> <nil> <nil> <nil> <nil> <nil> <nil> <nil> <nil> <nil> <nil>")
	// Flink's PostgreSQL row converter has no TIMESTAMP_LTZ: the table
	// validates, its scan fails.
	exec1(t, s, "CREATE TABLE ltz (id INT, tz TIMESTAMP_LTZ(6)) "+with(url, name))
	if _, err := query(s, "SELECT id FROM ltz", -1); err == nil || !strings.Contains(err.Error(), "Unsupported type:TIMESTAMP_LTZ(6)") {
		t.Errorf("TIMESTAMP_LTZ: %v", err)
	}
	// Projection and pushed-down filters.
	wantRows(t, mustQuery(t, s, "SELECT txt, id FROM dim WHERE id > 0 AND b IS NOT NULL AND v = 'vc'"), "+I hello 1")
	wantRows(t, mustQuery(t, s, "SELECT id FROM dim WHERE v < 'w' OR id = 2 ORDER BY id"), "+I 1", "+I 2")
}

func TestScanPartitioned(t *testing.T) {
	url := pgURL(t)
	c := pg(t)
	name := table(t, c, `CREATE TABLE %s (id INT, v TEXT)`)
	pgExec(t, c, "INSERT INTO "+name+" SELECT g, 'v' || g FROM generate_series(1, 1000) g")
	s := session(t, "batch")
	exec1(t, s, "CREATE TABLE p (id INT, v STRING) "+with(url, name,
		"'scan.partition.column' = 'id'", "'scan.partition.num' = '7'",
		"'scan.partition.lower-bound' = '1'", "'scan.partition.upper-bound' = '1000'", "'scan.fetch-size' = '100'"))
	wantRows(t, mustQuery(t, s, "SELECT COUNT(*), SUM(id), COUNT(DISTINCT v) FROM p"), "+I 1000 500500 1000")
	// Rows outside the bounds are not read, as in Flink.
	exec1(t, s, "CREATE TABLE p2 (id INT, v STRING) "+with(url, name,
		"'scan.partition.column' = 'id'", "'scan.partition.num' = '3'",
		"'scan.partition.lower-bound' = '11'", "'scan.partition.upper-bound' = '20'"))
	wantRows(t, mustQuery(t, s, "SELECT COUNT(*), MIN(id), MAX(id) FROM p2 WHERE id <> 15"), "+I 9 11 20")
	// Not partitioned, with auto-commit off (a read-only transaction).
	exec1(t, s, "CREATE TABLE p3 (id INT, v STRING) "+with(url, name, "'scan.auto-commit' = 'false'"))
	wantRows(t, mustQuery(t, s, "SELECT COUNT(*) FROM p3 WHERE id <= 10"), "+I 10")
}

func TestOptionErrors(t *testing.T) {
	url := pgURL(t)
	s := session(t, "batch")
	for _, tc := range []struct{ opts, want string }{
		{"'username' = 'eddy'", "Either all or none of the following options should be provided:\nusername\npassword"},
		{"'scan.partition.column' = 'id'", "Either all or none of the following options should be provided:\nscan.partition.column\nscan.partition.num\nscan.partition.lower-bound\nscan.partition.upper-bound"},
		{"'scan.partition.column' = 'id', 'scan.partition.num' = '2', 'scan.partition.lower-bound' = '5', 'scan.partition.upper-bound' = '1'",
			"'scan.partition.lower-bound'='5' must not be larger than 'scan.partition.upper-bound'='1'."},
		{"'sink.max-retries' = '-1'", "The value of 'sink.max-retries' option shouldn't be negative, but is -1."},
		{"'connection.max-retry-timeout' = '100ms'", "The value of 'connection.max-retry-timeout' option must be in second granularity and shouldn't be smaller than 1 second, but is 100ms."},
		{"'lookup.cache' = 'PARTIAL'", "Expiration duration and maximum size are not set for the cache."},
		{"'bogus' = '1'", "Unsupported options found for 'jdbc'."},
	} {
		name := fmt.Sprintf("e%d", len(tc.opts))
		exec1(t, s, fmt.Sprintf("CREATE TEMPORARY TABLE %s (id INT) WITH ('connector' = 'jdbc', 'url' = '%s', 'table-name' = 'x', %s)", name, url, tc.opts))
		_, err := query(s, "SELECT * FROM "+name, -1)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.opts, err, tc.want)
		}
		exec1(t, s, "DROP TEMPORARY TABLE "+name)
	}
	exec1(t, s, "CREATE TEMPORARY TABLE m (id INT) WITH ('connector' = 'jdbc', 'url' = 'jdbc:mysqlx://h/d', 'table-name' = 'x')")
	if _, err := query(s, "SELECT * FROM m", -1); err == nil || !strings.Contains(err.Error(), "Could not find any jdbc dialect factory that can handle url 'jdbc:mysqlx://h/d'") {
		t.Errorf("unknown URL: %v", err)
	}
	exec1(t, s, "CREATE TEMPORARY TABLE ty (id INT, b BINARY(3)) "+with(url, "x"))
	if _, err := query(s, "SELECT * FROM ty", -1); err == nil || !strings.Contains(err.Error(), "The PostgreSQL dialect doesn't support type: BINARY(3).") {
		t.Errorf("BINARY: %v", err)
	}
}
