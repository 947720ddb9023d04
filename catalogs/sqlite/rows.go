package sqlite

import (
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"

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
// TEXT for strings, DECIMAL (exact text), timestamps (UTC,
// 'yyyy-mm-dd hh:mm:ss.fffffffff') and VARIANT (base64 of the value's
// encoding, types.VariantValue.Encode, which keeps what its equality
// compares); BLOB for binary strings.

// The data tables are the one place where this package sends SQL that is
// not a literal: their names and column lists are generated from the
// integer id of row_tables and the column positions only (eddy_rows_<id>,
// c0, c1, ...; column types from sqliteType's fixed keywords), never from
// names or values given by users, which always travel as parameters.
// execText runs such a generated text.
func execText(ctx context.Context, tx execer, q string, args ...any) error {
	_, err := tx.ExecContext(ctx, q, args...)
	return err
}

// queryInt runs a generated query text (see execText) of one integer.
func queryInt(ctx context.Context, tx *sql.Tx, q string, args ...any) (n int64, err error) {
	err = tx.QueryRowContext(ctx, q, args...).Scan(&n)
	return n, err
}

// execer runs statements: a transaction, or a connection in autocommit
// mode (the staging of rows.stage.go).
type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

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
	case types.Array, types.Multiset, types.Map, types.Row:
		return "TEXT", nil // JSON, see encodeNested
	case types.Variant:
		return "TEXT", nil
	}
	return "", catalogs.ClassErrorf(catalogs.ErrStore, "TableException",
		"Managed tables of sqlite catalogs cannot store columns of type %s yet.", t)
}

const timestampLayout = "2006-01-02 15:04:05.000000000"

