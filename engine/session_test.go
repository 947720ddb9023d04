package engine

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"eddy/catalogs"
	"eddy/catalogs/memory"
	"eddy/catalogs/sqlite"
	"eddy/engine/types"
)

// The behaviour of statements is tested by the files of package
// engine/logictest; this file holds what the Go tests of this package
// share: a session over a real store and ways to run statements.

// openQuerySession opens a session whose current catalog is a sqlite
// catalog in a fresh store file.
func openQuerySession(t *testing.T) *Session {
	t.Helper()
	ctx := context.Background()
	store, err := sqlite.OpenStore(filepath.Join(t.TempDir(), "eddy.db"))
	if err != nil {
		t.Fatal(err)
	}
	mgr := catalogs.NewManager(map[string]catalogs.Factory{memory.Type: memory.Factory{}, sqlite.Type: store}, store)
	t.Cleanup(func() { mgr.Close(); store.Close() })
	lake := catalogs.CatalogDescriptor{Name: "lake", Options: map[string]string{catalogs.OptionType: sqlite.Type}}
	if err := mgr.RegisterCatalog(ctx, lake, nil, catalogs.OriginConfig); err != nil {
		t.Fatal(err)
	}
	if err := mgr.SetCurrentCatalog(ctx, "lake"); err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(SessionConfig{Catalogs: mgr})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustExec(t *testing.T, s *Session, sql string) {
	t.Helper()
	if _, err := s.Execute(context.Background(), sql); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

// run runs one statement; a statement that does not parse fails the test.
func run(t *testing.T, s *Session, sql string) (*Result, error) {
	t.Helper()
	res, err := s.Execute(context.Background(), sql)
	if e := AsError(err); e != nil && e.Class == "SqlParserException" {
		t.Fatalf("%s: %v", sql, err)
	}
	return res, err
}

// collect runs a query and returns its rows as "kind v1 v2 ..." lines.
func collect(t *testing.T, s *Session, sql string) []string {
	t.Helper()
	ctx := context.Background()
	res, err := s.Execute(ctx, sql)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	defer res.Close()
	var lines []string
	for {
		row, ok, err := res.Rows.Next(ctx)
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		if !ok {
			return lines
		}
		cells := []string{row.Kind.String()}
		for i, v := range row.Values {
			cells = append(cells, types.ValueString(v, res.Columns[i].Type))
		}
		lines = append(lines, strings.Join(cells, " "))
	}
}

// execErr runs a statement that must fail, when it runs or while its rows
// are read, and returns the error's message.
func execErr(t *testing.T, s *Session, sql string) string {
	t.Helper()
	res, err := s.Execute(context.Background(), sql)
	if err == nil {
		// Some errors surface while rows are read.
		for err == nil {
			var ok bool
			_, ok, err = res.Rows.Next(context.Background())
			if !ok && err == nil {
				t.Fatalf("%s: no error", sql)
			}
		}
		res.Close()
	}
	return AsError(err).Message
}
