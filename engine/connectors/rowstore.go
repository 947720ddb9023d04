package connectors

import (
	"context"

	"eddy/catalogs"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// RowStore is the storage contract of catalogs that keep the rows of
// their managed tables themselves (catalogs.RowStore, with its explicit
// write group): the connectors read and write such tables through it.
type RowStore = catalogs.RowStore

// StoredRows returns the row store that keeps t's rows: the catalog of a
// permanent managed table when it keeps rows itself; nil otherwise (the
// MemoryStore or a connector holds them).
func (r *Registry) StoredRows(t *Table) RowStore {
	if t.Temporary || !r.Managed(t) {
		return nil
	}
	rs, _ := t.Catalog.(RowStore)
	return rs
}

// OpenGroupWriter returns a writer of t's rows inside the write group g:
// its Commit writes them as one statement of the group. ok is false when
// g's store does not keep t's rows.
func (r *Registry) OpenGroupWriter(t *Table, g catalogs.WriteGroup, overwrite bool) (w Writer, ok bool) {
	rs := r.StoredRows(t)
	if rs == nil || !g.Holds(rs) {
		return nil, false
	}
	return &rowStoreWriter{rs: rs, t: t, overwrite: overwrite, group: g}, true
}

// readRowStore reads a table one page of BatchSize rows per batch, so a
// query that stops early (LIMIT) reads no more than it needs.
// A catalog that scans column by column (catalogs.RowScanner) gets a
// scanReader instead: one statement for the whole scan.
func readRowStore(_ context.Context, rs RowStore, t *Table) (Reader, error) {
	if sc, ok := rs.(catalogs.RowScanner); ok {
		return &scanReader{rs: sc, t: t, types: t.Types()}, nil
	}
	return &rowStoreReader{rs: rs, t: t, types: t.Types()}, nil
}

type rowStoreReader struct {
	rs    RowStore
	t     *Table
	types []*types.Type
	after int64
	done  bool
}

func (r *rowStoreReader) Next(ctx context.Context) (*vector.Batch, error) {
	if r.done {
		return nil, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	b := vector.NewBatch(r.types, vector.BatchSize)
	last, err := r.rs.ReadRows(ctx, r.t.Name.Path(), r.types, r.after, vector.BatchSize, func(row []any) error {
		b.AppendRow(types.Insert, row)
		return nil
	})
	if err != nil {
		return nil, err
	}
	r.after = last
	if b.N < vector.BatchSize {
		r.done = true
	}
	if b.N == 0 {
		return nil, nil
	}
	return b, nil
}

func (r *rowStoreReader) Close() error {
	r.done = true
	return nil
}

// rowStoreWriter buffers the statement's rows and writes them in one
// transaction at Commit: one of its own, or a statement of group.
type rowStoreWriter struct {
	rs        RowStore
	t         *Table
	overwrite bool
	group     catalogs.WriteGroup // nil: a transaction of its own
	batches   []*vector.Batch
}

func (w *rowStoreWriter) Write(ctx context.Context, b *vector.Batch) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	w.batches = append(w.batches, b)
	return nil
}

func (w *rowStoreWriter) Commit(ctx context.Context) error {
	produce := func(emit func(row []any) error) error {
		for _, b := range w.batches {
			if err := ctx.Err(); err != nil {
				return err
			}
			for i := range b.N {
				if err := emit(b.Row(i)); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if w.group != nil {
		return w.group.WriteRows(ctx, w.rs, w.t.Name.Path(), w.t.Types(), w.overwrite, produce)
	}
	return w.rs.WriteRows(ctx, w.t.Name.Path(), w.t.Types(), w.overwrite, produce)
}

func (w *rowStoreWriter) Abort() error {
	w.batches = nil
	return nil
}
