package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"eddy/catalogs"
)

// Staged rows. A batch INSERT commits once, at its end, all or nothing;
// when it has more rows than it may hold in memory its writer stages them
// (catalogs.RowStage): in a TEMP table of a connection of its own, which
// lives in SQLite's temporary file, takes no lock of the store and goes
// away with the connection, also when the process dies. The commit copies
// the staged rows into the data table inside one write transaction that
// checks the table's version first, as WriteTarget does. A deletion is
// staged as a row of its key marked in the stage's column d; a stage that
// holds one commits, for each staged key, only its last change (the
// state a key ends in after its changes in order).

// rowStage is an open stage.
type rowStage struct {
	c      *Catalog
	target catalogs.RowTarget
	conn   *sql.Conn
	name   string // the TEMP table (a generated name, see execText)
	w      *rowWrite
	dels   bool  // a deletion is staged
	puts   int64 // rows staged
}

// StageRows opens a stage of rows for the table t is bound to.
func (c *Catalog) StageRows(ctx context.Context, t catalogs.RowTarget) (catalogs.RowStage, error) {
	w, err := newRowWrite(c, t, true, false, nil)
	if err != nil {
		return nil, err
	}
	conn, err := c.store.db.Conn(ctx)
	if err != nil {
		return nil, storeErr(err, "cannot stage the rows of %s", t.Path.FullName())
	}
	st := &rowStage{c: c, target: t, conn: conn, name: "eddy_stage_" + strconv.FormatInt(c.store.stages.Add(1), 10), w: w}
	// The stage is on disk whatever the build's default for temporary
	// tables: holding it in memory is what staging avoids.
	for _, q := range []string{`PRAGMA temp_store = FILE`,
		`CREATE TEMP TABLE ` + st.name + ` (` + strings.Join(w.defs, ", ") + `, d INTEGER)`} {
		if err := execText(ctx, conn, q); err != nil {
			conn.Close()
			return nil, storeErr(err, "cannot stage the rows of %s", t.Path.FullName())
		}
	}
	return st, nil
}

// Append stages the changes, in multi-row INSERTs that each commit on
// their own into the TEMP table.
func (st *rowStage) Append(ctx context.Context, changes catalogs.Changes) error {
	w := *st.w
	w.changes = changes
	stage := `temp.` + st.name
	del := `INSERT INTO ` + stage + ` (` + strings.Join(w.names, ", ") + `, d) VALUES (` + strings.Join(w.marks, ", ") + `, 1)`
	defer func() { st.puts += w.puts }()
	return w.insert(ctx, st.conn, stage, func(row []any) error {
		if len(row) != len(w.cols) {
			return fmt.Errorf("a row of %d values for %d columns", len(row), len(w.cols))
		}
		args := make([]any, len(row))
		for i, v := range row {
			args[i] = toSQL(v, w.cols[i])
		}
		st.dels = true
		return storeErr(execText(ctx, st.conn, del, args...), "cannot stage the rows of %s", st.target.Path.FullName())
	})
}

// Commit applies the staged changes, then the given ones, to the table.
func (st *rowStage) Commit(ctx context.Context, overwrite bool, changes catalogs.Changes) error {
	defer st.Discard()
	path := st.target.Path
	none := func(func(row []any) error, func(row []any) error) error { return nil }
	head, err := newRowWrite(st.c, st.target, true, overwrite, none)
	if err != nil {
		return err
	}
	return st.writeTx(ctx, func(tx *sql.Tx) error {
		// run checks the table's version and makes its data table.
		tbl, err := head.run(ctx, tx, "")
		if err != nil {
			return err
		}
		if err := st.copyStaged(ctx, tx, head, tbl); err != nil {
			return storeErr(err, "cannot write the rows of %s", path.FullName())
		}
		tail := *head
		tail.changes = changes
		if err := tail.apply(ctx, tx, tbl); err != nil {
			return err
		}
		// One row per primary key, counted from before the commit.
		if len(head.keys) > 0 {
			return head.replaceKeys(ctx, tx, tbl)
		}
		return storeErr(st.c.store.fold(ctx, tx, tbl, head.cols, st.puts+tail.puts), "cannot write the rows of %s", path.FullName())
	})
}

// copyStaged applies the staged changes to the data table tbl inside tx:
// all staged rows in their order when no deletion is staged; otherwise
// the rows of every staged key go and the key's last change is put back
// when it is a row (head is the commit's write, run on tbl: its keys).
func (st *rowStage) copyStaged(ctx context.Context, tx *sql.Tx, head *rowWrite, tbl string) error {
	cols := strings.Join(st.w.names, ", ")
	stage := `temp.` + st.name
	if !st.dels {
		return execText(ctx, tx, `INSERT INTO `+tbl+` (`+cols+`) SELECT `+cols+` FROM `+stage+` ORDER BY rowid`)
	}
	if len(head.keys) == 0 {
		return noKeyErr(head.path)
	}
	names := make([]string, len(head.keys))
	for i, k := range head.keys {
		names[i] = "c" + strconv.Itoa(k)
	}
	if err := head.keyIndex(ctx, tx, tbl); err != nil {
		return err
	}
	if err := execText(ctx, tx, `CREATE INDEX IF NOT EXISTS `+stage+`_key ON `+st.name+` (`+strings.Join(names, ", ")+`)`); err != nil {
		return err
	}
	if err := execText(ctx, tx, `DELETE FROM `+tbl+` WHERE rowid IN (SELECT o.rowid FROM `+stage+` AS s JOIN `+tbl+
		` AS o ON `+head.keyJoin("o", "s")+`)`); err != nil {
		return err
	}
	return execText(ctx, tx, `INSERT INTO `+tbl+` (`+cols+`) SELECT `+cols+` FROM `+stage+` AS s WHERE s.d IS NULL AND NOT EXISTS (SELECT 1 FROM `+
		stage+` AS l WHERE `+head.keyJoin("l", "s")+` AND l.rowid > s.rowid) ORDER BY s.rowid`)
}

// writeTx runs fn in a write transaction of the stage's connection,
// retried while another process holds the store's write lock.
func (st *rowStage) writeTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	s := st.c.store
	backoff := 20 * time.Millisecond
	var err error
	for attempt := 1; attempt <= maxAttempts; attempt++ {
		var tx *sql.Tx
		if tx, err = st.conn.BeginTx(ctx, nil); err == nil { // BEGIN IMMEDIATE
			if err = fn(tx); err != nil {
				_ = tx.Rollback()
				return err
			}
			if err = tx.Commit(); err == nil {
				return nil
			}
			_ = tx.Rollback()
		}
		if !isBusy(err) {
			return storeErr(err, "cannot write to store %s", s.path)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, time.Second)
	}
	return busyErr(s.path, err)
}

// Discard drops the staged rows and gives the connection back.
func (st *rowStage) Discard() error {
	if st.conn == nil {
		return nil
	}
	bg := context.Background()
	err := errors.Join(execText(bg, st.conn, `DROP TABLE IF EXISTS temp.`+st.name),
		execText(bg, st.conn, `PRAGMA temp_store = DEFAULT`))
	err = errors.Join(err, st.conn.Close())
	st.conn = nil
	return storeErr(err, "cannot discard the staged rows of %s", st.target.Path.FullName())
}

var _ catalogs.RowStager = (*Catalog)(nil)
