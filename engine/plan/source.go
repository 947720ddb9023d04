package plan

import (
	"fmt"
	"sort"
	"strings"

	"eddy/catalogs"
)

// Scan reads a catalog table (or a temporary table) through its connector,
// or from the catalog's own storage when Options has no 'connector' key (a
// managed table).
type Scan struct {
	Table TableID
	// Options are the table's WITH options as stored in the catalog.
	Options map[string]string
	// Physical is the table's physical schema, in declaration order
	// (computed columns excluded: the validator computes them in a Project
	// above the scan), followed by the METADATA columns the connector
	// reads (see Metadata).
	Physical Schema
	// Metadata are the metadata keys of the last len(Metadata) columns of
	// Physical, which the connector reads (Flink's SupportsReadingMetadata);
	// a metadata column whose key the connector does not declare is NULL
	// in the Project above the scan and not read.
	Metadata []string
	// Projection lists the physical columns the scan outputs, in output
	// order; nil outputs every physical column.
	Projection []int
	// Filters are conjuncts over the Physical schema (ColumnRef.Index is a
	// physical position) that the source should apply; the executor applies
	// them itself when a source cannot. Empty means no filter.
	Filters []Expr
	// PartitionKeys are the table's PARTITIONED BY columns, or nil.
	PartitionKeys []string
	// Bounded is false for an unbounded source (a streaming datagen, a
	// monitored directory), as its connector declares it; unbounded
	// sources are only accepted in streaming mode.
	Bounded bool
	// Rowtime is the physical index of the event-time column declared by a
	// WATERMARK clause, or -1; Watermark is the watermark expression over
	// the Physical schema, or nil.
	Rowtime   int
	Watermark Expr
	// ComputedDelay is, for a WATERMARK clause on a computed column
	// (which has no Rowtime), the clause's delay in milliseconds when it
	// reads `rowtime` or `rowtime - INTERVAL ...`; nil otherwise.
	ComputedDelay *int64
	// Catalog is the catalog that keeps the table, as the validator
	// resolved it (nil for a temporary table, and in plans made by hand):
	// the runtime opens the table through it without looking the table up
	// again.
	Catalog catalogs.Catalog
	// Temporary marks a temporary table (its rows live in the session).
	Temporary bool
	// PrimaryKey are the physical positions of the table's PRIMARY KEY
	// columns, or nil: the key by which an upsert source's rows replace
	// each other (see ChangelogNormalize).
	PrimaryKey []int
}

// Schema returns the projected physical columns.
func (n *Scan) Schema() Schema {
	if n.Projection == nil {
		return n.Physical
	}
	out := make(Schema, len(n.Projection))
	for i, p := range n.Projection {
		out[i] = n.Physical[p]
	}
	return out
}

// Children returns nil.
func (n *Scan) Children() []Node { return nil }

// WithChildren accepts no children.
func (n *Scan) WithChildren(c ...Node) (Node, error) {
	if err := checkChildren("Scan", 0, c); err != nil {
		return nil, err
	}
	return n, nil
}

// Describe prints Scan(table=[...], fields=[...]).
func (n *Scan) Describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "TableSourceScan(table=[%s], fields=[%s]", n.Table, strings.Join(n.Schema().Names(), ", "))
	if n.Projection != nil {
		fmt.Fprintf(&b, ", project=[%s]", intList(n.Projection))
	}
	if len(n.Filters) > 0 {
		fmt.Fprintf(&b, ", filter=[%s]", exprList(n.Filters))
	}
	b.WriteString(")")
	return b.String()
}

// Values is a literal table: each row is a list of constant expressions,
// one per column of Cols.
type Values struct {
	Cols Schema
	Rows [][]Expr
}

// Schema returns the declared columns.
func (n *Values) Schema() Schema { return n.Cols }

// Children returns nil.
func (n *Values) Children() []Node { return nil }

