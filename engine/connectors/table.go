package connectors

import (
	"context"
	"fmt"
	"io"

	"eddy/catalogs"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// Column is one physical column of a table.
type Column struct {
	Name string
	Type *types.Type
}

// Table is what a connector needs to know about a table to read or write
// it.
type Table struct {
	// Catalog is the catalog instance holding the table; managed tables
	// keep their rows in it (or, for catalogs that store no rows, in the
	// MemoryStore under this instance).
	Catalog catalogs.Catalog
	// Name is the table's identifier (for messages).
	Name catalogs.Identifier
	// Temporary marks a temporary table: its rows live in the MemoryStore
	// whatever its catalog.
	Temporary     bool
	Options       map[string]string
	Columns       []Column
	PartitionKeys []string
}

// Types returns the column types.
func (t *Table) Types() []*types.Type {
	out := make([]*types.Type, len(t.Columns))
	for i, c := range t.Columns {
		out[i] = c.Type
	}
	return out
}

// Managed reports whether the table has no 'connector' option: its rows
// are stored by eddy.
func (t *Table) Managed() bool {
	_, ok := t.Options["connector"]
	return !ok
}

// WriteSpec says how a statement writes a table.
type WriteSpec struct {
	Overwrite       bool
	StaticPartition map[string]string
	Streaming       bool
}

// Connectors opens readers and writers for tables. It holds the memory
// store of managed tables of catalogs that keep no rows themselves.
type Connectors struct {
	Memory *MemoryStore
	// Stdout and Stderr receive the rows of print sinks (nil: discarded).
	Stdout, Stderr io.Writer
	// Seed makes datagen sources deterministic: with a non-zero seed,
	// every scan of the same table yields the same random values.
	Seed uint64
}

// New returns connectors with an empty memory store.
func New() *Connectors { return &Connectors{Memory: NewMemoryStore()} }

// Error is a connector failure with Flink's exception class.
type Error struct {
	Exception string
	Msg       string
}

func (e *Error) Error() string { return e.Msg }

// Class returns Flink's exception class.
func (e *Error) Class() string { return e.Exception }

func unsupportedConnector(t *Table) error {
	name := t.Options["connector"]
	return &Error{Exception: "ValidationException", Msg: fmt.Sprintf(
		"Could not find any factory for identifier '%s' that implements 'org.apache.flink.table.factories.DynamicTableFactory' in the classpath.", name)}
}

// OpenReader returns a reader of every physical column of t.
func (c *Connectors) OpenReader(ctx context.Context, t *Table) (Reader, error) {
	if t.Managed() {
		if rs, ok := t.Catalog.(RowStore); ok && !t.Temporary {
			return readRowStore(ctx, rs, t)
		}
		return c.Memory.Reader(t), nil
	}
	if err := Validate(t, false); err != nil {
		return nil, err
	}
	switch t.Options["connector"] {
	case "filesystem":
		return openFileReader(ctx, t)
	case "datagen":
		return openDatagenReader(t, c.Seed)
	}
	return nil, unsupportedConnector(t)
}

// OpenWriter returns a writer of rows with every physical column of t.
func (c *Connectors) OpenWriter(ctx context.Context, t *Table, spec WriteSpec) (Writer, error) {
	if t.Managed() {
		if rs, ok := t.Catalog.(RowStore); ok && !t.Temporary {
			return &rowStoreWriter{rs: rs, t: t, overwrite: spec.Overwrite}, nil
		}
		return c.Memory.Writer(t, spec.Overwrite), nil
	}
	if err := Validate(t, true); err != nil {
		return nil, err
	}
	switch t.Options["connector"] {
	case "filesystem":
		return openFileWriter(t, spec)
	case "blackhole":
		return discard{}, nil
	case "print":
		return c.openPrintWriter(t)
	}
	return nil, unsupportedConnector(t)
}

// Truncate removes every row of a managed table (TRUNCATE TABLE).
func (c *Connectors) Truncate(ctx context.Context, t *Table) error {
	if !t.Managed() {
		return &Error{Exception: "TableException", Msg: fmt.Sprintf(
			"TRUNCATE TABLE statement is not supported for the table %s since the table hasn't implemented the interface org.apache.flink.table.connector.sink.abilities.SupportsTruncate.",
			t.Name)}
	}
	if rs, ok := t.Catalog.(RowStore); ok && !t.Temporary {
		return rs.TruncateRows(ctx, t.Name.Path())
	}
	c.Memory.Drop(t)
	return nil
}

type discard struct{}

func (discard) Write(context.Context, *vector.Batch) error { return nil }
func (discard) Commit(context.Context) error               { return nil }
func (discard) Abort() error                               { return nil }
