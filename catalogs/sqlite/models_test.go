package sqlite

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"eddy/catalogs"
	"eddy/catalogs/catalogtest"
)

// TestMigrationOfAVersion2Store: testdata/store-v2.db was written by the
// release before models (schema version 2: a database ml with a comment,
// a managed table ml.docs of two rows, a view v and a function f in the
// default database of default_catalog). Opened by this build it migrates
// to version 3 on first open: everything it held reads as before, and
// models can be kept in it, also after the store is opened again.
func TestMigrationOfAVersion2Store(t *testing.T) {
	path := fixtureCopy(t, "store-v2.db", "2")
	db, err := sql.Open("sqlite3", path)
	must(t, err)
	var version string
	var models int
	must(t, db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE name = 'models'`).Scan(&models))
	equal(t, models, 0)
	must(t, db.Close())

	s, err := OpenStore(path)
	must(t, err)
	must(t, s.db.QueryRow(`SELECT value FROM eddy_meta WHERE key = 'schema_version'`).Scan(&version))
	equal(t, version, fmt.Sprint(SchemaVersion))

	cat, err := s.Create("default_catalog", map[string]string{"default-database": "default_database"})
	must(t, err)
	c := cat.(*Catalog)
	dbDef, err := c.GetDatabase(ctx, "ml")
	must(t, err)
	equal(t, dbDef.Comment, "models go here")
	bt, err := c.GetTable(ctx, catalogs.NewObjectPath("ml", "docs"))
	must(t, err)
	tbl := bt.(*catalogs.CatalogTable)
	equal(t, tbl.Comment, "documents")
	rows := scanRows(t, c, catalogs.NewObjectPath("ml", "docs"), physTypes(tbl), catalogs.ScanSpec{})
	equal(t, strings.Join(rows, ";"), "[1 a];[2 b]")
	v, err := c.GetTable(ctx, catalogs.NewObjectPath("default_database", "v"))
	must(t, err)
	equal(t, v.TableKind(), catalogs.KindView)
	_, err = c.GetFunction(ctx, catalogs.NewObjectPath("default_database", "f"))
	must(t, err)

	names, err := c.ListModels(ctx, "ml")
	must(t, err)
	equal(t, len(names), 0)
	must(t, c.CreateModel(ctx, catalogs.NewObjectPath("ml", "m"), catalogtest.SampleModel(), false))
	must(t, s.Close())

	s, err = OpenStore(path)
	must(t, err)
	defer s.Close()
	cat, err = s.Create("default_catalog", map[string]string{"default-database": "default_database"})
	must(t, err)
	got, err := cat.(*Catalog).GetModel(ctx, catalogs.NewObjectPath("ml", "m"))
	must(t, err)
	equal(t, got, catalogtest.SampleModel())
}

// TestVersion3StoreWithoutModelsIsDamaged: a store of version 3 must hold
// the table of models; one without is refused and left as it was.
func TestVersion3StoreWithoutModelsIsDamaged(t *testing.T) {
	path := filepath.Join(t.TempDir(), "eddy.db")
	s, err := OpenStore(path)
	must(t, err)
	must(t, s.Close())
	db, err := sql.Open("sqlite3", path)
	must(t, err)
	_, err = db.Exec(`DROP TABLE models`)
	must(t, err)
	must(t, db.Close())
	_, err = OpenStore(path)
	if err == nil || !strings.Contains(err.Error(), "its table models is missing") {
		t.Fatalf("err = %v", err)
	}
}

// TestModelsAcrossProcesses: a model another process creates is seen by
// the next statement of a session that opened the store before; what this
// session then changes is what a third process reads. Temporary models
// stay in their session.
func TestModelsAcrossProcesses(t *testing.T) {
	path := filepath.Join(t.TempDir(), "eddy.db")
	s, err := OpenStore(path)
	must(t, err)
	defer s.Close()
	m := newManager(t, s)
	id := catalogs.NewIdentifier("default_catalog", "default_database", "m1")
	// Read once, so that a stale answer would show.
	_, ok, err := m.GetModel(ctx, id)
	must(t, err)
	equal(t, ok, false)

	out, err := child(t, path, "createmodel").CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	equal(t, result(t, out), "ok")

	e, ok, err := m.GetModel(ctx, id)
	must(t, err)
	equal(t, ok, true)
	equal(t, e.Model, catalogtest.SampleModel())
	names, err := m.ListModels(ctx, "default_catalog", "default_database", nil)
	must(t, err)
	equal(t, names, []string{"m1"})
	_, ok, err = m.GetModel(ctx, catalogs.NewIdentifier("default_catalog", "default_database", "t1"))
	must(t, err)
	equal(t, ok, false)

	e.Model.Options["task"] = "text_generation"
	must(t, m.AlterModel(ctx, id, e.Model, false))
	must(t, m.RenameModel(ctx, id, "m2", false))
	out, err = child(t, path, "listmodels").CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	equal(t, result(t, out), "m2 task=text_generation")

	// The row as plain SQL reads it: one model, its columns and options
	// as JSON, the temporary model nowhere.
	db, err := sql.Open("sqlite3", path)
	must(t, err)
	defer db.Close()
	var name, comment, options, input, output string
	must(t, db.QueryRow(`SELECT name, comment, options, input, output FROM models WHERE catalog = 'default_catalog'`).
		Scan(&name, &comment, &options, &input, &output))
	equal(t, name, "m2")
	equal(t, comment, "sentiment")
	equal(t, options, `{"provider":"openai","task":"text_generation"}`)
	for _, want := range []string{`"name":"text"`, `"type":"VARCHAR(2147483647)"`, `"name":"n"`, `"type":"INT NOT NULL"`, `"comment":"count"`} {
		if !strings.Contains(input, want) {
			t.Fatalf("input %s lacks %s", input, want)
		}
	}
	if !strings.Contains(output, `"name":"score"`) || !strings.Contains(output, `"type":"DOUBLE"`) {
		t.Fatalf("output %s", output)
	}
	var n int
	must(t, db.QueryRow(`SELECT count(*) FROM models`).Scan(&n))
	equal(t, n, 1)
}

// modelChild runs the model roles of TestChildProcess.
func modelChild(m *catalogs.Manager, role string) (string, error) {
	id := catalogs.NewIdentifier("default_catalog", "default_database", "m1")
	switch role {
	case "createmodel":
		if err := m.CreateModel(ctx, id, catalogtest.SampleModel(), false); err != nil {
			return "", err
		}
		temp := catalogs.NewIdentifier("default_catalog", "default_database", "t1")
		if err := m.CreateTemporaryModel(temp, catalogtest.SampleModel(), false); err != nil {
			return "", err
		}
		return "ok", nil
	case "listmodels":
		names, err := m.ListModels(ctx, "default_catalog", "default_database", nil)
		if err != nil {
			return "", err
		}
		var parts []string
		for _, n := range names {
			e, ok, err := m.GetModel(ctx, catalogs.NewIdentifier("default_catalog", "default_database", n))
			if err != nil || !ok {
				return "", fmt.Errorf("model %s: %v", n, err)
			}
			parts = append(parts, n+" task="+e.Model.Options["task"])
		}
		return strings.Join(parts, ","), nil
	}
	return "", fmt.Errorf("unknown role %s", role)
}
