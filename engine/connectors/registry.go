package connectors

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"

	"eddy/engine/types"
)

// Factory makes the sources and sinks of one connector, as Flink's
// DynamicTableSourceFactory and DynamicTableSinkFactory do, and declares
// what they can do so the planner can ask before anything is opened.
type Factory struct {
	// Identifier is the value of the 'connector' option that selects the
	// factory.
	Identifier string
	// Required and Optional are the option keys the factory consumes;
	// OptionPrefixes accepts every key with one of these prefixes too.
	// They are checked with Flink's texts (CheckOptions) unless Validate is
	// set.
	Required, Optional, OptionPrefixes []string
	// Validate, when set, checks a table's options itself (options that
	// depend on the schema, on the format, or on each other). It is called
	// only for the role the factory has (Source or Sink set).
	Validate func(t *Table, sink bool) error
	// Source opens a reader of every physical column of t followed by its
	// metadata columns (Table.Metadata, only keys the factory declares
	// readable); nil for a connector that can only be used as a sink.
	Source func(ctx context.Context, env *Env, t *Table) (Reader, error)
	// Sink opens a writer of rows with every physical column of t; nil for
	// a connector that can only be used as a source.
	Sink func(ctx context.Context, env *Env, t *Table, spec WriteSpec) (Writer, error)
	// Truncate removes every row of t (TRUNCATE TABLE); nil when the
	// connector cannot (Flink's SupportsTruncate).
	Truncate func(ctx context.Context, env *Env, t *Table) error
	// Lookup opens a reader of t's rows by the values of its columns keys
	// (a lookup join's dimension side, Flink's LookupTableSource); nil
	// when the connector cannot.
	Lookup func(ctx context.Context, env *Env, t *Table, keys []int) (Lookuper, error)
	// Abilities declares what the connector's source and sink of t can do;
	// nil declares a bounded, insert-only source and an insert-only sink
	// without pushdown.
	Abilities func(t *Table) Abilities
}

// Env is what the session gives every source and sink it opens.
type Env struct {
	// Memory keeps the rows of managed tables of catalogs that store no
	// rows themselves, and of temporary managed tables.
	Memory *MemoryStore
	// Stdout and Stderr receive the rows of print sinks (nil: discarded).
	Stdout, Stderr io.Writer
	// Seed makes datagen sources deterministic: with a non-zero seed,
	// every scan of the same table yields the same random values.
	Seed uint64
}

// ChangelogMode is the kind of change stream a source produces or a sink
// accepts (Flink's ChangelogMode).
type ChangelogMode uint8

const (
	// InsertOnly is a stream of inserts: rows, without updates or deletes.
	InsertOnly ChangelogMode = iota
	// Upsert is inserts, update-afters and deletes by the primary key.
	Upsert
	// FullChangelog is every row kind, update-befores included.
	FullChangelog
)

func (m ChangelogMode) String() string {
	switch m {
	case Upsert:
		return "upsert"
	case FullChangelog:
		return "changelog"
	}
	return "insert-only"
}

// FilterSupport is the set of filter forms a source applies where its
// rows are stored (Flink's SupportsFilterPushDown); the forms are
// RowFilter's vocabulary and its planned extensions.
type FilterSupport uint16

const (
	// FilterCompare is column-op-constant with =, <>, <, <=, >, >=.
	FilterCompare FilterSupport = 1 << iota
	// FilterNullTest is IS NULL and IS NOT NULL.
	FilterNullTest
	// FilterIn is column IN (constants).
	FilterIn
	// FilterRange is a column between two constant bounds.
	FilterRange
	// FilterLikePrefix is column LIKE 'prefix%'.
	FilterLikePrefix
	// FilterOr is a disjunction of the forms above over one column.
	FilterOr
)

// Has reports whether every form of f is in s.
func (s FilterSupport) Has(f FilterSupport) bool { return s&f == f }

// MetadataKey is one metadata value a source can read or a sink can write
// (a METADATA column's key, Flink's SupportsReadingMetadata).
type MetadataKey struct {
	Key  string
	Type *types.Type
}

