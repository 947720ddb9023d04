package jdbc

import (
	"context"
	"fmt"
	"strings"

	"eddy/engine/connectors"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// reader scans a jdbc table: one SELECT, or one per partition of
// 'scan.partition.column' run one after the other in partition order,
// with the columns and filters the planner pushed into it.
type reader struct {
	s       *spec
	conn    conn
	cols    []int // the physical columns read, in batch order
	filters []connectors.RowFilter
	parts   [][2]int64 // partition bounds, inclusive; nil: one scan
	part    int
	rows    rowIter
	types   []*types.Type
	row     []any // the values of one row
	done    bool
}

var _ connectors.Pushdown = (*reader)(nil)

func openReader(s *spec) *reader {
	r := &reader{s: s}
	for i := range s.t.Columns {
		r.cols = append(r.cols, i)
	}
	if s.partColumn != "" {
		r.parts = partitions(s.partLo, s.partHi, s.partNum)
	}
	return r
}

// partitions splits [lo, hi] into n ranges as Flink's
// JdbcNumericBetweenParametersProvider does: equal sizes, the first ones
// one larger when the count does not divide evenly.
func partitions(lo, hi int64, n int) [][2]int64 {
	count := hi - lo + 1
	if n <= 0 {
		n = 1
	}
	if int64(n) > count {
		n = int(count)
	}
	size := (count + int64(n) - 1) / int64(n)
	big := count - (size-1)*int64(n)
	out := make([][2]int64, 0, n)
	start := lo
	for i := 0; i < n; i++ {
		end := start + size - 1
		if int64(i) >= big {
			end--
		}
		out = append(out, [2]int64{start, end})
		start = end + 1
	}
	return out
}

// PushFilters implements connectors.Pushdown: comparisons of integer,
// DOUBLE and VARCHAR columns with constants and NULL tests become the
// WHERE clause of the SELECT (Flink's
// JdbcFilterPushdownPreparedStatementVisitor), unless
// 'filter.handling.policy' is NEVER.
func (r *reader) PushFilters(fs []connectors.RowFilter) []bool {
	ok := make([]bool, len(fs))
	if !r.s.pushFilters {
		return ok
	}
	cols := r.s.t.Columns
	for i, f := range fs {
		if f.Column < 0 || f.Column >= len(cols) {
			continue
		}
		if f.Op == connectors.FilterIsNull || f.Op == connectors.FilterIsNotNull {
			ok[i] = true
		} else {
			switch cols[f.Column].Type.Kind {
			case types.TinyInt, types.SmallInt, types.Int, types.BigInt:
				_, ok[i] = f.Value.(int64)
			case types.Double:
				_, ok[i] = f.Value.(float64)
			case types.VarChar:
				_, ok[i] = f.Value.(string)
			}
		}
		if ok[i] {
			r.filters = append(r.filters, f)
		}
	}
	return ok
}

// PushColumns implements connectors.Pushdown.
func (r *reader) PushColumns(cols []int) { r.cols = append([]int{}, cols...) }

var filterSQL = map[connectors.FilterOp]string{
	connectors.FilterEq: "=", connectors.FilterNe: "<>", connectors.FilterLt: "<",
	connectors.FilterLe: "<=", connectors.FilterGt: ">", connectors.FilterGe: ">=",
}

// query returns the SELECT of the current partition and its arguments.
func (r *reader) query() (string, []any) {
	s := r.s
	d := s.dialect
	names := make([]string, len(r.cols))
	for i, c := range r.cols {
		names[i] = d.quote(s.t.Columns[c].Name)
	}
	sel := "*"
	if len(names) > 0 {
		sel = strings.Join(names, ", ")
	} else {
		sel = "1"
	}
	q := "SELECT " + sel + " FROM " + d.quote(s.table)
	var conds []string
	var args []any
	if r.parts != nil {
		p := r.parts[r.part]
		args = append(args, p[0], p[1])
		conds = append(conds, fmt.Sprintf("%s BETWEEN %s AND %s", d.quote(s.partColumn), d.placeholder(1), d.placeholder(2)))
	}
	for _, f := range r.filters {
		c := s.t.Columns[f.Column]
		col := d.quote(c.Name)
		switch f.Op {
		case connectors.FilterIsNull:
			conds = append(conds, "("+col+" IS NULL)")
		case connectors.FilterIsNotNull:
			conds = append(conds, "("+col+" IS NOT NULL)")
		default:
			args = append(args, d.param(f.Value, c.Type))
			op := filterSQL[f.Op]
			if c.Type.Kind == types.VarChar && f.Op != connectors.FilterEq && f.Op != connectors.FilterNe {
				// The engine orders strings byte-wise.
				col = d.stringOrder(col)
			}
			conds = append(conds, fmt.Sprintf("(%s %s %s)", col, op, d.placeholder(len(args))))
		}
	}
	if len(conds) > 0 {
		q += " WHERE " + strings.Join(conds, " AND ")
	}
	return q, args
}

func (r *reader) Next(ctx context.Context) (*vector.Batch, error) {
	if r.done {
		return nil, nil
	}
	if err := ctx.Err(); err != nil {
		r.Close()
		return nil, err
	}
	if r.types == nil {
		r.types = make([]*types.Type, len(r.cols))
		for i, c := range r.cols {
			r.types[i] = r.s.t.Columns[c].Type
		}
	}
	b := vector.NewBatch(r.types, vector.BatchSize)
	for b.N < vector.BatchSize {
		if r.rows == nil {
			if r.parts != nil && r.part >= len(r.parts) {
				break
			}
			if err := r.open(ctx); err != nil {
				r.Close()
				return nil, err
			}
		}
		if !r.rows.next() {
			err := r.rows.err()
			r.rows.close()
			r.rows = nil
			if err != nil {
				r.Close()
				return nil, r.s.dbError("Failed to read", err)
			}
			r.part++
			if r.parts == nil || r.part >= len(r.parts) {
				r.done = true
				break
			}
			continue
		}
		if err := r.appendRow(b); err != nil {
			r.Close()
			return nil, err
		}
	}
	if b.N == 0 {
		r.Close()
		return nil, nil
	}
	return b, nil
}

func (r *reader) open(ctx context.Context) error {
	if r.conn == nil {
		conn, err := r.s.connect(ctx)
		if err != nil {
			return err
		}
		r.conn = conn
		if !r.s.autoCommit {
			if err := conn.beginRead(ctx); err != nil {
				return r.s.dbError("Failed to read", err)
			}
		}
	}
	q, args := r.query()
	rows, err := r.conn.query(ctx, q, args)
	if err != nil {
		return r.s.dbError("Failed to read", err)
	}
	r.rows = rows
	return nil
}

func (r *reader) appendRow(b *vector.Batch) error {
	if len(r.cols) == 0 {
		b.N++
		return nil
	}
	if r.row == nil {
		r.row = make([]any, len(r.cols))
	}
	if i, err := r.rows.row(r.types, r.row); err != nil {
		if i < 0 {
			return r.s.dbError("Failed to read", err)
		}
		return &connectors.Error{Exception: "SQLException", Msg: fmt.Sprintf("Column '%s' of %s: %v", r.s.t.Columns[r.cols[i]].Name, r.s.table, err)}
	}
	for i, x := range r.row {
		b.Cols[i].Append(x)
	}
	b.N++
	return nil
}

func (r *reader) Close() error {
	r.done = true
	if r.rows != nil {
		r.rows.close()
		r.rows = nil
	}
	if r.conn != nil {
		err := r.conn.close()
		r.conn = nil
		return err
	}
	return nil
}
