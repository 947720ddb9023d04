package iceberg

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	iceberg "github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"

	"eddy/catalogs"
	"eddy/engine/connectors"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// Read options of Iceberg's Flink source (FlinkReadOptions) that eddy
// honours, and the table properties of its sink (FlinkWriteOptions).
const (
	optSnapshotID   = "snapshot-id"
	optAsOfTS       = "as-of-timestamp"
	optUpsert       = "upsert-enabled"
	propUpsert      = "write.upsert.enabled"
	propFormatVer   = "format-version"
	optStreaming    = "streaming"
	optStartSnap    = "start-snapshot-id"
	optEndSnap      = "end-snapshot-id"
	optMonitorIntvl = "monitor-interval"
)

var _ connectors.CatalogConnector = (*Catalog)(nil)

// Connector supplies the connector of the catalog's Iceberg tables: reads
// and writes of the table in the Iceberg catalog. Temporary tables and
// tables naming another connector keep theirs.
func (c *Catalog) Connector(t *connectors.Table) (*connectors.Factory, bool) {
	if t.Temporary {
		return nil, false
	}
	if id, ok := t.Options[optConnector]; ok && id != connectorName {
		return nil, false
	}
	return &connectors.Factory{
		Identifier: connectorName,
		Validate:   func(t *connectors.Table, sink bool) error { return c.validate(t, sink) },
		Source: func(ctx context.Context, _ *connectors.Env, t *connectors.Table) (connectors.Reader, error) {
			return c.openReader(ctx, t)
		},
		Sink: func(ctx context.Context, _ *connectors.Env, t *connectors.Table, spec connectors.WriteSpec) (connectors.Writer, error) {
			return c.openWriter(ctx, t, spec)
		},
		Abilities: func(t *connectors.Table) connectors.Abilities {
			a := connectors.Abilities{Source: true, Sink: true, Bounded: !streaming(t.Options)}
			if upsertEnabled(t.Options) && len(t.PrimaryKey) > 0 {
				a.Accepts = connectors.Upsert
			}
			return a
		},
	}, true
}

func upsertEnabled(opts map[string]string) bool {
	if v, ok := opts[optUpsert]; ok {
		return strings.EqualFold(v, "true")
	}
	return strings.EqualFold(opts[propUpsert], "true")
}

func (c *Catalog) validate(t *connectors.Table, sink bool) error {
	for _, col := range t.Columns {
		if err := checkFlat(col.Name, col.Type); err != nil {
			return &connectors.Error{Exception: "ValidationException", Msg: fmt.Sprintf("Iceberg table %s: %v", t.Name, err)}
		}
	}
	if !sink {
		if streaming(t.Options) {
			_, err := parseStream(t.Options)
			return err
		}
		if _, err := readSelector(t.Options); err != nil {
			return err
		}
	}
	return nil
}

// readSelector returns the scan options that pick the snapshot read.
func readSelector(opts map[string]string) ([]table.ScanOption, error) {
	var out []table.ScanOption
	sid, hasSID := opts[optSnapshotID]
	ts, hasTS := opts[optAsOfTS]
	if hasSID && hasTS {
		return nil, &connectors.Error{Exception: "IllegalArgumentException", Msg: "Cannot set snapshot-id and as-of-timestamp at the same time"}
	}
	if hasSID {
		n, err := strconv.ParseInt(strings.TrimSpace(sid), 10, 64)
		if err != nil {
			return nil, &connectors.Error{Exception: "IllegalArgumentException", Msg: fmt.Sprintf("Invalid value for option '%s': '%s' is not a snapshot id", optSnapshotID, sid)}
		}
		out = append(out, table.WithSnapshotID(n))
	}
	if hasTS {
		n, err := strconv.ParseInt(strings.TrimSpace(ts), 10, 64)
		if err != nil {
			return nil, &connectors.Error{Exception: "IllegalArgumentException", Msg: fmt.Sprintf("Invalid value for option '%s': '%s' is not a timestamp in milliseconds", optAsOfTS, ts)}
		}
		out = append(out, table.WithSnapshotAsOf(n))
	}
	return out, nil
}

func (c *Catalog) tableOf(ctx context.Context, t *connectors.Table) (*table.Table, error) {
	return c.loadTable(ctx, catalogs.NewObjectPath(t.Name.Database, t.Name.Object))
}

// reader streams the Arrow batches of a scan as vector batches.
type reader struct {
	types []*types.Type
	cols  []string
	next  func() (arrow.RecordBatch, error, bool)
	stop  func()
}

