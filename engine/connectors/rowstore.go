package connectors

import (
	"context"

	"eddy/catalogs"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// RowStore is implemented by catalogs that store the rows of their managed
// tables themselves (the sqlite catalog). Rows are engine values of the
// given column types. WriteRows stores every row the producer emits in one
// transaction (replacing the table's rows when overwrite is set): when the
// producer or the store fails nothing is written.
type RowStore interface {
	ReadRows(ctx context.Context, path catalogs.ObjectPath, cols []*types.Type, fn func(row []any) error) error
	WriteRows(ctx context.Context, path catalogs.ObjectPath, cols []*types.Type, overwrite bool,
		produce func(emit func(row []any) error) error) error
	TruncateRows(ctx context.Context, path catalogs.ObjectPath) error
}

// readRowStore reads the whole table into batches. (The store is read
// inside one read transaction, which a lazy reader could not keep open
// across the query's batches without holding the store.)
func readRowStore(ctx context.Context, rs RowStore, t *Table) (Reader, error) {
	ts := t.Types()
	var batches []*vector.Batch
	var cur *vector.Batch
	err := rs.ReadRows(ctx, t.Name.Path(), ts, func(row []any) error {
		if cur == nil || cur.N >= vector.BatchSize {
			if err := ctx.Err(); err != nil {
				return err
			}
			cur = vector.NewBatch(ts, vector.BatchSize)
			batches = append(batches, cur)
		}
		cur.AppendRow(types.Insert, row)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return SliceReader(batches), nil
}

// rowStoreWriter buffers the statement's rows and writes them in one
// transaction at Commit.
type rowStoreWriter struct {
	rs        RowStore
	t         *Table
	overwrite bool
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
	return w.rs.WriteRows(ctx, w.t.Name.Path(), w.t.Types(), w.overwrite, func(emit func(row []any) error) error {
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
	})
}

func (w *rowStoreWriter) Abort() error {
	w.batches = nil
	return nil
}