// Abilities are what a connector declares about its source and sink of a
// table; the planner consults them before opening anything. A reader
// still decides at open time which offered filters it takes exactly
// (Pushdown): a declared ability is a promise to accept, never to apply.
type Abilities struct {
	// Source and Sink report which roles the connector has.
	Source, Sink bool
	// Bounded is false for a source that never ends (a datagen without a
	// row count, a monitored directory); unbounded sources are only
	// accepted in streaming mode.
	Bounded bool
	// Projection: the source reads only the columns asked for
	// (Pushdown.PushColumns).
	Projection bool
	// Filters are the filter forms the source may take
	// (Pushdown.PushFilters).
	Filters FilterSupport
	// Limit: the source stops after a row count it is given.
	Limit bool
	// Partitions: the source reads only the partitions it is given.
	Partitions bool
	// ReadableMetadata and WritableMetadata are the metadata keys the
	// source reads and the sink writes, in Flink's order.
	ReadableMetadata, WritableMetadata []MetadataKey
	// Produces is the changelog the source emits; Accepts is the one the
	// sink takes as it is (a sink accepting InsertOnly stores rows: an
	// updating query is materialized to its final rows first).
	Produces, Accepts ChangelogMode
	// RefusesUpdates: in streaming mode the sink refuses an updating
	// query it cannot take as it is (Accepts), where other sinks receive
	// the query's final rows (Flink's filesystem sink).
	RefusesUpdates bool
	// Lookup: the source answers point lookups by key (lookup joins).
	Lookup bool
}

// ReadsMetadata returns the type of a readable metadata key, or nil.
func (a Abilities) ReadsMetadata(key string) *types.Type {
	for _, m := range a.ReadableMetadata {
		if m.Key == key {
			return m.Type
		}
	}
	return nil
}

// CatalogConnector is implemented by catalogs that supply the connector
// of their own tables (Flink's Catalog.getFactory): its factory is used
// for the catalog's tables before the 'connector' option is looked up.
type CatalogConnector interface {
	// Connector returns the factory of one of the catalog's tables; ok
	// false leaves the table to the 'connector' option (or to the managed
	// table storage when there is none).
	Connector(t *Table) (f *Factory, ok bool)
}

// Registry is a set of connector and format factories by identifier. A
// registry is built once (NewRegistry registers eddy's connectors) and
// then only read; Register is for building it.
type Registry struct {
	factories map[string]*Factory
	formats   map[string]*Format
	managed   *Factory
}

// NewRegistry returns a registry of eddy's connectors (datagen,
// filesystem, print, blackhole), formats (eddyFormats) and the storage of
// managed tables.
func NewRegistry() *Registry {
	r := &Registry{factories: map[string]*Factory{}, formats: map[string]*Format{}, managed: managedFactory()}
	for _, f := range []*Factory{datagenFactory(), filesystemFactory(r), printFactory(), blackholeFactory()} {
		r.Register(f)
	}
	for _, f := range eddyFormats() {
		r.RegisterFormat(f)
	}
	return r
}

// Register adds a connector factory, replacing one with the same
// identifier.
func (r *Registry) Register(f *Factory) { r.factories[f.Identifier] = f }

// RegisterFormat adds a format, replacing one with the same identifier.
func (r *Registry) RegisterFormat(f *Format) { r.formats[f.Identifier] = f }

// Identifiers returns the registered connector identifiers, sorted.
func (r *Registry) Identifiers() []string { return sortedKeys(r.factories) }

// FormatIdentifiers returns the registered format identifiers, sorted.
func (r *Registry) FormatIdentifiers() []string { return sortedKeys(r.formats) }

