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
	// ReadRows calls fn for at most limit rows (limit <= 0: all) after the
	// row position after (0: from the start) and returns the position of
	// the last row read.
	ReadRows(ctx context.Context, path catalogs.ObjectPath, cols []*types.Type, after int64, limit int,
		fn func(row []any) error) (int64, error)
	WriteRows(ctx context.Context, path catalogs.ObjectPath, cols []*types.Type, overwrite bool,
		produce func(emit func(row []any) error) error) error
	TruncateRows(ctx context.Context, path catalogs.ObjectPath) error
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
