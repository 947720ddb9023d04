package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	sqlite3 "github.com/mattn/go-sqlite3"

	"eddy/catalogs"
)

// SchemaVersion is the store layout this build writes. Each entry of
// migrations moves a store from version i to i+1.
const SchemaVersion = 1

// busyTimeout is how long SQLite itself waits for a lock; retries on top of
// it bound the total wait to about busyTimeout * maxAttempts.
const (
	busyTimeout = 5 * time.Second
	maxAttempts = 6
)

// migrations[i] upgrades a store at version i to version i+1. A later change
// adds the rows of managed tables as migration 2 (a table keyed by
// catalog, database and table name next to objects).
var migrations = []string{
	0: `
CREATE TABLE eddy_meta (
	key   TEXT PRIMARY KEY,
	value TEXT NOT NULL
);
CREATE TABLE catalog_defs (
	name    TEXT PRIMARY KEY,
	comment TEXT NOT NULL DEFAULT '',
	options TEXT NOT NULL               -- JSON object, includes 'type'
);
CREATE TABLE databases (
	catalog TEXT NOT NULL,
	name    TEXT NOT NULL,
	comment TEXT NOT NULL DEFAULT '',
	options TEXT NOT NULL DEFAULT '{}',
	PRIMARY KEY (catalog, name)
);
CREATE TABLE objects (
	catalog        TEXT NOT NULL,
	db             TEXT NOT NULL,
	name           TEXT NOT NULL,
	kind           TEXT NOT NULL CHECK (kind IN ('TABLE', 'VIEW')),
	comment        TEXT NOT NULL DEFAULT '',
	options        TEXT NOT NULL DEFAULT '{}',
	definition     TEXT NOT NULL,       -- JSON: schema, partition keys, distribution
	original_query TEXT,                -- views only
	expanded_query TEXT,                -- views only
	PRIMARY KEY (catalog, db, name),
	FOREIGN KEY (catalog, db) REFERENCES databases (catalog, name) ON DELETE CASCADE
);
CREATE TABLE functions (
	catalog    TEXT NOT NULL,
	db         TEXT NOT NULL,
	name       TEXT NOT NULL,
	class_name TEXT NOT NULL,
	language   TEXT NOT NULL,
	resources  TEXT NOT NULL DEFAULT '[]',
	PRIMARY KEY (catalog, db, name),
	FOREIGN KEY (catalog, db) REFERENCES databases (catalog, name) ON DELETE CASCADE
);
`,
}

// Store is an open store file.
type Store struct {
	path string
	db   *sql.DB
	// readers are the read-only connections that scans of managed tables
	// run on (see ScanRows).
	readers readPool
	// cache keeps the definitions lookups read (see cache.go); version
	// reads the catalog version it is valid for.
	cache        objectCache
	version      intReader
	versionReads atomic.Int64
	// group is the open shared write transaction (group.go), or nil.
	groupMu sync.Mutex
	group   *RowGroup
}

var (
	_ catalogs.CatalogStore = (*Store)(nil)
	_ catalogs.Factory      = (*Store)(nil)
)

// ErrNotSQLite is the kind of error for a store path holding a file that is
// not a SQLite database; ErrNewerSchema for a store written by a newer eddy.
var (
	ErrNotSQLite   = catalogs.NewKind("store is not an eddy SQLite store", "CatalogException")
	ErrNewerSchema = catalogs.NewKind("store has a newer schema version", "CatalogException")
)

// OpenStore opens the store at path, creating the directory (0700) and the
// file (0600) when missing and migrating an older layout. A file that is
// not SQLite, a SQLite file that is not an eddy store, or a store of a newer
// schema version is a clear error and the file is left untouched.
func OpenStore(path string) (*Store, error) {
	if path == "" {
		return nil, catalogs.Errorf(catalogs.ErrStore, "store path is empty")
	}
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, storeErr(err, "cannot create the store directory %s", dir)
		}
	}
	if err := checkHeader(path); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, storeErr(err, "cannot open store %s", path)
	}
	f.Close()

	q := url.Values{}
	q.Set("_busy_timeout", fmt.Sprint(busyTimeout.Milliseconds()))
	q.Set("_foreign_keys", "on")
	q.Set("_txlock", "immediate")
	// Each connection keeps its prepared statements: a script repeats the
	// same few lookups and inserts thousands of times.
	q.Set("_stmt_cache_size", "64")
	// In WAL mode, synchronous=NORMAL writes each commit to the log with
	// write(2) and syncs at checkpoints: a committed statement survives the
	// crash or kill of any process (the operating system holds the log),
	// and only a power loss or kernel crash may take the last commits back
	// (never corrupting the store). It is SQLite's recommended setting for
	// WAL and the default of the bundled SQLite; set here so that a build
	// against the system library (the libsqlite3 tag, whose default is
	// FULL) behaves the same.
	q.Set("_synchronous", "NORMAL")
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
	db, err := sql.Open("sqlite3", dsn)
	if err != nil {
		return nil, storeErr(err, "cannot open store %s", path)
	}
	s := &Store{path: path, db: db}
	if err := s.init(context.Background()); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

var sqliteHeader = []byte("SQLite format 3\x00")

