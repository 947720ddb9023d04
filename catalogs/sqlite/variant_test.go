package sqlite

import (
	"encoding/base64"
	"fmt"
	"testing"

	"eddy/catalogs"
	"eddy/engine/types"
)

// TestVariantColumns: VARIANT values, alone and inside an ARRAY, read back
// from the row-wise data table and from column chunks with everything
// their equality compares (key order of first appearance, number kinds);
// the data table holds them as TEXT, the base64 of the value's encoding,
// which database/sql reads back on its own.
func TestVariantColumns(t *testing.T) {
	folded, plain := chunkedStore(t, 10), chunkedStore(t, 0)
	p := catalogs.NewObjectPath("default", "v")
	tbl := managedTable(col("id", types.New(types.Int)), col("v", types.New(types.Variant)),
		col("a", types.NewArray(types.New(types.Variant))))
	docs := []string{`{"b":1,"a":[1,2.50,1e3]}`, `{"a":[1,2.50,1e3],"b":1}`, `null`, `"s"`, `1e400`, `12345678901234567890`}
	var rows [][]any
	var want []*types.VariantValue
	for i := range 25 {
		v, err := types.ParseVariant(docs[i%len(docs)], false)
		must(t, err)
		want = append(want, v)
		var a any
		if i%3 == 0 {
			a = []any{v, nil}
		}
		if i%7 == 6 {
			rows = append(rows, []any{int32(i), nil, a})
			want[i] = nil
			continue
		}
		rows = append(rows, []any{int32(i), v, a})
	}
	ts := physTypes(tbl)
	for _, c := range []*Catalog{folded, plain} {
		must(t, c.CreateTable(ctx, p, tbl, false))
		writeRows(t, c, p, tbl, rows[:12]...)
		writeRows(t, c, p, tbl, rows[12:]...)
	}
	if chunkCount(t, folded) == 0 {
		t.Fatal("no chunks: the test reads the row-wise table twice")
	}
	for _, c := range []*Catalog{folded, plain} {
		i := 0
		_, err := c.ReadRows(ctx, p, ts, 0, 100, func(row []any) error {
			got, _ := row[1].(*types.VariantValue)
			switch {
			case want[i] == nil && row[1] != nil:
				return fmt.Errorf("row %d: %v, want NULL", i, row[1])
			case want[i] != nil && (got == nil || !got.Equal(want[i])):
				return fmt.Errorf("row %d: %v, want %v", i, row[1], want[i])
			}
			if i%3 == 0 {
				arr, _ := row[2].([]any)
				if len(arr) != 2 || arr[1] != nil || want[i] != nil && !arr[0].(*types.VariantValue).Equal(want[i]) {
					return fmt.Errorf("row %d: array %v", i, row[2])
				}
			}
			i++
			return nil
		})
		must(t, err)
		if i != len(rows) {
			t.Fatalf("%d rows, want %d", i, len(rows))
		}
	}
	// The two documents print alike but differ in key order: not equal.
	if want[0].Equal(want[1]) {
		t.Fatal("documents with keys in another order are equal")
	}
	tblName, err := plain.rowTable(ctx, plain.store.db, p)
	must(t, err)
	var text string
	must(t, plain.store.db.QueryRow(`SELECT c1 FROM `+tblName+` WHERE c0 = 0`).Scan(&text))
	b, err := base64.StdEncoding.DecodeString(text)
	must(t, err)
	v, err := types.DecodeVariant(b)
	must(t, err)
	if !v.Equal(want[0]) {
		t.Fatalf("the data table holds %s", v)
	}
}
