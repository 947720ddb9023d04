package iceberg

import (
	"context"
	"fmt"
	"iter"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/iceberg-go/table"

	"eddy/conf"
	"eddy/engine/connectors"
	"eddy/engine/vector"
)

// Streaming read options of Iceberg's Flink source (FlinkReadOptions).
const (
	optStartingStrategy = "starting-strategy"
	optStartSnapTS      = "start-snapshot-timestamp"
	defaultMonitor      = 60 * time.Second
)

// Values of 'starting-strategy' (Iceberg's StreamingStartingStrategy).
const (
	startTableScan       = "TABLE_SCAN_THEN_INCREMENTAL"
	startLatest          = "INCREMENTAL_FROM_LATEST_SNAPSHOT"
	startLatestExclusive = "INCREMENTAL_FROM_LATEST_SNAPSHOT_EXCLUSIVE"
	startEarliest        = "INCREMENTAL_FROM_EARLIEST_SNAPSHOT"
	startSnapshotID      = "INCREMENTAL_FROM_SNAPSHOT_ID"
	startSnapshotTS      = "INCREMENTAL_FROM_SNAPSHOT_TIMESTAMP"
)

// streamSpec is what a streaming read ('streaming' = 'true') starts from
// and how often it looks for new snapshots.
type streamSpec struct {
	strategy string
	startID  int64
	startTS  int64
	monitor  time.Duration
}

func streaming(opts map[string]string) bool { return strings.EqualFold(opts[optStreaming], "true") }

func parseStream(opts map[string]string) (*streamSpec, error) {
	bad := func(format string, args ...any) error {
		return &connectors.Error{Exception: "IllegalArgumentException", Msg: fmt.Sprintf(format, args...)}
	}
	sp := &streamSpec{strategy: startLatest, monitor: defaultMonitor}
	if _, ok := opts[optSnapshotID]; ok {
		return nil, bad("Cannot set snapshot-id option for streaming reader")
	}
	if _, ok := opts[optAsOfTS]; ok {
		return nil, bad("Cannot set as-of-timestamp option for streaming reader")
	}
	if v, ok := opts[optMonitorIntvl]; ok {
		d, err := conf.ParseDuration(v)
		if err != nil || d <= 0 {
			return nil, bad("Invalid value for option '%s': '%s'", optMonitorIntvl, v)
		}
		sp.monitor = d
	}
	if v, ok := opts[optStartingStrategy]; ok {
		sp.strategy = strings.ToUpper(strings.TrimSpace(v))
		switch sp.strategy {
		case startTableScan, startLatest, startLatestExclusive, startEarliest, startSnapshotID, startSnapshotTS:
		default:
			return nil, bad("Invalid value for option '%s': '%s'", optStartingStrategy, v)
		}
	}
	if v, ok := opts[optStartSnap]; ok {
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil {
			return nil, bad("Invalid value for option '%s': '%s'", optStartSnap, v)
		}
		sp.startID = n
		if _, set := opts[optStartingStrategy]; !set {
			sp.strategy = startSnapshotID
		}
	}
	if v, ok := opts[optStartSnapTS]; ok {
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil {
			return nil, bad("Invalid value for option '%s': '%s'", optStartSnapTS, v)
		}
		sp.startTS = n
		if _, set := opts[optStartingStrategy]; !set {
			sp.strategy = startSnapshotTS
		}
	}
	switch {
	case sp.strategy == startSnapshotID && sp.startID == 0:
		return nil, bad("Invalid starting snapshot id for SPECIFIC_START_SNAPSHOT_ID strategy: null")
	case sp.strategy == startSnapshotTS && sp.startTS == 0:
		return nil, bad("Invalid starting snapshot timestamp for SPECIFIC_START_SNAPSHOT_TIMESTAMP strategy: null")
	}
	return sp, nil
}

// streamReader reads the rows of the snapshots appended to a table, one
// poll every monitor interval, without end.
type streamReader struct {
	c       *Catalog
	t       *connectors.Table
	spec    *streamSpec
	cols    []string
	started bool
	// from is the snapshot to read from, inclusive when fromIncl, and
	// last the last snapshot read (0: none yet).
	from     int64
	fromIncl bool
	last     int64
	pending  *reader
}

func (c *Catalog) openStream(t *connectors.Table) (connectors.Reader, error) {
	sp, err := parseStream(t.Options)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(t.Columns))
	for i, col := range t.Columns {
		names[i] = col.Name
	}
	return &streamReader{c: c, t: t, spec: sp, cols: names}, nil
}