func toSQL(v any, t *types.Type) any {
	switch t.Kind {
	case types.Array, types.Multiset, types.Map, types.Row:
		if v == nil {
			return nil
		}
		b, err := json.Marshal(encodeNested(v, t))
		if err != nil {
			return nil
		}
		return string(b)
	}
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
	case *decimal.Decimal:
		return types.DecimalText(x)
	case *types.VariantValue:
		return base64.StdEncoding.EncodeToString(x.Encode())
	}
	switch v.(type) {
	case int64, float64, string:
		return v // as SQLite takes it: no new box
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
	case types.Array, types.Multiset, types.Map, types.Row:
		return decodeNestedText(asText(v), t)
	case types.Variant:
		b, err := base64.StdEncoding.DecodeString(asText(v))
		if err != nil {
			return nil, fmt.Errorf("cannot read a %s from the store: %w", t, err)
		}
		return types.DecodeVariant(b)
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

// ReadRows calls fn for at most limit rows of a managed table (limit <= 0:
// all) that follow the row position after (0 for the start), in insertion
// order, and returns the position of the last row read (after itself when
// none was), so that a reader can page through a table without holding a
// transaction open. A position is a row's ordinal in the table (1 for the
// first): appends keep the positions of the rows before them.
func (c *Catalog) ReadRows(ctx context.Context, path catalogs.ObjectPath, cols []*types.Type, after int64, limit int,
	fn func(row []any) error) (int64, error) {
	cur, pos, err := c.scanRows(ctx, path, cols, catalogs.ScanSpec{}, after)
	if err != nil {
		return after, err
	}
	defer cur.Close()
	last := after
	out := make([]any, len(cols))
	for {
		ch, err := cur.Next(ctx, 1024)
		if err != nil || ch == nil {
			return last, err
		}
		if pos+int64(ch.N) <= after {
			pos += int64(ch.N)
			continue
		}
		for i := range ch.N {
			pos++
			if pos <= after {
				continue
			}
			for j, t := range cols {
				out[j] = engineValue(&ch.Cols[j], t, i)
			}
			last = pos
			if err := fn(out); err != nil {
				return last, err
			}
			if limit > 0 && last-after >= int64(limit) {
				return last, nil
			}
		}
	}
}

// engineValue returns row i of a scanned column as the engine holds a
// value of type t (as fromSQL gives it).
func engineValue(cv *catalogs.ColumnValues, t *types.Type, i int) any {
	if isNull(cv.Nulls, i) {
		return nil
	}
	switch t.Kind {
	case types.Boolean:
		return cv.Bools[i]
	case types.TinyInt, types.SmallInt, types.Int, types.BigInt, types.Date, types.IntervalYearMonth:
		return types.IntegerValue(t.Kind, cv.Ints[i])
	case types.IntervalDayTime:
		return cv.Ints[i]
	case types.Time:
		return time.Duration(cv.Ints[i])
	case types.Float:
		return float32(cv.Floats[i])
	case types.Double:
		return cv.Floats[i]
	case types.Char, types.VarChar:
		return cv.Strs[i]
	case types.Binary, types.VarBinary:
		return cv.Bytes[i]
	case types.Timestamp, types.TimestampLTZ:
		return cv.Times[i]
	}
	return cv.Anys[i]
}

// WriteRows stores the rows produce emits in one transaction; overwrite
// replaces the table's rows. An error from produce rolls everything back.
// The table must exist, with physical columns of types cols, when the
// transaction runs. (RowGroup.WriteRows writes inside an open group
// instead.)
func (c *Catalog) WriteRows(ctx context.Context, path catalogs.ObjectPath, cols []*types.Type, overwrite bool,
	produce func(emit func(row []any) error) error) error {
	return c.write(ctx, catalogs.RowTarget{Path: path, Types: cols}, false, overwrite, catalogs.Inserts(produce))
}

// WriteTarget is WriteRows bound to the table version of t (see
// catalogs.RowTarget): checked inside the write transaction.
func (c *Catalog) WriteTarget(ctx context.Context, t catalogs.RowTarget, overwrite bool,
	produce func(emit func(row []any) error) error) error {
	return c.write(ctx, t, true, overwrite, catalogs.Inserts(produce))
}

// ApplyTarget is WriteTarget for a changelog (see catalogs.Changes): the
// puts and deletions apply in their order, in one transaction.
func (c *Catalog) ApplyTarget(ctx context.Context, t catalogs.RowTarget, overwrite bool, changes catalogs.Changes) error {
	return c.write(ctx, t, true, overwrite, changes)
}

func (c *Catalog) write(ctx context.Context, t catalogs.RowTarget, bound, overwrite bool, changes catalogs.Changes) error {
	path := t.Path
	key := objectKey{c.name, path.Database, path.Object}
	w, err := newRowWrite(c, t, bound, overwrite, changes)
	if err != nil {
		return err
	}
	var version int64
	var cached bool
	var found string
	err = c.store.WriteTx(ctx, func(tx *sql.Tx) error {
		found = ""
		tbl := ""
		// BEGIN IMMEDIATE took the write lock: the catalog version read
		// now is the one of the state this transaction starts from, and a
		// data table cached for it is the table's.
		if version, cached = c.store.current(ctx); cached {
			tbl, _ = c.store.cachedRows(version, key)
		}
		got, err := w.run(ctx, tx, tbl)
		if tbl == "" {
			found = got
		}
		return err
	})
	if err == nil && cached && found != "" {
		c.store.rememberRows(version, key, found)
	}
	return err
}

// rowWrite is one write: the generated texts and the changes.
type rowWrite struct {
	c         *Catalog
	target    catalogs.RowTarget
	bound     bool // target's version is checked, not only its columns
	path      catalogs.ObjectPath
	cols      []*types.Type
	overwrite bool
	changes   catalogs.Changes
	defs      []string
	marks     []string
	names     []string
	// keys are the positions of the primary key's columns (nil: none);
	// before is the last rowid of the data table before this write, set
	// by run: rows after it replace the older rows of their keys.
	keys   []int
	before int64
	// indexed is set once the key's index of the data table exists.
	indexed bool
	// puts counts the rows insert wrote.
	puts int64
}

func newRowWrite(c *Catalog, t catalogs.RowTarget, bound, overwrite bool, changes catalogs.Changes) (*rowWrite, error) {
	cols := t.Types
	w := &rowWrite{c: c, target: t, bound: bound, path: t.Path, cols: cols, overwrite: overwrite, changes: changes,
		defs: make([]string, len(cols)), marks: make([]string, len(cols)), names: make([]string, len(cols))}
	for i, t := range cols {
		st, err := sqliteType(t)
		if err != nil {
			return nil, err
		}
		w.names[i] = "c" + strconv.Itoa(i)
		w.defs[i] = w.names[i] + " " + st
		w.marks[i] = "?"
	}
	return w, nil
}

// run writes the rows inside tx. tbl is the table's data table when the
// caller knows it ("" to look it up, creating it when missing); run
// returns the data table it wrote to.
func (w *rowWrite) run(ctx context.Context, tx *sql.Tx, tbl string) (string, error) {
	c, path := w.c, w.path
	// The table is looked up by name: it must still be the one the
	// statement was planned for, or the rows would land in another.
	if err := c.checkTarget(ctx, tx, w.target, w.bound); err != nil {
		return "", err
	}
	w.keys, w.before, w.indexed = c.tableKeys(ctx, tx, path, len(w.cols)), 0, false
	if tbl == "" {
		if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS row_tables (
			id      INTEGER PRIMARY KEY AUTOINCREMENT,
			catalog TEXT NOT NULL,
			db      TEXT NOT NULL,
			name    TEXT NOT NULL,
			UNIQUE (catalog, db, name))`); err != nil {
			return "", storeErr(err, "cannot prepare row storage")
		}
		var err error
		if tbl, err = c.rowTable(ctx, tx, path); err != nil {
			return "", storeErr(err, "cannot write the rows of %s", path.FullName())
		}
		if tbl == "" {
			res, err := tx.ExecContext(ctx, `INSERT INTO row_tables (catalog, db, name) VALUES (?, ?, ?)`,
				c.name, path.Database, path.Object)
			if err != nil {
				return "", storeErr(err, "cannot write the rows of %s", path.FullName())
			}
			id, _ := res.LastInsertId()
			tbl = fmt.Sprintf("eddy_rows_%d", id)
			if err := execText(ctx, tx, `CREATE TABLE `+tbl+` (`+strings.Join(w.defs, ", ")+`)`); err != nil {
				return "", storeErr(err, "cannot write the rows of %s", path.FullName())
			}
			// A data table made now has no chunks (a dropped table's id
			// is never reused: AUTOINCREMENT).
			return tbl, w.finish(ctx, tx, tbl)
		}
	}
	if w.overwrite {
		if err := execText(ctx, tx, `DELETE FROM `+tbl); err != nil {
			return "", storeErr(err, "cannot write the rows of %s", path.FullName())
		}
		if err := dropChunks(ctx, tx, tbl); err != nil {
			return "", storeErr(err, "cannot write the rows of %s", path.FullName())
		}
	} else if len(w.keys) > 0 {
		// Upserts replace rows anywhere in the table: its rows are all
		// kept row-wise (see chunks.go).
		if err := w.unfold(ctx, tx, tbl); err != nil {
			return "", err
		}
		var err error
		if w.before, err = queryInt(ctx, tx, `SELECT coalesce(max(rowid), 0) FROM `+tbl); err != nil {
			return "", storeErr(err, "cannot write the rows of %s", path.FullName())
		}
	}
	return tbl, w.finish(ctx, tx, tbl)
}

// finish applies the changes and folds the delta of a table without a
// primary key into chunks when it has grown to a chunk's size.
func (w *rowWrite) finish(ctx context.Context, tx *sql.Tx, tbl string) error {
	if err := w.upsert(ctx, tx, tbl); err != nil {
		return err
	}
	if len(w.keys) > 0 {
		return nil
	}
	return storeErr(w.c.store.fold(ctx, tx, tbl, w.cols, w.puts), "cannot write the rows of %s", w.path.FullName())
}

// unfold moves the chunks of the table, if any, back into its delta.
func (w *rowWrite) unfold(ctx context.Context, tx *sql.Tx, tbl string) error {
	ok, err := hasChunks(ctx, tx, tbl)
	if err == nil && ok {
		err = unfold(ctx, tx, tbl, w.cols)
	}
	return storeErr(err, "cannot write the rows of %s", w.path.FullName())
}

// upsert applies the changes and, for a table with a primary key, keeps
// one row per key: the newest (see replaceKeys).
func (w *rowWrite) upsert(ctx context.Context, tx *sql.Tx, tbl string) error {
	if err := w.apply(ctx, tx, tbl); err != nil {
		return err
	}
	return w.replaceKeys(ctx, tx, tbl)
}

// apply applies the changes to the data table tbl in their order: the
// puts go in as rows, and each deletion, after the puts before it,
// removes every row of its key (a later put of the key is newer).
func (w *rowWrite) apply(ctx context.Context, tx execer, tbl string) error {
	return w.insert(ctx, tx, tbl, func(row []any) error { return w.deleteKey(ctx, tx, tbl, row) })
}

// deleteKey removes the rows of row's primary key from the data table
// tbl.
func (w *rowWrite) deleteKey(ctx context.Context, tx execer, tbl string, row []any) error {
	if len(w.keys) == 0 {
		return noKeyErr(w.path)
	}
	if len(row) != len(w.cols) {
		return fmt.Errorf("a row of %d values for %d columns", len(row), len(w.cols))
	}
	if err := w.keyIndex(ctx, tx, tbl); err != nil {
		return err
	}
	on := make([]string, len(w.keys))
	args := make([]any, len(w.keys))
	for i, k := range w.keys {
		on[i] = "c" + strconv.Itoa(k) + " = ?"
		args[i] = toSQL(row[k], w.cols[k])
	}
	err := execText(ctx, tx, `DELETE FROM `+tbl+` WHERE `+strings.Join(on, " AND "), args...)
	return storeErr(err, "cannot write the rows of %s", w.path.FullName())
}

// noKeyErr is the error of a deletion by key in a table without a
// primary key.
func noKeyErr(path catalogs.ObjectPath) error {
	return catalogs.ClassErrorf(catalogs.ErrStore, "TableException",
		"Table %s has no primary key: a change that deletes or retracts a row cannot be applied to it.",
		path.FullName())
}

// keyIndex makes the index on the key columns of the data table tbl.
func (w *rowWrite) keyIndex(ctx context.Context, tx execer, tbl string) error {
	if w.indexed {
		return nil
	}
	names := make([]string, len(w.keys))
	for i, k := range w.keys {
		names[i] = "c" + strconv.Itoa(k)
	}
	err := execText(ctx, tx, `CREATE INDEX IF NOT EXISTS `+tbl+`_key ON `+tbl+` (`+strings.Join(names, ", ")+`)`)
	w.indexed = err == nil
	return storeErr(err, "cannot write the rows of %s", w.path.FullName())
}

// replaceKeys keeps one row per primary key in the data table tbl, as
// Flink's upsert tables do: a row written after w.before replaces every
// older row of its key, so an INSERT of an existing key replaces that row
// and the last of several rows of one key wins. The rows keep their
// rowids, so the table still reads in the order its rows were written. An
// index on the key columns makes it cost a lookup per new row. Nothing is
// done for a table without a key.
func (w *rowWrite) replaceKeys(ctx context.Context, tx execer, tbl string) error {
	if len(w.keys) == 0 {
		return nil
	}
	if err := w.keyIndex(ctx, tx, tbl); err != nil {
		return err
	}
	err := execText(ctx, tx, `DELETE FROM `+tbl+` WHERE rowid IN (SELECT o.rowid FROM `+tbl+` AS n JOIN `+tbl+
		` AS o ON `+w.keyJoin("o", "n")+` AND o.rowid < n.rowid WHERE n.rowid > ?)`, w.before)
	return storeErr(err, "cannot write the rows of %s", w.path.FullName())
}

// keyJoin returns the condition that rows a and b (aliases) have the same
// primary key.
func (w *rowWrite) keyJoin(a, b string) string {
	on := make([]string, len(w.keys))
	for i, k := range w.keys {
		name := "c" + strconv.Itoa(k)
		on[i] = a + "." + name + " = " + b + "." + name
	}
	return strings.Join(on, " AND ")
}

// insert stores the rows the changes put into the table tbl, in
// multi-row INSERTs; a deletion first writes the rows put before it, then
// calls del.
func (w *rowWrite) insert(ctx context.Context, tx execer, tbl string, del func(row []any) error) error {
	cols, path := w.cols, w.path
	// Rows go in multi-row INSERTs of up to perInsert rows (SQLite
	// takes at most 32766 parameters a statement).
	perInsert := max(1, min(256, 32766/max(len(cols), 1)))
	rowMarks := "(" + strings.Join(w.marks, ", ") + ")"
	head := `INSERT INTO ` + tbl + ` (` + strings.Join(w.names, ", ") + `) VALUES `
	var args []any
	pending := 0
	flush := func() error {
		if pending == 0 {
			return nil
		}
		text := head + strings.Repeat(rowMarks+", ", pending-1) + rowMarks
		err := execText(ctx, tx, text, args...)
		args, pending = args[:0], 0
		return storeErr(err, "cannot write the rows of %s", path.FullName())
	}
	put := func(row []any) error {
		if len(row) != len(cols) {
			return fmt.Errorf("a row of %d values for %d columns", len(row), len(cols))
		}
		for i, v := range row {
			args = append(args, toSQL(v, cols[i]))
		}
		pending++
		w.puts++
		if pending == perInsert {
			return flush()
		}
		return nil
	}
	err := w.changes(put, func(row []any) error {
		if err := flush(); err != nil {
			return err
		}
		return del(row)
	})
	if err != nil {
		return err
	}
	return flush()
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
	if err := execText(ctx, tx, `DROP TABLE `+tbl); err != nil {
		return storeErr(err, "cannot remove the rows of %s", path.FullName())
	}
	if err := dropChunks(ctx, tx, tbl); err != nil {
		return storeErr(err, "cannot remove the rows of %s", path.FullName())
	}
	_, err = tx.ExecContext(ctx, `DELETE FROM row_tables WHERE catalog = ? AND db = ? AND name = ?`,
		catalog, path.Database, path.Object)
	return storeErr(err, "cannot remove the rows of %s", path.FullName())
}
