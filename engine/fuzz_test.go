package engine

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"eddy/catalogs"
	"eddy/catalogs/memory"
	"eddy/catalogs/sqlite"
	"eddy/engine/parser"
)

// fuzzSetup is run on every fresh store before the fuzzed statements: a
// managed table with rows, a view, a temporary table and a datagen source.
var fuzzSetup = []string{
	"CREATE TABLE t (a INT, b STRING, c DOUBLE)",
	"INSERT INTO t VALUES (1, 'x', 1.5), (2, 'y', NULL), (NULL, NULL, -0.0)",
	"CREATE VIEW v AS SELECT a, b FROM t WHERE a > 1",
	"CREATE TEMPORARY TABLE tmp (k STRING, n BIGINT)",
	"CREATE TABLE gen (id INT, s STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '20')",
}

// fuzzSeeds are statements that reach many parts of the engine; the
// committed corpus under testdata/fuzz/FuzzSession adds hostile inputs.
var fuzzSeeds = []string{
	"SELECT a, SUM(c) FROM t GROUP BY a HAVING COUNT(*) > 0 ORDER BY a",
	"SELECT * FROM t JOIN v ON t.a = v.a",
	"SELECT b, COUNT(DISTINCT a) FROM t GROUP BY b",
	"INSERT INTO tmp SELECT b, COUNT(*) FROM t GROUP BY b; SELECT * FROM tmp",
	"SELECT CAST(b AS INT), TRY_CAST(b AS DATE), UPPER(b) || 'z' FROM t",
	"SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS x(p, q) WHERE p IN (SELECT a FROM t)",
	"CREATE TABLE t2 AS SELECT * FROM t; ALTER TABLE t2 ADD d INT; SELECT * FROM t2",
	"ALTER TABLE t RENAME TO t3; SELECT * FROM v",
	"EXPLAIN SELECT * FROM t WHERE a = 1",
	"SET 'execution.runtime-mode' = 'batch'; SELECT a, ROW_NUMBER() OVER (PARTITION BY b ORDER BY a) FROM t",
	"SELECT * FROM gen, t",
	"BEGIN STATEMENT SET; INSERT INTO tmp VALUES ('k', 1); END",
	"SHOW CREATE TABLE t; SHOW CREATE VIEW v; DESCRIBE t",
	"CREATE TABLE `we;ird -- name` (`a``b` INT) COMMENT 'it''s'; SHOW CREATE TABLE `we;ird -- name`",
	"SELECT 1/0, CAST('x' AS INT), 9223372036854775807 + 1",
	"SELECT " + strings.Repeat("(", 60) + "1" + strings.Repeat(")", 60),
	"SELECT 'a\x00b', '\xff\xfe', `\x00`",
	"TRUNCATE TABLE t; SELECT COUNT(*) FROM t",
	"DROP TABLE t; CREATE TABLE t (x STRING); SELECT * FROM t",
	"SELECT * FROM t MATCH_RECOGNIZE (ORDER BY a MEASURES A.a AS aa PATTERN (A) DEFINE A AS a > 0)",
}

// unsafeForFuzzing reports inputs that could read or write files outside
// the test's directory (filesystem tables, plan files, jars) or that spell
// text in ways the check cannot see through (Unicode escapes).
func unsafeForFuzzing(sql string) bool {
	l := strings.ToLower(sql)
	for _, w := range []string{"filesystem", "path", "plan", "jar", "u&"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

func fuzzSession(t *testing.T) *Session {
	t.Helper()
	ctx := context.Background()
	store, err := sqlite.OpenStore(filepath.Join(t.TempDir(), "eddy.db"))
	if err != nil {
		t.Fatal(err)
	}
	mgr := catalogs.NewManager(map[string]catalogs.Factory{memory.Type: memory.Factory{}, sqlite.Type: store}, store)
	// The store is closed only when the input passed: after a hang the
	// statement still runs, and closing would wait for it instead of
	// reporting the input.
	t.Cleanup(func() {
		if !t.Failed() {
			mgr.Close()
			store.Close()
		}
	})
	def := catalogs.CatalogDescriptor{Name: "default_catalog", Options: map[string]string{
		catalogs.OptionType: sqlite.Type, catalogs.OptionDefaultDatabase: "default_database"}}
	if err := mgr.RegisterCatalog(ctx, def, nil, catalogs.OriginBuiltIn); err != nil {
		t.Fatal(err)
	}
	if err := mgr.SetCurrentCatalog(ctx, "default_catalog"); err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(SessionConfig{Catalogs: mgr})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range fuzzSetup {
		if _, err := s.Execute(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	return s
}

// fuzzStatement runs one statement with a deadline and reads at most
// maxRows rows of its answer. It fails the test when the statement
// panics (the session turns a panic into an InternalError), returns an
// error that is not an *Error, or does not stop soon after its deadline.
func fuzzStatement(t *testing.T, s *Session, sql string) {
	const deadline, grace, maxRows = 500 * time.Millisecond, 5 * time.Second, 10_000
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	type outcome struct {
		err  error
		rows int
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := s.Execute(ctx, sql)
		if err != nil {
			done <- outcome{err: err}
			return
		}
		defer res.Close()
		n := 0
		if res.Rows != nil {
			for n < maxRows {
				_, ok, err := res.Rows.Next(ctx)
				if err != nil || !ok {
					break
				}
				n++
			}
		}
		done <- outcome{rows: n}
	}()
	select {
	case o := <-done:
		if o.err == nil {
			return
		}
		var e *Error
		if !errors.As(o.err, &e) {
			t.Fatalf("%q: error of type %T: %v", sql, o.err, o.err)
		}
		if e.Class == "InternalError" {
			t.Fatalf("%q: the engine panicked: %s", sql, e.Message)
		}
	case <-time.After(deadline + grace):
		t.Fatalf("%q: still running %v after its deadline (%v)", sql, grace, deadline)
	}
}

// FuzzSession runs scripts of statements through a Session on a fresh
// store: no statement may panic or hang, and the store stays usable (the
// setup's table still answers a query, or was changed by the script).
func FuzzSession(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, script string) {
		if unsafeForFuzzing(script) || len(script) > 4096 {
			t.Skip()
		}
		pieces, rest := parser.Split(script)
		texts := make([]string, 0, len(pieces)+1)
		for _, p := range pieces {
			texts = append(texts, p.Text)
		}
		if !parser.IsBlank(rest) {
			texts = append(texts, rest)
		}
		if len(texts) > 8 {
			texts = texts[:8]
		}
		s := fuzzSession(t)
		for _, q := range texts {
			fuzzStatement(t, s, q)
		}
		// The session still answers.
		fuzzStatement(t, s, "SHOW TABLES")
		fuzzStatement(t, s, "SELECT 1")
	})
}

// TestUntypedTemporaryColumn: a table declared with a column without a
// type (the parser accepts bare names for CREATE TABLE ... AS) is refused,
// so no later DESCRIBE or INSERT meets a column without a type.
func TestUntypedTemporaryColumn(t *testing.T) {
	s := fuzzSession(t)
	for _, q := range []string{"CREATE TEMPORARY TABLE u (b)", "CREATE TABLE u2 (a INT, b)"} {
		if _, err := s.Execute(context.Background(), q); err == nil || !strings.Contains(err.Error(), "has no data type") {
			t.Errorf("%s: error = %v, want a missing data type", q, err)
		}
	}
	for _, q := range []string{"DESCRIBE u", "INSERT INTO u VALUES (1)"} {
		fuzzStatement(t, s, q)
	}
}
