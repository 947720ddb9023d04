package sqlite

import (
	"context"
	"fmt"
	"strings"
	"time"

	"eddy/catalogs"
	"eddy/engine/types"
)

var _ catalogs.RowScanner = (*Catalog)(nil)

// ScanRows implements catalogs.RowScanner: one statement over the table's
// data table reads the requested columns, with the filters as its WHERE
// clause (values as parameters), on a read-only connection of its own. The
// statement's read transaction lasts until the last row is read or the
// cursor is closed; in WAL mode it blocks no writer.
func (c *Catalog) ScanRows(ctx context.Context, path catalogs.ObjectPath, cols []*types.Type, spec catalogs.ScanSpec) (catalogs.RowCursor, error) {
	cur, _, err := c.scanRows(ctx, path, cols, spec, 0)
	return cur, err
}

// scanRows is ScanRows that passes over the whole chunks among the first
// skip rows without reading them (a scan without filters) and returns
// how many rows it passed over.
func (c *Catalog) scanRows(ctx context.Context, path catalogs.ObjectPath, cols []*types.Type, spec catalogs.ScanSpec, skip int64) (catalogs.RowCursor, int64, error) {
	tbl, err := c.dataTable(ctx, path)
	if err != nil {
		return nil, 0, storeErr(err, "cannot read the rows of %s", path.FullName())
	}
	read := spec.Columns
	if read == nil {
		read = make([]int, len(cols))
		for i := range read {
			read[i] = i
		}
	}
	out := &rowCursor{types: make([]*types.Type, len(read)), path: path}
	kinds := make([]cColumnKind, len(read))
	names := make([]string, len(read))
	for i, p := range read {
		if p < 0 || p >= len(cols) {
			return nil, 0, fmt.Errorf("column %d of %s does not exist", p, path.FullName())
		}
		t := cols[p]
		out.types[i] = t
		st, err := sqliteType(t)
		if err != nil {
			return nil, 0, err
		}
		switch st {
		case "INTEGER":
			kinds[i] = cInt
		case "REAL":
			kinds[i] = cReal
		case "BLOB":
			kinds[i] = cBlob
		default:
			kinds[i] = cText
		}
		names[i] = fmt.Sprintf("c%d", p)
	}
	if tbl == "" {
		return out, 0, nil // no rows were ever written
	}
	where, args, err := whereClause(spec.Filters, cols)
	if err != nil {
		return nil, 0, err
	}
	if len(read) == 0 {
		kinds = nil
	}
	list := strings.Join(names, ", ")
	if list == "" {
		list = "NULL" // a scan for COUNT(*) needs the rows, no column
	}
	// Generated text only: data table and column names from integers, the
	// filters' values as parameters (see execText).
	q := `SELECT ` + list + ` FROM ` + tbl + where + ` ORDER BY rowid`
	cur := &chunkCursor{path: path, all: cols, read: read, types: out.types, tblID: tableID(tbl),
		deltaQuery: q, deltaArgs: args, deltaKinds: kinds, skip: skip, workers: spec.Workers}
	if err := c.store.openChunkCursor(ctx, cur, spec.Filters); err != nil {
		cur.Close()
		if ctx.Err() != nil {
			return nil, 0, ctx.Err()
		}
		return nil, 0, storeErr(err, "cannot read the rows of %s", path.FullName())
	}
	return cur, cur.skipped, nil
}

// whereClause renders the filters as a WHERE clause over c0, c1, ... with
// one parameter per value.
func whereClause(fs []catalogs.RowFilter, cols []*types.Type) (string, []cArg, error) {
	if len(fs) == 0 {
		return "", nil, nil
	}
	var b strings.Builder
	var args []cArg
	for i, f := range fs {
		if f.Column < 0 || f.Column >= len(cols) {
			return "", nil, fmt.Errorf("filter on column %d, which does not exist", f.Column)
		}
		if i == 0 {
			b.WriteString(" WHERE ")
		} else {
			b.WriteString(" AND ")
		}
		fmt.Fprintf(&b, "c%d", f.Column)
		var op string
		switch f.Op {
		case catalogs.FilterIsNull:
			b.WriteString(" IS NULL")
			continue
		case catalogs.FilterIsNotNull:
			b.WriteString(" IS NOT NULL")
			continue
		case catalogs.FilterEq:
			op = " = ?"
		case catalogs.FilterNe:
			op = " <> ?"
		case catalogs.FilterLt:
			op = " < ?"
		case catalogs.FilterLe:
			op = " <= ?"
		case catalogs.FilterGt:
			op = " > ?"
		case catalogs.FilterGe:
			op = " >= ?"
		default:
			return "", nil, fmt.Errorf("unknown filter operator %d", f.Op)
		}
		switch f.Value.(type) {
		case int64, float64, string:
		default:
			return "", nil, fmt.Errorf("cannot filter on a constant of type %T", f.Value)
		}
		b.WriteString(op)
		args = append(args, f.Value)
	}
	return b.String(), args, nil
}

// rowCursor converts the C chunks of a scan into column values.
type rowCursor struct {
	cur   *cCursor // nil for a table without rows
	types []*types.Type
	path  catalogs.ObjectPath
}

