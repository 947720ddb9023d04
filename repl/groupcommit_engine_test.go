package repl

import (
	"bytes"
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"eddy/catalogs"
	"eddy/catalogs/sqlite"
	"eddy/engine"
	"eddy/repl/render"
)

// openEngine returns a shell session of the embedded engine over a fresh
// store whose current catalog keeps its tables' rows in the store.
func openEngine(t *testing.T) Session {
	t.Helper()
	ctx := context.Background()
	store, err := sqlite.OpenStore(filepath.Join(t.TempDir(), "eddy.db"))
	if err != nil {
		t.Fatal(err)
	}
	mgr := catalogs.NewManager(map[string]catalogs.Factory{sqlite.Type: store}, store)
	def := catalogs.CatalogDescriptor{Name: "default_catalog", Options: map[string]string{
		catalogs.OptionType: sqlite.Type, catalogs.OptionDefaultDatabase: "default_database"}}
	if err := mgr.RegisterCatalog(ctx, def, nil, catalogs.OriginBuiltIn); err != nil {
		t.Fatal(err)
	}
	if err := mgr.SetCurrentCatalog(ctx, "default_catalog"); err != nil {
		t.Fatal(err)
	}
	sess, err := engine.NewSession(engine.SessionConfig{Catalogs: mgr, Options: map[string]string{
		"table.dml-sync": "true", "sql-client.execution.result-mode": "tableau"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sess.Close(); store.Close() })
	return FromEngine(sess)
}

// countingSession counts the statements its write groups held.
type countingSession struct {
	Session
	held int
}

func (c *countingSession) BeginGroup() Group {
	return countingGroup{Group: c.Session.(groupingSession).BeginGroup(), c: c}
}

type countingGroup struct {
	Group
	c *countingSession
}

func (g countingGroup) Execute(ctx context.Context, sql string) (*engine.Result, bool, error) {
	res, held, err := g.Group.Execute(ctx, sql)
	if held {
		g.c.held++
	}
	return res, held, err
}

// reason returns the lines after "Reason:" of an error answer.
func reason(answer string) string {
	_, r, _ := strings.Cut(answer, "Reason:\n")
	return strings.TrimSpace(r)
}

// TestTypedAndPipedInsertValidateAlike runs the same INSERT statements
// typed (one statement at a time, as at the prompt) and piped (a script
// on standard input, whose INSERTs the shell holds in a write group): a
// value the column cannot take fails with the same error, and the rows
// stored are the same.
func TestTypedAndPipedInsertValidateAlike(t *testing.T) {
	ctx := context.Background()
	sess := &countingSession{Session: openEngine(t)}
	typed := New(sess, Config{Out: &bytes.Buffer{}, Err: &bytes.Buffer{}})
	for _, ddl := range []string{"CREATE TABLE typed (i INT, s STRING, v VARCHAR(3))",
		"CREATE TABLE piped (i INT, s STRING, v VARCHAR(3))"} {
		var out bytes.Buffer
		if typed.ExecStatement(ctx, ddl, &out) == render.TagError {
			t.Fatalf("%s: %s", ddl, out.String())
		}
	}
	statements := []string{
		"INSERT INTO %s VALUES (1, 'a', 'abcdef')",
		"INSERT INTO %s VALUES ('abc', 'b', 'c')", // a string INT cannot take
		"INSERT INTO %s VALUES (2, 'c', 'd'), (-4, 'e', NULL)",
		"INSERT INTO %s VALUES (5, 'f')", // one column short
	}
	var typedErrs []string
	for _, st := range statements {
		var out bytes.Buffer
		typed.ExecStatement(ctx, strings.Replace(st, "%s", "typed", 1), &out)
		if strings.Contains(out.String(), "[ERROR]") {
			typedErrs = append(typedErrs, strings.ReplaceAll(reason(out.String()), "typed", "TABLE"))
		}
	}
	var script strings.Builder
	for _, st := range statements {
		script.WriteString(strings.Replace(st, "%s", "piped", 1) + ";\n")
	}
	var out, errs bytes.Buffer
	piped := New(sess, Config{In: strings.NewReader(script.String()), Out: &out, Err: &errs, KeepGoing: true, NoErrorLocation: true})
	if code := piped.Run(ctx); code != 1 {
		t.Errorf("piped run: exit %d, want 1", code)
	}
	if sess.held != len(statements) {
		t.Errorf("the piped run held %d statements in its write group, want %d", sess.held, len(statements))
	}
	var pipedErrs []string
	for _, e := range strings.Split(errs.String(), "[ERROR]")[1:] {
		pipedErrs = append(pipedErrs, strings.ReplaceAll(reason(e), "piped", "TABLE"))
	}
	want := []string{
		"ValidationException: Column types of query result and sink for 'default_catalog.default_database.TABLE' do not match.\n" +
			"Cause: Incompatible types for sink column 'i' at position 0.\n\nQuery schema: [EXPR$0: CHAR(3) NOT NULL, EXPR$1: CHAR(1) NOT NULL, EXPR$2: CHAR(1) NOT NULL]\n" +
			"Sink schema:  [i: INT, s: STRING, v: VARCHAR(3)]",
		"ValidationException: Column types of query result and sink for 'default_catalog.default_database.TABLE' do not match.\n" +
			"Cause: Different number of columns.\n\nQuery schema: [EXPR$0 INT NOT NULL, EXPR$1 CHAR(1) NOT NULL]\n" +
			"Sink schema:  [i INT, s STRING, v VARCHAR(3)]",
	}
	if strings.Join(typedErrs, "\n--\n") != strings.Join(want, "\n--\n") {
		t.Errorf("typed errors:\n%s\nwant:\n%s", strings.Join(typedErrs, "\n--\n"), strings.Join(want, "\n--\n"))
	}
	if strings.Join(pipedErrs, "\n--\n") != strings.Join(want, "\n--\n") {
		t.Errorf("piped errors:\n%s\nwant:\n%s", strings.Join(pipedErrs, "\n--\n"), strings.Join(want, "\n--\n"))
	}
	rows := func(table string) string {
		var out bytes.Buffer
		typed.ExecStatement(ctx, "SELECT * FROM "+table, &out)
		return out.String()
	}
	// The footers' elapsed times are the only part that may differ.
	elapsed := regexp.MustCompile(`\(\d+\.\d+ seconds\)`)
	tr := elapsed.ReplaceAllString(rows("typed"), "(elapsed)")
	pr := elapsed.ReplaceAllString(rows("piped"), "(elapsed)")
	if tr != pr || strings.Count(tr, "| +I |") != 3 {
		t.Errorf("rows differ or are missing:\ntyped:\n%s\npiped:\n%s", tr, pr)
	}
}
