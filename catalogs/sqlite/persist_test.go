package sqlite

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"eddy/catalogs"
	"eddy/catalogs/catalogtest"
)

// populate creates catalogs, databases, tables, views and functions through
// a Manager, using every kind of definition, then changes some of them.
func populate(ctx context.Context, m *catalogs.Manager) error {
	other := os.Getenv("EDDY_OTHER_PATH")
	steps := []func() error{
		func() error {
			return m.CreateCatalog(ctx, catalogs.CatalogDescriptor{Name: "_env_prod", Comment: "team 'prod'",
				Options: map[string]string{"type": Type, "default-database": "default"}}, false)
		},
		func() error {
			return m.CreateCatalog(ctx, catalogs.CatalogDescriptor{Name: "elsewhere",
				Options: map[string]string{"type": Type, "path": other}}, false)
		},
		func() error {
			return m.CreateCatalog(ctx, catalogs.CatalogDescriptor{Name: "scratch",
				Options: map[string]string{"type": "generic_in_memory"}}, false)
		},
		func() error {
			return m.CreateDatabase(ctx, "default_catalog", "db1",
				&catalogs.CatalogDatabase{Comment: "first", Options: map[string]string{"k1": "v1"}}, false)
		},
		func() error {
			return m.CreateTable(ctx, catalogs.NewIdentifier("default_catalog", "db1", "orders"), catalogtest.SampleTable(), false)
		},
		func() error {
			return m.CreateTable(ctx, catalogs.NewIdentifier("default_catalog", "db1", "v1"), catalogtest.SampleView(), false)
		},
		func() error {
			return m.CreateFunction(ctx, catalogs.NewIdentifier("default_catalog", "db1", "lower1"),
				&catalogs.CatalogFunction{ClassName: "com.example.Lower", Language: catalogs.LangJava,
					Resources: []catalogs.Resource{{Type: "JAR", URI: "/x/udf.jar"}}}, false)
		},
		func() error {
			return m.CreateTable(ctx, catalogs.NewIdentifier("_env_prod", "default", "large_orders"), catalogtest.SampleView(), false)
		},
		func() error {
			return m.CreateTable(ctx, catalogs.NewIdentifier("_env_prod", "default", "to_rename"), catalogtest.SampleTable(), false)
		},
		func() error {
			return m.RenameTable(ctx, catalogs.NewIdentifier("_env_prod", "default", "to_rename"),
				catalogs.NewIdentifier("_env_prod", "default", "renamed"), false)
		},
		func() error { return m.AlterCatalogComment(ctx, "_env_prod", "team 'prod', altered") },
		func() error {
			return m.CreateTable(ctx, catalogs.NewIdentifier("elsewhere", "default", "far"), catalogtest.SampleTable(), false)
		},
		func() error {
			t := catalogtest.SampleTable()
			t.Options["added"] = "yes"
			return m.AlterTable(ctx, catalogs.NewIdentifier("default_catalog", "db1", "orders"), t, false)
		},
	}
	for _, n := range catalogtest.HostileNames {
		steps = append(steps, func() error {
			if err := m.CreateDatabase(ctx, "_env_prod", n, &catalogs.CatalogDatabase{Comment: n}, false); err != nil {
				return err
			}
			t := catalogtest.SampleTable()
			t.Comment, t.Options[n] = n, n
			return m.CreateTable(ctx, catalogs.NewIdentifier("_env_prod", n, n), t, false)
		})
	}
	for i, step := range steps {
		if err := step(); err != nil {
			return fmt.Errorf("step %d: %w", i, err)
		}
	}
	return nil
}

