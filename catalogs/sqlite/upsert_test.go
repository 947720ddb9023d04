package sqlite

import (
	"testing"

	"eddy/catalogs"
	"eddy/engine/types"
)

// TestPrimaryKeyUpsert: a managed table with a primary key keeps one row
// per key, the newest, however its rows arrive: WriteRows, a write group
// (the first statement and the rows appended after it), a staged write,
// and within one write; a table without a key keeps every row.
func TestPrimaryKeyUpsert(t *testing.T) {
	s := openTestStore(t)
	cat, err := s.Create("cat", nil)
	must(t, err)
	c := cat.(*Catalog)
	kt := managedTable(col("a", types.New(types.Int).WithNullable(false)), col("w", types.NewString()))
	kt.Schema.PrimaryKey = &catalogs.PrimaryKey{Name: "PK_a", Columns: []string{"a"}}
	p := catalogs.NewObjectPath("default", "k")
	names, cols := []string{"a", "w"}, physTypes(kt)
	must(t, c.CreateTable(ctx, p, kt, false))

	writeRows(t, c, p, kt, []any{int32(1), "a"}, []any{int32(2), "b"}, []any{int32(1), "a2"})
	equal(t, readRows(t, c, p, kt), "[2 b];[1 a2];")
	writeRows(t, c, p, kt, []any{int32(2), "b2"})
	equal(t, readRows(t, c, p, kt), "[1 a2];[2 b2];")

	target, err := c.BindRows(ctx, p, names, cols)
	must(t, err)
	g, err := c.BeginWriteGroup(ctx)
	must(t, err)
	must(t, g.WriteTarget(ctx, c, target, false, emitRows([]any{int32(3), "c"})))
	must(t, g.WriteTarget(ctx, c, target, false, emitRows([]any{int32(1), "a3"})))
	must(t, g.WriteTarget(ctx, c, target, false, emitRows([]any{int32(3), "c2"})))
	must(t, g.Commit(ctx))
	equal(t, readRows(t, c, p, kt), "[2 b2];[1 a3];[3 c2];")

	st, err := c.StageRows(ctx, target)
	must(t, err)
	must(t, st.Append(ctx, catalogs.Inserts(emitRows([]any{int32(2), "b3"}, []any{int32(4), "d"}))))
	must(t, st.Commit(ctx, false, catalogs.Inserts(emitRows([]any{int32(4), "d2"}))))
	equal(t, readRows(t, c, p, kt), "[1 a3];[3 c2];[2 b3];[4 d2];")

	plain := managedTable(col("a", types.New(types.Int)), col("w", types.NewString()))
	q := catalogs.NewObjectPath("default", "plain")
	must(t, c.CreateTable(ctx, q, plain, false))
	writeRows(t, c, q, plain, []any{int32(1), "a"}, []any{int32(1), "a"})
	equal(t, readRows(t, c, q, plain), "[1 a];[1 a];")
}
