package engine

import "testing"

// TestQuerySyntaxEndToEnd runs quantified comparisons, explicit tables,
// TIMESTAMPADD/TIMESTAMPDIFF, OFFSET/FETCH forms and commented data types
// through a session on a SQLite store.
func TestQuerySyntaxEndToEnd(t *testing.T) {
	s := openQuerySession(t)
	mustExec(t, s, "SET 'execution.runtime-mode' = 'batch'")
	mustExec(t, s, "SET 'table.dml-sync' = 'true'")
	mustExec(t, s, "CREATE TABLE u (a INT, b STRING)")
	mustExec(t, s, "CREATE TABLE w (c INT)")
	rowsOf(t, s, "INSERT INTO u VALUES (1, 'x'), (2, 'y'), (3, 'z'), (CAST(NULL AS INT), 'n')")
	rowsOf(t, s, "INSERT INTO w VALUES (2), (3)")
	cases := []struct{ sql, want string }{
		// = SOME is IN, <> ALL is NOT IN, with NULL giving UNKNOWN.
		{"SELECT b, a = ANY (SELECT c FROM w), a <> ALL (SELECT c FROM w) FROM u ORDER BY b",
			"n | NULL | NULL\nx | FALSE | TRUE\ny | TRUE | FALSE\nz | TRUE | FALSE"},
		{"SELECT b, a > ALL (SELECT c FROM w WHERE c > 2), a < SOME (SELECT c FROM w), a <> SOME (SELECT c FROM w) FROM u ORDER BY b",
			"n | NULL | NULL | NULL\nx | FALSE | TRUE | TRUE\ny | FALSE | TRUE | TRUE\nz | FALSE | FALSE | TRUE"},
		// ALL over no rows is TRUE, SOME over no rows FALSE, even for NULL.
		{"SELECT b, a >= ALL (SELECT c FROM w WHERE c > 5), a <= SOME (SELECT c FROM w WHERE c > 5) FROM u ORDER BY b",
			"n | TRUE | FALSE\nx | TRUE | FALSE\ny | TRUE | FALSE\nz | TRUE | FALSE"},
		// A NULL among the compared values makes a non-decisive ALL unknown.
		{"SELECT b, a > ALL (SELECT CAST(NULL AS INT) UNION ALL SELECT 1) FROM u ORDER BY b",
			"n | NULL\nx | FALSE\ny | NULL\nz | NULL"},
		{"SELECT b FROM u WHERE a = SOME (SELECT c FROM w WHERE c <> u.a + 1) ORDER BY b", "y\nz"},
		{"SELECT b, a = SOME (1, 3), a > ALL (1, 2) FROM u ORDER BY b", "n | NULL | NULL\nx | TRUE | FALSE\ny | FALSE | FALSE\nz | TRUE | TRUE"},
		// TABLE t wherever a query stands.
		{"SELECT * FROM (TABLE w) ORDER BY c DESC", "3\n2"},
		{"SELECT a FROM u WHERE a IN (TABLE w) ORDER BY a", "2\n3"},
		{"(TABLE w) UNION ALL (TABLE w) ORDER BY c", "2\n2\n3\n3"},
		{"WITH x AS (TABLE w) SELECT COUNT(*) FROM x", "2"},
		// TIMESTAMPADD / TIMESTAMPDIFF.
		{"SELECT TIMESTAMPADD(WEEK, 1, DATE '2003-01-02'), TIMESTAMPADD(SQL_TSI_MONTH, 1, DATE '2024-01-31'), TIMESTAMPADD(HOUR, 25, TIMESTAMP '2020-01-01 00:00:00.5')",
			"2003-01-09 | 2024-02-29 | 2020-01-02 01:00:00.5"},
		{"SELECT TIMESTAMPDIFF(DAY, TIMESTAMP '2003-01-02 10:00:00', TIMESTAMP '2003-01-03 10:00:00'), TIMESTAMPDIFF(SQL_TSI_YEAR, DATE '2021-06-01', DATE '2020-01-01'), TIMESTAMPDIFF(MINUTE, TIMESTAMP '2020-01-01 00:00:00', TIMESTAMP '2020-01-01 01:30:59')",
			"1 | -1 | 90"},
		{"SELECT a, TIMESTAMPDIFF(DAY, DATE '2020-01-01', TIMESTAMPADD(DAY, a, DATE '2020-01-01')) FROM u ORDER BY a NULLS LAST", "1 | 1\n2 | 2\n3 | 3\nNULL | NULL"},
		// OFFSET and FETCH.
		{"SELECT a FROM u ORDER BY a NULLS LAST OFFSET 1 ROW FETCH NEXT 1 ROWS ONLY", "2"},
		{"SELECT a FROM u ORDER BY a NULLS LAST OFFSET 2", "3\nNULL"},
		{"SELECT a FROM u ORDER BY a FETCH FIRST 1 ROW ONLY", "NULL"},
		// Comments inside a data type.
		{"SELECT CAST(a AS DECIMAL(10 /* p */, 2)), CAST(ROW(a, b) AS ROW<x INT -- c\n, y STRING>).y FROM u WHERE a = 1", "1.00 | x"},
	}
	for _, c := range cases {
		if got := rowsOf(t, s, c.sql); got != c.want {
			t.Errorf("%s\ngot:\n%s\nwant:\n%s", c.sql, got, c.want)
		}
	}
	// TABLE t feeds INSERT, CREATE TABLE AS and views too.
	mustExec(t, s, "CREATE TABLE w2 (c INT)")
	rowsOf(t, s, "INSERT INTO w2 TABLE w")
	mustExec(t, s, "CREATE TABLE w3 AS TABLE w2")
	mustExec(t, s, "CREATE VIEW vw AS TABLE w3")
	expectRows(t, s, "SELECT c FROM vw ORDER BY c", "2\n3")
}
