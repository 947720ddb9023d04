package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"slices"

	"eddy/catalogs"
	"eddy/engine/types"
)

// Table versions. A write is bound to the table it was planned for
// (catalogs.RowTarget): table_versions gives every table an identity that
// a DROP TABLE ends (id, AUTOINCREMENT: never reused) and a schema
// version that an ALTER TABLE changing the physical columns raises. Both
// change in the DDL's own transaction, and a write checks them inside its
// own, so a write and a DDL of another process are ordered by the store's
// write lock: the write either lands in the table it was planned for or
// fails. A table stored before this map existed has no entry (version
// zero) until a DDL touches it. The map is made by the first CREATE TABLE
// that needs it, as row_tables is.

const sqlTableVersions = `CREATE TABLE IF NOT EXISTS table_versions (
	id      INTEGER PRIMARY KEY AUTOINCREMENT,
	catalog TEXT NOT NULL,
	db      TEXT NOT NULL,
	name    TEXT NOT NULL,
	schema  INTEGER NOT NULL DEFAULT 1,
	UNIQUE (catalog, db, name))`

type queryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// hasTableVersions reports whether the store has the table_versions map.
func hasTableVersions(ctx context.Context, q queryer) (bool, error) {
	var n int
	err := q.QueryRowContext(ctx,
		`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'table_versions'`).Scan(&n)
	return n > 0, err
}

// newTableVersion gives the table just created at path a new identity.
func newTableVersion(ctx context.Context, tx *sql.Tx, catalog string, path catalogs.ObjectPath) error {
	if _, err := tx.ExecContext(ctx, sqlTableVersions); err != nil {
		return err
	}
	if err := dropTableVersion(ctx, tx, catalog, path); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO table_versions (catalog, db, name) VALUES (?, ?, ?)`,
		catalog, path.Database, path.Object)
	return err
}

// dropTableVersion ends the identity of the table at path.
func dropTableVersion(ctx context.Context, tx *sql.Tx, catalog string, path catalogs.ObjectPath) error {
	ok, err := hasTableVersions(ctx, tx)
	if err != nil || !ok {
		return err
	}
	_, err = tx.ExecContext(ctx, `DELETE FROM table_versions WHERE catalog = ? AND db = ? AND name = ?`,
		catalog, path.Database, path.Object)
	return err
}

// dropDatabaseVersions ends the identities of every table of a database.
func dropDatabaseVersions(ctx context.Context, tx *sql.Tx, catalog, db string) error {
	ok, err := hasTableVersions(ctx, tx)
	if err != nil || !ok {
		return err
	}
	_, err = tx.ExecContext(ctx, `DELETE FROM table_versions WHERE catalog = ? AND db = ?`, catalog, db)
	return err
}

// moveTableVersion carries a table's identity along a rename or a move:
// it is the same table under another name.
func moveTableVersion(ctx context.Context, tx *sql.Tx, catalog string, from, to catalogs.ObjectPath) error {
	ok, err := hasTableVersions(ctx, tx)
	if err != nil || !ok {
		return err
	}
	_, err = tx.ExecContext(ctx, `UPDATE table_versions SET db = ?, name = ? WHERE catalog = ? AND db = ? AND name = ?`,
		to.Database, to.Object, catalog, from.Database, from.Object)
	return err
}

// bumpSchemaVersion raises the schema version of the table at path (one
// without an entry gets a new identity, which differs from zero too).
func bumpSchemaVersion(ctx context.Context, tx *sql.Tx, catalog string, path catalogs.ObjectPath) error {
	if _, err := tx.ExecContext(ctx, sqlTableVersions); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO table_versions (catalog, db, name) VALUES (?, ?, ?)
		ON CONFLICT (catalog, db, name) DO UPDATE SET schema = schema + 1`,
		catalog, path.Database, path.Object)
	return err
}

// tableState is what a write checks of its table: whether it exists as a
// table, its version and its physical columns.
type tableState struct {
	exists  bool
	version catalogs.TableVersion
	cols    []catalogs.Column
	// keys are the positions, among cols, of the PRIMARY KEY's columns
	// (read withCols only); nil for a table without one.
	keys []int
}

