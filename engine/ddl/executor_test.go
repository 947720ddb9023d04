package ddl_test

import (
	"archive/zip"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"eddy/catalogs"
	"eddy/catalogs/sqlite"
	"eddy/engine/ddl"
	"eddy/engine/functions"
	"eddy/engine/parser"
	"eddy/engine/result"
	"eddy/engine/schema"
	"eddy/engine/sqlerr"
	"eddy/engine/validate"
)

// open returns an executor over a SQLite store at path whose catalog
// `cat` (database `default`) is current.
func open(t *testing.T, path string) *ddl.Executor {
	t.Helper()
	ctx := context.Background()
	store, err := sqlite.OpenStore(path)
	if err != nil {
		t.Fatal(err)
	}
	mgr := catalogs.NewManager(map[string]catalogs.Factory{sqlite.Type: store}, store)
	t.Cleanup(func() { mgr.Close(); store.Close() })
	desc := catalogs.CatalogDescriptor{Name: "cat", Options: map[string]string{catalogs.OptionType: sqlite.Type}}
	if err := mgr.RegisterCatalog(ctx, desc, nil, catalogs.OriginConfig); err != nil {
		t.Fatal(err)
	}
	if err := mgr.SetCurrentCatalog(ctx, "cat"); err != nil {
		t.Fatal(err)
	}
	funcs := functions.NewRegistry()
	return ddl.New(ddl.Config{Catalogs: mgr, Funcs: funcs, Analyzer: func(source string) *validate.Analyzer {
		return &validate.Analyzer{Funcs: funcs, Catalogs: mgr, ParseQuery: parser.ParseQuery, ParseExpr: parser.ParseExpr,
			TableColumns: schema.Resolver{Funcs: funcs}.OutputColumns, Source: source}
	}})
}

// run executes one statement; the answer's rows come back as lines of
// '|'-separated cells.
func run(ex *ddl.Executor, sql string) (string, error) {
	ctx := context.Background()
	stmt, err := parser.Parse(sql)
	if err != nil {
		return "", err
	}
	res, err := ex.Execute(ctx, stmt, sql)
	if err != nil {
		return "", err
	}
	defer res.Close()
	switch res.Kind {
	case result.KindSuccess:
		return "OK", nil
	case result.KindInfo:
		return res.Message, nil
	}
	var lines []string
	for {
		row, ok, err := res.Rows.Next(ctx)
		if err != nil {
			return "", err
		}
		if !ok {
			return strings.Join(lines, "\n"), nil
		}
		cells := make([]string, len(row.Values))
		for i, v := range row.Values {
			cells[i] = fmt.Sprint(v)
		}
		lines = append(lines, strings.Join(cells, "|"))
	}
}

func TestExecute(t *testing.T) {
	ex := open(t, filepath.Join(t.TempDir(), "eddy.db"))
	for _, step := range []struct{ sql, want string }{
		{"CREATE DATABASE db COMMENT 'orders' WITH ('owner' = 'me', 'password' = 'x')", "OK"},
		{"USE db", "OK"},
		{"DESCRIBE DATABASE EXTENDED db", "database name|db\ncomment|orders\noption:owner|me\noption:password|****"},
		{"CREATE TABLE t (id INT, name STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND, " +
			"PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'datagen')", "OK"},
		{"ALTER TABLE t ADD up AS UPPER(name) AFTER id", "OK"},
		{"DESCRIBE t", "id|INT|FALSE|PRI(id)||\n" +
			"up|STRING|TRUE||AS UPPER(`name`)|\n" +
			"name|STRING|TRUE|||\n" +
			"ts|TIMESTAMP(3) *ROWTIME*|TRUE|||`ts` - INTERVAL '1' SECOND"},
		{"CREATE TABLE t2 (extra BOOLEAN) LIKE t (EXCLUDING WATERMARKS)", "OK"},
		{"SHOW COLUMNS FROM t2 LIKE '%a%'", "name|STRING|TRUE|||\nextra|BOOLEAN|TRUE|||"},
		{"CREATE VIEW v (k, n) AS SELECT id, name FROM t", "OK"},
		{"SHOW TABLES", "t\nt2\nv"},
		{"SHOW VIEWS", "v"},
		{"SHOW CREATE VIEW v", "CREATE VIEW `cat`.`db`.`v` (\n  `k`,\n  `n`\n)\n" +
			"AS SELECT `t`.`id`, `t`.`name`\nFROM `cat`.`db`.`t` AS `t`\n"},
		{"SHOW CURRENT DATABASE", "db"},
		{"CREATE TEMPORARY SYSTEM FUNCTION f AS 'com.example.F' LANGUAGE PYTHON", "OK"},
		{"DESCRIBE FUNCTION f", "is system function|true\nis temporary|true"},
		{"SHOW USER FUNCTIONS", "f"},
		{"LOAD MODULE core", "A module with name 'core' already exists"},
		{"SHOW FULL MODULES", "core|TRUE"},
		{"SHOW JARS", ""},
		{"DROP VIEW v", "OK"},
		{"DROP TABLE t2", "OK"},
		{"SHOW TABLES", "t"},
	} {
		got, err := run(ex, step.sql)
		if err != nil {
			var e *sqlerr.Error
			if !errors.As(err, &e) || e.Class != sqlerr.ValidationException {
				t.Fatalf("%s: %v", step.sql, err)
			}
			got = e.Message
		}
		if got != step.want {
			t.Errorf("%s:\ngot  %q\nwant %q", step.sql, got, step.want)
		}
	}
}

