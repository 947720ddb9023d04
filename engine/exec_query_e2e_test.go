package engine

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"eddy/engine/ast"
	"eddy/engine/parser"
	"eddy/engine/types"
)

// run parses one statement and runs it through the query glue (the
// dispatch of Session.execute may not route it here yet).
func run(t *testing.T, s *Session, sql string) (*Result, error) {
	t.Helper()
	stmt, err := parser.Parse(sql)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	ctx := context.Background()
	s.sql = sql
	defer func() { s.sql = "" }()
	switch st := stmt.(type) {
	case *ast.QueryStatement:
		return s.execQuery(ctx, st, sql)
	case *ast.Insert:
		return s.execInsert(ctx, st)
	case *ast.Truncate:
		return s.execTruncate(ctx, st)
	case *ast.Explain:
		return s.execExplain(ctx, st)
	case *ast.Execute:
		return s.execExecute(ctx, st)
	case *ast.CreateTable:
		if st.Query != nil {
			return s.execCreateTableAs(ctx, st)
		}
	}
	return s.Execute(ctx, sql)
}

// rowsOf runs a statement and prints its rows, one a line, cells joined
// by " | ", the row kind first in streaming mode.
func rowsOf(t *testing.T, s *Session, sql string) string {
	t.Helper()
	res, err := run(t, s, sql)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	defer res.Close()
	if res.Rows == nil {
		return res.Message
	}
	var lines []string
	for {
		row, ok, err := res.Rows.Next(context.Background())
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		if !ok {
			return strings.Join(lines, "\n")
		}
		var cells []string
		if res.Changelog {
			cells = append(cells, row.Kind.String())
		}
		for i, v := range row.Values {
			cells = append(cells, types.ValueString(v, res.Columns[i].Type))
		}
		lines = append(lines, strings.Join(cells, " | "))
	}
}

func expectRows(t *testing.T, s *Session, sql, want string) {
	t.Helper()
	if got := rowsOf(t, s, sql); got != want {
		t.Fatalf("%s\ngot:\n%s\nwant:\n%s", sql, got, want)
	}
}

func TestQueryEndToEnd(t *testing.T) {
	s := openQuerySession(t)
	mustExec(t, s, "SET 'execution.runtime-mode' = 'batch'")
	expectRows(t, s, "SELECT id, str FROM (VALUES (1, 'Hello World'), (2, 'Hi')) AS T(id, str)",
		"1 | Hello World\n2 | Hi")
	mustExec(t, s, "SET 'execution.runtime-mode' = 'streaming'")
	expectRows(t, s, `SELECT id, COUNT(*) as cnt, COUNT(DISTINCT str) as uv, max(ts) as max_ts
FROM (VALUES
  (1, 'Hello World', TIMESTAMP '2021-04-13 20:12:11.123456789'),
  (2, 'Hi', TIMESTAMP '2021-04-13 19:12:11.123456789'),
  (2, 'Hi', TIMESTAMP '2021-04-13 21:12:11.123456789')) as T(id, str, ts)
GROUP BY id`, "+I | 1 | 1 | 1 | 2021-04-13 20:12:11.123456789\n"+
		"+I | 2 | 1 | 1 | 2021-04-13 19:12:11.123456789\n"+
		"-U | 2 | 1 | 1 | 2021-04-13 19:12:11.123456789\n"+
		"+U | 2 | 2 | 1 | 2021-04-13 21:12:11.123456789")
}

func TestInsertSelectEndToEnd(t *testing.T) {
	s := openQuerySession(t)
	mustExec(t, s, "SET 'table.dml-sync' = 'true'")
	mustExec(t, s, "SET 'execution.runtime-mode' = 'batch'")
	mustExec(t, s, "CREATE TABLE t (id INT, str STRING)")
	if got := rowsOf(t, s, "INSERT INTO t SELECT * FROM (VALUES (1, 'Hello World'), (2, 'Hi'), (2, 'Hi'))"); got != "Complete execution of the SQL update statement." {
		t.Fatalf("INSERT answered %q", got)
	}
	expectRows(t, s, "SELECT * FROM t", "1 | Hello World\n2 | Hi\n2 | Hi")
	expectRows(t, s, "SELECT str, COUNT(*) AS c FROM t GROUP BY str ORDER BY c DESC", "Hi | 2\nHello World | 1")
	dir := filepath.Join(t.TempDir(), "csv")
	mustExec(t, s, "CREATE TABLE f (id INT, str STRING) WITH ('connector' = 'filesystem', 'path' = '"+dir+"', 'format' = 'csv')")
	rowsOf(t, s, "INSERT INTO f SELECT id * 10, UPPER(str) FROM t WHERE id > 1")
	expectRows(t, s, "SELECT * FROM f", "20 | HI\n20 | HI")
	rowsOf(t, s, "CREATE TABLE c AS SELECT id, str FROM t WHERE id = 1")
	expectRows(t, s, "SELECT * FROM c", "1 | Hello World")
	rowsOf(t, s, "TRUNCATE TABLE t")
	expectRows(t, s, "SELECT * FROM t", "")
}

