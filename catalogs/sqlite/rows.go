package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"eddy/catalogs"
	"eddy/engine/types"
)

// The rows of managed tables (tables without a 'connector' option) of a
// sqlite catalog. Each eddy table gets one SQLite table of typed columns
// (c0, c1, ...), named eddy_rows_<id>; row_tables maps the eddy table to
// it. Rows keep their insertion order (rowid). Every INSERT is one
// transaction.
//
// SQLite column types: INTEGER for BOOLEAN, the integers, DATE (days),
// TIME (nanoseconds of the day) and intervals; REAL for FLOAT and DOUBLE;
// TEXT for strings, DECIMAL (exact text) and timestamps (UTC,
// 'yyyy-mm-dd hh:mm:ss.fffffffff'); BLOB for binary strings.

const rowTablesDDL = `CREATE TABLE IF NOT EXISTS row_tables (
	id      INTEGER PRIMARY KEY AUTOINCREMENT,
	catalog TEXT NOT NULL,
	db      TEXT NOT NULL,
	name    TEXT NOT NULL,
	UNIQUE (catalog, db, name)
)`

func sqliteType(t *types.Type) (string, error) {
	switch t.Kind {
	case types.Boolean, types.TinyInt, types.SmallInt, types.Int, types.BigInt, types.Date, types.Time,
		types.IntervalYearMonth, types.IntervalDayTime:
		return "INTEGER", nil
	case types.Float, types.Double:
		return "REAL", nil
	case types.Char, types.VarChar, types.Decimal, types.Timestamp, types.TimestampLTZ:
		return "TEXT", nil
	case types.Binary, types.VarBinary:
		return "BLOB", nil
	}
	return "", catalogs.ClassErrorf(catalogs.ErrStore, "TableException",
		"Managed tables of sqlite catalogs cannot store columns of type %s yet.", t)
}

const timestampLayout = "2006-01-02 15:04:05.000000000"

func toSQL(v any) any {
	switch x := v.(type) {
	case nil:
		return nil
	case bool:
		if x {
			return int64(1)
		}
		return int64(0)
	case time.Time:
		return x.UTC().Format(timestampLayout)
	case time.Duration:
		return int64(x)
	case interface{ Text(byte) string }:
		return x.Text('f')
	}
	if n, ok := types.AsInt64(v); ok {
		return n
	}
	if f, ok := v.(float32); ok {
		return float64(f)
	}
	return v
}

func fromSQL(v any, t *types.Type) (any, error) {
	if v == nil {
		return nil, nil
	}
	switch t.Kind {
	case types.Boolean:
		return v.(int64) != 0, nil
	case types.TinyInt, types.SmallInt, types.Int, types.BigInt, types.Date, types.IntervalYearMonth:
		return types.IntegerValue(t.Kind, v.(int64)), nil
	case types.IntervalDayTime:
		return v.(int64), nil
	case types.Time:
		return time.Duration(v.(int64)), nil
	case types.Float:
		return float32(v.(float64)), nil
	case types.Double:
		return v.(float64), nil
	case types.Decimal:
		return types.ParseDecimal(asText(v))
	case types.Timestamp, types.TimestampLTZ:
		return time.Parse(timestampLayout, asText(v))
	case types.Char, types.VarChar:
		return asText(v), nil
	case types.Binary, types.VarBinary:
		if b, ok := v.([]byte); ok {
			return b, nil
		}
		return []byte(asText(v)), nil
	}
	return nil, fmt.Errorf("cannot read a %s from the store", t)
}

func asText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []byte:
		return string(x)
	}
	return fmt.Sprint(v)
}

// rowTable returns the name of the data table of path, or "" when none
// exists yet.
func (c *Catalog) rowTable(ctx context.Context, q interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}, path catalogs.ObjectPath) (string, error) {
	var id int64
	err := q.QueryRowContext(ctx, `SELECT id FROM row_tables WHERE catalog = ? AND db = ? AND name = ?`,
		c.name, path.Database, path.Object).Scan(&id)
	if err == sql.ErrNoRows || err != nil && strings.Contains(err.Error(), "no such table") {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("eddy_rows_%d", id), nil
}

// ReadRows calls fn for every row of a managed table, in insertion order.
func (c *Catalog) ReadRows(ctx context.Context, path catalogs.ObjectPath, cols []*types.Type, fn func(row []any) error) error {
	tbl, err := c.rowTable(ctx, c.store.db, path)
	if err != nil || tbl == "" {
		return storeErr(err, "cannot read the rows of %s", path.FullName())
	}
	names := make([]string, len(cols))
	for i := range cols {
		names[i] = fmt.Sprintf("c%d", i)
	}
	rows, err := c.store.db.QueryContext(ctx, `SELECT `+strings.Join(names, ", ")+` FROM `+tbl+` ORDER BY rowid`)
	if err != nil {
		return storeErr(err, "cannot read the rows of %s", path.FullName())
	}
	defer rows.Close()
	raw := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range raw {
		ptrs[i] = &raw[i]
	}
	out := make([]any, len(cols))
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return storeErr(err, "cannot read the rows of %s", path.FullName())
		}
		for i, t := range cols {
			v, err := fromSQL(raw[i], t)
			if err != nil {
				return storeErr(err, "cannot read the rows of %s", path.FullName())
			}
			out[i] = v
		}
		if err := fn(out); err != nil {
			return err
		}
	}
	return storeErr(rows.Err(), "cannot read the rows of %s", path.FullName())
}

