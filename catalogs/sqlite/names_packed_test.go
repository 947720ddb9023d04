package sqlite

import (
	"slices"
	"strings"
	"testing"

	"eddy/catalogs"
	"eddy/catalogs/catalogtest"
)

// TestPackedNames: the one-value listing gives the names the row-by-row
// listing gives, for names holding the separator, digits, newlines and
// characters of several bytes.
func TestPackedNames(t *testing.T) {
	s := openTestStore(t)
	c, err := s.Create("cat", nil)
	must(t, err)
	names := []string{"t", "1:2", "a:b:", "12", "naïve", "línea\nnueva", "日本", "x" + strings.Repeat("y", 300)}
	for i, n := range names {
		var obj catalogs.BaseTable = catalogtest.SampleTable()
		if i%2 == 1 {
			obj = catalogtest.SampleView()
		}
		must(t, c.CreateTable(ctx, catalogs.NewObjectPath("default", n), obj, false))
	}
	must(t, c.CreateFunction(ctx, catalogs.NewObjectPath("default", "f:1"), &catalogs.CatalogFunction{ClassName: "a.B"}, false))
	for _, q := range []string{
		`SELECT name FROM objects WHERE catalog = ? AND db = ? ORDER BY name`,
		`SELECT name FROM objects WHERE catalog = ? AND db = ? AND kind = 'VIEW' ORDER BY name`,
		`SELECT name FROM functions WHERE catalog = ? AND db = ? ORDER BY name`,
	} {
		if _, ok := packedQuery(q); !ok {
			t.Fatalf("no packed form of %s", q)
		}
		want, err := s.names(ctx, q, "cat", "default")
		must(t, err)
		got, err := s.packedNames(ctx, q, "cat", "default")
		must(t, err)
		if !slices.Equal(got, want) || len(got) == 0 {
			t.Fatalf("%s:\npacked %q\nrows   %q", q, got, want)
		}
	}
	got, err := s.packedNames(ctx, `SELECT name FROM objects WHERE catalog = ? AND db = ? ORDER BY name`, "cat", "none")
	must(t, err)
	if len(got) != 0 {
		t.Fatalf("names of an empty database: %q", got)
	}
	tables, err := c.ListTables(ctx, "default")
	must(t, err)
	sorted := slices.Clone(names)
	slices.Sort(sorted)
	if !slices.Equal(tables, sorted) {
		t.Fatalf("ListTables = %q, want %q", tables, sorted)
	}
}
