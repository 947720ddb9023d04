package engine

import (
	"context"
	"strings"

	"eddy/catalogs"
	"eddy/engine/connectors"
	"eddy/engine/exec"
	"eddy/engine/opt"
	"eddy/engine/plan"
	"eddy/engine/sqlerr"
	"eddy/engine/types"
)

// scanSources answers the validator's questions about table sources
// (validate.Sources) from the session's connector registry.
type scanSources struct{ s *Session }

// ScanBounded implements validate.Sources: the connector's declared
// Abilities.Bounded. A table that cannot be resolved counts as bounded;
// resolving it again when the statement runs reports the error.
func (src scanSources) ScanBounded(ctx context.Context, scan *plan.Scan) bool {
	t, err := src.s.scanTable(ctx, scan)
	if err != nil {
		return true
	}
	return src.s.conns.Abilities(t).Bounded
}

// MetadataType implements validate.Sources: the type of a metadata key
// the connector declares readable, or nil.
func (src scanSources) MetadataType(ctx context.Context, scan *plan.Scan, key string) *types.Type {
	t, err := src.s.scanTable(ctx, scan)
	if err != nil {
		return nil
	}
	return src.s.conns.Abilities(t).ReadsMetadata(key)
}

// scanTable describes a scanned table to the connectors: its catalog
// instance (nil for a temporary table), options, physical columns and
// partition keys.
func (s *Session) scanTable(ctx context.Context, scan *plan.Scan) (*connectors.Table, error) {
	if scan.Catalog != nil || scan.Temporary {
		// The validator resolved the table: no second lookup.
		t := scanTable(scan)
		t.Batch = !s.streaming()
		scanMetadata(t, scan)
		return t, nil
	}
	st := &sessionTables{tables: map[plan.TableID]*connectors.Table{}}
	if err := st.resolve(ctx, s.cat, scan.Table, scan.Physical, scan.Options, scan.PartitionKeys); err != nil {
		return nil, err
	}
	t := st.tables[scan.Table]
	t.Batch = !s.streaming()
	scanMetadata(t, scan)
	return t, nil
}

// scanMetadata gives a resolved table the metadata columns a scan reads:
// the last len(scan.Metadata) columns of scan.Physical, which are not
// physical columns of the table (the table may have been resolved from
// the scan, or from a sink of the same table, without them).
func scanMetadata(t *connectors.Table, scan *plan.Scan) {
	if len(scan.Metadata) == 0 || len(t.Metadata) > 0 {
		return
	}
	n := len(scan.Physical) - len(scan.Metadata)
	t.Columns = t.Columns[:n]
	for i, key := range scan.Metadata {
		c := scan.Physical[n+i]
		t.Metadata = append(t.Metadata, connectors.MetadataColumn{Name: c.Name, Key: key, Type: c.Type})
	}
}

// sinkMetadata gives a table resolved from a sink the metadata columns the
// sink writes (the last len(sink.Metadata) columns of sink.Physical), or
// fails as Flink does when its connector cannot write them.
func sinkMetadata(conns *connectors.Connectors, t *connectors.Table, sink *plan.Sink) error {
	if len(sink.Metadata) == 0 || len(t.Metadata) > 0 || len(t.Columns) != len(sink.Physical) {
		return nil
	}
	name := sink.Table.Catalog + "." + sink.Table.Database + "." + sink.Table.Object
	writable := conns.Abilities(t).WritableMetadata
	if len(writable) == 0 {
		return Errorf(sqlerr.ValidationException, "Table '%s' declares persistable metadata columns, but the underlying DynamicTableSink doesn't implement the SupportsWritingMetadata interface. If the column should not be persisted, it can be declared with the VIRTUAL keyword.", name)
	}
	n := len(sink.Physical) - len(sink.Metadata)
	for i, key := range sink.Metadata {
		c := sink.Physical[n+i]
		known := false
		keys := make([]string, len(writable))
		for j, w := range writable {
			keys[j] = w.Key
			known = known || w.Key == key
		}
		if !known {
			return Errorf(sqlerr.ValidationException, "Invalid metadata key '%s' in column '%s' of table '%s'. The connector '%s' supports the following metadata keys for writing:\n%s",
				key, c.Name, name, t.Options["connector"], strings.Join(keys, "\n"))
		}
		t.Metadata = append(t.Metadata, connectors.MetadataColumn{Name: c.Name, Key: key, Type: c.Type})
	}
	t.Columns = t.Columns[:n]
	return nil
}

// ScanAbilities returns what the connector of a planned scan declares
// about its source (connectors.Abilities: boundedness, projection, the
// filter forms it takes, limit, partitions, readable metadata, its
// changelog, lookup), before any reader is opened: planner passes consult
// it through this value.
func (src scanSources) ScanAbilities(ctx context.Context, scan *plan.Scan) (connectors.Abilities, error) {
	t, err := src.s.scanTable(ctx, scan)
	if err != nil {
		return connectors.Abilities{}, err
	}
	return src.s.conns.Abilities(t), nil
}

// managedTable reports whether a catalog table is a managed table of its
// catalog, whose rows the fast INSERT paths may write directly.
func (s *Session) managedTable(ctx context.Context, id catalogs.Identifier, tbl *catalogs.CatalogTable) bool {
	cat, err := s.cat.Catalog(ctx, id.Catalog)
	if err != nil {
		return false
	}
	return s.conns.Registry.Managed(&connectors.Table{Catalog: cat, Name: id, Options: tbl.Options})
}

// planSources answers the optimizer's questions (opt.Sources) from the
// connectors' declared abilities (connectors.Abilities) of the session's
// registry.
type planSources struct {
	ctx context.Context
	s   *Session
}

var _ opt.Sources = planSources{}

// Push implements opt.Sources: the scan reads only the used columns when
// its source declares Projection, and takes a filter conjunct when the
// source declares the filter form the conjunct needs (exec.FilterForm);
// any other conjunct stays in a Filter above the scan. A table that
// cannot be resolved takes nothing: resolving it when the statement runs
// reports the error.
func (src planSources) Push(scan *plan.Scan, filters []plan.Expr) (bool, []bool) {
	accepted := make([]bool, len(filters))
	a, err := src.abilities(scan)
	if err != nil {
		return false, accepted
	}
	for i, f := range filters {
		form, ok := exec.FilterForm(f)
		accepted[i] = ok && a.Filters.Has(form)
	}
	return a.Projection, accepted
}

// Bounded implements opt.Sources: the connector's Abilities.Bounded, as
// the validator recorded it on the scan.
func (planSources) Bounded(scan *plan.Scan) bool { return scan.Bounded }

// StoresRows implements opt.Sources: the registry serves the sink's
// table from the storage of managed tables (connectors.Registry.Managed),
// whose catalog store takes rows directly.
func (src planSources) StoresRows(sk *plan.Sink) bool {
	return src.s.conns.Registry.Managed(src.s.sinkTable(sk))
}

// abilities returns the declared abilities of a scan's source.
func (src planSources) abilities(scan *plan.Scan) (connectors.Abilities, error) {
	t, err := src.s.scanTable(src.ctx, scan)
	if err != nil {
		return connectors.Abilities{}, err
	}
	return src.s.conns.Abilities(t), nil
}