// readTableState reads the state of the table at path through q (inside
// a write transaction, or one statement of a read: consistent either
// way, as it is one query when the version map exists). The physical
// columns are decoded when withCols is set.
func (c *Catalog) readTableState(ctx context.Context, q queryer, path catalogs.ObjectPath, withCols bool) (tableState, error) {
	versions, err := hasTableVersions(ctx, q)
	if err != nil {
		return tableState{}, err
	}
	var kind, comment, options, def string
	var orig, expanded sql.NullString
	var id, schema sql.NullInt64
	args := []any{&kind, &comment, &options, &def, &orig, &expanded}
	query := `SELECT o.kind, o.comment, o.options, o.definition, o.original_query, o.expanded_query`
	if !withCols {
		args = []any{&kind}
		query = `SELECT o.kind`
	}
	if versions {
		query += `, v.id, v.schema FROM objects o LEFT JOIN table_versions v
			ON v.catalog = o.catalog AND v.db = o.db AND v.name = o.name`
		args = append(args, &id, &schema)
	} else {
		query += ` FROM objects o`
	}
	query += ` WHERE o.catalog = ? AND o.db = ? AND o.name = ?`
	err = q.QueryRowContext(ctx, query, c.name, path.Database, path.Object).Scan(args...)
	if errors.Is(err, sql.ErrNoRows) {
		return tableState{}, nil
	}
	if err != nil {
		return tableState{}, err
	}
	if kind != "TABLE" {
		return tableState{}, nil
	}
	st := tableState{exists: true, version: catalogs.TableVersion{ID: id.Int64, Schema: schema.Int64}}
	if withCols {
		t, err := decodeObject(kind, def, comment, options, orig, expanded)
		if err != nil {
			return tableState{}, err
		}
		st.cols = physicalColumns(t)
		st.keys = keyPositions(t, st.cols)
	}
	return st, nil
}

// BindRows binds a write to the table at path as the statement planned
// it: names and cols are the physical columns it was planned with.
func (c *Catalog) BindRows(ctx context.Context, path catalogs.ObjectPath, names []string, cols []*types.Type) (catalogs.RowTarget, error) {
	var st tableState
	err := c.store.read(ctx, func() error {
		var err error
		st, err = c.readTableState(ctx, c.store.db, path, true)
		return err
	})
	if err != nil {
		return catalogs.RowTarget{}, storeErr(err, "cannot read %s of catalog %s", path.FullName(), c.name)
	}
	t := catalogs.RowTarget{Path: path, Names: names, Types: cols, Version: st.version}
	if err := c.checkColumns(st, t); err != nil {
		return catalogs.RowTarget{}, err
	}
	return t, nil
}

// checkColumns returns the error of a write to t whose table is in state
// st: gone, or with other physical columns.
func (c *Catalog) checkColumns(st tableState, t catalogs.RowTarget) error {
	if !st.exists {
		return dropped(c.name, t.Path)
	}
	same := len(st.cols) == len(t.Types)
	for i := 0; same && i < len(st.cols); i++ {
		same = st.cols[i].Type.String() == t.Types[i].String() && (i >= len(t.Names) || st.cols[i].Name == t.Names[i])
	}
	if !same {
		return changedErr(c.name, t.Path)
	}
	return nil
}

func dropped(catalog string, path catalogs.ObjectPath) error {
	return catalogs.Errorf(catalogs.ErrTableNotExist,
		"Table %s of catalog %s was dropped or renamed after the statement writing to it was planned; the statement's uncommitted rows were discarded.",
		path.FullName(), catalog)
}

func changedErr(catalog string, path catalogs.ObjectPath) error {
	return catalogs.Errorf(catalogs.ErrTableChanged,
		"Table %s of catalog %s was altered, or dropped and created again, after the statement writing to it was planned; the statement's uncommitted rows were discarded.",
		path.FullName(), catalog)
}

// checkTarget checks inside the write transaction tx that the table of t
// is still the one t was bound to: it exists and, when bound, has t's
// identity and schema version (BindRows checked its columns). An unbound
// write (WriteRows) checks that the table exists.
func (c *Catalog) checkTarget(ctx context.Context, tx *sql.Tx, t catalogs.RowTarget, bound bool) error {
	st, err := c.readTableState(ctx, tx, t.Path, false)
	if err != nil {
		return storeErr(err, "cannot write the rows of %s", t.Path.FullName())
	}
	if !st.exists {
		return dropped(c.name, t.Path)
	}
	if bound && st.version != t.Version {
		return changedErr(c.name, t.Path)
	}
	return nil
}

// tableKeys returns the positions of the primary key's columns among the
// physical columns of the table at path when there are n of them, or nil
// (no key, or a definition that does not decode: the rows are then
// written as they come).
func (c *Catalog) tableKeys(ctx context.Context, tx *sql.Tx, path catalogs.ObjectPath, n int) []int {
	st, err := c.readTableState(ctx, tx, path, true)
	if err != nil || len(st.cols) != n {
		return nil
	}
	return st.keys
}

// keyPositions returns the positions among cols of the primary key's
// columns of t, or nil when it has none (or names a column cols lacks).
func keyPositions(t catalogs.BaseTable, cols []catalogs.Column) []int {
	ct, ok := t.(*catalogs.CatalogTable)
	if !ok || ct.Schema.PrimaryKey == nil {
		return nil
	}
	var keys []int
	for _, name := range ct.Schema.PrimaryKey.Columns {
		i := slices.IndexFunc(cols, func(c catalogs.Column) bool { return c.Name == name })
		if i < 0 {
			return nil
		}
		keys = append(keys, i)
	}
	return keys
}
