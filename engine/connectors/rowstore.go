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
	// The group holds the store's write lock from before the statement
	// was planned: the writer binds to its table at its first write.
	return &rowStoreWriter{rs: rs, t: t, overwrite: overwrite, group: g, keyed: keyColumns(t) != nil}, true
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

// rowStoreWriter buffers the statement's rows and writes them at Commit
// (and at each Checkpoint) in one transaction: one of its own, or a
// statement of group. Spill moves them to a stage of the store until
// Commit (a batch statement larger than its memory share). It is bound
// to the table it was opened for (catalogs.RowTarget): a write after that
// table was dropped, created again or altered fails and writes nothing.
//
// A table with a primary key takes a changelog (its factory accepts
// upserts): the rows are applied as changes in their order (+I and +U
// write the key's row, -U and -D delete it, as Flink's table store
// applies a changelog). A table without a key stores every row it gets.
type rowStoreWriter struct {
	rs        RowStore
	t         *Table
	target    catalogs.RowTarget
	bound     bool
	overwrite bool                // the next write replaces the table's rows
	group     catalogs.WriteGroup // nil: a transaction of its own
	batches   []*vector.Batch
	bytes     int64             // estimated heap bytes of batches
	stage     catalogs.RowStage // rows spilled before the commit, or nil
	keyed     bool              // the table has a primary key
}

// openRowStoreWriter opens a writer of t's rows bound to the table as it
// is now, which must be as the statement was planned (t.Columns).
func openRowStoreWriter(ctx context.Context, rs RowStore, t *Table, overwrite bool, g catalogs.WriteGroup) (*rowStoreWriter, error) {
	w := &rowStoreWriter{rs: rs, t: t, overwrite: overwrite, group: g, keyed: keyColumns(t) != nil}
	if err := w.bind(ctx); err != nil {
		return nil, err
	}
	return w, nil
}

// bind binds the writer to its table once.
func (w *rowStoreWriter) bind(ctx context.Context) error {
	if w.bound {
		return nil
	}
	names := make([]string, len(w.t.Columns))
	for i, c := range w.t.Columns {
		names[i] = c.Name
	}
	target, err := w.rs.BindRows(ctx, w.t.Name.Path(), names, w.t.Types())
	if err != nil {
		return err
	}
	w.target, w.bound = target, true
	return nil
}

func (w *rowStoreWriter) Write(ctx context.Context, b *vector.Batch) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	w.batches = append(w.batches, b)
	w.bytes += batchBytes(b)
	return nil
}

// Buffered returns the estimated heap bytes of the rows written since the
// last commit.
func (w *rowStoreWriter) Buffered() int64 { return w.bytes }

// Checkpoint commits the rows written so far (in a transaction of their
// own) and goes on: they stay when the statement fails or stops later. A
// writer inside a write group does nothing: its rows are the group's.
func (w *rowStoreWriter) Checkpoint(ctx context.Context) error {
	if w.group != nil || len(w.batches) == 0 {
		return nil
	}
	return w.flush(ctx)
}

// Spill moves the rows written so far out of memory without committing
// them (a stage of the row store, when it has stages): they are written
// at Commit with the rest, or dropped by Abort.
func (w *rowStoreWriter) Spill(ctx context.Context) error {
	stager, ok := w.rs.(catalogs.RowStager)
	if w.group != nil || !ok || len(w.batches) == 0 {
		return nil
	}
	if err := w.bind(ctx); err != nil {
		return err
	}
	if w.stage == nil {
		st, err := stager.StageRows(ctx, w.target)
		if err != nil {
			return err
		}
		w.stage = st
	}
	if err := w.stage.Append(ctx, w.changes(ctx, w.batches)); err != nil {
		return err
	}
	w.reset()
	return nil
}

func (w *rowStoreWriter) Commit(ctx context.Context) error {
	if w.stage != nil {
		st := w.stage
		w.stage = nil
		if err := st.Commit(ctx, w.overwrite, w.changes(ctx, w.batches)); err != nil {
			return err
		}
		w.reset()
		w.overwrite = false
		return nil
	}
	if len(w.batches) == 0 && !w.overwrite && w.bound && w.group == nil {
		// Everything was committed at checkpoints; nothing is left.
		return nil
	}
	return w.flush(ctx)
}