// TestSelectBatchQueries runs the queries of select_batch.q.
func TestSelectBatchQueries(t *testing.T) {
	s := openQuerySession(t)
	mustExec(t, s, "SET 'execution.runtime-mode' = 'batch'")
	expectRows(t, s, `SELECT id, COUNT(*) as cnt, COUNT(DISTINCT str) as uv
FROM (VALUES (1, 'Hello World'), (2, 'Hi'), (2, 'Hi')) as T(id, str)
GROUP BY id`, "1 | 1 | 1\n2 | 2 | 1")
	mustExec(t, s, "SET 'table.local-time-zone' = 'UTC'")
	ts := `SELECT TIME '20:12:11' as time0,
 ts0, ts3, ts9,
 TO_TIMESTAMP_LTZ(1, 0) AS ts_ltz0,
 TO_TIMESTAMP_LTZ(1, 3) AS ts_ltz3,
 CAST(ts9 as TIMESTAMP_LTZ(9)) AS ts_ltz9
FROM (VALUES
  (1, TIMESTAMP '2021-04-13 20:12:11', TIMESTAMP '2021-04-13 20:12:11.123', TIMESTAMP '2021-04-13 20:12:11.123456789'),
  (2, TIMESTAMP '2021-04-13 21:12:11', TIMESTAMP '2021-04-13 21:12:11.001', TIMESTAMP '2021-04-13 21:12:11.1'))
   as T(id, ts0, ts3, ts9)`
	expectRows(t, s, ts,
		"20:12:11 | 2021-04-13 20:12:11 | 2021-04-13 20:12:11.123 | 2021-04-13 20:12:11.123456789 | 1970-01-01 00:00:01.000 | 1970-01-01 00:00:00.001 | 2021-04-13 20:12:11.123456789\n"+
			"20:12:11 | 2021-04-13 21:12:11 | 2021-04-13 21:12:11.001 | 2021-04-13 21:12:11.100000000 | 1970-01-01 00:00:01.000 | 1970-01-01 00:00:00.001 | 2021-04-13 21:12:11.100000000")
	mustExec(t, s, `CREATE TEMPORARY VIEW
  testUserData(name, dob, isHappy)
AS (VALUES
  ('30b5c1bb-0ac0-43d3-b812-fcb649fd2b07', TIMESTAMP '2001-01-13 20:11:11.123', true),
  ('8b012d93-6ece-48ad-a2ea-aa75ef7b1d60', TIMESTAMP '1979-03-15 22:13:11.123', false)
)`)
	expectRows(t, s, "SELECT * from testUserData",
		"30b5c1bb-0ac0-43d3-b812-fcb649fd2b07 | 2001-01-13 20:11:11.123 | TRUE\n"+
			"8b012d93-6ece-48ad-a2ea-aa75ef7b1d60 | 1979-03-15 22:13:11.123 | FALSE")
	expectRows(t, s, "SELECT INTERVAL '1' DAY as dayInterval, INTERVAL '1' YEAR as yearInterval", "+1 00:00:00.000 | +1-00")
}

