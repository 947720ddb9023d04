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
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	sqlite3 "github.com/mattn/go-sqlite3"

	"eddy/catalogs"
)

// SchemaVersion is the store layout this build writes. Each entry of
// migrations moves a store from version i to i+1.
const SchemaVersion = 4

// busyTimeout is how long SQLite itself waits for a lock; retries on top of
// it bound the total wait to about busyTimeout * maxAttempts.
const (
	busyTimeout = 5 * time.Second
	maxAttempts = 6
)

// migrations[i] upgrades a store at version i to version i+1: 0 makes the
// catalog's tables, 1 the table of column chunks of managed tables
// (chunks.go; the row-wise data tables of a store of version 1 stay as
// they are, as the delta of their tables), 2 the table of models
// (models.go), 3 nothing: from version 4 a chunk of doubles may be
// stored as scaled integers (encDecFloats, colenc.go), which an eddy of
// version 3 could not read, so it refuses the store instead.
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
	1: sqlChunks,
	2: sqlModels,
	3: `SELECT 1`,
}

// Store is an open store file.
type Store struct {
	path string
	// name is what SQLite opens: the path, or a URI for a store read on a
	// read-only location (see openReadOnly).
	name string
	db   *sql.DB
	// readOnly is set when the file or its directory cannot be written:
	// the store answers reads and refuses every write.
	readOnly bool
	// chunkRows is the number of rows of a column chunk (0: the default,
	// defaultChunkRows).
	chunkRows int
	// chunkReads counts the column chunks scans read (statistics skip
	// the others).
	chunkReads atomic.Int64
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
	// stages numbers the TEMP tables of staged rows (rows_stage.go).
	stages atomic.Int64
}

var (
	_ catalogs.CatalogStore = (*Store)(nil)
	_ catalogs.Factory      = (*Store)(nil)
)

// ErrNotSQLite is the kind of error for a store path holding a file that is
// not a SQLite database or a SQLite database that is not an eddy store;
// ErrNewerSchema for a store written by a newer eddy; ErrDamaged for an
// eddy store whose bookkeeping was changed by hand or by another program
// (a schema version that is not a number eddy wrote, a missing table);
// ErrReadOnly for a write to a store opened for reading only.
var (
	ErrNotSQLite   = catalogs.NewKind("store is not an eddy SQLite store", "CatalogException")
	ErrNewerSchema = catalogs.NewKind("store has a newer schema version", "CatalogException")
	ErrDamaged     = catalogs.NewKind("store is damaged", "CatalogException")
	ErrReadOnly    = catalogs.NewKind("store is read-only", "CatalogException")
)

// OpenStore opens the store at path, creating the directory (0700) and the
// file (0600) when missing and migrating an older layout. A file that is
// not SQLite, a SQLite file that is not an eddy store, a damaged store or a
// store of a newer schema version is a clear error and the file is left
// untouched.
//
// Opening takes no write lock unless the store must be initialised or
// migrated: a store that is up to date opens while another process holds
// its write lock. A store whose file or directory cannot be written (file
// mode 0444, a read-only mount) is opened for reading only: it answers
// queries and refuses every change with ErrReadOnly.
func OpenStore(path string) (*Store, error) {
	if path == "" {
		return nil, catalogs.Errorf(catalogs.ErrStore, "store path is empty")
	}
	readOnly, err := prepareFile(path)
	if err != nil {
		return nil, err
	}
	s, err := openDB(path, path, readOnly)
	if err != nil {
		return nil, err
	}
	err = s.init(context.Background())
	if err != nil && readOnly && isCantOpen(err) {
		// SQLite reads a WAL store only where it can make the
		// shared-memory file beside it. On a read-only location without
		// a log nobody can be writing: read the file as it is.
		// (Another user who may write the directory would leave a log
		// while a shell of theirs runs.)
		_, statErr := os.Stat(path + "-wal")
		s.Close()
		if !errors.Is(statErr, os.ErrNotExist) {
			return nil, &catalogs.Error{Kind: ErrReadOnly, Cause: err, Msg: fmt.Sprintf(
				"Store %s is read-only and its log %s-wal holds changes that SQLite can read only where it may write beside the store. Open it once where it can be written.",
				path, path)}
		}
		if s, err = openDB(path, immutableName(path), true); err != nil {
			return nil, err
		}
		err = s.init(context.Background())
	}
	if err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// prepareFile makes a missing store file (and its directory) and checks
// an existing one. It reports whether the store can only be read.
func prepareFile(path string) (readOnly bool, err error) {
	_, err = os.Stat(path)
	if err == nil {
		if err := checkHeader(path); err != nil {
			return false, err
		}
		return !writable(path), nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return false, storeErr(err, "cannot open store %s", path)
	}
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return false, storeErr(err, "cannot create the store directory %s", dir)
		}
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return false, storeErr(err, "cannot create store %s", path)
	}
	return false, f.Close()
}

// writable reports whether this process may write the store file and
// make files beside it (SQLite's log and shared-memory files).
func writable(path string) bool {
	const w = 2 // W_OK
	return syscall.Access(path, w) == nil && syscall.Access(filepath.Dir(path), w) == nil
}