// produce returns a producer of the rows of batches.
func (w *rowStoreWriter) produce(ctx context.Context, batches []*vector.Batch) func(emit func(row []any) error) error {
	return func(emit func(row []any) error) error {
		for _, b := range batches {
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
}

// changes returns the changes of the rows of batches: for a table with a
// primary key, a -U or -D row deletes its key's row, every other row is
// put, and only the last change of each key is kept (the key ends the
// same as after all of them in order, in fewer writes); for a table
// without a key, every row is put.
func (w *rowStoreWriter) changes(ctx context.Context, batches []*vector.Batch) catalogs.Changes {
	var keep [][]bool
	if w.keyed {
		keep = lastOfKeys(batches, keyColumns(w.t))
	}
	return func(put, del func(row []any) error) error {
		for bi, b := range batches {
			if err := ctx.Err(); err != nil {
				return err
			}
			for i := range b.N {
				emit := put
				if keep != nil {
					if !keep[bi][i] {
						continue
					}
					if !b.Kind(i).IsAccumulate() {
						emit = del
					}
				}
				if err := emit(b.Row(i)); err != nil {
					return err
				}
			}
		}
		return nil
	}
}

// lastOfKeys marks, for each row of batches, whether it is the last row
// of its key (the values at positions keys).
func lastOfKeys(batches []*vector.Batch, keys []int) [][]bool {
	type at struct{ b, i int }
	last := map[string]at{}
	var buf []byte
	keyOf := func(b *vector.Batch, i int) string {
		buf = buf[:0]
		for _, k := range keys {
			buf = vector.AppendKey(buf, b.Cols[k], i)
		}
		return string(buf)
	}
	keep := make([][]bool, len(batches))
	for bi, b := range batches {
		keep[bi] = make([]bool, b.N)
		for i := range b.N {
			k := keyOf(b, i)
			if prev, ok := last[k]; ok {
				keep[prev.b][prev.i] = false
			}
			last[k] = at{bi, i}
			keep[bi][i] = true
		}
	}
	return keep
}

// retracts reports whether the rows of batches delete keys.
func (w *rowStoreWriter) retracts(batches []*vector.Batch) bool {
	if !w.keyed {
		return false
	}
	for _, b := range batches {
		for i := range b.N {
			if !b.Kind(i).IsAccumulate() {
				return true
			}
		}
	}
	return false
}

// reset empties the buffer.
func (w *rowStoreWriter) reset() {
	clear(w.batches)
	w.batches, w.bytes = w.batches[:0], 0
}

// flush writes the buffered rows in one transaction (or statement of the
// group) and empties the buffer.
func (w *rowStoreWriter) flush(ctx context.Context) error {
	if err := w.bind(ctx); err != nil {
		return err
	}
	var err error
	switch produce := w.produce(ctx, w.batches); {
	case w.retracts(w.batches) && w.group != nil:
		err = w.group.ApplyTarget(ctx, w.rs, w.target, w.overwrite, w.changes(ctx, w.batches))
	case w.retracts(w.batches):
		err = w.rs.ApplyTarget(ctx, w.target, w.overwrite, w.changes(ctx, w.batches))
	case w.group != nil:
		err = w.group.WriteTarget(ctx, w.rs, w.target, w.overwrite, produce)
	default:
		err = w.rs.WriteTarget(ctx, w.target, w.overwrite, produce)
	}
	if err != nil {
		return err
	}
	w.reset()
	w.overwrite = false
	return nil
}

func (w *rowStoreWriter) Abort() error {
	w.batches, w.bytes = nil, 0
	if w.stage != nil {
		st := w.stage
		w.stage = nil
		return st.Discard()
	}
	return nil
}

// batchBytes estimates the heap bytes a buffered batch holds: proportional,
// not exact (strings and byte strings by their length, other values by a
// fixed slot).
func batchBytes(b *vector.Batch) int64 {
	size := int64(b.N) * int64(len(b.Cols)) * 16
	for _, v := range b.Cols {
		for _, s := range v.Strs {
			size += int64(len(s))
		}
		for _, x := range v.Bytes {
			size += int64(len(x))
		}
	}
	return size
}