// snapshot describes everything a Manager sees, for comparison.
func describeAll(t *testing.T, m *catalogs.Manager) string {
	t.Helper()
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	js := func(v any) string {
		out, err := json.Marshal(v)
		must(t, err)
		return string(out)
	}
	cats, err := m.ListCatalogs(ctx, nil)
	must(t, err)
	for _, c := range cats {
		info, err := m.DescribeCatalog(ctx, c)
		must(t, err)
		w("catalog %s %s origin=%v", c, js(info.Descriptor), info.Origin)
		dbs, err := m.ListDatabases(ctx, c, nil)
		must(t, err)
		for _, d := range dbs {
			db, err := m.GetDatabase(ctx, c, d)
			must(t, err)
			w("  database %q %s", d, js(db))
			tables, err := m.ListTables(ctx, c, d, nil)
			must(t, err)
			for _, n := range tables {
				e, err := m.GetTable(ctx, catalogs.NewIdentifier(c, d, n))
				must(t, err)
				w("    %v %q %s", e.Table.TableKind(), n, js(e.Table))
			}
			fns, err := m.ListUserFunctions(ctx, c, d, nil)
			must(t, err)
			for _, n := range fns {
				e, err := m.GetFunction(ctx, catalogs.NewIdentifier(c, d, n))
				must(t, err)
				w("    function %q %s", n, js(e.Function))
			}
		}
	}
	return b.String()
}

// TestPersistenceAcrossProcesses creates everything in a child process,
// which exits; this process then opens the same store and must find it all,
// identical to what the same statements give in a fresh session.
func TestPersistenceAcrossProcesses(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "eddy.db")
	other := filepath.Join(dir, "other.db")
	out, err := child(t, path, "populate", "EDDY_OTHER_PATH="+other).CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	result(t, out)

	s, err := OpenStore(path)
	must(t, err)
	defer s.Close()
	got := describeAll(t, newManager(t, s))

	// The same statements in this process, on a fresh store.
	dir2 := t.TempDir()
	t.Setenv("EDDY_OTHER_PATH", filepath.Join(dir2, "other.db"))
	s2, err := OpenStore(filepath.Join(dir2, "eddy.db"))
	must(t, err)
	defer s2.Close()
	m2 := newManager(t, s2)
	must(t, populate(ctx, m2))
	want := describeAll(t, m2)
	want = strings.ReplaceAll(want, filepath.Join(dir2, "other.db"), other)
	// The in-memory catalog keeps only its definition across sessions.
	if got != want {
		t.Fatalf("after restart:\n%s\nwant:\n%s", got, want)
	}
	for _, s := range []string{"_env_prod", "elsewhere", "scratch", "large_orders", "renamed", "lower1", "drop table t; --"} {
		if !strings.Contains(got, s) {
			t.Errorf("snapshot lacks %q", s)
		}
	}
	// And once more, reopening in this process after closing.
	must(t, s.Close())
	s3, err := OpenStore(path)
	must(t, err)
	defer s3.Close()
	if again := describeAll(t, newManager(t, s3)); again != got {
		t.Fatalf("second reopen differs:\n%s", again)
	}
}

// A CREATE CATALOG that fails leaves nothing behind in the store.
func TestCreateCatalogFailureStoresNothing(t *testing.T) {
	s := openTestStore(t)
	m := newManager(t, s)
	before := dumpStore(t, s)
	err := m.CreateCatalog(ctx, catalogs.CatalogDescriptor{Name: "bad",
		Options: map[string]string{"type": Type, "bogus": "1"}}, false)
	if !errors.Is(err, catalogs.ErrInvalidOption) {
		t.Fatalf("err = %v", err)
	}
	err = m.CreateCatalog(ctx, catalogs.CatalogDescriptor{Name: "bad",
		Options: map[string]string{"type": "hive"}}, false)
	if !errors.Is(err, catalogs.ErrUnsupportedType) || !strings.Contains(err.Error(), "generic_in_memory, sqlite") {
		t.Fatalf("err = %v", err)
	}
	equal(t, dumpStore(t, s), before)
	names, err := m.ListCatalogs(ctx, nil)
	must(t, err)
	equal(t, names, []string{"default_catalog"})
}
