package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"eddy/catalogs"
	"eddy/engine/types"
)

// The row storage of a managed table follows its table through DDL, in the
// DDL's own transaction: DROP TABLE and DROP DATABASE ... CASCADE remove
// the rows (a table created later under the same name starts empty),
// RENAME and moves carry them along, and an ALTER TABLE that changes the
// physical columns rebuilds the data table with the new columns, keeping
// every row and its position.

// hasRowTables reports whether the store has the row_tables map yet (it is
// created by the first INSERT into a managed table).
func hasRowTables(ctx context.Context, tx *sql.Tx) (bool, error) {
	var n int
	err := tx.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'row_tables'`).Scan(&n)
	return n > 0, err
}

// moveRows re-keys the row storage and the identity of from to to.
func moveRows(ctx context.Context, tx *sql.Tx, catalog string, from, to catalogs.ObjectPath) error {
	if err := moveTableVersion(ctx, tx, catalog, from, to); err != nil {
		return err
	}
	ok, err := hasRowTables(ctx, tx)
	if err != nil || !ok {
		return err
	}
	_, err = tx.ExecContext(ctx, `UPDATE row_tables SET db = ?, name = ? WHERE catalog = ? AND db = ? AND name = ?`,
		to.Database, to.Object, catalog, from.Database, from.Object)
	return err
}

// dropDatabaseRows removes the row storage and the identities of every
// table of a database.
func dropDatabaseRows(ctx context.Context, tx *sql.Tx, catalog, db string) error {
	if err := dropDatabaseVersions(ctx, tx, catalog, db); err != nil {
		return err
	}
	ok, err := hasRowTables(ctx, tx)
	if err != nil || !ok {
		return err
	}
	rows, err := tx.QueryContext(ctx, `SELECT id FROM row_tables WHERE catalog = ? AND db = ?`, catalog, db)
	if err != nil {
		return err
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, id := range ids {
		if err := execText(ctx, tx, fmt.Sprintf(`DROP TABLE IF EXISTS eddy_rows_%d`, id)); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM eddy_chunks WHERE tbl = ?`, id); err != nil {
			return err
		}
	}
	_, err = tx.ExecContext(ctx, `DELETE FROM row_tables WHERE catalog = ? AND db = ?`, catalog, db)
	return err
}

// physicalColumns returns the physical columns of a table (the columns
// whose values the row storage keeps), or nil for a view.
func physicalColumns(t catalogs.BaseTable) []catalogs.Column {
	ct, ok := t.(*catalogs.CatalogTable)
	if !ok {
		return nil
	}
	var out []catalogs.Column
	for _, c := range ct.Schema.Columns {
		if c.Kind == catalogs.Physical {
			out = append(out, c)
		}
	}
	return out
}

// sameStorage reports whether values stored for a column of type from
// read back correctly as type to: the same kind, or integers widened or
// narrowed, or strings of another length.
func sameStorage(from, to *types.Type) bool {
	if from.String() == to.String() {
		return true
	}
	family := func(t *types.Type) string {
		switch t.Kind {
		case types.TinyInt, types.SmallInt, types.Int, types.BigInt:
			return "integer"
		case types.Char, types.VarChar:
			return "string"
		case types.Binary, types.VarBinary:
			return "binary"
		case types.Float, types.Double:
			return "float"
		case types.Timestamp, types.TimestampLTZ:
			return t.Kind.String()
		}
		return t.String()
	}
	return family(from) == family(to)
}

