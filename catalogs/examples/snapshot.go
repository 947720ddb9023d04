package examples

import (
	"context"
	"maps"
	"strconv"
	"time"

	"eddy/engine/connectors"
	"eddy/engine/vector"
)

// In batch mode a query reads a bounded snapshot of each table instead of
// the endless stream: SnapshotRows rows, the same on every read and in
// every shell (a fixed seed), with event times SnapshotStart plus a tenth
// of a second per row, the pace of the stream (Rate rows a second). In
// streaming mode the tables are the unbounded datagen tables they are
// declared as.

// SnapshotRows returns the number of rows table holds in batch mode, or 0
// for a table the catalog does not have.
func SnapshotRows(table string) int64 {
	switch table {
	case "orders":
		return 1000
	case "customers":
		return 250
	case "products":
		return 100
	case "clicks":
		return 2000
	}
	return 0
}

// SnapshotStart returns the event time of the first row of every
// snapshot: 2025-01-01 00:00:00 UTC.
func SnapshotStart() time.Time { return time.Date(2025, time.January, 1, 0, 0, 0, 0, time.UTC) }

// snapshotSeed makes the snapshot's random values the same on every read.
const snapshotSeed = 20250101

// snapshotStep is the event time between two rows of a snapshot.
const snapshotStep = time.Second / 10

// snapshotFactory returns the connector of the batch snapshots, over
// eddy's datagen connector.
func snapshotFactory() *connectors.Factory {
	datagen, err := connectors.NewRegistry().Factory(&connectors.Table{Options: map[string]string{"connector": "datagen"}})
	if err != nil {
		panic("examples: eddy has no datagen connector: " + err.Error())
	}
	return &connectors.Factory{
		Identifier: datagen.Identifier,
		Validate: func(t *connectors.Table, sink bool) error {
			return datagen.Validate(snapshotTable(t), sink)
		},
		Source: func(ctx context.Context, env *connectors.Env, t *connectors.Table) (connectors.Reader, error) {
			e := *env
			e.Seed = snapshotSeed
			st := snapshotTable(t)
			r, err := datagen.Source(ctx, &e, st)
			if err != nil {
				return nil, err
			}
			return &snapshotReader{in: r, timeCol: len(st.Columns) - 1}, nil
		},
		Abilities: func(t *connectors.Table) connectors.Abilities {
			a := datagen.Abilities(snapshotTable(t))
			a.Projection = true // by picking columns (snapshotReader)
			return a
		},
	}
}

// snapshotTable is t bounded to its snapshot's row count (or the
// 'number-of-rows' an OPTIONS hint gives), generated without a rate
// limit.
func snapshotTable(t *connectors.Table) *connectors.Table {
	s := *t
	s.Options = maps.Clone(t.Options)
	if s.Options["number-of-rows"] == "" {
		s.Options["number-of-rows"] = strconv.FormatInt(SnapshotRows(t.Name.Object), 10)
	}
	s.Options["rows-per-second"] = "0" // no pacing: batches of a fixed size, so the same values
	return &s
}

// snapshotReader gives the rows of a snapshot their event times. It
// generates every column of every row, whatever a query reads, so that
// each query sees the same values; the columns asked for are picked from
// them (Pushdown.PushColumns).
type snapshotReader struct {
	in      connectors.Reader
	timeCol int   // event_time among the table's physical columns
	cols    []int // the columns to return; nil: all
	row     int64 // rows read so far
}

// Connector serves the tables in batch mode (a bounded snapshot); in
// streaming mode they are the datagen tables they are declared as.
func (c *Catalog) Connector(t *connectors.Table) (*connectors.Factory, bool) {
	if !t.Batch {
		return nil, false
	}
	return c.snapshot, true
}

var _ connectors.CatalogConnector = (*Catalog)(nil)

// PushFilters implements connectors.Pushdown: it takes no filter.
func (r *snapshotReader) PushFilters(fs []connectors.RowFilter) []bool { return make([]bool, len(fs)) }

// PushColumns implements connectors.Pushdown: batches hold only cols.
func (r *snapshotReader) PushColumns(cols []int) { r.cols = append([]int{}, cols...) }

func (r *snapshotReader) Next(ctx context.Context) (*vector.Batch, error) {
	b, err := r.in.Next(ctx)
	if b == nil || err != nil {
		return b, err
	}
	if r.timeCol < len(b.Cols) {
		times, start := b.Cols[r.timeCol].Times, SnapshotStart()
		for i := range b.N {
			times[i] = start.Add(time.Duration(r.row+int64(i)) * snapshotStep)
		}
	}
	r.row += int64(b.N)
	if r.cols == nil {
		return b, nil
	}
	out := &vector.Batch{Cols: make([]*vector.Vec, len(r.cols)), Kinds: b.Kinds, N: b.N}
	for i, c := range r.cols {
		out.Cols[i] = b.Cols[c]
	}
	return out, nil
}

func (r *snapshotReader) Close() error { return r.in.Close() }