func TestQueryForms(t *testing.T) {
	s := openQuerySession(t)
	mustExec(t, s, "SET 'execution.runtime-mode' = 'batch'")
	mustExec(t, s, "SET 'table.dml-sync' = 'true'")
	mustExec(t, s, "CREATE TABLE a (id INT, g STRING, v DOUBLE)")
	mustExec(t, s, "CREATE TABLE b (id INT, name STRING)")
	rowsOf(t, s, "INSERT INTO a VALUES (1, 'x', 1.5), (2, 'x', 2.5), (3, 'y', NULL), (4, CAST(NULL AS STRING), 4.0)")
	rowsOf(t, s, "INSERT INTO b VALUES (1, 'one'), (2, 'two'), (5, 'five')")
	cases := []struct{ sql, want string }{
		{"SELECT a.id, b.name FROM a JOIN b ON a.id = b.id ORDER BY a.id", "1 | one\n2 | two"},
		{"SELECT a.id, b.name FROM a LEFT JOIN b ON a.id = b.id ORDER BY a.id", "1 | one\n2 | two\n3 | NULL\n4 | NULL"},
		{"SELECT b.id FROM a RIGHT JOIN b ON a.id = b.id WHERE a.id IS NULL", "5"},
		{"SELECT g, SUM(v), COUNT(v), AVG(v) FROM a GROUP BY g ORDER BY g NULLS LAST", "x | 4.0 | 2 | 2.0\ny | NULL | 0 | NULL\nNULL | 4.0 | 1 | 4.0"},
		{"SELECT id FROM a WHERE id IN (SELECT id FROM b) ORDER BY id", "1\n2"},
		{"SELECT id FROM a WHERE NOT EXISTS (SELECT 1 FROM b WHERE b.id = a.id) ORDER BY id", "3\n4"},
		{"SELECT id FROM a UNION SELECT id FROM b ORDER BY id", "1\n2\n3\n4\n5"},
		{"SELECT id FROM a EXCEPT SELECT id FROM b", "3\n4"},
		{"SELECT id, ROW_NUMBER() OVER (PARTITION BY g ORDER BY id DESC) AS rn FROM a ORDER BY id", "1 | 2\n2 | 1\n3 | 1\n4 | 1"},
		{"SELECT id, CASE WHEN v > 2 THEN 'big' WHEN v IS NULL THEN 'none' ELSE 'small' END FROM a ORDER BY id", "1 | small\n2 | big\n3 | none\n4 | big"},
		{"SELECT id FROM a ORDER BY v DESC LIMIT 2", "4\n2"},
		{"SELECT COUNT(*), MAX(id) FROM a WHERE id > 100", "0 | NULL"},
		{"SELECT (SELECT MAX(id) FROM b) AS m", "5"},
		{"SELECT g, COUNT(*) AS c FROM a GROUP BY ROLLUP (g) ORDER BY g NULLS FIRST, c", "NULL | 1\nNULL | 4\nx | 2\ny | 1"},
	}
	for _, c := range cases {
		if got := rowsOf(t, s, c.sql); got != c.want {
			t.Errorf("%s\ngot:\n%s\nwant:\n%s", c.sql, got, c.want)
		}
	}
}

func TestExplain(t *testing.T) {
	s := openQuerySession(t)
	mustExec(t, s, "CREATE TABLE t (id INT, str STRING)")
	got := rowsOf(t, s, "EXPLAIN PLAN FOR SELECT str FROM t WHERE id > 1")
	for _, want := range []string{"== Abstract Syntax Tree ==", "== Optimized Physical Plan ==", "== Optimized Execution Plan ==",
		"Filter(condition=[", "TableSourceScan(table=[`lake`.`default`.`t`]"} {
		if !strings.Contains(got, want) {
			t.Fatalf("EXPLAIN output lacks %q:\n%s", want, got)
		}
	}
	got = rowsOf(t, s, "EXPLAIN INSERT INTO t VALUES (1, 'a')")
	if !strings.Contains(got, "Sink(table=[`lake`.`default`.`t`], fields=[id, str])") {
		t.Fatalf("EXPLAIN INSERT:\n%s", got)
	}
}