func (c *Catalog) openReader(ctx context.Context, t *connectors.Table) (connectors.Reader, error) {
	if streaming(t.Options) {
		return c.openStream(t)
	}
	sel, err := readSelector(t.Options)
	if err != nil {
		return nil, err
	}
	tbl, err := c.tableOf(ctx, t)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(t.Columns))
	for i, col := range t.Columns {
		names[i] = col.Name
	}
	scan := tbl.Scan(append(sel, table.WithSelectedFields(names...))...)
	_, records, err := scan.ToArrowRecords(ctx)
	if err != nil {
		if errors.Is(err, table.ErrInvalidOperation) || strings.Contains(err.Error(), "snapshot") {
			return nil, &connectors.Error{Exception: "IllegalArgumentException", Msg: fmt.Sprintf("Cannot read Iceberg table %s: %v", t.Name, err)}
		}
		return nil, fmt.Errorf("cannot scan Iceberg table %s: %w", t.Name, err)
	}
	next, stop := iter.Pull2(records)
	return &reader{types: t.Types(), cols: names, next: next, stop: stop}, nil
}

func (r *reader) Next(ctx context.Context) (*vector.Batch, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		rec, err, ok := r.next()
		if !ok {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		n := int(rec.NumRows())
		if n == 0 {
			rec.Release()
			continue
		}
		b := vector.NewBatch(r.types, n)
		sc := rec.Schema()
		for i, name := range r.cols {
			idx := sc.FieldIndices(name)
			if len(idx) == 0 {
				for j := 0; j < n; j++ {
					b.Cols[i].AppendNull()
				}
				continue
			}
			if err := fromArrow(b.Cols[i], rec.Column(idx[0])); err != nil {
				rec.Release()
				return nil, err
			}
		}
		b.N = n
		rec.Release()
		return b, nil
	}
}

func (r *reader) Close() error {
	r.stop()
	return nil
}

// writer collects the rows of an INSERT and commits them in one snapshot.
type writer struct {
	c         *Catalog
	t         *connectors.Table
	tbl       *table.Table
	sc        *arrow.Schema
	types     []*types.Type
	overwrite bool
	// records are the rows of an append or overwrite.
	records []arrow.RecordBatch
	// upsert: the last change of each key, in the order keys came.
	upsert bool
	keys   []int // positions of the key columns
	order  []string
	last   map[string]change
	done   bool
}

type change struct {
	kind types.RowKind
	row  []any
}

func (c *Catalog) openWriter(ctx context.Context, t *connectors.Table, spec connectors.WriteSpec) (connectors.Writer, error) {
	tbl, err := c.tableOf(ctx, t)
	if err != nil {
		return nil, err
	}
	sc, err := table.SchemaToArrowSchema(tbl.Schema(), nil, false, false)
	if err != nil {
		return nil, err
	}
	if sc.NumFields() != len(t.Columns) {
		return nil, fmt.Errorf("Iceberg table %s has %d columns, the statement writes %d", t.Name, sc.NumFields(), len(t.Columns))
	}
	w := &writer{c: c, t: t, tbl: tbl, sc: sc, types: t.Types(), overwrite: spec.Overwrite}
	if len(t.PrimaryKey) > 0 && (upsertEnabled(t.Options) || spec.Streaming) && !spec.Overwrite {
		if tbl.Metadata().Version() < 2 {
			if upsertEnabled(t.Options) {
				return nil, &connectors.Error{Exception: "IllegalArgumentException", Msg: fmt.Sprintf(
					"Iceberg table %s has format-version 1: upserts ('write.upsert.enabled') need format-version 2", t.Name)}
			}
		} else {
			w.upsert = upsertEnabled(t.Options)
		}
	}
	if upsertEnabled(t.Options) && spec.Overwrite {
		return nil, &connectors.Error{Exception: "IllegalStateException", Msg: "OVERWRITE mode shouldn't be enable when configuring to use UPSERT data stream."}
	}
	if w.upsert {
		for _, k := range t.PrimaryKey {
			for i, col := range t.Columns {
				if col.Name == k {
					w.keys = append(w.keys, i)
				}
			}
		}
		w.last = map[string]change{}
	}
	return w, nil
}

func (w *writer) Write(ctx context.Context, b *vector.Batch) error {
	if w.upsert {
		for i := 0; i < b.N; i++ {
			var key []byte
			for _, k := range w.keys {
				key = vector.AppendKey(key, b.Cols[k], i)
			}
			k := string(key)
			if _, seen := w.last[k]; !seen {
				w.order = append(w.order, k)
			}
			w.last[k] = change{kind: b.Kind(i), row: b.Row(i)}
		}
		return nil
	}
	var sel []int
	if b.Kinds != nil {
		for i := 0; i < b.N; i++ {
			switch b.Kinds[i] {
			case types.Insert, types.UpdateAfter:
				sel = append(sel, i)
			default:
				return &connectors.Error{Exception: "TableException", Msg: fmt.Sprintf(
					"Iceberg table %s takes inserts only: give it a PRIMARY KEY and 'write.upsert.enabled' = 'true' (format-version 2) for updates and deletes", w.t.Name)}
			}
		}
		if len(sel) == 0 {
			return nil
		}
	}
	rec, err := toRecord(w.sc, w.types, b, sel)
	if err != nil {
		return err
	}
	w.records = append(w.records, rec)
	return nil
}

