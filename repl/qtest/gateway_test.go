package qtest_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"eddy/engine"
	"eddy/engine/types"
	"eddy/repl/qtest"
)

// flinkRecord returns record num of a Flink script, placeholders
// substituted with env's values and fresh directories.
func flinkRecord(t *testing.T, file string, num int) qtest.Record {
	t.Helper()
	dir, ok := flinkDir(t)
	if !ok {
		t.Skipf("Flink's .q scripts are not at %s", dir)
	}
	raw, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil {
		t.Fatal(err)
	}
	v, err := qtest.NewVars(t.TempDir(), t.TempDir(), qtest.DefaultEnv())
	if err != nil {
		t.Fatal(err)
	}
	s, err := qtest.Parse(v.Substitute(string(raw)))
	if err != nil {
		t.Fatal(err)
	}
	return s.Records[num-1]
}

func renderGW(t *testing.T, stmt string, res *engine.Result, err error) (string, qtest.Tag) {
	t.Helper()
	return qtest.RenderGateway(context.Background(), stmt, res, err, true)
}

func checkAgainst(t *testing.T, rec qtest.Record, block string, tag qtest.Tag) {
	t.Helper()
	if qtest.Normalize(block) != qtest.Normalize(rec.Expected) || tag.String() != rec.TagLine {
		t.Errorf("#%d %s: got\n%s%s\nwant\n%s%s", rec.Num, rec.SQL, block, tag, rec.Expected, rec.TagLine)
	}
}

func intRows(kind types.RowKind, pairs ...any) []engine.Row {
	var rows []engine.Row
	for i := 0; i+1 < len(pairs); i += 2 {
		rows = append(rows, engine.Row{Kind: kind, Values: []any{pairs[i], pairs[i+1]}})
	}
	return rows
}

func TestGatewayAgainstFlinkFiles(t *testing.T) {
	t.Run("acknowledgement", func(t *testing.T) {
		rec := flinkRecord(t, "sql-gateway/begin_statement_set.q", 1)
		block, tag := renderGW(t, qtest.GatewayStatement(rec.SQL), engine.Success(), nil)
		checkAgainst(t, rec, block, tag)
	})
	t.Run("streaming select", func(t *testing.T) {
		rec := flinkRecord(t, "sql-gateway/begin_statement_set.q", 12)
		res := &engine.Result{
			Kind:      engine.ResultRows,
			Columns:   []engine.Column{{Name: "id", Type: types.New(types.Int)}, {Name: "str", Type: types.NewString()}},
			Rows:      engine.SliceRows(intRows(types.Insert, 1, "Hello World", 2, "Hi", 2, "Hi", 3, "Hello", 3, "World", 4, "ADD", 5, "LINE")),
			IsQuery:   true,
			Changelog: true,
			Bounded:   true,
		}
		block, tag := renderGW(t, qtest.GatewayStatement(rec.SQL), res, nil)
		checkAgainst(t, rec, block, tag)
	})
	t.Run("job", func(t *testing.T) {
		rec := flinkRecord(t, "sql-gateway/begin_statement_set.q", 11)
		block, tag := renderGW(t, qtest.GatewayStatement(rec.SQL), engine.Info("Complete execution of the SQL update statement."), nil)
		checkAgainst(t, rec, block, tag)
	})
	t.Run("set listing", func(t *testing.T) {
		rec := flinkRecord(t, "sql-gateway/set.q", 2)
		env := qtest.DefaultEnv()
		res := engine.StringTable([]string{"key", "value"}, [][]any{
			{"$internal.deployment.config-dir", "/dummy/conf/"},
			{"execution.attached", "true"},
			{"execution.shutdown-on-attached-exit", "false"},
			{"execution.target", "remote"},
			{"jobmanager.rpc.address", env.JobManagerAddress},
			{"rest.port", env.RestPort},
		})
		block, tag := renderGW(t, qtest.GatewayStatement(rec.SQL), res, nil)
		checkAgainst(t, rec, block, tag)
	})
	t.Run("parse error", func(t *testing.T) {
		rec := flinkRecord(t, "sql-gateway/statement_set.q", 13)
		err := &engine.Error{Class: "ParseException", Line: 1, Col: 1,
			Message: "Encountered \"END\" at line 1, column 1.\nWas expecting one of:\n    \"INSERT\" ...\n    \"UPSERT\" ...\n    "}
		block, tag := renderGW(t, qtest.GatewayStatement(rec.SQL), nil, err)
		checkAgainst(t, rec, block, tag)
	})
	t.Run("show create", func(t *testing.T) {
		rec := flinkRecord(t, "sql-gateway/table.q", 8)
		text := "CREATE TABLE `default_catalog`.`default_database`.`orders` (\n" +
			"  `user` BIGINT NOT NULL,\n  `product` VARCHAR(32),\n  `amount` INT,\n  `ts` TIMESTAMP(3),\n" +
			"  `ptime` AS PROCTIME(),\n  WATERMARK FOR `ts` AS `ts` - INTERVAL '1' SECOND,\n" +
			"  CONSTRAINT `PK_user` PRIMARY KEY (`user`) NOT ENFORCED\n)\nWITH (\n  'connector' = 'datagen'\n)\n"
		block, tag := renderGW(t, qtest.GatewayStatement(rec.SQL), engine.StringTable([]string{"result"}, [][]any{{text}}), nil)
		checkAgainst(t, rec, block, tag)
	})
}

