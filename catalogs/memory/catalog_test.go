package memory

import (
	"context"
	"testing"

	"eddy/catalogs"
	"eddy/catalogs/catalogtest"
)

func TestConformance(t *testing.T) {
	catalogtest.Run(t, func(t *testing.T) catalogs.Catalog {
		c, err := Factory{}.Open(context.Background(), catalogtest.CatalogName, map[string]string{})
		if err != nil {
			t.Fatal(err)
		}
		return c
	})
}

func TestFactoryOptions(t *testing.T) {
	c, err := Factory{}.Open(context.Background(), "c", map[string]string{"default-database": "db"})
	if err != nil {
		t.Fatal(err)
	}
	if c.DefaultDatabase() != "db" {
		t.Fatalf("default database %q", c.DefaultDatabase())
	}
	if _, err := (Factory{}).Open(context.Background(), "c", map[string]string{"path": "x"}); err == nil {
		t.Fatal("unknown option accepted")
	}
}

func TestModelConformance(t *testing.T) {
	catalogtest.RunModels(t, func(t *testing.T) catalogs.Catalog {
		c, err := Factory{}.Open(context.Background(), catalogtest.CatalogName, map[string]string{})
		if err != nil {
			t.Fatal(err)
		}
		return c
	})
}
