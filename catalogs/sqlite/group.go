package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"eddy/catalogs"
	"eddy/engine/types"
)

// Group commit. A piped script of single-row INSERTs spends most of its
// time in SQLite's BEGIN and COMMIT, one pair a statement. A RowGroup is
// one write transaction (BEGIN IMMEDIATE) that several statements share:
// each statement's writes run inside a SAVEPOINT of their own, so a failed
// statement rolls back its own rows only, and the statements become
// durable together when the group commits. Appending rows to a data table
// the group has written already needs no savepoint: they are held back and
// written in multi-row INSERTs (see appendRows). Whoever opens a group
// decides when it commits and must not acknowledge a statement of the
// group before Commit returned nil (the shell holds their answers until
// then).
//
// While a group is open the store's write lock is held: no other process
// or connection changes the catalog, so lookups skip the catalog version
// check (see Store.current) and the data tables found by the group's
// statements stay valid until it ends.

// RowGroup is an open shared write transaction of a store.
type RowGroup struct {
	store   *Store
	tx      *sql.Tx
	version int64 // catalog version when the lock was taken
	cached  bool  // version is valid: the definitions cache is in use
	mu      sync.Mutex
	rows    map[objectKey]string // data tables written in the group
	// versions are the table versions statements of the group checked.
	versions map[objectKey]catalogs.TableVersion
	pend     pending           // rows appendRows took, not yet written
	texts    map[string]string // INSERT texts of pending rows by table and row count
	broken   error             // the transaction cannot go on: only Rollback is left
	ended    bool
	// keyed are the written data tables with a primary key: the rows
	// appended after each one's before keep one row per key at Commit.
	keyed map[string]*rowWrite
	// cols are the column types of the data tables the group wrote, whose
	// deltas Commit folds when they have grown to a chunk (chunks.go).
	cols map[string][]*types.Type
}

// BeginGroup takes the store's write lock and returns the open group. A
// store kept busy by another process is retried as WriteTx retries it.
func (s *Store) BeginGroup(ctx context.Context) (*RowGroup, error) {
	var err error
	backoff := 20 * time.Millisecond
	for attempt := 1; attempt <= maxAttempts; attempt++ {
		var tx *sql.Tx
		// The transaction outlives the statement that opens it: a
		// cancelled statement context must not roll the group back.
		tx, err = s.db.BeginTx(context.WithoutCancel(ctx), nil) // BEGIN IMMEDIATE
		if err == nil {
			g := &RowGroup{store: s, tx: tx, rows: map[objectKey]string{}, texts: map[string]string{},
				versions: map[objectKey]catalogs.TableVersion{}}
			// The lock is held: the version read now stays the catalog's
			// version until the group ends.
			g.version, g.cached = s.current(ctx)
			s.groupMu.Lock()
			s.group = g
			s.groupMu.Unlock()
			return g, nil
		}
		if !isBusy(err) {
			return nil, storeErr(err, "cannot write to store %s", s.path)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, time.Second)
	}
	return nil, busyErr(s.path, err)
}

// activeGroup returns the store's open group, or nil.
func (s *Store) activeGroup() *RowGroup {
	s.groupMu.Lock()
	defer s.groupMu.Unlock()
	return s.group
}

// DefinitionsVersion returns the catalog version as the group's
// transaction sees it: the version when it took the write lock, moved by
// its own writes (a data table it made).
func (g *RowGroup) DefinitionsVersion() (int64, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.cached || g.ended || g.broken != nil {
		return 0, false
	}
	v, err := versionIn(context.Background(), g.tx)
	return v, err == nil
}

// Holds reports whether rs is a catalog of the group's store.
func (g *RowGroup) Holds(rs catalogs.RowStore) bool {
	c, ok := rs.(*Catalog)
	return ok && c.store == g.store
}

// WriteRows is the catalog's WriteRows inside the group: the rows of one
// statement, in a savepoint of their own. rs must be a catalog the group
// holds.
func (g *RowGroup) WriteRows(ctx context.Context, rs catalogs.RowStore, path catalogs.ObjectPath, cols []*types.Type,
	overwrite bool, produce func(emit func(row []any) error) error) error {
	return g.write(ctx, rs, catalogs.RowTarget{Path: path, Types: cols}, false, overwrite, produce, nil)
}

// WriteTarget is the catalog's WriteTarget inside the group.
func (g *RowGroup) WriteTarget(ctx context.Context, rs catalogs.RowStore, t catalogs.RowTarget,
	overwrite bool, produce func(emit func(row []any) error) error) error {
	return g.write(ctx, rs, t, true, overwrite, produce, nil)
}

// ApplyTarget is the catalog's ApplyTarget inside the group: a statement
// in a savepoint of its own.
func (g *RowGroup) ApplyTarget(ctx context.Context, rs catalogs.RowStore, t catalogs.RowTarget,
	overwrite bool, changes catalogs.Changes) error {
	return g.write(ctx, rs, t, true, overwrite, nil, changes)
}