// immutableName is the URI that opens path as a file nobody changes.
func immutableName(path string) string {
	return "file:" + (&url.URL{Path: path}).EscapedPath() + "?mode=ro&immutable=1"
}

// openDB opens the database/sql handle; name is the path or a file: URI.
func openDB(path, name string, readOnly bool) (*Store, error) {
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
	file, extra, _ := strings.Cut(strings.TrimPrefix(name, "file:"), "?")
	if name == path {
		file = (&url.URL{Path: path}).EscapedPath()
	}
	if readOnly {
		q.Set("mode", "ro")
	}
	dsn := "file:" + file + "?" + q.Encode()
	if extra != "" && name != path {
		dsn += "&" + extra
	}
	db, err := sql.Open("sqlite3", dsn)
	if err != nil {
		return nil, storeErr(err, "cannot open store %s", path)
	}
	return &Store{path: path, name: name, db: db, readOnly: readOnly}, nil
}

func isCantOpen(err error) bool {
	var se sqlite3.Error
	return errors.As(err, &se) && se.Code == sqlite3.ErrCantOpen
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

// layoutTables are the tables every store of version 1 or later has.
var layoutTables = []string{"eddy_meta", "catalog_defs", "databases", "objects", "functions"}

// layout is what a store holds, read in one statement (one snapshot).
type layout struct {
	version  int    // 0: an empty database
	objects  int    // every schema object
	missing  string // the first of layoutTables that is missing
	triggers int    // the catalog version's triggers (cache.go)
}

// current reports whether the store needs no initialisation, migration
// or upgrade of its bookkeeping.
func (l layout) current() bool {
	return l.version == SchemaVersion && l.triggers == versionTriggerCount
}

type querier interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}

// readLayout reads what the store holds and checks its schema version.
// The objects are counted in one statement, so a store that another
// process initialises meanwhile is seen either empty or complete; the
// version row is written in the transaction that makes eddy_meta.
func (s *Store) readLayout(ctx context.Context, q querier) (layout, error) {
	var l layout
	var present string
	err := q.QueryRowContext(ctx, `SELECT
		(SELECT count(*) FROM sqlite_master),
		(SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'eddy\_version\_%' ESCAPE '\'),
		(SELECT coalesce(group_concat(name, ','), '') FROM sqlite_master WHERE type = 'table'
			AND name IN ('eddy_meta', 'catalog_defs', 'databases', 'objects', 'functions', 'models'))`).
		Scan(&l.objects, &l.triggers, &present)
	if err != nil {
		return l, storeErr(err, "cannot read store %s", s.path)
	}
	have := map[string]bool{}
	for _, n := range strings.Split(present, ",") {
		have[n] = n != ""
	}
	for _, t := range layoutTables {
		if !have[t] && l.missing == "" {
			l.missing = t
		}
	}
	if !have["eddy_meta"] {
		if l.objects > 0 {
			return l, &catalogs.Error{Kind: ErrNotSQLite,
				Msg: fmt.Sprintf("Store %s is a SQLite database but not an eddy store; eddy leaves it untouched. Choose another store file.", s.path)}
		}
		return l, nil
	}
	var text sql.NullString
	err = q.QueryRowContext(ctx, `SELECT CAST(value AS TEXT) FROM eddy_meta WHERE key = 'schema_version'`).Scan(&text)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return l, s.damaged("it has no schema version")
	case isBusy(err):
		return l, err
	case err != nil:
		return l, s.damaged("its table eddy_meta is not the one eddy makes")
	}
	v, ok := parseVersion(text)
	if !ok {
		return l, s.damaged(fmt.Sprintf("its schema version %s is not a number from 1 to %d", quoteVersion(text), SchemaVersion))
	}
	l.version = v
	if v > SchemaVersion {
		return l, s.newerErr(v)
	}
	if l.missing == "" && v >= 3 && !have["models"] {
		l.missing = "models"
	}
	if l.missing != "" {
		return l, s.damaged("its table " + l.missing + " is missing")
	}
	return l, nil
}

// parseVersion accepts a schema version as eddy writes it: a positive
// decimal number without sign, spaces or leading zeros.
func parseVersion(text sql.NullString) (int, bool) {
	if !text.Valid {
		return 0, false
	}
	v, err := strconv.Atoi(text.String)
	if err != nil || v < 1 || strconv.Itoa(v) != text.String {
		return 0, false
	}
	return v, true
}

func quoteVersion(text sql.NullString) string {
	if !text.Valid {
		return "NULL"
	}
	const max = 40
	t := text.String
	if len(t) > max {
		t = t[:max] + "..."
	}
	return strconv.QuoteToASCII(t)
}

func (s *Store) damaged(why string) error {
	return &catalogs.Error{Kind: ErrDamaged, Msg: fmt.Sprintf(
		"Store %s is damaged: %s. It was changed by hand or by another program; eddy leaves it untouched. Restore it from a copy or choose another store file.",
		s.path, why)}
}

