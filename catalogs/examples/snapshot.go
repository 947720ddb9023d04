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
			return &snapshotReader{in: r, timeCol: len(st.Columns) - 1, pos: len(st.Columns) - 1}, nil
		},
		Abilities: func(t *connectors.Table) connectors.Abilities {
			return datagen.Abilities(snapshotTable(t))
		},
	}
}

// snapshotTable is t bounded to its snapshot's row count, generated
// without a rate limit.
func snapshotTable(t *connectors.Table) *connectors.Table {
	s := *t
	s.Options = maps.Clone(t.Options)
	s.Options["number-of-rows"] = strconv.FormatInt(SnapshotRows(t.Name.Object), 10)
	s.Options["rows-per-second"] = "1000000000"
	return &s
}

// snapshotReader gives the rows of a snapshot their event times.
type snapshotReader struct {
	in      connectors.Reader
	timeCol int   // event_time among the table's physical columns
	pos     int   // its position in the batches read, -1 when not read
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

// PushColumns implements connectors.Pushdown by passing the columns on.
func (r *snapshotReader) PushColumns(cols []int) {
	pd, ok := r.in.(connectors.Pushdown)
	if !ok {
		return
	}
	pd.PushColumns(cols)
	r.pos = -1
	for i, c := range cols {
		if c == r.timeCol {
			r.pos = i
		}
	}
}

func (r *snapshotReader) Next(ctx context.Context) (*vector.Batch, error) {
	b, err := r.in.Next(ctx)
	if b == nil || err != nil {
		return b, err
	}
	if r.pos >= 0 && r.pos < len(b.Cols) {
		times, start := b.Cols[r.pos].Times, SnapshotStart()
		for i := range b.N {
			times[i] = start.Add(time.Duration(r.row+int64(i)) * snapshotStep)
		}
	}
	r.row += int64(b.N)
	return b, nil
}

func (r *snapshotReader) Close() error { return r.in.Close() }
