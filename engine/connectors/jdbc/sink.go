package jdbc

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"eddy/engine/connectors"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// writer writes rows to a jdbc table in buffered batches, as Flink's
// JdbcOutputFormat does: a batch is written in one transaction when it
// holds 'sink.buffer-flush.max-rows' rows, when
// 'sink.buffer-flush.interval' has passed since the last one, and at
// Commit. With a PRIMARY KEY the batch is reduced by key (the last change
// of each key wins) and written as upserts and deletes; without one, rows
// are inserted. A failed batch is retried 'sink.max-retries' times on a
// new connection after a lost connection; a batch written stays written.
type writer struct {
	s      *spec
	insert string // INSERT or upsert statement
	del    string // DELETE by key, upsert mode only
	upsert bool
	multi  map[int]string // multi-row statements by row count

	mu      sync.Mutex
	conn    conn
	rows    []pending      // append mode, or the order keys were first seen
	byKey   map[string]int // upsert mode: key -> index in rows
	err     error          // a failed background flush
	stop    chan struct{}  // ends the interval flusher
	stopped chan struct{}  // closed when it has ended
	closed  bool
}

type pending struct {
	del bool
	row []any
}

func openWriter(ctx context.Context, s *spec) (*writer, error) {
	w := &writer{s: s, upsert: len(s.primaryKey) > 0}
	cols := s.columnsNames
	if w.upsert {
		key := make([]string, len(s.primaryKey))
		conds := make([]string, len(s.primaryKey))
		for i, p := range s.primaryKey {
			key[i] = cols[p]
			conds[i] = s.dialect.quote(cols[p]) + " = " + s.dialect.placeholder(i+1)
		}
		w.insert = s.dialect.upsert(s.table, cols, key)
		w.del = "DELETE FROM " + s.dialect.quote(s.table) + " WHERE " + strings.Join(conds, " AND ")
		w.byKey = map[string]int{}
	} else {
		w.insert = insertStatement(s.dialect, s.table, cols)
	}
	conn, err := s.connect(ctx)
	if err != nil {
		return nil, err
	}
	w.conn = conn
	if s.flushEvery > 0 && s.flushRows != 1 {
		w.stop, w.stopped = make(chan struct{}), make(chan struct{})
		go w.flushEvery(s.flushEvery, w.stop)
	}
	return w, nil
}

// flushEvery writes the buffer at every interval until the writer ends.
func (w *writer) flushEvery(d time.Duration, stop <-chan struct{}) {
	defer close(w.stopped)
	t := time.NewTicker(d)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			w.mu.Lock()
			if w.err == nil && !w.closed && len(w.rows) > 0 {
				w.err = w.flush(context.Background())
			}
			w.mu.Unlock()
		}
	}
}

// Write buffers the rows of b and writes the buffer when it is full.
func (w *writer) Write(ctx context.Context, b *vector.Batch) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return w.err
	}
	for i := 0; i < b.N; i++ {
		kind := b.Kind(i)
		row := b.Row(i)[:len(w.s.t.Columns)]
		switch {
		case w.upsert && kind == types.UpdateBefore:
			continue // the update-after that follows writes the key's row
		case w.upsert:
			k := w.key(row)
			p := pending{del: kind == types.Delete, row: row}
			if at, ok := w.byKey[k]; ok {
				w.rows[at] = p
			} else {
				w.byKey[k] = len(w.rows)
				w.rows = append(w.rows, p)
			}
		case kind == types.Insert || kind == types.UpdateAfter:
			w.rows = append(w.rows, pending{row: row})
		default:
			return &connectors.Error{Exception: "TableException", Msg: "please declare primary key for sink table when query contains update/delete record."}
		}
		if w.s.flushRows > 0 && len(w.rows) >= w.s.flushRows {
			if err := w.flush(ctx); err != nil {
				w.err = err
				return err
			}
		}
	}
	return nil
}

// key is the text of a row's primary key values, a map key.
func (w *writer) key(row []any) string {
	var sb strings.Builder
	for _, p := range w.s.primaryKey {
		fmt.Fprintf(&sb, "%T:%v\x00", row[p], row[p])
	}
	return sb.String()
}

// flush writes the buffer in one transaction, retrying after a lost
// connection. The caller holds mu.
func (w *writer) flush(ctx context.Context) error {
	if len(w.rows) == 0 {
		return nil
	}
	var err error
	for attempt := 0; ; attempt++ {
		if err = ctx.Err(); err != nil {
			return err
		}
		if w.conn == nil {
			w.conn, err = w.s.connect(ctx)
		}
		if err == nil {
			var bad int
			bad, err = w.writeBatch(ctx, true)
			if err != nil && !w.s.transient(err) {
				// Again row by row, to name the row the database refused.
				bad, err = w.writeBatch(ctx, false)
			}
			if err == nil {
				w.rows = w.rows[:0]
				if w.byKey != nil {
					clear(w.byKey)
				}
				return nil
			}
			if bad >= 0 {
				return w.rowError(err, w.rows[bad])
			}
		}
		if attempt >= w.s.sinkRetries || !w.s.transient(err) {
			break
		}
		if w.conn != nil {
			_ = w.conn.close()
			w.conn = nil
		}
		wait := min(time.Duration(attempt+1)*time.Second, w.s.maxRetryTimeout)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
	}
	return &connectors.Error{Exception: "IOException", Msg: fmt.Sprintf("Writing records to JDBC failed after %d retries: %v", w.s.sinkRetries, w.s.dbError("Failed to write", err))}
}

