package connectors

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/shopspring/decimal"

	"eddy/catalogs"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// Pushdown is implemented by readers that can read a subset of a table's
// physical columns and apply simple filters where the rows are stored.
// Both calls come before the first Next.
type Pushdown interface {
	// PushFilters offers conjuncts over the physical columns and reports
	// which ones the reader applies exactly; the caller applies the rest.
	PushFilters(fs []RowFilter) []bool
	// PushColumns makes every batch hold only these physical columns, in
	// this order.
	PushColumns(cols []int)
}

// scanReader reads a managed table of a catalog that scans its rows column
// by column (catalogs.RowScanner): one cursor for the whole scan, opened at
// the first Next, closed at the end, on Close or on an error.
type scanReader struct {
	rs      catalogs.RowScanner
	t       *Table
	types   []*types.Type
	cols    []int // nil: every column
	filters []catalogs.RowFilter
	cur     catalogs.RowCursor
	done    bool
	// shared is set when the cursor is concurrent: Next no longer closes
	// it at the end (other calls may still be in it), Close does.
	shared bool
	ended  atomic.Bool
	// workers is the bound of WorkerCap, passed on in the scan's spec.
	workers int
}

var _ Pushdown = (*scanReader)(nil)

// Concurrent implements connectors.Concurrent: once the first Next has
// opened the cursor, a scan whose cursor is concurrent
// (catalogs.ConcurrentCursor) may be shared by several workers; before,
// the answer is false.
func (r *scanReader) Concurrent() bool { return r.shared }

// CapWorkers implements WorkerCap: the store may read and decode the
// scan's chunks ahead on up to n goroutines.
func (r *scanReader) CapWorkers(n int) { r.workers = n }

// PushFilters implements Pushdown: a filter is taken when the constant has
// the column's storage (int64 for the integer types, float64 for DOUBLE, a
// string for VARCHAR); the NULL tests always are.
func (r *scanReader) PushFilters(fs []RowFilter) []bool {
	ok := make([]bool, len(fs))
	for i, f := range fs {
		if f.Column < 0 || f.Column >= len(r.types) {
			continue
		}
		if f.Op == catalogs.FilterIsNull || f.Op == catalogs.FilterIsNotNull {
			ok[i] = true
		} else {
			switch r.types[f.Column].Kind {
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

// PushColumns implements Pushdown.
func (r *scanReader) PushColumns(cols []int) {
	r.cols = append([]int{}, cols...)
}

func (r *scanReader) Next(ctx context.Context) (*vector.Batch, error) {
	if r.shared {
		return r.nextShared(ctx)
	}
	if r.done {
		return nil, nil
	}
	if err := ctx.Err(); err != nil {
		r.Close()
		return nil, err
	}
	if r.cur == nil {
		cols := r.cols
		if cols == nil {
			cols = make([]int, len(r.types))
			for i := range cols {
				cols[i] = i
			}
			r.cols = cols
		}
		cur, err := r.rs.ScanRows(ctx, r.t.Name.Path(), r.types, catalogs.ScanSpec{Columns: cols, Filters: r.filters, Workers: r.workers})
		if err != nil {
			r.done = true
			return nil, err
		}
		r.cur = cur
		if cc, ok := cur.(catalogs.ConcurrentCursor); ok && cc.Concurrent() {
			r.shared = true
			return r.nextShared(ctx)
		}
	}
	ch, err := r.cur.Next(ctx, vector.BatchSize)
	if err != nil || ch == nil {
		r.Close()
		return nil, err
	}
	return r.batch(ch)
}

// nextShared is Next over a concurrent cursor: it touches no state of
// the reader but the ended flag, and leaves closing to Close.
func (r *scanReader) nextShared(ctx context.Context) (*vector.Batch, error) {
	if r.ended.Load() {
		return nil, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ch, err := r.cur.Next(ctx, vector.BatchSize)
	if err != nil || ch == nil {
		r.ended.Store(true)
		return nil, err
	}
	return r.batch(ch)
}

// batch wraps a chunk of the cursor as a batch of the read columns.
func (r *scanReader) batch(ch *catalogs.ColumnChunk) (*vector.Batch, error) {
	b := &vector.Batch{Cols: make([]*vector.Vec, len(r.cols)), N: ch.N}
	if rc, ok := r.cur.(catalogs.ChunkRecycler); ok {
		b.Recycle = func() { rc.Recycle(ch) }
	}
	for i, p := range r.cols {
		v, err := chunkVec(r.types[p], &ch.Cols[i], ch.N)
		if err != nil {
			if !r.shared {
				r.Close()
			}
			return nil, err
		}
		b.Cols[i] = v
	}
	return b, nil
}

// chunkVec wraps the values of a chunk's column as a vector, taking its
// slices as they are.
func chunkVec(t *types.Type, c *catalogs.ColumnValues, n int) (*vector.Vec, error) {
	v := &vector.Vec{T: t, Class: vector.ClassOf(t), Len: n}
	switch v.Class {
	case vector.Bool:
		v.Bools = c.Bools
	case vector.Int:
		v.Ints = c.Ints
	case vector.Float:
		v.Floats = c.Floats
	case vector.String:
		v.Strs = c.Strs
	case vector.Bytes:
		v.Bytes = c.Bytes
	case vector.Time:
		v.Times = c.Times
	case vector.Decimal:
		v.Decs = make([]*decimal.Decimal, n)
		for i, x := range c.Anys {
			if x != nil {
				d, ok := x.(*decimal.Decimal)
				if !ok {
					return nil, fmt.Errorf("the store returned a %T for a %s column", x, t)
				}
				v.Decs[i] = d
			}
		}
	default:
		v.Anys = c.Anys
	}
	if c.Nulls != nil {
		v.SetNulls(c.Nulls)
	}
	return v, nil
}

func (r *scanReader) Close() error {
	r.done = true
	if r.cur == nil {
		return nil
	}
	cur := r.cur
	r.cur = nil
	return cur.Close()
}

// RowFilter and FilterOp name catalogs' filter vocabulary for the
// executor, which offers filters through Pushdown.
type (
	RowFilter = catalogs.RowFilter
	FilterOp  = catalogs.FilterOp
)

// The filter comparisons (see catalogs.FilterOp).
const (
	FilterEq        = catalogs.FilterEq
	FilterNe        = catalogs.FilterNe
	FilterLt        = catalogs.FilterLt
	FilterLe        = catalogs.FilterLe
	FilterGt        = catalogs.FilterGt
	FilterGe        = catalogs.FilterGe
	FilterIsNull    = catalogs.FilterIsNull
	FilterIsNotNull = catalogs.FilterIsNotNull
)
