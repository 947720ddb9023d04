package engine

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"eddy/catalogs"
	"eddy/catalogs/sqlite"
	"eddy/engine/ast"
	"eddy/engine/exec"
	"eddy/engine/parser"
)

// openStoreSession opens a session over a fresh store file whose current
// catalog is a sqlite catalog of it, and returns the file's path.
func openStoreSession(t *testing.T) (*Session, string) {
	t.Helper()
	return openStoreSessionTB(t)
}

// openStoreSessionTB is openStoreSession for tests and benchmarks.
func openStoreSessionTB(t testing.TB) (*Session, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "eddy.db")
	return openStoreSessionAt(t, path), path
}

// openStoreSessionAt opens a session of its own on the store at path,
// as another eddy process would.
func openStoreSessionAt(t testing.TB, path string) *Session {
	t.Helper()
	ctx := context.Background()
	store, err := sqlite.OpenStore(path)
	if err != nil {
		t.Fatal(err)
	}
	mgr := catalogs.NewManager(map[string]catalogs.Factory{sqlite.Type: store}, store)
	t.Cleanup(func() { mgr.Close(); store.Close() })
	lake := catalogs.CatalogDescriptor{Name: "lake", Options: map[string]string{catalogs.OptionType: sqlite.Type}}
	if err := mgr.RegisterCatalog(ctx, lake, nil, catalogs.OriginConfig); err != nil {
		t.Fatal(err)
	}
	if err := mgr.SetCurrentCatalog(ctx, "lake"); err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(SessionConfig{Catalogs: mgr, Options: map[string]string{"table.dml-sync": "true"}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// selectRows runs a query and returns its rows, one string each.
func selectRows(t *testing.T, s *Session, sql string) []string {
	t.Helper()
	ctx := context.Background()
	res, err := s.Execute(ctx, sql)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	var out []string
	for {
		row, ok, err := res.Rows.Next(ctx)
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		if !ok {
			break
		}
		out = append(out, fmt.Sprint(row.Values))
	}
	return out
}

// TestLiteralRowsMatchOperators: the fast path of literal rows
// (exec.ConstantRows over the validator's plan) computes exactly the rows
// the operators compute, Go types included, and declines every plan whose
// operators fail or that it does not cover.
func TestLiteralRowsMatchOperators(t *testing.T) {
	s, _ := openStoreSession(t)
	ctx := context.Background()
	mustExec(t, s, "CREATE TABLE t (i INT, b BIGINT, d DOUBLE, f FLOAT, x DECIMAL(10, 3), s STRING, v VARCHAR(5), ok BOOLEAN, ts TIMESTAMP(3))")
	mustExec(t, s, "CREATE TABLE u (a TINYINT, b SMALLINT, c CHAR(3), d DATE, e TIME, f BYTES, g TIMESTAMP_LTZ(3), h DOUBLE, k FLOAT)")
	cases := []struct {
		values string
		fast   bool // the fast path computes it
		table  string
	}{
		{"(CAST(1 AS TINYINT), CAST(2 AS SMALLINT), 'ab', DATE '2024-01-02', TIME '03:04:05', X'0102', TIMESTAMP '2024-01-02 03:04:05.678', 1, 2)", true, "u"},
		{"(CAST(300 AS TINYINT), CAST(70000 AS SMALLINT), 'abcd', CAST('2024-01-02' AS DATE), CAST('03:04:05' AS TIME), NULL, NULL, 1.5, CAST(1e40 AS FLOAT))", true, "u"},
		{"(CAST(CAST(1 AS BIGINT) AS TINYINT), CAST(2 AS TINYINT), CAST(1 AS CHAR(3)), NULL, NULL, NULL, NULL, CAST(3 AS FLOAT), 0.1), (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)", true, "u"},
		{"(TRY_CAST('x' AS TINYINT), CAST(2 AS SMALLINT), 'a', NULL, NULL, NULL, NULL, 3, 4)", true, "u"},
		{"(1, 2, 3, 4, 5, 'x', 'abc', TRUE, TIMESTAMP '2024-01-02 03:04:05.678')", true, "t"},
		{"(-1, -9000000000, 1.25, 0.1, 12.3456, '', 'abcde', false, NULL)", true, "t"},
		{"(2147483647, 123456789012345678, -0.5, 3.75, -7.0005, 'über', 'ü', TRUE, NULL)", true, "t"},
		{"(1, 2, 3.5, 4, 5, 'x', 'y', TRUE, NULL), (6, 7, 8, 9, 10, 'z', 'w', FALSE, NULL)", true, "t"},
		{"(1, 2, 3, 4, 5, 'x', 'abcdefg', TRUE, NULL)", true, "t"},
		{"(NULL, 2, 1e3, 4, 5, CAST(2 AS STRING), 'y', TRUE, CAST('2024-01-02 03:04:05' AS TIMESTAMP(3)))", true, "t"},
		{"(CAST(1.5 AS INT), 2, 3, 4, 5, 'x', 'y', TRUE, NULL)", true, "t"},
		{"(CAST('1' AS INT), 2, 3, 4, 5, 'x', 'y', TRUE, NULL)", true, "t"},
		{"(CAST('x' AS INT) + 0, 2, 3, 4, 5, 'x', 'y', TRUE, NULL)", false, "t"}, // the cast fails
		{"(CAST('x' AS INT), 2, 3, 4, 5, 'x', 'y', TRUE, NULL)", false, "t"},     // the cast fails
		{"(1, 2, 3, 4, 123456789.5, 'x', 'y', TRUE, NULL)", true, "t"},           // too long for DECIMAL(10, 3): NULL
		{"(1, 2, 3, 4, 5, UPPER('x'), 'y', TRUE, NULL)", false, "t"},             // a function call
	}
	for _, c := range cases {
		stmt, err := parser.Parse("INSERT INTO " + c.table + " VALUES " + c.values)
		if err != nil {
			t.Fatal(err)
		}
		sk, err := s.planInsert(ctx, stmt.(*ast.Insert))
		if err != nil {
			t.Fatalf("%s: %v", c.values, err)
		}
		fast, ok := exec.ConstantRows(sk.Input, time.UTC)
		if ok != c.fast {
			t.Errorf("%s: fast path %v, want %v", c.values, ok, c.fast)
		}
		b, _, err := s.prepare(ctx, s.connectors(), sk.Input)
		if err != nil {
			t.Fatal(err)
		}
		op, err := b.Build(sk.Input)
		if err != nil {
			t.Fatal(err)
		}
		var ran [][]any
		var runErr error
		for {
			bt, err := op.Next(ctx)
			if err != nil || bt == nil {
				runErr = err
				break
			}
			for i := range bt.N {
				ran = append(ran, bt.Row(i))
			}
		}
		op.Close()
		if ok && runErr != nil {
			t.Errorf("%s: the fast path computed rows where the operators fail: %v", c.values, runErr)
		}
		if ok && fmt.Sprintf("%#v", fast) != fmt.Sprintf("%#v", ran) {
			t.Errorf("%s:\nfast:      %#v\noperators: %#v", c.values, fast, ran)
		}
	}
}

// storedCount counts the rows of table lake.default.name in the store
// file, read by a connection of its own.
func storedCount(t *testing.T, path, name string) int {
	t.Helper()
	other, err := sqlite.OpenStore(path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	var id int64
	err = other.DB().QueryRow(`SELECT id FROM row_tables WHERE catalog = 'lake' AND name = ?`, name).Scan(&id)
	if err != nil {
		return 0
	}
	var n int
	if err := other.DB().QueryRow(fmt.Sprintf(`SELECT count(*) FROM eddy_rows_%d`, id)).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestGroup: INSERTs held in a group become visible to other
// connections at Commit; a statement that cannot join is refused with
// ErrCommitFirst and changes nothing; Execute commits first; Close rolls an
// open group back.
func TestGroup(t *testing.T) {
	s, path := openStoreSession(t)
	ctx := context.Background()
	mustExec(t, s, "CREATE TABLE t (i INT, s STRING)")
	g := s.BeginGroup()
	for i := range 3 {
		_, deferred, err := g.Execute(ctx, fmt.Sprintf("INSERT INTO t VALUES (%d, 'r')", i))
		if err != nil || !deferred {
			t.Fatalf("insert %d: deferred %v, %v", i, deferred, err)
		}
	}
	// Computed by the operators, not the literal fast path: still in the
	// group.
	if _, deferred, err := g.Execute(ctx, "INSERT INTO t VALUES (3, UPPER('r'))"); err != nil || !deferred {
		t.Fatalf("planned insert: deferred %v, %v", deferred, err)
	}
	// A failing statement in the group is deferred too, and changes nothing.
	if _, deferred, err := g.Execute(ctx, "INSERT INTO t VALUES (CAST('x' AS INT), 'bad')"); err == nil || !deferred {
		t.Fatalf("failing insert: deferred %v, %v", deferred, err)
	}
	if n := storedCount(t, path, "t"); n != 0 {
		t.Errorf("%d rows visible before the commit", n)
	}
	if _, _, err := g.Execute(ctx, "SELECT * FROM t"); !errors.Is(err, ErrCommitFirst) {
		t.Fatalf("a query in an open group: %v, want ErrCommitFirst", err)
	}
	if _, _, err := g.Execute(ctx, "INSERT INTO t SELECT * FROM t"); !errors.Is(err, ErrCommitFirst) {
		t.Fatalf("an INSERT that reads the store in an open group: %v, want ErrCommitFirst", err)
	}
	if err := g.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if n := storedCount(t, path, "t"); n != 4 {
		t.Errorf("%d rows after the commit, want 4", n)
	}
	if got := selectRows(t, s, "SELECT * FROM t"); strings.Join(got, ",") != "[0 r],[1 r],[2 r],[3 R]" {
		t.Errorf("rows %v", got)
	}
	if _, _, err := g.Execute(ctx, "INSERT INTO t VALUES (4, 'r')"); err != nil {
		t.Fatal(err)
	}
	mustExec(t, s, "CREATE TABLE u (i INT)") // commits the group first
	if n := storedCount(t, path, "t"); n != 5 {
		t.Errorf("%d rows after Execute, want 5", n)
	}
	if _, _, err := g.Execute(ctx, "INSERT INTO t VALUES (5, 'r')"); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if n := storedCount(t, path, "t"); n != 5 {
		t.Errorf("%d rows after Close with an open group, want 5 (rolled back)", n)
	}
}

// TestGroupTargetsFollowDDL: every statement of a group resolves its
// table again, and DDL ends the group: a re-created table with other
// columns and a temporary table that shadows it are written, not the old
// definition.
func TestGroupTargetsFollowDDL(t *testing.T) {
	s, path := openStoreSession(t)
	ctx := context.Background()
	g := s.BeginGroup()
	deferred := func(sql string) (bool, error) {
		t.Helper()
		_, d, err := g.Execute(ctx, sql)
		if errors.Is(err, ErrCommitFirst) {
			if err := g.Commit(ctx); err != nil {
				t.Fatal(err)
			}
			_, d, err = g.Execute(ctx, sql)
		}
		return d, err
	}
	for _, sql := range []string{"CREATE TABLE t (i INT, s STRING)", "INSERT INTO t VALUES (1, 'a')", "INSERT INTO t VALUES (2, 'b')",
		"DROP TABLE t", "CREATE TABLE t (s STRING, i INT, j INT)", "INSERT INTO t VALUES ('c', 3, 4)"} {
		if _, err := deferred(sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	if _, err := deferred("INSERT INTO t VALUES (5, 'e')"); err == nil {
		t.Error("an INSERT for the dropped table's columns succeeded")
	}
	if _, err := deferred("CREATE TEMPORARY TABLE t (x INT)"); err != nil {
		t.Fatal(err)
	}
	if d, err := deferred("INSERT INTO t VALUES (6)"); err != nil || d {
		t.Errorf("INSERT into the temporary table: deferred %v, %v", d, err)
	}
	if err := g.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if n := storedCount(t, path, "t"); n != 1 {
		t.Errorf("the store holds %d rows of t, want 1", n)
	}
	if got := selectRows(t, s, "SELECT * FROM t"); strings.Join(got, ",") != "[6]" {
		t.Errorf("temporary t: %v", got)
	}
}