// Next implements catalogs.RowCursor.
func (r *rowCursor) Next(ctx context.Context, maxRows int) (*catalogs.ColumnChunk, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if r.cur == nil {
		return nil, nil
	}
	ch, err := r.cur.fill(ctx, max(maxRows, 1))
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, storeErr(err, "cannot read the rows of %s", r.path.FullName())
	}
	if ch.n == 0 {
		r.Close()
		return nil, nil
	}
	out := &catalogs.ColumnChunk{N: ch.n, Cols: make([]catalogs.ColumnValues, len(r.types))}
	var text string // the chunk's texts, one Go string shared by its values
	if ch.arena != nil {
		text = string(ch.arena)
	}
	var blob []byte
	for i, t := range r.types {
		if err := convertColumn(&out.Cols[i], &ch.cols[i], ch.n, t, text, &blob, ch.arena); err != nil {
			return nil, storeErr(err, "cannot read the rows of %s", r.path.FullName())
		}
	}
	return out, nil
}

// Concurrent implements catalogs.ConcurrentCursor: the cursor of a table
// without rows ends at once for every caller.
func (r *rowCursor) Concurrent() bool { return r.cur == nil }

// Close implements catalogs.RowCursor.
func (r *rowCursor) Close() error {
	if r.cur == nil {
		return nil
	}
	cur := r.cur
	r.cur = nil
	return cur.Close()
}

// convertColumn copies n values of a C column into out in the storage of
// type t (see catalogs.ColumnValues), decoding them as fromSQL does.
func convertColumn(out *catalogs.ColumnValues, col *cColumn, n int, t *types.Type, text string, blob *[]byte, arena []byte) error {
	flags := col.nulls
	for i, f := range flags {
		if f != 0 {
			if out.Nulls == nil {
				out.Nulls = make([]uint64, (n+63)>>6)
			}
			out.Nulls[i>>6] |= 1 << (uint(i) & 63)
		}
	}
	switch t.Kind {
	case types.Boolean:
		out.Bools = make([]bool, n)
		for i, v := range col.ints {
			out.Bools[i] = v != 0
		}
	case types.TinyInt, types.SmallInt, types.Int, types.BigInt, types.Date, types.Time,
		types.IntervalYearMonth, types.IntervalDayTime:
		out.Ints = append([]int64(nil), col.ints...)
	case types.Float:
		out.Floats = make([]float64, n)
		for i, v := range col.floats {
			out.Floats[i] = float64(float32(v))
		}
	case types.Double:
		out.Floats = append([]float64(nil), col.floats...)
	case types.Char, types.VarChar:
		out.Strs = make([]string, n)
		offs, ls := col.ints, col.lens
		for i := range n {
			out.Strs[i] = text[offs[i] : offs[i]+int64(ls[i])]
		}
	case types.Binary, types.VarBinary:
		if *blob == nil {
			*blob = append([]byte(nil), arena...)
		}
		out.Bytes = make([][]byte, n)
		offs, ls := col.ints, col.lens
		for i := range n {
			if flags[i] == 0 {
				s, e := offs[i], offs[i]+int64(ls[i])
				out.Bytes[i] = (*blob)[s:e:e]
			}
		}
	case types.Timestamp, types.TimestampLTZ:
		out.Times = make([]time.Time, n)
		offs, ls := col.ints, col.lens
		for i := range n {
			if flags[i] != 0 {
				continue
			}
			ts, err := parseTimestamp(text[offs[i] : offs[i]+int64(ls[i])])
			if err != nil {
				return err
			}
			out.Times[i] = ts
		}
	case types.Decimal, types.Array, types.Multiset, types.Map, types.Row, types.Variant:
		out.Anys = make([]any, n)
		offs, ls := col.ints, col.lens
		for i := range n {
			if flags[i] != 0 {
				continue
			}
			v, err := fromSQL(text[offs[i]:offs[i]+int64(ls[i])], t)
			if err != nil {
				return err
			}
			out.Anys[i] = v
		}
	default:
		return fmt.Errorf("cannot read a %s from the store", t)
	}
	return nil
}

// parseTimestamp reads a timestamp in timestampLayout; the fixed-width
// form is decoded by position, anything else through time.Parse.
func parseTimestamp(s string) (time.Time, error) {
	if len(s) == len(timestampLayout) && s[4] == '-' && s[7] == '-' && s[10] == ' ' && s[13] == ':' && s[16] == ':' && s[19] == '.' {
		num := func(from, to int) (int, bool) {
			n := 0
			for i := from; i < to; i++ {
				d := s[i] - '0'
				if d > 9 {
					return 0, false
				}
				n = n*10 + int(d)
			}
			return n, true
		}
		y, ok1 := num(0, 4)
		mo, ok2 := num(5, 7)
		d, ok3 := num(8, 10)
		h, ok4 := num(11, 13)
		mi, ok5 := num(14, 16)
		sec, ok6 := num(17, 19)
		ns, ok7 := num(20, 29)
		if ok1 && ok2 && ok3 && ok4 && ok5 && ok6 && ok7 && mo >= 1 && mo <= 12 && d >= 1 && d <= 31 && h < 24 && mi < 60 && sec < 60 {
			t := time.Date(y, time.Month(mo), d, h, mi, sec, ns, time.UTC)
			if t.Day() == d { // not normalised from an impossible date
				return t, nil
			}
		}
	}
	return time.Parse(timestampLayout, s)
}

// dataTable returns the data table of a managed table ("" when it has no
// rows yet), through the store's cache.
func (c *Catalog) dataTable(ctx context.Context, path catalogs.ObjectPath) (string, error) {
	key := objectKey{c.name, path.Database, path.Object}
	version, cached := c.store.current(ctx)
	if cached {
		if tbl, ok := c.store.cachedRows(version, key); ok {
			return tbl, nil
		}
	}
	var tbl string
	err := c.store.read(ctx, func() error {
		var err error
		tbl, err = c.rowTable(ctx, c.store.db, path)
		return err
	})
	if err == nil && cached && tbl != "" {
		c.store.rememberRows(version, key, tbl)
	}
	return tbl, err
}
