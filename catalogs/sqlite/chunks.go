package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"time"

	"eddy/catalogs"
	"eddy/engine/types"
)

// Column chunks. The rows of a managed table without a primary key are
// kept in two parts: column chunks in eddy_chunks, older, and the
// row-wise delta (its data table eddy_rows_<id>), newer. A chunk holds
// up to chunkRows consecutive rows, one blob per column (colenc.go) with
// the column's row and NULL counts and its smallest and largest value; a
// scan reads the blobs of the columns it needs and skips the chunks whose
// statistics prove a filter false (chunkscan.go). Reading the chunks in
// their order and then the delta in rowid order gives the rows in the
// order they were written.
//
// Writes go to the delta, as before; when it holds chunkRows rows, the
// write that made it so folds its oldest rows into a new chunk in the
// same transaction (fold). A write of at least a quarter of chunkRows
// rows (a bulk INSERT) also folds the rows it leaves in the delta, when
// they are that many, into a smaller chunk: a table loaded in bulk is
// columnar to its last row, while single statements still gather into
// whole chunks. A write that is not an append to the end
// (an upsert by primary key; an ALTER TABLE rebuilding the data table)
// first moves the chunks back into the delta, ahead of its rows
// (unfold): a table with a primary key is never folded, and the rebuilt
// table folds again on its next write. Overwriting, truncating and
// dropping a table remove its chunks with its delta.

// defaultChunkRows is the number of rows of a column chunk.
const defaultChunkRows = 32768

// sqlChunks makes the table of column chunks (migration 1).
const sqlChunks = `
CREATE TABLE IF NOT EXISTS eddy_chunks (
	tbl   INTEGER NOT NULL,  -- row_tables.id
	chunk INTEGER NOT NULL,  -- the chunks of a table in row order
	col   INTEGER NOT NULL,  -- physical column position
	rows  INTEGER NOT NULL,
	nulls INTEGER NOT NULL,
	min,                     -- smallest non-NULL value, or NULL
	max,                     -- largest non-NULL value, or NULL
	data  BLOB NOT NULL,
	PRIMARY KEY (tbl, chunk, col)
);
`

// tableID returns the row_tables id of a data table's name.
func tableID(tbl string) int64 {
	id, _ := strconv.ParseInt(strings.TrimPrefix(tbl, "eddy_rows_"), 10, 64)
	return id
}

// chunkSize is the number of rows the store folds into one chunk.
func (s *Store) chunkSize() int {
	if s.chunkRows > 0 {
		return s.chunkRows
	}
	return defaultChunkRows
}