// TestFailedAlterChangesNothing: a schema change that breaks a rule is a
// ValidationException with Flink's ALTER TABLE prefix, and the stored
// table, read back from a reopened store, is unchanged.
func TestFailedAlterChangesNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "eddy.db")
	ex := open(t, path)
	if _, err := run(ex, "CREATE TABLE t (id INT, c AS id + 1, PRIMARY KEY (id) NOT ENFORCED)"); err != nil {
		t.Fatal(err)
	}
	for sql, msg := range map[string]string{
		"ALTER TABLE t DROP id":                          "The column `id` is referenced by computed column `c`.",
		"ALTER TABLE t RENAME id TO key":                 "The column `id` is referenced by computed column `c`.",
		"ALTER TABLE t ADD PRIMARY KEY (c) NOT ENFORCED": "The base table has already defined the primary key constraint [`id`]. You might want to drop it before adding a new one.",
	} {
		_, err := run(ex, sql)
		var e *sqlerr.Error
		if !errors.As(err, &e) || e.Class != sqlerr.ValidationException || e.Message != "Failed to execute ALTER TABLE statement.\n"+msg {
			t.Errorf("%s: err = %v, want ValidationException %q", sql, err, msg)
		}
	}
	want, err := run(ex, "DESCRIBE t")
	if err != nil {
		t.Fatal(err)
	}
	got, err := run(open(t, path), "DESCRIBE t")
	if err != nil {
		t.Fatal(err)
	}
	if got != want || !strings.HasPrefix(got, "id|INT|FALSE|PRI(id)||\nc|INT|FALSE||AS `id` + 1|") {
		t.Errorf("after failed ALTERs and a reopen DESCRIBE t =\n%s\nwant\n%s", got, want)
	}
}

// TestSessionStatements: statements that run queries or jobs belong to
// the session, not to Execute.
func TestSessionStatements(t *testing.T) {
	ex := open(t, filepath.Join(t.TempDir(), "eddy.db"))
	for _, sql := range []string{"CREATE TABLE t AS SELECT 1 AS x", "SHOW JOBS", "SELECT 1", "SET 'a' = 'b'"} {
		_, err := run(ex, sql)
		var e *sqlerr.Error
		if !errors.As(err, &e) || e.Class != sqlerr.TableException || !strings.HasPrefix(e.Message, "Unsupported statement ") {
			t.Errorf("%s: err = %v, want an unsupported-statement TableException", sql, err)
		}
	}
	if got, err := run(ex, "SHOW TABLES"); err != nil || got != "" {
		t.Errorf("SHOW TABLES after CREATE TABLE AS = %q, %v; want no table", got, err)
	}
}

