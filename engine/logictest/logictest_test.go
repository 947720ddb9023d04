package logictest_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"eddy/catalogs"
	"eddy/catalogs/examples"
	"eddy/catalogs/memory"
	"eddy/catalogs/sqlite"
	"eddy/engine"
	"eddy/engine/logictest"
)

var rewrite = flag.Bool("rewrite", false, "write the actual answers back into the files under testdata")

// TestLogic runs the engine behaviour files under testdata, each in a
// session whose current catalog `lake` lives in a fresh SQLite store;
// the read-only examples catalog is registered too.
func TestLogic(t *testing.T) {
	logictest.RunDir(t, "testdata", logictest.Config{Open: openSession, Rewrite: *rewrite})
}

func openSession(t *testing.T) *engine.Session {
	t.Helper()
	ctx := context.Background()
	store, err := sqlite.OpenStore(filepath.Join(t.TempDir(), "eddy.db"))
	if err != nil {
		t.Fatal(err)
	}
	mgr := catalogs.NewManager(map[string]catalogs.Factory{memory.Type: memory.Factory{}, sqlite.Type: store}, store)
	lake := catalogs.CatalogDescriptor{Name: "lake", Options: map[string]string{catalogs.OptionType: sqlite.Type}}
	if err := mgr.RegisterCatalog(ctx, lake, nil, catalogs.OriginConfig); err != nil {
		t.Fatal(err)
	}
	ex := catalogs.CatalogDescriptor{Name: examples.Name, Options: map[string]string{catalogs.OptionType: examples.Type}}
	if err := mgr.RegisterCatalog(ctx, ex, examples.New(examples.Name), catalogs.OriginBuiltIn); err != nil {
		t.Fatal(err)
	}
	if err := mgr.SetCurrentCatalog(ctx, "lake"); err != nil {
		t.Fatal(err)
	}
	s, err := engine.NewSession(engine.SessionConfig{Catalogs: mgr})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(); mgr.Close(); store.Close() })
	return s
}

// TestRewrite rewrites a file whose answers are wrong or missing: rows,
// exact error texts and column types are replaced; "any" and an error's
// regexp stay as written.
func TestRewrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	src := `statement ok
SET 'execution.runtime-mode' = 'batch'

query TT
SELECT 1, 'a'
----
9 | z

query any
SELECT 1

statement error nope.*found
SELECT nope

query error
SELECT nope
----
wrong
`
	want := `statement ok
SET 'execution.runtime-mode' = 'batch'

query IT
SELECT 1, 'a'
----
1 | a

query any
SELECT 1
----
1

statement error nope.*found
SELECT nope

query error
SELECT nope
----
SqlValidatorException: Column 'nope' not found in any table
`
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	logictest.RunFile(t, path, logictest.Config{Open: openSession, Rewrite: true})
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("rewritten:\n%s\nwant:\n%s", got, want)
	}
	// The rewritten file passes as it is.
	logictest.RunFile(t, path, logictest.Config{Open: openSession})
}
