package main

import (
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// eddyParquetTypes are the columns eddy writes: every type Flink's parquet
// format maps, with the rows each holds, as DuckDB prints them cast to
// VARCHAR (d1, d2; the third row is NULLs), in the order of c_int. TIME
// is written as Flink's writer writes it, adjusted to UTC, which DuckDB
// reads as a TIME WITH TIME ZONE.
var eddyParquetTypes = []struct{ name, typ, v1, v2, d1, d2 string }{
	{"c_char", "CHAR(3)", "'abc'", "'de '", "abc", "de "},
	{"c_varchar", "VARCHAR(20)", "'héllo'", "''", "héllo", ""},
	{"c_bool", "BOOLEAN", "TRUE", "FALSE", "true", "false"},
	{"c_binary", "BINARY(2)", "X'0102'", "X'0000'", "\\x01\\x02", "\\x00\\x00"},
	{"c_varbinary", "VARBINARY(10)", "X'78797A'", "X''", "xyz", ""},
	{"c_dec_small", "DECIMAL(5, 2)", "123.45", "-0.01", "123.45", "-0.01"},
	{"c_dec_mid", "DECIMAL(15, 3)", "-123456789012.345", "0.000", "-123456789012.345", "0.000"},
	{"c_dec_big", "DECIMAL(30, 5)", "CAST('1234567890123456789012345.12345' AS DECIMAL(30, 5))", "-99999.00001", "1234567890123456789012345.12345", "-99999.00001"},
	{"c_tinyint", "TINYINT", "CAST(-7 AS TINYINT)", "CAST(127 AS TINYINT)", "-7", "127"},
	{"c_smallint", "SMALLINT", "CAST(300 AS SMALLINT)", "CAST(-32768 AS SMALLINT)", "300", "-32768"},
	{"c_int", "INT", "1", "2", "1", "2"},
	{"c_bigint", "BIGINT", "1099511627776", "-9223372036854775807", "1099511627776", "-9223372036854775807"},
	{"c_float", "FLOAT", "CAST(1.5 AS FLOAT)", "CAST(-0.25 AS FLOAT)", "1.5", "-0.25"},
	{"c_double", "DOUBLE", "2.25", "-1e300", "2.25", "-1e+300"},
	{"c_date", "DATE", "DATE '2024-02-29'", "DATE '1900-01-01'", "2024-02-29", "1900-01-01"},
	{"c_time", "TIME(0)", "TIME '13:14:15'", "TIME '00:00:00'", "13:14:15+00", "00:00:00+00"},
	{"c_ts3", "TIMESTAMP(3)", "TIMESTAMP '2024-02-29 13:14:15.123'", "TIMESTAMP '1900-01-01 00:00:00'", "2024-02-29 13:14:15.123", "1900-01-01 00:00:00"},
	{"c_ts6", "TIMESTAMP(6)", "TIMESTAMP '2024-02-29 13:14:15.123456'", "TIMESTAMP '2038-01-19 03:14:08.000001'", "2024-02-29 13:14:15.123456", "2038-01-19 03:14:08.000001"},
	{"c_ltz", "TIMESTAMP_LTZ(3)", "CAST(TIMESTAMP '2001-09-09 01:46:40.500' AS TIMESTAMP_LTZ(3))", "CAST(TIMESTAMP '1970-01-01 00:00:00' AS TIMESTAMP_LTZ(3))", "2001-09-09 01:46:40.5", "1970-01-01 00:00:00"},
	{"c_array", "ARRAY<INT>", "ARRAY[1, CAST(NULL AS INT), 3]", "ARRAY[-1]", "[1, NULL, 3]", "[-1]"},
	{"c_map", "MAP<STRING, BIGINT>", "MAP['a', CAST(1 AS BIGINT), 'b', CAST(NULL AS BIGINT)]", "MAP['k', CAST(-5 AS BIGINT)]", "{a=1, b=NULL}", "{k=-5}"},
	{"c_row", "ROW<a INT, b STRING>", "ROW(7, 'p')", "ROW(CAST(NULL AS INT), CAST(NULL AS STRING))", "{'a': 7, 'b': p}", "{'a': NULL, 'b': NULL}"},
}

// TestDuckDBReadsEddysParquet: eddy writes a Parquet table with a column
// of every type and DuckDB, an independent reader, reads each value.
func TestDuckDBReadsEddysParquet(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command to build eddy")
	}
	dir := t.TempDir()
	bin, err := buildEddy(dir)
	if err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(dir, "data")
	var cols, r1, r2, r3 []string
	for _, c := range eddyParquetTypes {
		cols = append(cols, c.name+" "+c.typ)
		r1, r2 = append(r1, c.v1), append(r2, c.v2)
		r3 = append(r3, "CAST(NULL AS "+c.typ+")")
	}
	r3[10] = "3" // c_int orders the rows
	script := filepath.Join(dir, "write.sql")
	text := fmt.Sprintf("CREATE TABLE p (%s) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'parquet');\n"+
		"INSERT INTO p VALUES (%s), (%s), (%s);\n", strings.Join(cols, ", "), data,
		strings.Join(r1, ", "), strings.Join(r2, ", "), strings.Join(r3, ", "))
	if err := os.WriteFile(script, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--store", filepath.Join(dir, "store.db"), "-D", "execution.runtime-mode=batch",
		"-D", "table.dml-sync=true", "-f", script)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("eddy: %v\n%s", err, out)
	}
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, c := range eddyParquetTypes {
		rows, err := db.Query(fmt.Sprintf("SELECT CAST(%s AS VARCHAR) FROM read_parquet('%s/*') ORDER BY c_int", c.name, data))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		var got []string
		for rows.Next() {
			var v sql.NullString
			if err := rows.Scan(&v); err != nil {
				t.Fatal(err)
			}
			if !v.Valid {
				v.String = "NULL"
			}
			got = append(got, v.String)
		}
		rows.Close()
		want := []string{c.d1, c.d2, "NULL"}
		if c.name == "c_int" {
			want[2] = "3"
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("DuckDB reads %s %s as %q, want %q", c.name, c.typ, got, want)
		}
	}
}