// TestJars: ADD JAR records an existing file once; REMOVE JAR forgets it.
func TestJars(t *testing.T) {
	ex := open(t, filepath.Join(t.TempDir(), "eddy.db"))
	jar := filepath.Join(t.TempDir(), "udf.jar")
	if _, err := run(ex, fmt.Sprintf("ADD JAR '%s'", jar)); err == nil {
		t.Fatal("ADD JAR of a missing file succeeded")
	}
	if err := os.WriteFile(jar, []byte("PK"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := run(ex, fmt.Sprintf("ADD JAR '%s'", jar)); err == nil || !strings.Contains(err.Error(), "is not a jar file") {
		t.Fatalf("ADD JAR of a file that is not a zip archive: %v", err)
	}
	writeJar(t, jar, "META-INF/MANIFEST.MF", "com/example/Lower.class")
	for _, step := range []struct{ sql, want string }{
		{fmt.Sprintf("ADD JAR '%s'", jar), "OK"},
		{fmt.Sprintf("ADD JAR '%s'", jar), "OK"},
		{"SHOW JARS", jar},
		{fmt.Sprintf("REMOVE JAR '%s'", jar), "OK"},
		{"SHOW JARS", ""},
	} {
		if got, err := run(ex, step.sql); err != nil || got != step.want {
			t.Errorf("%s = %q, %v; want %q", step.sql, got, err, step.want)
		}
	}
}

// writeJar writes a zip archive holding empty entries of these names.
func writeJar(t *testing.T, path string, entries ...string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := zip.NewWriter(f)
	for _, e := range entries {
		if _, err := w.Create(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestJarChecks: ADD JAR and USING JAR take what Flink's resource manager
// takes, and a temporary Java function needs its class in a jar.
func TestJarChecks(t *testing.T) {
	ex := open(t, filepath.Join(t.TempDir(), "eddy.db"))
	dir := t.TempDir()
	udf := filepath.Join(dir, "udf.jar")
	writeJar(t, udf, "META-INF/MANIFEST.MF", "com/example/Lower.class")
	empty := filepath.Join(dir, "empty.jar")
	writeJar(t, empty, "README")
	for _, tc := range []struct{ sql, want string }{
		{"ADD JAR '" + filepath.Join(dir, "udf.zip") + "'", "ValidationException: The registering or unregistering jar resource [" + filepath.Join(dir, "udf.zip") + "] must ends with '.jar' suffix."},
		{"ADD JAR '" + filepath.Join(dir, "none.jar") + "'", "FileNotFoundException: Jar resource [" + filepath.Join(dir, "none.jar") + "] not found."},
		{"ADD JAR '" + empty + "'", "it holds no manifest and no class"},
		{"CREATE TEMPORARY FUNCTION lower2 AS 'com.example.Lower'", "ClassNotFoundException: com.example.Lower"},
		{"CREATE TEMPORARY SYSTEM FUNCTION lower2 AS 'com.example.Lower' LANGUAGE JAVA", "ClassNotFoundException: com.example.Lower"},
		{"CREATE TEMPORARY FUNCTION lower2 AS 'com.example.Upper' USING JAR '" + udf + "'", "ClassNotFoundException: com.example.Upper"},
	} {
		if _, err := run(ex, tc.sql); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.sql, err, tc.want)
		}
	}
	for _, sql := range []string{
		"CREATE TEMPORARY FUNCTION f1 AS 'com.example.Lower' USING JAR '" + udf + "'",
		"CREATE FUNCTION f2 AS 'com.example.Missing'", // a catalog function's class is loaded when it is used
		"CREATE TEMPORARY FUNCTION f3 AS 'lower_py.lower' LANGUAGE PYTHON",
		"ADD JAR '" + udf + "'",
		"CREATE TEMPORARY SYSTEM FUNCTION f4 AS 'com.example.Lower'",
		"REMOVE JAR '" + udf + "'",
		// An existing temporary function is not loaded again, as in Flink.
		"CREATE TEMPORARY SYSTEM FUNCTION IF NOT EXISTS f4 AS 'com.example.Missing'",
		"CREATE TEMPORARY FUNCTION IF NOT EXISTS f1 AS 'com.example.Missing'",
	} {
		if _, err := run(ex, sql); err != nil {
			t.Errorf("%s: %v", sql, err)
		}
	}
}
