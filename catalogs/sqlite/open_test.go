package sqlite

import (
	"bytes"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"eddy/catalogs"
)

// templateStore returns the bytes of a new, checkpointed store file.
func templateStore(t testing.TB) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "eddy.db")
	s, err := OpenStore(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// editedStore writes template to a fresh file, applies the statements to
// it with SQLite alone and returns the file's path.
func editedStore(t testing.TB, template []byte, stmts ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "eddy.db")
	if err := os.WriteFile(path, template, 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	return path
}

// checkDamaged opens a hand-edited store: the error must be one of the
// store's own kinds, name the store, say nothing in SQLite's or
// database/sql's words, and leave the file as it was.
func checkDamaged(t testing.TB, path string) error {
	t.Helper()
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := OpenStore(path)
	if err == nil {
		s.Close()
		return nil
	}
	if !errors.Is(err, ErrDamaged) && !errors.Is(err, ErrNewerSchema) && !errors.Is(err, ErrNotSQLite) {
		t.Errorf("err = %v, want ErrDamaged, ErrNewerSchema or ErrNotSQLite", err)
	}
	msg := err.Error()
	if !strings.Contains(msg, path) {
		t.Errorf("the error does not name the store: %s", msg)
	}
	for _, bad := range []string{"sql:", "already exists", "no rows", "no such"} {
		if strings.Contains(msg, bad) {
			t.Errorf("the error says %q: %s", bad, msg)
		}
	}
	after, rerr := os.ReadFile(path)
	if rerr != nil {
		t.Fatal(rerr)
	}
	if !bytes.Equal(before, after) {
		t.Error("opening the damaged store changed it")
	}
	return err
}

// TestDamagedStores: every hand edit of the store's bookkeeping is one
// clear error of the store's own kinds, never a panic, and the file is
// left as it was.
func TestDamagedStores(t *testing.T) {
	template := templateStore(t)
	setVersion := `UPDATE eddy_meta SET value = ?1 WHERE key = 'schema_version'`
	cases := []struct {
		name  string
		edits []string
		kind  *catalogs.Kind
	}{
		{"negative version", []string{strings.Replace(setVersion, "?1", "'-1'", 1)}, ErrDamaged},
		{"huge negative version", []string{strings.Replace(setVersion, "?1", "'-9223372036854775808'", 1)}, ErrDamaged},
		{"zero version", []string{strings.Replace(setVersion, "?1", "'0'", 1)}, ErrDamaged},
		{"text version", []string{strings.Replace(setVersion, "?1", "'one'", 1)}, ErrDamaged},
		{"empty version", []string{strings.Replace(setVersion, "?1", "''", 1)}, ErrDamaged},
		{"padded version", []string{strings.Replace(setVersion, "?1", "' 1'", 1)}, ErrDamaged},
		{"fraction version", []string{strings.Replace(setVersion, "?1", "'1.5'", 1)}, ErrDamaged},
		{"overflowing version", []string{strings.Replace(setVersion, "?1", "'99999999999999999999999'", 1)}, ErrDamaged},
		{"newer version", []string{strings.Replace(setVersion, "?1", "'"+strconv.Itoa(SchemaVersion+1)+"'", 1)}, ErrNewerSchema},
		{"no version row", []string{`DELETE FROM eddy_meta WHERE key = 'schema_version'`}, ErrDamaged},
		{"other meta table", []string{`DROP TABLE eddy_meta`, `CREATE TABLE eddy_meta (k TEXT)`}, ErrDamaged},
		{"null version", []string{`DROP TABLE eddy_meta`, `CREATE TABLE eddy_meta (key TEXT, value TEXT)`,
			`INSERT INTO eddy_meta VALUES ('schema_version', NULL)`}, ErrDamaged},
		{"blob version", []string{strings.Replace(setVersion, "?1", "x'00ff'", 1)}, ErrDamaged},
		{"missing table", []string{`DROP TABLE catalog_defs`}, ErrDamaged},
		{"no meta table", []string{`DROP TABLE eddy_meta`}, ErrNotSQLite},
		{"meta table only", []string{`DROP TABLE functions`, `DROP TABLE objects`, `DROP TABLE databases`, `DROP TABLE catalog_defs`}, ErrDamaged},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := checkDamaged(t, editedStore(t, template, c.edits...))
			if !errors.Is(err, c.kind) {
				t.Fatalf("err = %v, want %v", err, c.kind)
			}
			t.Log(err)
		})
	}
}

// FuzzSchemaVersion writes any text as the schema version: opening the
// store either succeeds (the text is exactly "1" or "2", an older version
// that migrates, or "3", the current one) or is one clear error,
// never a panic, and the file is left as it was.
func FuzzSchemaVersion(f *testing.F) {
	for _, seed := range []string{"1", "0", "-1", "2", "3", "4", "", " ", "abc", "01", "+1", " 1", "1 ", "1.0", "1e0", "0x1",
		"-9223372036854775808", "9223372036854775807", "18446744073709551616", "١", "1\x00", "\xff"} {
		f.Add(seed)
	}
	template := templateStore(f)
	f.Fuzz(func(t *testing.T, version string) {
		path := editedStore(t, template)
		db, err := sql.Open("sqlite3", path)
		must(t, err)
		_, err = db.Exec(`UPDATE eddy_meta SET value = ? WHERE key = 'schema_version'`, version)
		must(t, err)
		must(t, db.Close())
		err = checkDamaged(t, path)
		if (err == nil) != (version == "1" || version == "2" || version == "3" || version == strconv.Itoa(SchemaVersion)) {
			t.Fatalf("version %q: err = %v", version, err)
		}
	})
}

// TestOpenTakesNoWriteLock: a store that is up to date opens, and answers,
// while another connection holds its write lock with a change of the
// schema under way.
func TestOpenTakesNoWriteLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "eddy.db")
	s, err := OpenStore(path)
	must(t, err)
	m := newManager(t, s)
	must(t, m.CreateDatabase(ctx, "default_catalog", "kept", nil, false))
	must(t, m.Close())
	must(t, s.Close())

	holder, err := sql.Open("sqlite3", path)
	must(t, err)
	defer holder.Close()
	conn, err := holder.Conn(ctx)
	must(t, err)
	defer conn.Close()
	_, err = conn.ExecContext(ctx, `BEGIN IMMEDIATE`)
	must(t, err)
	_, err = conn.ExecContext(ctx, `CREATE TABLE under_way (a INTEGER)`)
	must(t, err)
	defer conn.ExecContext(ctx, `ROLLBACK`)

	began := time.Now()
	s, err = OpenStore(path)
	must(t, err)
	defer s.Close()
	m = newManager(t, s)
	dbs, err := m.ListDatabases(ctx, "default_catalog", nil)
	must(t, err)
	equal(t, strings.Join(dbs, ","), "default_database,kept")
	if took := time.Since(began); took > busyTimeout/2 {
		t.Fatalf("opening and reading took %v: it waited for the lock", took)
	}
}

// TestConcurrentFirstOpen opens one missing store from several goroutines
// at once, many times: every open succeeds and the store is complete.
func TestConcurrentFirstOpen(t *testing.T) {
	const openers, trials = 6, 40
	for trial := range trials {
		path := filepath.Join(t.TempDir(), "new", "eddy.db")
		var wg sync.WaitGroup
		errs := make([]error, openers)
		for i := range openers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s, err := OpenStore(path)
				if err == nil {
					err = s.Close()
				}
				errs[i] = err
			}()
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("trial %d, opener %d: %v", trial, i, err)
			}
		}
	}
}
