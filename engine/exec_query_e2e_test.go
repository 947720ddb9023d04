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