func (s *Store) newerErr(v int) error {
	return &catalogs.Error{Kind: ErrNewerSchema, Msg: fmt.Sprintf(
		"Store %s has schema version %d, but this eddy understands versions up to %d. Use a newer eddy; the store is left untouched.",
		s.path, v, SchemaVersion)}
}

// init checks the store and, only when it is new, of an older version or
// lacks the catalog version's triggers, brings it up to date in one write
// transaction that reads the layout again under the lock.
func (s *Store) init(ctx context.Context) error {
	var l layout
	err := s.read(ctx, func() (err error) {
		l, err = s.readLayout(ctx, s.db)
		return err
	})
	if err != nil {
		return err
	}
	if s.readOnly {
		if l.version < SchemaVersion {
			return &catalogs.Error{Kind: ErrReadOnly, Msg: fmt.Sprintf(
				"Store %s is read-only and needs to be set up (schema version %d, this eddy writes %d). Open it once where it can be written.",
				s.path, l.version, SchemaVersion)}
		}
		s.cache.enabled = l.triggers == versionTriggerCount
		return nil
	}
	if err := s.useWAL(ctx); err != nil {
		return err
	}
	if !l.current() {
		if err := s.upgrade(ctx); err != nil {
			return err
		}
	}
	s.cache.enabled = true
	return nil
}

// useWAL switches the store to WAL mode unless it is in it: a store in
// WAL mode is not locked for that.
func (s *Store) useWAL(ctx context.Context) error {
	var mode string
	if err := s.read(ctx, func() error {
		return s.db.QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&mode)
	}); err != nil {
		return storeErr(err, "cannot read the journal mode of store %s", s.path)
	}
	if strings.EqualFold(mode, "wal") {
		return nil
	}
	if err := s.read(ctx, func() error {
		return s.db.QueryRowContext(ctx, `PRAGMA journal_mode = WAL`).Scan(&mode)
	}); err != nil {
		return storeErr(err, "cannot switch store %s to WAL mode", s.path)
	}
	return nil
}

// upgrade initialises or migrates the store and installs the catalog
// version's triggers, in one transaction; what another process did
// meanwhile is read again under the write lock.
func (s *Store) upgrade(ctx context.Context) error {
	return s.WriteTx(ctx, func(tx *sql.Tx) error {
		l, err := s.readLayout(ctx, tx)
		if err != nil {
			return err
		}
		if l.current() {
			return nil
		}
		for v := l.version; v < SchemaVersion; v++ {
			if _, err := tx.ExecContext(ctx, migrations[v]); err != nil {
				return storeErr(err, "cannot migrate store %s to schema version %d", s.path, v+1)
			}
		}
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO eddy_meta (key, value) VALUES ('schema_version', ?)
			 ON CONFLICT (key) DO UPDATE SET value = excluded.value`, strconv.Itoa(SchemaVersion)); err != nil {
			return storeErr(err, "cannot set up store %s", s.path)
		}
		return storeErr(installTriggers(ctx, tx), "cannot set up store %s", s.path)
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
	if s.readOnly {
		return s.readOnlyErr()
	}
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
// eddy's words and keeps SQLite's error as the cause. The lock may be held
// by any program that opened the file, not only by an eddy.
func busyErr(path string, cause error) error {
	return &catalogs.Error{Kind: catalogs.ErrStore, Cause: cause, Msg: fmt.Sprintf(
		"The store %s is busy: another process (another eddy, or a program such as sqlite3) kept it locked for longer than %s. Try again.",
		path, busyTimeout*maxAttempts)}
}

// readOnlyErr is the answer to a write to a store opened for reading.
func (s *Store) readOnlyErr() error {
	return &catalogs.Error{Kind: ErrReadOnly, Msg: fmt.Sprintf(
		"The store %s is read-only: this process cannot write the file or its directory, so it was opened for reading only. Queries work; statements that change catalogs or tables do not.",
		s.path)}
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
// errors pass through. SQLite's words for two failures a user can meet are
// put in eddy's: a write to a read-only file, and a data table that
// another process dropped while a statement used it (whose internal name
// means nothing to the user).
func storeErr(err error, format string, args ...any) error {
	var ce *catalogs.Error
	if err == nil || errors.As(err, &ce) {
		return err
	}
	var se sqlite3.Error
	switch {
	case errors.As(err, &se) && se.Code == sqlite3.ErrReadonly:
		return &catalogs.Error{Kind: ErrReadOnly, Cause: err, Msg: fmt.Sprintf(format, args...) +
			": the store is read-only (this process cannot write the file or its directory)"}
	case dataTableName().MatchString(err.Error()):
		return &catalogs.Error{Kind: catalogs.ErrStore, Cause: err, Msg: fmt.Sprintf(format, args...) +
			": the table was dropped or changed by another session while this statement ran. Run the statement again."}
	}
	return catalogs.WrapStore(err, format, args...)
}

// dataTableName matches SQLite's complaint about a missing data table.
var dataTableName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`no such table: (main\.)?eddy_rows_\d+`) })