// write writes the rows produce emits or, when produce is nil, applies
// changes.
func (g *RowGroup) write(ctx context.Context, rs catalogs.RowStore, t catalogs.RowTarget, bound, overwrite bool,
	produce func(emit func(row []any) error) error, changes catalogs.Changes) error {
	path, cols := t.Path, t.Types
	c, ok := rs.(*Catalog)
	if !ok || c.store != g.store {
		return catalogs.Errorf(catalogs.ErrStore, "the rows of %s are not kept in store %s", path.FullName(), g.store.path)
	}
	key := objectKey{c.name, path.Database, path.Object}
	if produce != nil {
		// Rows alone may join the group's pending rows.
		if !overwrite && (!bound || g.versionChecked(key, t.Version)) {
			if done, err := g.appendRows(key, cols, produce); done {
				return err
			}
		}
		changes = catalogs.Inserts(produce)
	}
	w, err := newRowWrite(c, t, bound, overwrite, changes)
	if err != nil {
		return err
	}
	var tbl string
	err = g.statement(ctx, func(tx *sql.Tx) error {
		var err error
		tbl, err = w.run(context.WithoutCancel(ctx), tx, g.rows[key])
		return err
	})
	if err == nil {
		// Only a released savepoint's table is known to exist; a rolled
		// back group takes this map with it.
		g.mu.Lock()
		g.rows[key] = tbl
		g.wrote(tbl, cols)
		if bound {
			g.versions[key] = t.Version
		}
		if len(w.keys) > 0 {
			if k, ok := g.keyed[tbl]; ok {
				k.before = min(k.before, w.before)
			} else {
				if g.keyed == nil {
					g.keyed = map[string]*rowWrite{}
				}
				g.keyed[tbl] = w
			}
		}
		g.mu.Unlock()
	}
	return err
}

// wrote records that the group wrote rows of types cols into the data
// table tbl (g.mu held).
func (g *RowGroup) wrote(tbl string, cols []*types.Type) {
	if g.cols == nil {
		g.cols = map[string][]*types.Type{}
	}
	if _, ok := g.cols[tbl]; !ok {
		g.cols[tbl] = cols
	}
}

// versionChecked reports whether a statement of the group found the table
// of key at version v: the group holds the write lock, so it still is.
func (g *RowGroup) versionChecked(key objectKey, v catalogs.TableVersion) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	got, ok := g.versions[key]
	return ok && got == v
}

// The one savepoint of a group: statements of a group run one after
// another, never nested.
const (
	sqlSavepoint  = `SAVEPOINT eddy_statement`
	sqlRollbackTo = `ROLLBACK TO eddy_statement`
	sqlRelease    = `RELEASE eddy_statement`
)

// statement runs fn inside a savepoint of the group: when fn fails, its
// writes are rolled back and the group goes on without them.
func (g *RowGroup) statement(ctx context.Context, fn func(tx *sql.Tx) error) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.ended {
		return catalogs.Errorf(catalogs.ErrStore, "the shared transaction of store %s has ended", g.store.path)
	}
	if err := g.flush(); err != nil {
		return err
	}
	// An interrupted INSERT inside a transaction makes SQLite roll the
	// whole transaction back, so the group's statements are not
	// interrupted: they are single statements of bounded size.
	bg := context.WithoutCancel(ctx)
	if _, err := g.tx.ExecContext(bg, sqlSavepoint); err != nil {
		g.broken = storeErr(err, "cannot write to store %s", g.store.path)
		return g.broken
	}
	if err := fn(g.tx); err != nil {
		_, rerr := g.tx.ExecContext(bg, sqlRollbackTo)
		if rerr == nil {
			_, rerr = g.tx.ExecContext(bg, sqlRelease)
		}
		if rerr != nil {
			g.broken = storeErr(errors.Join(err, rerr), "cannot write to store %s", g.store.path)
		}
		return err
	}
	if _, err := g.tx.ExecContext(bg, sqlRelease); err != nil {
		g.broken = storeErr(err, "cannot write to store %s", g.store.path)
		return g.broken
	}
	return nil
}

// Commit ends the group by committing every statement that succeeded in
// it. An error means none of them was stored.
func (g *RowGroup) Commit(ctx context.Context) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.ended {
		return catalogs.Errorf(catalogs.ErrStore, "the shared transaction of store %s has ended", g.store.path)
	}
	g.end()
	if err := g.flush(); err != nil {
		_ = g.tx.Rollback()
		return err
	}
	for tbl, w := range g.keyed {
		if err := w.replaceKeys(context.WithoutCancel(ctx), g.tx, tbl); err != nil {
			_ = g.tx.Rollback()
			return err
		}
	}
	for tbl, cols := range g.cols {
		if _, ok := g.keyed[tbl]; ok {
			continue
		}
		// Single statements: the delta gathers them into whole chunks.
		if err := g.store.fold(context.WithoutCancel(ctx), g.tx, tbl, cols, 0); err != nil {
			_ = g.tx.Rollback()
			return storeErr(err, "cannot write to store %s", g.store.path)
		}
	}
	if err := g.tx.Commit(); err != nil {
		_ = g.tx.Rollback()
		return storeErr(err, "cannot write to store %s", g.store.path)
	}
	return nil
}