// WithChildren accepts no children.
func (n *Values) WithChildren(c ...Node) (Node, error) {
	if err := checkChildren("Values", 0, c); err != nil {
		return nil, err
	}
	return n, nil
}

// Describe prints Values(tuples=[[...], ...]).
func (n *Values) Describe() string {
	rows := make([]string, len(n.Rows))
	for i, r := range n.Rows {
		rows[i] = "{ " + exprList(r) + " }"
	}
	return "Values(tuples=[[" + strings.Join(rows, ", ") + "]], values=[" + strings.Join(n.Cols.Names(), ", ") + "])"
}

// Sink writes its input into a table (INSERT INTO / INSERT OVERWRITE, and
// the target of CREATE TABLE AS). The input's schema has exactly the
// table's physical columns, in order and of the table's types: the
// validator maps a column list, fills missing columns with NULL literals,
// fills static partition columns with their literal values, and inserts
// the casts Flink would.
type Sink struct {
	Input   Node
	Table   TableID
	Options map[string]string // the table's WITH options
	// Physical is the table's physical schema (equal in length to Input's),
	// followed by its persisted metadata columns (see Metadata).
	Physical Schema
	// Metadata are the metadata keys of the last len(Metadata) columns of
	// Physical: the table's persisted (not VIRTUAL) metadata columns, which
	// the connector writes (Flink's SupportsWritingMetadata).
	Metadata []string
	// PartitionKeys are the table's PARTITIONED BY columns, or nil.
	PartitionKeys []string
	// Overwrite is INSERT OVERWRITE: the table's (or, with a static
	// partition, that partition's) rows are replaced.
	Overwrite bool
	// StaticPartition holds PARTITION (k = 'v', ...) values, or nil.
	StaticPartition map[string]string
	// InputUpdates is set by the changelog pass of engine/opt, in
	// streaming mode, when the input's rows carry updates or deletions.
	InputUpdates bool
	// Direct is set by the direct-insert pass of engine/opt: the input is
	// constant rows (Values, possibly under a projection of constants)
	// and the table is a managed one (no 'connector' option), so the rows
	// may be handed to the catalog's store without running operators.
	Direct bool
	// PrimaryKey are the columns of the table's PRIMARY KEY, or nil.
	PrimaryKey []string
	// Catalog is the catalog that keeps the table, as the validator
	// resolved it (nil for a temporary table): the runtime opens the
	// table through it without looking the table up again.
	Catalog catalogs.Catalog
	// Temporary marks a temporary table (its rows live in the session).
	Temporary bool
}

// Schema returns nil: a sink produces no rows.
func (n *Sink) Schema() Schema { return nil }

// Children returns the input.
func (n *Sink) Children() []Node { return []Node{n.Input} }

// WithChildren replaces the input.
func (n *Sink) WithChildren(c ...Node) (Node, error) {
	if err := checkChildren("Sink", 1, c); err != nil {
		return nil, err
	}
	cp := *n
	cp.Input = c[0]
	return &cp, nil
}

// Describe prints Sink(table=[...], fields=[...]).
func (n *Sink) Describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Sink(table=[%s], fields=[%s]", n.Table, strings.Join(n.Physical.Names(), ", "))
	if n.Overwrite {
		b.WriteString(", overwrite=[true]")
	}
	if len(n.StaticPartition) > 0 {
		keys := make([]string, 0, len(n.StaticPartition))
		for k := range n.StaticPartition {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for i, k := range keys {
			keys[i] = k + "=" + n.StaticPartition[k]
		}
		fmt.Fprintf(&b, ", partition=[%s]", strings.Join(keys, ", "))
	}
	if n.InputUpdates {
		b.WriteString(", inputUpdates=[true]")
	}
	if n.Direct {
		b.WriteString(", direct=[true]")
	}
	b.WriteString(")")
	return b.String()
}

var (
	_ Node = (*Scan)(nil)
	_ Node = (*Values)(nil)
	_ Node = (*Sink)(nil)
)