// checkHeader refuses a non-empty file that does not start with SQLite's
// header, before anything could write to it.
func checkHeader(path string) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return storeErr(err, "cannot open store %s", path)
	}
	defer f.Close()
	buf := make([]byte, len(sqliteHeader))
	n, err := io.ReadFull(f, buf)
	if n == 0 && (err == io.EOF || err == nil) {
		return nil // empty file: a new store
	}
	if !bytes.Equal(buf[:n], sqliteHeader) {
		return &catalogs.Error{Kind: ErrNotSQLite,
			Msg: fmt.Sprintf("Store %s is not a SQLite database; eddy leaves it untouched. Choose another store file.", path)}
	}
	return nil
}

// readVersion returns the schema version, 0 for an empty database. A
// database with tables but no eddy_meta is not an eddy store.
func (s *Store) readVersion(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}) (int, error) {
	var n int
	if err := q.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'eddy_meta'`).Scan(&n); err != nil {
		return 0, storeErr(err, "cannot read store %s", s.path)
	}
	if n == 0 {
		var tables int
		if err := q.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master`).Scan(&tables); err != nil {
			return 0, storeErr(err, "cannot read store %s", s.path)
		}
		if tables > 0 {
			return 0, &catalogs.Error{Kind: ErrNotSQLite,
				Msg: fmt.Sprintf("Store %s is a SQLite database but not an eddy store; eddy leaves it untouched. Choose another store file.", s.path)}
		}
		return 0, nil
	}
	var v int
	err := q.QueryRowContext(ctx, `SELECT CAST(value AS INTEGER) FROM eddy_meta WHERE key = 'schema_version'`).Scan(&v)
	if err != nil {
		return 0, storeErr(err, "cannot read the schema version of store %s", s.path)
	}
	return v, nil
}

func (s *Store) newerErr(v int) error {
	return &catalogs.Error{Kind: ErrNewerSchema, Msg: fmt.Sprintf(
		"Store %s has schema version %d, but this eddy understands versions up to %d. Use a newer eddy; the store is left untouched.",
		s.path, v, SchemaVersion)}
}

func (s *Store) init(ctx context.Context) error {
	v, err := s.readVersion(ctx, s.db)
	if err != nil {
		return err
	}
	if v > SchemaVersion {
		return s.newerErr(v)
	}
	var mode string
	if err := s.read(ctx, func() error {
		return s.db.QueryRowContext(ctx, `PRAGMA journal_mode = WAL`).Scan(&mode)
	}); err != nil {
		return storeErr(err, "cannot switch store %s to WAL mode", s.path)
	}
	if v < SchemaVersion {
		if err := s.migrate(ctx); err != nil {
			return err
		}
	}
	s.installVersion(ctx)
	return nil
}

func (s *Store) migrate(ctx context.Context) error {
	return s.WriteTx(ctx, func(tx *sql.Tx) error {
		v, err := s.readVersion(ctx, tx) // another process may have migrated meanwhile
		if err != nil {
			return err
		}
		if v > SchemaVersion {
			return s.newerErr(v)
		}
		for ; v < SchemaVersion; v++ {
			if _, err := tx.ExecContext(ctx, migrations[v]); err != nil {
				return storeErr(err, "cannot migrate store %s to schema version %d", s.path, v+1)
			}
		}
		_, err = tx.ExecContext(ctx,
			`INSERT INTO eddy_meta (key, value) VALUES ('schema_version', ?)
			 ON CONFLICT (key) DO UPDATE SET value = excluded.value`, fmt.Sprint(SchemaVersion))
		return err
	})
}

// Path returns the store file's path.
func (s *Store) Path() string { return s.path }

// Close closes the store.
func (s *Store) Close() error {
	s.readers.close()
	s.version.close()
	return s.db.Close()
}

// DB returns the underlying database handle, for code that keeps more in
// the store (managed-table rows). Writers must use WriteTx.
func (s *Store) DB() *sql.DB { return s.db }

// WriteTx runs fn in one BEGIN IMMEDIATE transaction and commits it; any
// error rolls everything back. When SQLite reports the store busy beyond
// its busy timeout, the whole transaction is retried a bounded number of
// times before a clear error.
func (s *Store) WriteTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	var err error
	backoff := 20 * time.Millisecond
	for attempt := 1; attempt <= maxAttempts; attempt++ {
		err = s.writeOnce(ctx, fn)
		if !isBusy(err) {
			// A failure SQLite reports at commit (a full disk, an I/O
			// error) is a store error like any other.
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

// busyErr is the error after the bounded retries: it says what happened in
// eddy's words and keeps SQLite's error as the cause.
func busyErr(path string, cause error) error {
	return &catalogs.Error{Kind: catalogs.ErrStore, Cause: cause, Msg: fmt.Sprintf(
		"The store %s is busy: another eddy kept it locked for longer than %s. Try again.",
		path, busyTimeout*maxAttempts)}
}

func (s *Store) writeOnce(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil) // _txlock=immediate: BEGIN IMMEDIATE
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

// read runs a read-only query function, retrying while the store is busy.
func (s *Store) read(ctx context.Context, fn func() error) error {
	var err error
	for attempt := 1; attempt <= maxAttempts; attempt++ {
		if err = fn(); !isBusy(err) {
			return err
		}
		time.Sleep(time.Duration(attempt) * 20 * time.Millisecond)
	}
	return busyErr(s.path, err)
}

func isBusy(err error) bool {
	var se sqlite3.Error
	if errors.As(err, &se) {
		return se.Code == sqlite3.ErrBusy || se.Code == sqlite3.ErrLocked
	}
	return false
}

// storeErr wraps a storage failure as a CatalogException; nil and catalog
// errors pass through.
func storeErr(err error, format string, args ...any) error {
	return catalogs.WrapStore(err, format, args...)
}