// maxParams is the largest number of parameters of one statement
// (PostgreSQL's and MySQL's limit).
const maxParams = 65535

// writeBatch writes the buffer in one transaction: with multi, the rows
// to insert or upsert go in multi-row statements; without, one
// statement a row, and a statement the database refuses returns its
// row's index (-1 otherwise).
func (w *writer) writeBatch(ctx context.Context, multi bool) (int, error) {
	types := w.s.t.Types()
	if multi {
		_, err := w.conn.writeTx(ctx, w.multiStatements(types), false)
		return -1, err
	}
	stmts := make([]stmt, 0, len(w.rows))
	for _, p := range w.rows {
		stmts = append(stmts, w.rowStatement(p, types))
	}
	return w.conn.writeTx(ctx, stmts, true)
}

// rowStatement is the statement that writes one buffered change: an
// insert or upsert, or a delete by key.
func (w *writer) rowStatement(p pending, types []*types.Type) stmt {
	d := w.s.dialect
	if p.del {
		args := make([]any, len(w.s.primaryKey))
		for i, k := range w.s.primaryKey {
			args[i] = d.param(p.row[k], types[k])
		}
		return stmt{w.del, args}
	}
	args := make([]any, len(p.row))
	for i, v := range p.row {
		args[i] = d.param(v, types[i])
	}
	return stmt{w.insert, args}
}

// multiStatements is the buffer as multi-row INSERT (or upsert)
// statements and one DELETE a deleted key.
func (w *writer) multiStatements(types []*types.Type) []stmt {
	d := w.s.dialect
	ncols := len(types)
	per := max(1, min(1000, maxParams/max(ncols, 1)))
	var out []stmt
	var args []any
	n := 0
	emit := func() {
		if n == 0 {
			return
		}
		out = append(out, stmt{w.multiStatement(n), args})
		args, n = nil, 0
	}
	for _, p := range w.rows {
		if p.del {
			out = append(out, w.rowStatement(p, types))
			continue
		}
		for i, v := range p.row {
			args = append(args, d.param(v, types[i]))
		}
		n++
		if n == per {
			emit()
		}
	}
	emit()
	return out
}

// multiStatement is the INSERT (or upsert) of n rows.
func (w *writer) multiStatement(n int) string {
	if w.multi == nil {
		w.multi = map[int]string{}
	}
	if q, ok := w.multi[n]; ok {
		return q
	}
	ncols := len(w.s.columnsNames)
	rows := make([]string, n)
	for i := range rows {
		rows[i] = "(" + placeholders(w.s.dialect, i*ncols+1, ncols) + ")"
	}
	one := insertStatement(w.s.dialect, w.s.table, w.s.columnsNames)
	q := strings.Replace(w.insert, one, one[:strings.LastIndex(one, " VALUES ")]+" VALUES "+strings.Join(rows, ", "), 1)
	w.multi[n] = q
	return q
}

// rowError is a row the database refused: its error and the row.
func (w *writer) rowError(err error, p pending) error {
	kind := "+I"
	if p.del {
		kind = "-D"
	} else if w.upsert {
		kind = "+U"
	}
	vals := make([]string, len(p.row))
	for i, v := range p.row {
		if v == nil {
			vals[i] = "NULL"
		} else {
			vals[i] = types.ValueString(v, w.s.t.Columns[i].Type)
		}
	}
	return &connectors.Error{Exception: "IOException", Msg: fmt.Sprintf("Writing records to JDBC failed: %v\nRow: %s(%s)",
		w.s.dbError("Failed to write", err), kind, strings.Join(vals, ", "))}
}

// Commit writes what is buffered and closes the connection.
func (w *writer) Commit(ctx context.Context) error {
	w.halt()
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		w.closeConn()
		return w.err
	}
	err := w.flush(ctx)
	w.closeConn()
	return err
}

// Abort discards what is buffered; batches already written stay.
func (w *writer) Abort() error {
	w.halt()
	w.mu.Lock()
	defer w.mu.Unlock()
	w.rows = nil
	w.closeConn()
	return nil
}

func (w *writer) halt() {
	w.mu.Lock()
	stop := w.stop
	w.stop = nil
	w.closed = true
	w.mu.Unlock()
	if stop != nil {
		close(stop)
		<-w.stopped
	}
}

func (w *writer) closeConn() {
	if w.conn != nil {
		_ = w.conn.close()
		w.conn = nil
	}
}