// Rollback ends the group and discards every statement of it.
func (g *RowGroup) Rollback() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.ended {
		return nil
	}
	g.end()
	return storeErr(g.tx.Rollback(), "cannot roll back in store %s", g.store.path)
}

// end marks the group ended and the store free of it (g.mu held).
func (g *RowGroup) end() {
	g.ended = true
	s := g.store
	s.groupMu.Lock()
	if s.group == g {
		s.group = nil
	}
	s.groupMu.Unlock()
}

// BeginWriteGroup opens a group on the catalog's store (see RowGroup):
// the catalogs of one store share its groups.
func (c *Catalog) BeginWriteGroup(ctx context.Context) (catalogs.WriteGroup, error) {
	g, err := c.store.BeginGroup(ctx)
	if err != nil {
		return nil, err
	}
	return g, nil
}

// appendRows is WriteRows inside the group for a table whose data table
// the group knows already. The rows go into the group's pending rows,
// which reach SQLite in multi-row INSERTs before anything else runs in
// the transaction and before the commit: a data table has no constraint
// a row could fail, so only a failure of the store itself (a full disk)
// can stop them, and that fails the whole group, whose statements then
// all report it. done is false when it did nothing and WriteRows must
// take its general way.
func (g *RowGroup) appendRows(key objectKey, cols []*types.Type, produce func(emit func(row []any) error) error) (done bool, err error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	tbl := g.rows[key]
	if tbl == "" || g.ended || g.broken != nil {
		return false, nil
	}
	if g.pend.n > 0 && (g.pend.tbl != tbl || g.pend.ncols != len(cols)) {
		if err := g.flush(); err != nil {
			return true, err
		}
	}
	p := &g.pend
	mark, n := len(p.args), p.n
	err = produce(func(row []any) error {
		if len(row) != len(cols) {
			return fmt.Errorf("a row of %d values for %d columns", len(row), len(cols))
		}
		for i, v := range row {
			p.args = append(p.args, toSQL(v, cols[i]))
		}
		p.n++
		return nil
	})
	if err != nil {
		// Nothing of the statement stays.
		clear(p.args[mark:])
		p.args, p.n = p.args[:mark], n
		return true, err
	}
	p.tbl, p.ncols = tbl, len(cols)
	g.wrote(tbl, cols)
	if p.n >= pendingRows(len(cols)) {
		return true, g.flush()
	}
	return true, nil
}

// pendingRows is the number of rows of ncols columns one INSERT takes
// (SQLite takes at most 32766 parameters a statement).
func pendingRows(ncols int) int { return max(1, min(256, 32766/max(ncols, 1))) }

// pending are rows appendRows took for one data table, not yet written.
type pending struct {
	tbl   string
	ncols int
	args  []any
	n     int
}

// flush writes the pending rows (g.mu held). A failure breaks the group.
func (g *RowGroup) flush() error {
	p := &g.pend
	if p.n == 0 {
		return nil
	}
	if g.broken != nil {
		return g.broken
	}
	per := pendingRows(p.ncols)
	for start := 0; start < p.n; start += per {
		k := min(per, p.n-start)
		chunk := p.args[start*p.ncols : (start+k)*p.ncols]
		if err := execText(context.Background(), g.tx, g.insertText(p.tbl, p.ncols, k), chunk...); err != nil {
			g.broken = storeErr(err, "cannot write to store %s", g.store.path)
			break
		}
	}
	clear(p.args)
	p.args, p.n = p.args[:0], 0
	return g.broken
}

// insertText returns the INSERT of n rows of ncols columns into tbl (a
// generated name, see execText).
func (g *RowGroup) insertText(tbl string, ncols, n int) string {
	key := tbl + "/" + strconv.Itoa(n)
	if t, ok := g.texts[key]; ok {
		return t
	}
	names := make([]string, ncols)
	marks := make([]string, ncols)
	for i := range names {
		names[i] = "c" + strconv.Itoa(i)
		marks[i] = "?"
	}
	row := "(" + strings.Join(marks, ", ") + ")"
	t := `INSERT INTO ` + tbl + ` (` + strings.Join(names, ", ") + `) VALUES ` + strings.Repeat(row+", ", n-1) + row
	if len(g.texts) < 64 {
		g.texts[key] = t
	}
	return t
}

// The storage contract (catalogs.RowStore) and its write group.
var (
	_ catalogs.RowStore       = (*Catalog)(nil)
	_ catalogs.WriteGroup     = (*RowGroup)(nil)
	_ catalogs.VersionedGroup = (*RowGroup)(nil)
)