func TestGatewayRendering(t *testing.T) {
	strCol := func(n string) engine.Column { return engine.Column{Name: n, Type: types.NewString()} }
	for _, c := range []struct {
		name, stmt string
		res        *engine.Result
		err        error
		want       string
		tag        qtest.Tag
	}{
		{"empty", "SHOW TABLES", engine.StringTable([]string{"table name"}, nil), nil, "Empty set\n", qtest.TagOK},
		{"null is empty", "SHOW x", engine.StringTable([]string{"a", "b"}, [][]any{{nil, "x"}}), nil,
			"+---+---+\n| a | b |\n+---+---+\n|   | x |\n+---+---+\n1 row in set\n", qtest.TagOK},
		{"wide characters", "SHOW x", &engine.Result{Kind: engine.ResultRows, Columns: []engine.Column{strCol("s")},
			Rows: engine.SliceRows([]engine.Row{{Values: []any{"中文"}}, {Values: []any{"ab"}}})}, nil,
			"+------+\n|    s |\n+------+\n| 中文 |\n|   ab |\n+------+\n2 rows in set\n", qtest.TagOK},
		{"op only for SELECT in streaming", "EXECUTE SELECT 1", &engine.Result{Kind: engine.ResultRows,
			Columns: []engine.Column{{Name: "EXPR$0", Type: types.New(types.Int)}}, Changelog: true,
			Rows: engine.SliceRows([]engine.Row{{Values: []any{int32(1)}}})}, nil,
			"+--------+\n| EXPR$0 |\n+--------+\n|      1 |\n+--------+\n1 row in set\n", qtest.TagOK},
		{"op with row kinds", "  select id", &engine.Result{Kind: engine.ResultRows,
			Columns: []engine.Column{{Name: "id", Type: types.New(types.BigInt)}, {Name: "ok", Type: types.New(types.Boolean)}}, Changelog: true,
			Rows: engine.SliceRows([]engine.Row{{Kind: types.UpdateBefore, Values: []any{int64(2), true}}, {Kind: types.UpdateAfter, Values: []any{int64(12), false}}})}, nil,
			"+----+----+-------+\n| op | id |    ok |\n+----+----+-------+\n| -U |  2 |  TRUE |\n| +U | 12 | FALSE |\n+----+----+-------+\n2 rows in set\n", qtest.TagOK},
		{"no op in batch mode", "SELECT id", &engine.Result{Kind: engine.ResultRows,
			Columns: []engine.Column{{Name: "id", Type: types.New(types.BigInt)}},
			Rows:    engine.SliceRows([]engine.Row{{Values: []any{int64(2)}}})}, nil,
			"+----+\n| id |\n+----+\n|  2 |\n+----+\n1 row in set\n", qtest.TagOK},
		{"job id column", "INSERT INTO t VALUES (1)", engine.StringTable([]string{"job id"}, [][]any{{"abc"}}), nil, "Job ID:\n", qtest.TagInfo},
		{"explain raw", "explain select 1", engine.StringTable([]string{"result"}, [][]any{{"== Plan ==\nValues\n\n"}}), nil,
			"== Plan ==\nValues\n", qtest.TagOK},
		{"plain error", "DROP TABLE t", nil, errors.New("boom"), "TableException: boom\n", qtest.TagError},
		{"error lines", "SELECT x", nil, &engine.Error{Class: "ValidationException", Message: "SQL validation failed. At line 12, column 3: at line 12\n  "},
			"ValidationException: SQL validation failed. At line 12, column 3: at line 0\n", qtest.TagError},
		{"failing rows", "SELECT 1", &engine.Result{Kind: engine.ResultRows, Columns: []engine.Column{strCol("a")},
			Rows: &failingRows{err: &engine.Error{Class: "IllegalArgumentException", Message: "bad source"}}}, nil,
			"IllegalArgumentException: bad source\n", qtest.TagError},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, tag := qtest.RenderGateway(context.Background(), c.stmt, c.res, c.err, c.name != "no op in batch mode")
			if got != c.want || tag != c.tag {
				t.Errorf("got\n%s%s\nwant\n%s%s", got, tag, c.want, c.tag)
			}
		})
	}
}

// failingRows yields one row and then fails, as a source failing at run time.
type failingRows struct {
	err    error
	n      int
	closed bool
}

func (f *failingRows) Next(ctx context.Context) (engine.Row, bool, error) {
	f.n++
	if f.n == 1 {
		return engine.Row{Values: []any{"x"}}, true, nil
	}
	return engine.Row{}, false, f.err
}

func (f *failingRows) Close() error { f.closed = true; return nil }
