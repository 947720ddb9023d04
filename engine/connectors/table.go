package connectors

import (
	"context"
	"time"

	"eddy/catalogs"
	"eddy/engine/types"
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
	// PrimaryKey are the columns of the table's PRIMARY KEY, or nil.
	PrimaryKey []string
	// Metadata are the METADATA columns a scan reads, in the order the
	// reader returns them after the physical columns; each key is one the
	// connector declares readable (Abilities.ReadableMetadata). For a
	// sink they are the persisted metadata columns, whose values follow
	// the physical columns in the rows written; each key is one the
	// connector declares writable (Abilities.WritableMetadata).
	Metadata []MetadataColumn
	// Batch is set on a scanned table when the statement runs in batch
	// mode, for a catalog whose connector serves its tables differently
	// then (CatalogConnector: the examples catalog reads a bounded
	// snapshot).
	Batch bool
}

// MetadataColumn is a METADATA column read from a connector: its values
// are the key's, cast to the column's type.
type MetadataColumn struct {
	Name, Key string
	Type      *types.Type
}

// ScanTypes returns the types of the columns a reader of t returns: the
// physical columns, then the metadata columns.
func (t *Table) ScanTypes() []*types.Type {
	ts := t.Types()
	for _, m := range t.Metadata {
		ts = append(ts, m.Type)
	}
	return ts
}

// Types returns the column types.
func (t *Table) Types() []*types.Type {
	out := make([]*types.Type, len(t.Columns))
	for i, c := range t.Columns {
		out[i] = c.Type
	}
	return out
}

// WriteSpec says how a statement writes a table.
type WriteSpec struct {
	Overwrite       bool
	StaticPartition map[string]string
	Streaming       bool
	// CheckpointInterval is execution.checkpointing.interval in streaming
	// mode: how often a transactional sink commits what it wrote (0: only
	// at Commit).
	CheckpointInterval time.Duration
}

// Connectors opens readers and writers for tables through a registry of
// connector factories. Its Env holds what the session gives every
// connector: the memory store of managed tables of catalogs that keep no
// rows themselves, the print writers, the datagen seed.
type Connectors struct {
	Env
	// Registry resolves a table's connector.
	Registry *Registry
}

// New returns connectors over eddy's registry (NewRegistry) with an empty
// memory store.
func New() *Connectors { return NewWith(NewRegistry()) }

// NewWith returns connectors over reg with an empty memory store.
func NewWith(reg *Registry) *Connectors {
	return &Connectors{Env: Env{Memory: NewMemoryStore()}, Registry: reg}
}

// Error is a connector failure with Flink's exception class.
type Error struct {
	Exception string
	Msg       string
}

func (e *Error) Error() string { return e.Msg }

// Class returns Flink's exception class.
func (e *Error) Class() string { return e.Exception }

// Validate checks a table's connector options for its use as a source
// (sink false) or a sink (Registry.Validate).
func (c *Connectors) Validate(t *Table, sink bool) error { return c.Registry.Validate(t, sink) }

// Abilities returns what the connector of t declares (Registry.Abilities).
func (c *Connectors) Abilities(t *Table) Abilities { return c.Registry.Abilities(t) }

// OpenReader returns a reader of every physical column of t, followed by
// its metadata columns.
func (c *Connectors) OpenReader(ctx context.Context, t *Table) (Reader, error) {
	return c.Registry.OpenReader(ctx, &c.Env, t)
}

// OpenWriter returns a writer of rows with every physical column of t.
func (c *Connectors) OpenWriter(ctx context.Context, t *Table, spec WriteSpec) (Writer, error) {
	return c.Registry.OpenWriter(ctx, &c.Env, t, spec)
}

// Truncate removes every row of a table (TRUNCATE TABLE): managed tables
// can, connectors without Factory.Truncate cannot.
func (c *Connectors) Truncate(ctx context.Context, t *Table) error {
	return c.Registry.Truncate(ctx, &c.Env, t)
}

// OpenLookup returns a lookup reader of t by the columns keys
// (Registry.OpenLookup).
func (c *Connectors) OpenLookup(ctx context.Context, t *Table, keys []int) (Lookuper, error) {
	return c.Registry.OpenLookup(ctx, &c.Env, t, keys)
}
