package engine

import (
	"context"
	"strings"
	"testing"
)

// drainErr runs sql and returns the error text ("" when it succeeds).
func drainErr(t *testing.T, s *Session, sql string) string {
	t.Helper()
	res, err := s.Execute(context.Background(), sql)
	if err != nil {
		return err.Error()
	}
	defer res.Close()
	for res.Rows != nil {
		_, ok, err := res.Rows.Next(context.Background())
		if err != nil {
			return err.Error()
		}
		if !ok {
			break
		}
	}
	return ""
}

// TestUntypedNull checks where Flink 2.2 (through its SQL gateway) accepts
// a NULL literal and where it answers "Illegal use of 'NULL'": a NULL is
// legal only where an operator types it from its other operands.
func TestUntypedNull(t *testing.T) {
	s := openQuerySession(t)
	mustExec(t, s, "SET 'execution.runtime-mode' = 'batch'")
	illegal := []string{
		"SELECT NULL + 1", "SELECT 1 - NULL", "SELECT NULL || 'a'", "SELECT NULL AND TRUE",
		"SELECT ABS(NULL)", "SELECT NULL AS a", "SELECT NULL", "SELECT -NULL", "SELECT NOT NULL",
		"SELECT x FROM (VALUES (NULL, 1)) t(x, y)", "SELECT CONCAT(NULL, 'a')", "SELECT IF(TRUE, NULL, 1)",
		"SELECT COUNT(NULL)", "SELECT ROW(NULL, 1)", "SELECT NULL UNION SELECT 1", "SELECT (SELECT NULL)",
		"SELECT 1 IN (SELECT NULL)", "SELECT NULL IS TRUE", "SELECT TRUE OR NULL", "SELECT +NULL",
		"SELECT 1 FROM (VALUES (1)) t(a) WHERE NULL AND a = 1",
	}
	for _, q := range illegal {
		if got := drainErr(t, s, q); !strings.Contains(got, "Illegal use of 'NULL'") {
			t.Errorf("%s: got %q, want Illegal use of 'NULL'", q, got)
		}
	}
	legal := []string{
		"SELECT 1 = NULL", "SELECT NULL IS NULL", "SELECT COALESCE(NULL, 1)", "SELECT CASE WHEN TRUE THEN NULL ELSE 1 END",
		"SELECT 1 IN (NULL, 1)", "SELECT NULL IN (1, 2)", "SELECT NULL BETWEEN 1 AND 2", "SELECT IFNULL(NULL, 1)",
		"SELECT ARRAY[NULL, 1]", "SELECT CAST(NULL AS INT) + 1", "SELECT NULL = NULL", "SELECT NULL IS DISTINCT FROM 1",
		"SELECT NULL IN (SELECT 1)", "SELECT 1 FROM (VALUES (1)) t(a) WHERE NULL", "SELECT 1 FROM (VALUES (1)) t(a) WHERE a = NULL",
	}
	for _, q := range legal {
		if got := drainErr(t, s, q); got != "" {
			t.Errorf("%s: %s", q, got)
		}
	}
	if got := drainErr(t, s, "SELECT CASE WHEN TRUE THEN NULL END"); !strings.Contains(got, "ELSE clause or at least one THEN clause must be non-NULL") {
		t.Errorf("CASE without a typed branch: %q", got)
	}
	// An INSERT's target types the NULLs of its VALUES. Flink 2.2 refuses
	// these too (Illegal use of 'NULL') and asks for CAST(NULL AS INT);
	// eddy lets the target column give the type, as psql and DuckDB do,
	// so that scripts inserting NULL rows need no casts.
	mustExec(t, s, "CREATE TABLE tn (a INT) WITH ('connector' = 'blackhole')")
	mustExec(t, s, "INSERT INTO tn VALUES (NULL), (1)")
}

// TestWindowOverPlainTimestamp checks Flink 2.2's answers for a window
// table function over a column that is not a time attribute: batch mode
// windows it (window_time keeps the column's type), streaming mode rejects
// it when the query is planned.
func TestWindowOverPlainTimestamp(t *testing.T) {
	s := openQuerySession(t)
	mustExec(t, s, "CREATE TEMPORARY VIEW ev AS SELECT * FROM (VALUES (TIMESTAMP '2024-01-01 10:00:01', 'a'), (TIMESTAMP '2024-01-01 10:00:12', 'b')) t(ts, k)")
	mustExec(t, s, "SET 'execution.runtime-mode' = 'batch'")
	q := "SELECT * FROM TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL '10' SECOND))"
	expectRows(t, s, q, "2024-01-01 10:00:01 | a | 2024-01-01 10:00:00.000 | 2024-01-01 10:00:10.000 | 2024-01-01 10:00:09\n"+
		"2024-01-01 10:00:12 | b | 2024-01-01 10:00:10.000 | 2024-01-01 10:00:20.000 | 2024-01-01 10:00:19")
	expectRows(t, s, "SELECT window_start, k, COUNT(*) FROM TABLE(CUMULATE(TABLE ev, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '10' SECOND)) GROUP BY window_start, window_end, k ORDER BY window_start, k",
		"2024-01-01 10:00:00.000 | a | 1\n2024-01-01 10:00:00.000 | a | 1\n2024-01-01 10:00:10.000 | b | 1\n2024-01-01 10:00:10.000 | b | 1")
	mustExec(t, s, "SET 'execution.runtime-mode' = 'streaming'")
	want := "The window function requires the timecol is a time attribute type, but is TIMESTAMP(0)."
	if got := drainErr(t, s, q); !strings.Contains(got, want) {
		t.Errorf("streaming TUMBLE: got %q, want %q", got, want)
	}
}
