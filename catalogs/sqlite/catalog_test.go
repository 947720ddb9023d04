package sqlite

import (
	"path/filepath"
	"testing"

	"eddy/catalogs"
	"eddy/catalogs/catalogtest"
)

func openTestStore(t *testing.T) *Store {
	t.Helper()
	s, err := OpenStore(filepath.Join(t.TempDir(), "sub", "eddy.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestModelConformance(t *testing.T) {
	catalogtest.RunModels(t, func(t *testing.T) catalogs.Catalog {
		c, err := openTestStore(t).Create(catalogtest.CatalogName, map[string]string{})
		if err != nil {
			t.Fatal(err)
		}
		return c
	})
}

func TestConformance(t *testing.T) {
	catalogtest.Run(t, func(t *testing.T) catalogs.Catalog {
		c, err := openTestStore(t).Create(catalogtest.CatalogName, map[string]string{})
		if err != nil {
			t.Fatal(err)
		}
		return c
	})
}