func (w *writer) release() {
	for _, r := range w.records {
		r.Release()
	}
	w.records = nil
}

func (w *writer) Abort() error {
	w.release()
	w.done = true
	return nil
}

// Commit commits the rows not yet committed and closes the writer.
func (w *writer) Commit(ctx context.Context) error {
	if w.done {
		return nil
	}
	w.done = true
	return w.commitBuffered(ctx)
}

// Checkpoint commits the rows written since the last checkpoint in one
// snapshot, as Iceberg's Flink sink commits on each checkpoint of a
// streaming INSERT, and goes on.
func (w *writer) Checkpoint(ctx context.Context) error {
	if w.done {
		return nil
	}
	return w.commitBuffered(ctx)
}

// Buffered estimates the bytes of the rows the writer holds.
func (w *writer) Buffered() int64 {
	var n int64
	for _, r := range w.records {
		for _, c := range r.Columns() {
			for _, b := range c.Data().Buffers() {
				if b != nil {
					n += int64(b.Len())
				}
			}
		}
	}
	return n + int64(len(w.order))*int64(16*len(w.types)+64)
}

// Spill keeps the rows in memory: an Iceberg writer's rows become
// visible only with a snapshot, and a checkpoint commits them.
func (w *writer) Spill(ctx context.Context) error { return nil }

func (w *writer) commitBuffered(ctx context.Context) error {
	defer w.release()
	// The table as it is now: another writer may have committed since
	// the writer opened.
	tbl, err := w.c.tableOf(ctx, w.t)
	if err != nil {
		return err
	}
	w.tbl = tbl
	if w.upsert {
		err := w.commitUpsert(ctx)
		w.order, w.last = nil, map[string]change{}
		return err
	}
	tx := tbl.NewTransaction()
	rdr, err := array.NewRecordReader(w.sc, w.records)
	if err != nil {
		return err
	}
	defer rdr.Release()
	if w.overwrite {
		var opts []table.OverwriteOption
		if spec := tbl.Spec(); spec.NumFields() > 0 {
			// Iceberg's Flink sink overwrites the partitions written
			// (dynamic overwrite); without rows nothing changes.
			filter, err := w.partitionFilter()
			if err != nil {
				return err
			}
			if filter == nil {
				return nil
			}
			opts = append(opts, table.WithOverwriteFilter(filter))
		}
		if err := tx.Overwrite(ctx, rdr, nil, opts...); err != nil {
			return fmt.Errorf("cannot overwrite Iceberg table %s: %w", w.t.Name, err)
		}
	} else {
		if len(w.records) == 0 {
			return nil
		}
		if err := tx.Append(ctx, rdr, nil); err != nil {
			return fmt.Errorf("cannot append to Iceberg table %s: %w", w.t.Name, err)
		}
	}
	if _, err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("cannot commit to Iceberg table %s: %w", w.t.Name, err)
	}
	return nil
}

// partitionFilter is the OR of one equality conjunction per partition
// the written rows fall in, or nil when there are no rows.
func (w *writer) partitionFilter() (iceberg.BooleanExpression, error) {
	spec := w.tbl.Spec()
	schema := w.tbl.Schema()
	var cols []int
	var names []string
	for _, f := range spec.Fields() {
		name, _ := schema.FindColumnName(f.SourceID())
		for i, col := range w.t.Columns {
			if col.Name == name {
				cols = append(cols, i)
				names = append(names, name)
			}
		}
	}
	seen := map[string]bool{}
	var out iceberg.BooleanExpression
	for _, rec := range w.records {
		for r := 0; r < int(rec.NumRows()); r++ {
			var conj iceberg.BooleanExpression = iceberg.AlwaysTrue{}
			key := ""
			for j, c := range cols {
				a := rec.Column(c)
				var e iceberg.BooleanExpression
				if a.IsNull(r) {
					e = iceberg.IsNull(iceberg.Reference(names[j]))
					key += "\x00null"
				} else {
					lit, s, err := literalOf(a, r)
					if err != nil {
						return nil, err
					}
					e = iceberg.LiteralPredicate(iceberg.OpEQ, iceberg.Reference(names[j]), lit)
					key += "\x00" + s
				}
				conj = iceberg.NewAnd(conj, e)
			}
			if seen[key] {
				continue
			}
			seen[key] = true
			if out == nil {
				out = conj
			} else {
				out = iceberg.NewOr(out, conj)
			}
		}
	}
	return out, nil
}