func (r *streamReader) Next(ctx context.Context) (*vector.Batch, error) {
	for {
		if r.pending != nil {
			b, err := r.pending.Next(ctx)
			if err != nil || b != nil {
				return b, err
			}
			r.pending.Close()
			r.pending = nil
		}
		found, err := r.poll(ctx)
		if err != nil {
			return nil, err
		}
		if found {
			continue
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(r.spec.monitor):
		}
	}
}

// poll looks at the table's current snapshot and queues the rows of the
// snapshots not read yet.
func (r *streamReader) poll(ctx context.Context) (bool, error) {
	tbl, err := r.c.tableOf(ctx, r.t)
	if err != nil {
		return false, err
	}
	cur := tbl.CurrentSnapshot()
	if !r.started {
		r.started = true
		if err := r.start(ctx, tbl, cur); err != nil {
			return false, err
		}
		if r.pending != nil {
			return true, nil
		}
	}
	if cur == nil || cur.SnapshotID == r.last {
		return false, nil
	}
	inc := tbl.NewIncrementalAppendScan(table.WithSelectedFields(r.cols...))
	switch {
	case r.last != 0:
		inc = inc.FromSnapshotExclusive(r.last)
	case r.from != 0 && r.fromIncl:
		inc = inc.FromSnapshotInclusive(r.from)
	case r.from != 0:
		inc = inc.FromSnapshotExclusive(r.from)
	default:
		// An empty table at the start: every snapshot since is new.
		inc = inc.FromSnapshotInclusive(oldest(tbl, cur))
	}
	tasks, err := inc.ToSnapshot(cur.SnapshotID).PlanFiles(ctx)
	if err != nil {
		return false, fmt.Errorf("cannot plan the new files of Iceberg table %s: %w", r.t.Name, err)
	}
	r.last = cur.SnapshotID
	if len(tasks) == 0 {
		return false, nil
	}
	_, records, err := tbl.Scan(table.WithSelectedFields(r.cols...)).ReadTasks(ctx, tasks)
	if err != nil {
		return false, err
	}
	r.queue(records)
	return true, nil
}

// start applies the starting strategy to the table as it is at the start.
func (r *streamReader) start(ctx context.Context, tbl *table.Table, cur *table.Snapshot) error {
	switch r.spec.strategy {
	case startTableScan:
		if cur == nil {
			return nil
		}
		_, records, err := tbl.Scan(table.WithSnapshotID(cur.SnapshotID), table.WithSelectedFields(r.cols...)).ToArrowRecords(ctx)
		if err != nil {
			return err
		}
		r.queue(records)
		r.last = cur.SnapshotID
	case startLatest:
		if cur != nil {
			r.from, r.fromIncl = cur.SnapshotID, true
		}
	case startLatestExclusive:
		if cur != nil {
			r.last = cur.SnapshotID
		}
	case startEarliest:
		if cur != nil {
			r.from, r.fromIncl = oldest(tbl, cur), true
		}
	case startSnapshotID:
		if tbl.SnapshotByID(r.spec.startID) == nil {
			return &connectors.Error{Exception: "IllegalArgumentException", Msg: fmt.Sprintf("Start snapshot id not found in history: %d", r.spec.startID)}
		}
		r.from, r.fromIncl = r.spec.startID, true
	case startSnapshotTS:
		var first *table.Snapshot
		for _, s := range tbl.Metadata().Snapshots() {
			if s.TimestampMs >= r.spec.startTS && (first == nil || s.TimestampMs < first.TimestampMs) {
				s := s
				first = &s
			}
		}
		if first == nil {
			return &connectors.Error{Exception: "IllegalArgumentException", Msg: fmt.Sprintf("Cannot find a snapshot after: %d", r.spec.startTS)}
		}
		r.from, r.fromIncl = first.SnapshotID, true
	}
	return nil
}

// oldest returns the first snapshot of cur's ancestry.
func oldest(tbl *table.Table, cur *table.Snapshot) int64 {
	id := cur.SnapshotID
	for s := cur; s != nil; {
		id = s.SnapshotID
		if s.ParentSnapshotID == nil {
			break
		}
		s = tbl.SnapshotByID(*s.ParentSnapshotID)
	}
	return id
}

func (r *streamReader) queue(records iter.Seq2[arrow.RecordBatch, error]) {
	next, stop := iter.Pull2(records)
	r.pending = &reader{types: r.t.Types(), cols: r.cols, next: next, stop: stop}
}

func (r *streamReader) Close() error {
	if r.pending != nil {
		r.pending.Close()
	}
	return nil
}
