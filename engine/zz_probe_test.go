package engine

import "testing"

func TestZZProbe(t *testing.T) {
	s := openQuerySession(t)
	mustExec(t, s, "SET 'execution.runtime-mode' = 'batch'")
	mustExec(t, s, "CREATE TABLE a (id INT, g STRING, v DOUBLE, ts TIMESTAMP(3), arr ARRAY<INT>)")
	for _, q := range []string{
		"INSERT INTO a VALUES (1, 'x', 1.5, TIMESTAMP '2021-01-01 00:00:01', ARRAY[1,2]), (2, 'y', 2.5, TIMESTAMP '2021-01-01 00:00:07', ARRAY[3])",
		"SELECT id, x FROM (VALUES (1, ARRAY[1,2])) AS T(id, arr) CROSS JOIN UNNEST(arr) AS U(x)",
		"SELECT window_start, window_end, COUNT(*) FROM TABLE(TUMBLE(TABLE a, DESCRIPTOR(ts), INTERVAL '5' SECOND)) GROUP BY window_start, window_end",
		"SELECT id, SUM(v) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM a",
		"SELECT id, LAG(id) OVER (ORDER BY id), RANK() OVER (PARTITION BY g ORDER BY v) FROM a",
		"WITH c AS (SELECT id FROM a) SELECT * FROM c WHERE id > 1",
		"SELECT CAST('12' AS INT) + 1, TRY_CAST('x' AS INT), 7 / 2, 7 % 3, -7 / 2, CAST(1.5 AS DECIMAL(5,2)) * 2",
		"SELECT DATE '2021-01-31' + INTERVAL '1' MONTH, TIMESTAMP '2021-01-01 10:00:00' + INTERVAL '2' HOUR",
		"SELECT UPPER('abc'), CHAR_LENGTH('héllo'), SUBSTRING('Hello' FROM 2 FOR 3), TRIM('  x  '), 'a' || 'b'",
		"SELECT COALESCE(NULL, 1), NULLIF(1, 1), IF(1 > 0, 'y', 'n'), GREATEST(1, 5, 3)",
		"SELECT EXTRACT(YEAR FROM DATE '2021-05-01'), YEAR(DATE '2021-05-01'), DATE_FORMAT(TIMESTAMP '2021-05-01 10:11:12', 'yyyy-MM-dd')",
		"SELECT g, LISTAGG(CAST(id AS STRING)) FROM a GROUP BY g",
		"SELECT 2147483647 + 1",
		"SELECT 1 / 0",
		"SELECT CAST('abc' AS INT)",
		"SELECT arr[1], CARDINALITY(arr) FROM a",
		"SELECT ROW(1, 'a'), MAP['k', 1]",
		"SELECT id FROM a ORDER BY id LIMIT 1 OFFSET 1",
		"SELECT * FROM a a1 JOIN a a2 ON a1.id < a2.id",
		"SELECT g, COUNT(*) FROM a GROUP BY GROUPING SETS ((g), ())",
		"SELECT g, GROUPING(g) FROM a GROUP BY CUBE (g)",
	} {
		got, err := run(t, s, q)
		if err != nil {
			t.Logf("%s\n  ERROR %v", q, err)
			continue
		}
		_ = got
		t.Logf("%s\n  => %s", q, rowsOf(t, s, q))
	}
}
