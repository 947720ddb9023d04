package sqlite

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"eddy/catalogs"
	"eddy/engine/types"
)

func managedTable(cols ...catalogs.Column) *catalogs.CatalogTable {
	return &catalogs.CatalogTable{Schema: catalogs.Schema{Columns: cols}, Options: map[string]string{}}
}

func col(name string, t *types.Type) catalogs.Column {
	return catalogs.Column{Name: name, Kind: catalogs.Physical, Type: t}
}

func physTypes(tbl *catalogs.CatalogTable) []*types.Type {
	var out []*types.Type
	for _, c := range physicalColumns(tbl) {
		out = append(out, c.Type)
	}
	return out
}

func writeRows(t *testing.T, c *Catalog, p catalogs.ObjectPath, tbl *catalogs.CatalogTable, rows ...[]any) {
	t.Helper()
	must(t, c.WriteRows(ctx, p, physTypes(tbl), false, func(emit func([]any) error) error {
		for _, r := range rows {
			if err := emit(r); err != nil {
				return err
			}
		}
		return nil
	}))
}

func readRows(t *testing.T, c *Catalog, p catalogs.ObjectPath, tbl *catalogs.CatalogTable) string {
	t.Helper()
	var out string
	_, err := c.ReadRows(ctx, p, physTypes(tbl), 0, 0, func(row []any) error {
		out += fmt.Sprint(row) + ";"
		return nil
	})
	must(t, err)
	return out
}

// TestRowsFollowTheirTable: the rows of a managed table go with DROP,
// RENAME, moves, DROP DATABASE ... CASCADE and ALTER TABLE; a table made
// later under an old name starts empty.
func TestRowsFollowTheirTable(t *testing.T) {
	s := openTestStore(t)
	cat, err := s.Create("cat", nil)
	must(t, err)
	c := cat.(*Catalog)
	must(t, c.CreateDatabase(ctx, "d2", nil, false))
	ab := managedTable(col("a", types.New(types.Int)), col("b", types.NewString()))
	p := catalogs.NewObjectPath("default", "t")
	must(t, c.CreateTable(ctx, p, ab, false))
	writeRows(t, c, p, ab, []any{int32(1), "x"}, []any{int32(2), "y"})

	// DROP then CREATE: empty, even with another schema.
	must(t, c.DropTable(ctx, p, false))
	other := managedTable(col("s", types.NewString()), col("n", types.New(types.BigInt)), col("z", types.New(types.Int)))
	must(t, c.CreateTable(ctx, p, other, false))
	equal(t, readRows(t, c, p, other), "")
	must(t, c.DropTable(ctx, p, false))

	// RENAME and a move keep the rows.
	must(t, c.CreateTable(ctx, p, ab, false))
	writeRows(t, c, p, ab, []any{int32(1), "x"}, []any{int32(2), "y"})
	p2 := catalogs.NewObjectPath("default", "t2")
	must(t, c.RenameTable(ctx, p, "t2", false))
	equal(t, readRows(t, c, p2, ab), "[1 x];[2 y];")
	p3 := catalogs.NewObjectPath("d2", "t3")
	must(t, c.MoveTable(ctx, p2, p3))
	equal(t, readRows(t, c, p3, ab), "[1 x];[2 y];")
	must(t, c.CreateTable(ctx, p, ab, false))
	equal(t, readRows(t, c, p, ab), "")

	// ALTER: rename a column, add one first, widen one, drop one.
	renamed := managedTable(col("a", types.New(types.Int)), col("bb", types.NewString()))
	must(t, c.AlterTable(ctx, p3, renamed, false))
	equal(t, readRows(t, c, p3, renamed), "[1 x];[2 y];")
	added := managedTable(col("c", types.New(types.BigInt)), col("a", types.New(types.BigInt)), col("bb", types.NewString()))
	must(t, c.AlterTable(ctx, p3, added, false))
	equal(t, readRows(t, c, p3, added), "[<nil> 1 x];[<nil> 2 y];")
	dropped := managedTable(col("c", types.New(types.BigInt)), col("bb", types.NewString()))
	must(t, c.AlterTable(ctx, p3, dropped, false))
	equal(t, readRows(t, c, p3, dropped), "[<nil> x];[<nil> y];")
	// A type the stored values cannot follow is refused while rows exist,
	// and the refusal changes nothing.
	retyped := managedTable(col("c", types.New(types.BigInt)), col("bb", types.New(types.Int)))
	err = c.AlterTable(ctx, p3, retyped, false)
	if !errors.Is(err, catalogs.ErrUnsupported) {
		t.Fatalf("retyping a column with rows: %v", err)
	}
	got, err := c.GetTable(ctx, p3)
	must(t, err)
	if !reflect.DeepEqual(physTypes(got.(*catalogs.CatalogTable)), physTypes(dropped)) {
		t.Fatalf("a refused ALTER changed the table: %v", physTypes(got.(*catalogs.CatalogTable)))
	}
	equal(t, readRows(t, c, p3, dropped), "[<nil> x];[<nil> y];")

	// DROP DATABASE ... CASCADE removes the rows with the tables.
	must(t, c.DropDatabase(ctx, "d2", false, true))
	must(t, c.CreateDatabase(ctx, "d2", nil, false))
	must(t, c.CreateTable(ctx, p3, dropped, false))
	equal(t, readRows(t, c, p3, dropped), "")
	var n int
	must(t, s.db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE name LIKE 'eddy_rows_%'`).Scan(&n))
	equal(t, n, 0)
}
