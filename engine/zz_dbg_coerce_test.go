package engine

import "testing"

func TestDbgCoerce(t *testing.T) {
	s := openCoerceSession(t)
	t.Log(rowsOf(t, s, "EXPLAIN SELECT c FROM t WHERE c BETWEEN 3.5 AND '6'"))
	t.Log(queryErr(t, s, "SELECT c FROM t WHERE c BETWEEN 3.5 AND '6'"))
	t.Log(queryErr(t, s, "SELECT c FROM t WHERE c > '6'"))
	t.Log(queryErr(t, s, "SELECT c FROM t WHERE c >= 3.5 AND c <= '6'"))
	t.Log(queryErr(t, s, "SELECT d FROM t WHERE d > '2020-01-01'"))
}
