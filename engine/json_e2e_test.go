package engine

import "testing"

// TestJSONFunctionsOverTableRows runs the SQL/JSON functions over the rows
// of a managed table (column operands, NULL rows, per-row defaults) and
// GROUP_ID over repeated grouping sets. NULL IS JSON OBJECT gives FALSE:
// Flink 2.x gives NULL, but eddy's validator types IS JSON as BOOLEAN NOT
// NULL (a known gap).
func TestJSONFunctionsOverTableRows(t *testing.T) {
	s := openQuerySession(t)
	mustExec(t, s, "SET 'execution.runtime-mode' = 'batch'")
	mustExec(t, s, "CREATE TABLE docs (id INT, doc STRING, dflt INT)")
	mustExec(t, s, `INSERT INTO docs VALUES (1, '{"a": 5, "b": [1, 2]}', 10), (2, '{"a": "x"}', 20), `+
		`(3, 'not json', 30), (4, CAST(NULL AS STRING), 40)`)
	for _, c := range []struct{ sql, want string }{
		{"SELECT id, JSON_VALUE(doc, '$.a' RETURNING INT DEFAULT dflt ON ERROR) FROM docs ORDER BY id",
			"1 | 5\n2 | 20\n3 | 30\n4 | NULL"},
		{"SELECT id, JSON_VALUE(doc, 'lax $.z' DEFAULT CAST(dflt AS STRING) ON EMPTY) FROM docs ORDER BY id",
			"1 | 10\n2 | 20\n3 | 30\n4 | NULL"},
		{"SELECT id, JSON_QUERY(doc, '$.b' WITH CONDITIONAL ARRAY WRAPPER EMPTY ARRAY ON ERROR) FROM docs ORDER BY id",
			"1 | [1,2]\n2 | []\n3 | []\n4 | NULL"},
		{"SELECT id, JSON_EXISTS(doc, '$.b'), doc IS JSON OBJECT FROM docs ORDER BY id",
			"1 | TRUE | TRUE\n2 | FALSE | TRUE\n3 | FALSE | FALSE\n4 | NULL | FALSE"},
		{"SELECT JSON_OBJECT(KEY 'id' VALUE id, KEY 'a' VALUE JSON_QUERY(doc, '$'), KEY 'n' VALUE JSON_ARRAY(id, dflt)) " +
			"FROM docs WHERE id <= 2 ORDER BY id",
			`{"a":"{\"a\":5,\"b\":[1,2]}","id":1,"n":[1,10]}` + "\n" + `{"a":"{\"a\":\"x\"}","id":2,"n":[2,20]}`},
		{"SELECT id, GROUP_ID(), COUNT(*) FROM docs WHERE id < 3 GROUP BY GROUPING SETS ((id), (id), ()) ORDER BY 2, 1 NULLS FIRST",
			"NULL | 0 | 2\n1 | 0 | 1\n2 | 0 | 1\n1 | 1 | 1\n2 | 1 | 1"},
	} {
		if got := rowsOf(t, s, c.sql); got != c.want {
			t.Errorf("%s:\ngot  %q\nwant %q", c.sql, got, c.want)
		}
	}
}
