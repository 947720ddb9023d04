package catalogs

import (
	"context"
	"time"

	"eddy/engine/types"
)

// RowScanner is the capability of catalogs that store the rows of their
// managed tables themselves and can read them column by column: a scan
// reads only the columns it is asked for, may apply simple filters where
// the rows are stored, and fills typed column slices without boxing each
// value.
type RowScanner interface {
	// ScanRows opens a cursor over the rows of a managed table whose
	// physical columns have the given types, in insertion order. A table
	// that has no rows yet gives a cursor that ends at once.
	ScanRows(ctx context.Context, path ObjectPath, cols []*types.Type, spec ScanSpec) (RowCursor, error)
}

// ScanSpec says what a scan reads.
type ScanSpec struct {
	// Columns are the physical column positions to read, in the order the
	// chunks hold them; nil reads every column.
	Columns []int
	// Filters are conjuncts the store applies; every one of them is
	// exact (rows where it is not TRUE are dropped).
	Filters []RowFilter
	// Workers bounds the goroutines the scan may read and decode on
	// (the statement's eddy.exec.parallelism); 0 or 1 keeps the work on
	// the goroutines that call Next.
	Workers int
}

// FilterOp is the comparison of a RowFilter.
type FilterOp uint8

// Filter comparisons.
const (
	FilterEq FilterOp = iota + 1
	FilterNe
	FilterLt
	FilterLe
	FilterGt
	FilterGe
	FilterIsNull
	FilterIsNotNull
)

// RowFilter compares one physical column with a constant: Value is an
// int64 (integer columns), a float64 (DOUBLE columns) or a string
// (VARCHAR columns), and unused for the NULL tests. A comparison with a
// NULL column value is never TRUE, as in SQL.
type RowFilter struct {
	Column int
	Op     FilterOp
	Value  any
}

// RowCursor yields a scan's rows in chunks.
type RowCursor interface {
	// Next returns the next chunk of at most max rows, or nil at the end.
	// It returns ctx.Err() once the context is cancelled.
	Next(ctx context.Context, max int) (*ColumnChunk, error)
	// Close ends the scan and releases what it holds; it may be called
	// more than once.
	Close() error
}

// ConcurrentCursor is the ability of a RowCursor whose Next may be called
// from several goroutines at once (a parallel scan's workers), when
// Concurrent returns true: each call returns a chunk of its own, the
// chunks of all calls together are the rows of one snapshot of the table,
// each once, in no defined order across calls; a call returns the end
// (nil) only once every row was handed out, as callers stop at the first
// end; Close is called after every Next has returned. A store that reads its chunks under a lock and
// decodes them outside it lets the workers decode at the same time.
type ConcurrentCursor interface {
	RowCursor
	Concurrent() bool
}

// ChunkRecycler is the ability of a RowCursor to fill the slices of a
// chunk it returned again: Recycle tells it the caller keeps no slice of
// ch (values copied out stay valid: a string's bytes are never
// overwritten). A chunk not recycled is left to the garbage collector.
type ChunkRecycler interface {
	Recycle(ch *ColumnChunk)
}

// ColumnChunk is a set of rows stored as columns, in the order of
// ScanSpec.Columns.
type ColumnChunk struct {
	N    int
	Cols []ColumnValues
}

// ColumnValues holds N values of one column in the slice of its type's
// storage: Bools for BOOLEAN; Ints for the integer types, DATE (days),
// TIME (nanoseconds of the day) and intervals; Floats for FLOAT and
// DOUBLE; Strs for CHAR and VARCHAR; Bytes for BINARY and VARBINARY;
// Times for timestamps; Anys for DECIMAL (*decimal.Decimal) and the nested
// types (engine values). Nulls is a bitmap (bit i of word i/64 marks row i
// NULL) or nil when no value is NULL; a NULL slot holds the zero value.
type ColumnValues struct {
	Nulls  []uint64
	Bools  []bool
	Ints   []int64
	Floats []float64
	Strs   []string
	Bytes  [][]byte
	Times  []time.Time
	Anys   []any
}