// fold moves the oldest rows of the delta tbl into chunks, one chunk of
// chunkSize rows at a time, while the delta holds that many; then, when
// the write wrote added rows, at least a quarter of chunkSize, and the
// delta still holds that many, the rest into one chunk. The delta
// of a table without a primary key only grows at its end and loses its
// oldest rows, so its rowids are consecutive and their span counts its
// rows, which two index lookups give (one subquery each: SQLite looks
// up a lone min or max at the end of the index, but scans the whole table
// for a query that asks for both).
func (s *Store) fold(ctx context.Context, tx *sql.Tx, tbl string, cols []*types.Type, added int64) error {
	size := int64(s.chunkSize())
	tail := max(size/4, 1)
	id := tableID(tbl)
	for {
		var lo, hi sql.NullInt64
		q := `SELECT (SELECT min(rowid) FROM ` + tbl + `), (SELECT max(rowid) FROM ` + tbl + `)`
		if err := tx.QueryRowContext(ctx, q).Scan(&lo, &hi); err != nil {
			return err
		}
		if !lo.Valid {
			return nil
		}
		span := hi.Int64 - lo.Int64 + 1
		if span < size && (added < tail || span < tail) {
			return nil
		}
		end := lo.Int64 + min(span, size)
		names := make([]string, len(cols))
		for i := range cols {
			names[i] = "c" + strconv.Itoa(i)
		}
		q = `SELECT ` + strings.Join(names, ", ") + ` FROM ` + tbl + ` WHERE rowid < ? ORDER BY rowid`
		rows, err := tx.QueryContext(ctx, q, end)
		if err != nil {
			return err
		}
		builders := make([]colBuilder, len(cols))
		for i, t := range cols {
			if builders[i].class, err = classOf(t); err != nil {
				rows.Close()
				return err
			}
		}
		raw := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range raw {
			ptrs[i] = &raw[i]
		}
		n := 0
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				rows.Close()
				return err
			}
			for i := range builders {
				if err := builders[i].add(raw[i], n); err != nil {
					rows.Close()
					return fmt.Errorf("column %d: %w", i, err)
				}
			}
			n++
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if n == 0 {
			return nil
		}
		var next int64
		if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(chunk), -1) + 1 FROM eddy_chunks WHERE tbl = ?`, id).Scan(&next); err != nil {
			return err
		}
		for i, t := range cols {
			builders[i].cv.Nulls = padNulls(builders[i].cv.Nulls, n)
			blob, st, err := encodeColumn(&builders[i].cv, n, t)
			if err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO eddy_chunks (tbl, chunk, col, rows, nulls, min, max, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
				id, next, i, st.rows, st.nulls, st.min, st.max, blob); err != nil {
				return err
			}
		}
		if err := execText(ctx, tx, `DELETE FROM `+tbl+` WHERE rowid < ?`, end); err != nil {
			return err
		}
	}
}

// colBuilder gathers the values of a column as the data table holds them
// into the raw form encodeColumn takes.
type colBuilder struct {
	class colClass
	cv    catalogs.ColumnValues
}

// add appends row n's value v (as database/sql reads it).
func (b *colBuilder) add(v any, n int) error {
	if v == nil {
		if b.cv.Nulls == nil {
			b.cv.Nulls = make([]uint64, 0, 1024)
		}
		for len(b.cv.Nulls) <= n>>6 {
			b.cv.Nulls = append(b.cv.Nulls, 0)
		}
		b.cv.Nulls[n>>6] |= 1 << (uint(n) & 63)
	}
	switch b.class {
	case classInt, classBool:
		var x int64
		switch y := v.(type) {
		case int64:
			x = y
		case float64:
			x = int64(y)
		case nil:
		default:
			return fmt.Errorf("an integer column holds a %T", v)
		}
		if b.class == classBool {
			b.cv.Bools = append(b.cv.Bools, x != 0)
		} else {
			b.cv.Ints = append(b.cv.Ints, x)
		}
	case classFloat:
		var x float64
		switch y := v.(type) {
		case float64:
			x = y
		case int64:
			x = float64(y)
		case nil:
		default:
			return fmt.Errorf("a REAL column holds a %T", v)
		}
		b.cv.Floats = append(b.cv.Floats, x)
	case classString, classText:
		var x string
		if v != nil {
			x = asText(v)
		}
		b.cv.Strs = append(b.cv.Strs, x)
	case classBytes:
		var x []byte
		switch y := v.(type) {
		case []byte:
			x = append([]byte{}, y...)
		case string:
			x = []byte(y)
		case nil:
		default:
			return fmt.Errorf("a BLOB column holds a %T", v)
		}
		b.cv.Bytes = append(b.cv.Bytes, x)
	case classTime:
		var x time.Time
		if v != nil {
			ts, err := parseTimestamp(asText(v))
			if err != nil {
				return err
			}
			x = ts
		}
		b.cv.Times = append(b.cv.Times, x)
	}
	return nil
}

// padNulls makes a null bitmap cover n rows.
func padNulls(nulls []uint64, n int) []uint64 {
	for nulls != nil && len(nulls) < (n+63)>>6 {
		nulls = append(nulls, 0)
	}
	return nulls
}

// sqlValue returns row i of a raw decoded column as the data table holds
// it (see toSQL).
func sqlValue(cv *catalogs.ColumnValues, class colClass, i int) any {
	if isNull(cv.Nulls, i) {
		return nil
	}
	switch class {
	case classInt:
		return cv.Ints[i]
	case classBool:
		if cv.Bools[i] {
			return int64(1)
		}
		return int64(0)
	case classFloat:
		return cv.Floats[i]
	case classString, classText:
		return strings.Clone(cv.Strs[i])
	case classBytes:
		return append([]byte{}, cv.Bytes[i]...)
	case classTime:
		return cv.Times[i].UTC().Format(timestampLayout)
	}
	return nil
}

// hasChunks reports whether the table of the data table tbl has chunks.
func hasChunks(ctx context.Context, tx *sql.Tx, tbl string) (bool, error) {
	var n int
	err := tx.QueryRowContext(ctx, `SELECT count(*) FROM (SELECT 1 FROM eddy_chunks WHERE tbl = ? LIMIT 1)`, tableID(tbl)).Scan(&n)
	return n > 0, err
}

// unfold moves every chunk of the table of the data table tbl, whose
// physical columns have types cols, back into the delta, ahead of its
// rows: the chunks' rows get the rowids below the delta's smallest.
func unfold(ctx context.Context, tx *sql.Tx, tbl string, cols []*types.Type) error {
	id := tableID(tbl)
	var total sql.NullInt64
	if err := tx.QueryRowContext(ctx, `SELECT sum(rows) FROM eddy_chunks WHERE tbl = ? AND col = 0`, id).Scan(&total); err != nil {
		return err
	}
	if !total.Valid || total.Int64 == 0 {
		_, err := tx.ExecContext(ctx, `DELETE FROM eddy_chunks WHERE tbl = ?`, id)
		return err
	}
	var first int64
	q := `SELECT coalesce(min(rowid), 1) FROM ` + tbl
	if err := tx.QueryRowContext(ctx, q).Scan(&first); err != nil {
		return err
	}
	rowid := first - total.Int64
	var chunks []int64
	rows, err := tx.QueryContext(ctx, `SELECT chunk FROM eddy_chunks WHERE tbl = ? AND col = 0 ORDER BY chunk`, id)
	if err != nil {
		return err
	}
	for rows.Next() {
		var c int64
		if err := rows.Scan(&c); err != nil {
			rows.Close()
			return err
		}
		chunks = append(chunks, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	classes := make([]colClass, len(cols))
	names := []string{"rowid"}
	marks := []string{"?"}
	for i, t := range cols {
		if classes[i], err = classOf(t); err != nil {
			return err
		}
		names = append(names, "c"+strconv.Itoa(i))
		marks = append(marks, "?")
	}
	per := max(1, min(256, 32766/len(names)))
	rowMarks := "(" + strings.Join(marks, ", ") + ")"
	head := `INSERT INTO ` + tbl + ` (` + strings.Join(names, ", ") + `) VALUES `
	for _, c := range chunks {
		vals := make([]catalogs.ColumnValues, len(cols))
		n := -1
		rows, err := tx.QueryContext(ctx, `SELECT col, data FROM eddy_chunks WHERE tbl = ? AND chunk = ?`, id, c)
		if err != nil {
			return err
		}
		for rows.Next() {
			var col int
			var blob []byte
			if err := rows.Scan(&col, &blob); err != nil {
				rows.Close()
				return err
			}
			if col < 0 || col >= len(cols) {
				continue
			}
			cv, k, err := decodeColumn(blob, cols[col], true)
			if err != nil {
				rows.Close()
				return err
			}
			if n >= 0 && k != n {
				rows.Close()
				return errCorrupt
			}
			n, vals[col] = k, cv
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for i := range vals {
			if n > 0 && vals[i].Nulls == nil && vals[i].Ints == nil && vals[i].Floats == nil && vals[i].Strs == nil &&
				vals[i].Bools == nil && vals[i].Bytes == nil && vals[i].Times == nil {
				return errCorrupt // a column of the chunk is missing
			}
		}
		var args []any
		pending := 0
		for r := 0; r < n; r++ {
			args = append(args, rowid)
			rowid++
			for i := range cols {
				args = append(args, sqlValue(&vals[i], classes[i], r))
			}
			pending++
			if pending == per || r == n-1 {
				if err := execText(ctx, tx, head+strings.Repeat(rowMarks+", ", pending-1)+rowMarks, args...); err != nil {
					return err
				}
				args, pending = args[:0], 0
			}
		}
	}
	_, err = tx.ExecContext(ctx, `DELETE FROM eddy_chunks WHERE tbl = ?`, id)
	return err
}

// dropChunks removes the chunks of the table of the data table tbl.
func dropChunks(ctx context.Context, tx execer, tbl string) error {
	_, err := tx.ExecContext(ctx, `DELETE FROM eddy_chunks WHERE tbl = ?`, tableID(tbl))
	return err
}