func sortedKeys[V any](m map[string]V) []string {
	ids := make([]string, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// Format returns the format registered as id.
func (r *Registry) Format(id string) (*Format, bool) {
	f, ok := r.formats[id]
	return f, ok
}

// Factory returns the factory of a table: the one its catalog supplies
// (CatalogConnector), else the one its 'connector' option names, else the
// managed table storage when it has no 'connector' option. An unknown
// identifier is Flink's ValidationException.
func (r *Registry) Factory(t *Table) (*Factory, error) {
	if cc, ok := t.Catalog.(CatalogConnector); ok && !t.Temporary {
		if f, ok := cc.Connector(t); ok {
			return f, nil
		}
	}
	id, ok := t.Options["connector"]
	if !ok {
		return r.managed, nil
	}
	if f, ok := r.factories[id]; ok {
		return f, nil
	}
	return nil, validationError("Could not find any factory for identifier '%s' that implements 'org.apache.flink.table.factories.DynamicTableFactory' in the classpath.\n\nAvailable factory identifiers are:\n\n%s",
		id, strings.Join(r.Identifiers(), "\n"))
}

// Managed reports whether t is served by the storage of managed tables
// (no 'connector' option and no connector supplied by its catalog).
func (r *Registry) Managed(t *Table) bool {
	f, err := r.Factory(t)
	return err == nil && f == r.managed
}

// Validate checks a table's connector options the way Flink does when the
// table is used as a source (sink false) or a sink (sink true): an unknown
// connector, a source used as a sink or the reverse, missing required and
// unsupported options.
func (r *Registry) Validate(t *Table, sink bool) error {
	f, err := r.Factory(t)
	if err != nil {
		return err
	}
	return f.validate(t, sink)
}

func (f *Factory) validate(t *Table, sink bool) error {
	if sink && f.Sink == nil {
		return validationError("Connector '%s' can only be used as a source. It cannot be used as a sink.", f.Identifier)
	}
	if !sink && f.Source == nil {
		return validationError("Connector '%s' can only be used as a sink. It cannot be used as a source.", f.Identifier)
	}
	if f.Validate != nil {
		return f.Validate(t, sink)
	}
	return CheckOptions(f.Identifier, t.Options, f.Required, f.Optional, f.OptionPrefixes...)
}

// Abilities returns what the connector of t declares about its source and
// sink of t. A table whose connector is unknown gets the abilities of a
// bounded insert-only source and sink without pushdown (its use fails in
// Validate).
func (r *Registry) Abilities(t *Table) Abilities {
	f, err := r.Factory(t)
	if err != nil {
		return Abilities{Source: true, Sink: true, Bounded: true}
	}
	return f.abilities(t)
}

func (f *Factory) abilities(t *Table) Abilities {
	var a Abilities
	if f.Abilities != nil {
		a = f.Abilities(t)
	} else {
		a = Abilities{Bounded: true}
	}
	a.Source, a.Sink = f.Source != nil, f.Sink != nil
	a.Lookup = f.Lookup != nil
	return a
}

// Lookuper answers the point lookups of a lookup join.
type Lookuper interface {
	// Lookup returns the rows, every physical column of the table, whose
	// key columns equal key (in the order of the keys it was opened with).
	Lookup(ctx context.Context, key []any) ([][]any, error)
	Close() error
}

// OpenLookup validates t as a source and returns a lookup reader of t by
// the columns keys, or Flink's error for a connector that cannot look up.
func (r *Registry) OpenLookup(ctx context.Context, env *Env, t *Table, keys []int) (Lookuper, error) {
	f, err := r.Factory(t)
	if err != nil {
		return nil, err
	}
	if f.Lookup == nil {
		return nil, &Error{Exception: "TableException", Msg: "Processing-time temporal join is not supported yet."}
	}
	if err := f.validate(t, false); err != nil {
		return nil, err
	}
	return f.Lookup(ctx, env, t, keys)
}

// OpenReader validates t as a source and returns a reader of every
// physical column of t.
func (r *Registry) OpenReader(ctx context.Context, env *Env, t *Table) (Reader, error) {
	f, err := r.Factory(t)
	if err != nil {
		return nil, err
	}
	if err := f.validate(t, false); err != nil {
		return nil, err
	}
	if len(t.Metadata) > 0 {
		a := f.abilities(t)
		for _, m := range t.Metadata {
			if a.ReadsMetadata(m.Key) == nil {
				return nil, validationError("Connector '%s' cannot read the metadata key '%s' of column '%s'.", f.Identifier, m.Key, m.Name)
			}
		}
	}
	return f.Source(ctx, env, t)
}

// OpenWriter validates t as a sink and returns a writer of rows with every
// physical column of t.
func (r *Registry) OpenWriter(ctx context.Context, env *Env, t *Table, spec WriteSpec) (Writer, error) {
	f, err := r.Factory(t)
	if err != nil {
		return nil, err
	}
	if err := f.validate(t, true); err != nil {
		return nil, err
	}
	return f.Sink(ctx, env, t, spec)
}

// Truncate removes every row of t, or fails as Flink does for a table
// whose connector cannot.
func (r *Registry) Truncate(ctx context.Context, env *Env, t *Table) error {
	f, err := r.Factory(t)
	if err == nil && f.Truncate != nil {
		return f.Truncate(ctx, env, t)
	}
	return &Error{Exception: "TableException", Msg: fmt.Sprintf(
		"TRUNCATE TABLE statement is not supported for the table %s since the table hasn't implemented the interface org.apache.flink.table.connector.sink.abilities.SupportsTruncate.",
		t.Name)}
}
