package connectors

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"eddy/catalogs"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// MemoryStore keeps the rows of managed tables of catalogs that store no
// rows themselves (generic_in_memory) and of temporary tables, keyed by
// catalog instance and path, as immutable batches: a reader sees the rows
// committed when it opened, a writer's rows appear at Commit.
type MemoryStore struct {
	mu     sync.Mutex
	tables map[memKey][]*vector.Batch
}

type memKey struct {
	catalog   catalogs.Catalog
	path      catalogs.ObjectPath
	temporary bool
}

// NewMemoryStore returns an empty store.
func NewMemoryStore() *MemoryStore { return &MemoryStore{tables: map[memKey][]*vector.Batch{}} }

func keyOf(t *Table) memKey {
	return memKey{catalog: t.Catalog, path: t.Name.Path(), temporary: t.Temporary}
}

// Reader returns a reader of the table's committed rows.
func (m *MemoryStore) Reader(t *Table) Reader {
	m.mu.Lock()
	defer m.mu.Unlock()
	return &memReader{batches: m.tables[keyOf(t)]}
}

// memReader reads a snapshot of a table's batches. Its Next may be called
// from several goroutines at once (connectors.Concurrent): each call takes
// the next batch by an atomic counter, and the batches are immutable.
type memReader struct {
	batches []*vector.Batch
	next    atomic.Int64
}

func (r *memReader) Next(ctx context.Context) (*vector.Batch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	i := r.next.Add(1) - 1
	if i >= int64(len(r.batches)) {
		return nil, nil
	}
	return r.batches[i], nil
}

func (r *memReader) Close() error { return nil }

// Concurrent implements connectors.Concurrent.
func (r *memReader) Concurrent() bool { return true }

// Writer returns a writer that appends (or, with overwrite, replaces) the
// table's rows at Commit.
func (m *MemoryStore) Writer(t *Table, overwrite bool) Writer {
	return &memWriter{m: m, key: keyOf(t), overwrite: overwrite, keys: keyColumns(t)}
}

// Drop forgets a table's rows (DROP TABLE, TRUNCATE TABLE).
func (m *MemoryStore) Drop(t *Table) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.tables, keyOf(t))
}

// Rows returns the number of rows stored for a table.
func (m *MemoryStore) Rows(t *Table) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for _, b := range m.tables[keyOf(t)] {
		n += b.N
	}
	return n
}

type memWriter struct {
	m         *MemoryStore
	key       memKey
	overwrite bool
	batches   []*vector.Batch
	cur       *vector.Batch
	// keys are the positions of the primary key's columns: a table with
	// one keeps one row per key, the last written, and applies a
	// changelog by key (a -U or -D row deletes the key's row); nil: none.
	keys []int
}

func (w *memWriter) Write(ctx context.Context, b *vector.Batch) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	// Copy into batches of BatchSize rows: the caller may reuse its batch,
	// and small batches would slow every later scan.
	for i := range b.N {
		if w.cur == nil || w.cur.N >= vector.BatchSize {
			w.cur = vector.NewBatch(b.Types(), vector.BatchSize)
			w.batches = append(w.batches, w.cur)
		}
		w.cur.AppendFrom(b, i, b.Kind(i))
	}
	return nil
}

func (w *memWriter) Commit(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	w.m.mu.Lock()
	defer w.m.mu.Unlock()
	if w.overwrite {
		w.m.tables[w.key] = w.batches
	} else {
		old := w.m.tables[w.key]
		w.m.tables[w.key] = append(old[:len(old):len(old)], w.batches...)
	}
	if len(w.keys) > 0 {
		w.m.tables[w.key] = lastPerKey(w.m.tables[w.key], w.keys)
	}
	w.batches = nil
	return nil
}

// lastPerKey returns the rows of batches with only the last row of each
// key (the values at positions keys), in the order they were written, as
// inserts: a row replaces the older rows of its key, as in Flink's upsert
// tables, and a key whose last row is a -U or -D has no row.
func lastPerKey(batches []*vector.Batch, keys []int) []*vector.Batch {
	keyOfRow := func(b *vector.Batch, i int) string {
		row := b.Row(i)
		var sb strings.Builder
		for _, k := range keys {
			fmt.Fprintf(&sb, "%v\x00", row[k])
		}
		return sb.String()
	}
	last := map[string][2]int{}
	for bi, b := range batches {
		for i := range b.N {
			last[keyOfRow(b, i)] = [2]int{bi, i}
		}
	}
	var out []*vector.Batch
	var cur *vector.Batch
	for bi, b := range batches {
		for i := range b.N {
			if !b.Kind(i).IsAccumulate() || last[keyOfRow(b, i)] != [2]int{bi, i} {
				continue
			}
			if cur == nil || cur.N >= vector.BatchSize {
				cur = vector.NewBatch(b.Types(), vector.BatchSize)
				out = append(out, cur)
			}
			cur.AppendFrom(b, i, types.Insert)
		}
	}
	return out
}

func (w *memWriter) Abort() error {
	w.batches = nil
	return nil
}