// WriteRows stores the rows produce emits in one transaction; overwrite
// replaces the table's rows. An error from produce rolls everything back.
func (c *Catalog) WriteRows(ctx context.Context, path catalogs.ObjectPath, cols []*types.Type, overwrite bool,
	produce func(emit func(row []any) error) error) error {
	defs := make([]string, len(cols))
	marks := make([]string, len(cols))
	names := make([]string, len(cols))
	for i, t := range cols {
		st, err := sqliteType(t)
		if err != nil {
			return err
		}
		defs[i] = fmt.Sprintf("c%d %s", i, st)
		names[i] = fmt.Sprintf("c%d", i)
		marks[i] = "?"
	}
	return c.store.WriteTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, rowTablesDDL); err != nil {
			return storeErr(err, "cannot prepare row storage")
		}
		tbl, err := c.rowTable(ctx, tx, path)
		if err != nil {
			return storeErr(err, "cannot write the rows of %s", path.FullName())
		}
		if tbl == "" {
			res, err := tx.ExecContext(ctx, `INSERT INTO row_tables (catalog, db, name) VALUES (?, ?, ?)`,
				c.name, path.Database, path.Object)
			if err != nil {
				return storeErr(err, "cannot write the rows of %s", path.FullName())
			}
			id, _ := res.LastInsertId()
			tbl = fmt.Sprintf("eddy_rows_%d", id)
			if _, err := tx.ExecContext(ctx, `CREATE TABLE `+tbl+` (`+strings.Join(defs, ", ")+`)`); err != nil {
				return storeErr(err, "cannot write the rows of %s", path.FullName())
			}
		} else if overwrite {
			if _, err := tx.ExecContext(ctx, `DELETE FROM `+tbl); err != nil {
				return storeErr(err, "cannot write the rows of %s", path.FullName())
			}
		}
		stmt, err := tx.PrepareContext(ctx, `INSERT INTO `+tbl+` (`+strings.Join(names, ", ")+`) VALUES (`+strings.Join(marks, ", ")+`)`)
		if err != nil {
			return storeErr(err, "cannot write the rows of %s", path.FullName())
		}
		defer stmt.Close()
		args := make([]any, len(cols))
		return produce(func(row []any) error {
			for i, v := range row {
				args[i] = toSQL(v)
			}
			_, err := stmt.ExecContext(ctx, args...)
			return storeErr(err, "cannot write the rows of %s", path.FullName())
		})
	})
}

// TruncateRows removes every row of a managed table.
func (c *Catalog) TruncateRows(ctx context.Context, path catalogs.ObjectPath) error {
	return c.store.WriteTx(ctx, func(tx *sql.Tx) error {
		return DropRows(ctx, tx, c.name, path)
	})
}

// DropRows removes the row storage of a managed table inside a caller's
// transaction (DROP TABLE and TRUNCATE TABLE call it).
func DropRows(ctx context.Context, tx *sql.Tx, catalog string, path catalogs.ObjectPath) error {
	c := &Catalog{name: catalog}
	tbl, err := c.rowTable(ctx, tx, path)
	if err != nil || tbl == "" {
		return storeErr(err, "cannot remove the rows of %s", path.FullName())
	}
	if _, err := tx.ExecContext(ctx, `DROP TABLE `+tbl); err != nil {
		return storeErr(err, "cannot remove the rows of %s", path.FullName())
	}
	_, err = tx.ExecContext(ctx, `DELETE FROM row_tables WHERE catalog = ? AND db = ? AND name = ?`,
		catalog, path.Database, path.Object)
	return storeErr(err, "cannot remove the rows of %s", path.FullName())
}