// reshapeRows rebuilds the data table of a managed table whose physical
// columns an ALTER TABLE changes. A column keeps its values when the new
// schema has a column of the same name, or when it was renamed in place
// (same position, its old name gone, a new name not in the old schema).
// Added columns are NULL in existing rows. A change of a column's type
// that the stored values cannot follow is refused while rows exist.
func (c *Catalog) reshapeRows(ctx context.Context, tx *sql.Tx, path catalogs.ObjectPath, old, next catalogs.BaseTable) error {
	oldCols, newCols := physicalColumns(old), physicalColumns(next)
	if oldCols == nil || newCols == nil {
		return nil
	}
	same := len(oldCols) == len(newCols)
	for i := 0; same && i < len(oldCols); i++ {
		same = oldCols[i].Name == newCols[i].Name && oldCols[i].Type.String() == newCols[i].Type.String()
	}
	if same {
		return nil
	}
	// A statement planned for the old columns must not write into the new.
	if err := bumpSchemaVersion(ctx, tx, c.name, path); err != nil {
		return err
	}
	ok, err := hasRowTables(ctx, tx)
	if err != nil || !ok {
		return err
	}
	tbl, err := c.rowTable(ctx, tx, path)
	if err != nil || tbl == "" {
		return err
	}
	oldIndex := map[string]int{}
	for i, col := range oldCols {
		oldIndex[col.Name] = i
	}
	newNames := map[string]bool{}
	for _, col := range newCols {
		newNames[col.Name] = true
	}
	// The rebuild copies the rows with their rowids: the chunks go back
	// into the delta first.
	oldTypes := make([]*types.Type, len(oldCols))
	for i, col := range oldCols {
		oldTypes[i] = col.Type
	}
	if ok, err := hasChunks(ctx, tx, tbl); err != nil {
		return err
	} else if ok {
		if err := unfold(ctx, tx, tbl, oldTypes); err != nil {
			return err
		}
	}
	var count int64
	q := `SELECT count(*) FROM ` + tbl
	if err := tx.QueryRowContext(ctx, q).Scan(&count); err != nil {
		return err
	}
	defs := make([]string, len(newCols))
	names := make([]string, len(newCols))
	sources := make([]string, len(newCols))
	for j, col := range newCols {
		st, err := sqliteType(col.Type)
		if err != nil {
			return err
		}
		defs[j] = fmt.Sprintf("c%d %s", j, st)
		names[j] = fmt.Sprintf("c%d", j)
		src, found := oldIndex[col.Name]
		if !found && j < len(oldCols) && !newNames[oldCols[j].Name] {
			src, found = j, true // renamed in place
		}
		if !found {
			sources[j] = "NULL"
			continue
		}
		if count > 0 && !sameStorage(oldCols[src].Type, col.Type) {
			return catalogs.ClassErrorf(catalogs.ErrUnsupported, "TableException",
				"Cannot change the type of column '%s' of managed table %s from %s to %s while it holds rows. TRUNCATE TABLE first.",
				col.Name, path.FullName(), oldCols[src].Type, col.Type)
		}
		sources[j] = fmt.Sprintf("c%d", src)
	}
	fresh := tbl + "_next"
	for _, q := range []string{
		`CREATE TABLE ` + fresh + ` (` + strings.Join(defs, ", ") + `)`,
		`INSERT INTO ` + fresh + ` (rowid, ` + strings.Join(names, ", ") + `) SELECT rowid, ` +
			strings.Join(sources, ", ") + ` FROM ` + tbl + ` ORDER BY rowid`,
		`DROP TABLE ` + tbl,
		`ALTER TABLE ` + fresh + ` RENAME TO ` + tbl,
	} {
		if err := execText(ctx, tx, q); err != nil {
			return err
		}
	}
	return nil
}

// oldObject reads the stored definition of path inside tx, or nil.
func (c *Catalog) oldObject(ctx context.Context, tx *sql.Tx, path catalogs.ObjectPath) (catalogs.BaseTable, error) {
	var kind, comment, options, def string
	var orig, expanded sql.NullString
	err := tx.QueryRowContext(ctx,
		`SELECT kind, comment, options, definition, original_query, expanded_query
		 FROM objects WHERE catalog = ? AND db = ? AND name = ?`, c.name, path.Database, path.Object).
		Scan(&kind, &comment, &options, &def, &orig, &expanded)
	if err == sql.ErrNoRows {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return decodeObject(kind, def, comment, options, orig, expanded)
}