func TestQueryFormsWindowsAndCollections(t *testing.T) {
	s := openQuerySession(t)
	mustExec(t, s, "SET 'execution.runtime-mode' = 'batch'")
	mustExec(t, s, "CREATE TABLE w (id INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)")
	mustExec(t, s, "CREATE TABLE a (id INT, g STRING, v DOUBLE, arr ARRAY<INT>)")
	rowsOf(t, s, "INSERT INTO w VALUES (1, TIMESTAMP '2021-01-01 00:00:01'), (2, TIMESTAMP '2021-01-01 00:00:04'), (3, TIMESTAMP '2021-01-01 00:00:07')")
	rowsOf(t, s, "INSERT INTO a VALUES (1, 'x', 1.5, ARRAY[1, 2]), (2, 'y', 2.5, ARRAY[3]), (3, 'x', NULL, CAST(NULL AS ARRAY<INT>))")
	cases := []struct{ sql, want string }{
		{"SELECT window_start, window_end, COUNT(*), SUM(id) FROM TABLE(TUMBLE(TABLE w, DESCRIPTOR(ts), INTERVAL '5' SECOND)) GROUP BY window_start, window_end ORDER BY window_start",
			"2021-01-01 00:00:00.000 | 2021-01-01 00:00:05.000 | 2 | 3\n2021-01-01 00:00:05.000 | 2021-01-01 00:00:10.000 | 1 | 3"},
		{"SELECT window_end, COUNT(*) FROM TABLE(HOP(TABLE w, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '10' SECOND)) GROUP BY window_start, window_end ORDER BY window_end",
			"2021-01-01 00:00:05.000 | 2\n2021-01-01 00:00:10.000 | 3\n2021-01-01 00:00:15.000 | 1"},
		{"SELECT id, x FROM a CROSS JOIN UNNEST(arr) AS U(x) ORDER BY id, x", "1 | 1\n1 | 2\n2 | 3"},
		{"SELECT id, arr[1], CARDINALITY(arr) FROM a ORDER BY id", "1 | 1 | 2\n2 | 3 | 1\n3 | NULL | NULL"},
		{"SELECT id, SUM(v) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM a ORDER BY id", "1 | 1.5\n2 | 4.0\n3 | 2.5"},
		{"SELECT id, LAG(id) OVER (ORDER BY id), RANK() OVER (PARTITION BY g ORDER BY id) FROM a ORDER BY id", "1 | NULL | 1\n2 | 1 | 1\n3 | 2 | 2"},
		{"SELECT g, GROUPING(g), COUNT(*) FROM a GROUP BY CUBE (g) ORDER BY g NULLS FIRST", "NULL | 1 | 3\nx | 0 | 2\ny | 0 | 1"},
		{"SELECT g, LISTAGG(CAST(id AS STRING)) FROM a GROUP BY g ORDER BY g", "x | 1,3\ny | 2"},
		{"WITH c AS (SELECT id FROM a) SELECT * FROM c WHERE id > 1 ORDER BY id", "2\n3"},
		{"SELECT CAST('12' AS INT) + 1, TRY_CAST('x' AS INT), 7 / 2, 7 % 3, -7 / 2, CAST(1.5 AS DECIMAL(5,2)) * 2", "13 | NULL | 3 | 1 | -3 | 3.00"},
		{"SELECT DATE '2021-01-31' + INTERVAL '1' MONTH, TIMESTAMP '2021-01-01 10:00:00' + INTERVAL '2' HOUR", "2021-02-28 | 2021-01-01 12:00:00"},
		{"SELECT UPPER('abc'), CHAR_LENGTH('héllo'), SUBSTRING('Hello' FROM 2 FOR 3), TRIM('  x  '), TRIM(LEADING 'x' FROM 'xxaxx'), 'a' || 'b'",
			"ABC | 5 | ell | x | axx | ab"},
		{"SELECT EXTRACT(YEAR FROM DATE '2021-05-01'), DATE_FORMAT(TIMESTAMP '2021-05-01 10:11:12', 'yyyy-MM-dd'), FLOOR(TIMESTAMP '2021-05-01 10:11:12' TO HOUR)",
			"2021 | 2021-05-01 | 2021-05-01 10:00:00"},
		{"SELECT 2147483647 + 1, ROW(1, 'a'), MAP['k', 1]", "-2147483648 | (1, a) | {k=1}"},
	}
	for _, c := range cases {
		if got := rowsOf(t, s, c.sql); got != c.want {
			t.Errorf("%s\ngot:\n%s\nwant:\n%s", c.sql, got, c.want)
		}
	}
	for sql, want := range map[string]string{
		"SELECT 1 / 0":              "/ by zero",
		"SELECT CAST('abc' AS INT)": "For input string: 'abc'",
	} {
		if _, err := eddyRows(s, t, sql); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want %q", sql, err, want)
		}
	}
}
