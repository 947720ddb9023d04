package sqlite

import (
	"context"
	"database/sql"
	"slices"
	"strconv"
	"sync"

	"eddy/catalogs"
)

// Every statement that names a table looks it up, often twice; a piped
// script of INSERTs would spend most of its time reading and decoding the
// same definition. A store therefore keeps the definitions it read (and
// the data table of each managed table) in memory, valid for one value of
// the store's catalog version: a counter in eddy_meta that triggers on
// every catalog table (catalog_defs, databases, objects, functions,
// row_tables) raise in the same transaction as the change, whichever
// process or eddy build makes it. A lookup reads the counter (one indexed
// row) and drops everything cached when it moved, so another process's
// DDL is seen by the next statement, exactly as without the cache.

// versionTriggers installs the counter and its triggers; every statement
// is idempotent. row_tables is the table WriteRows makes on first use,
// created here so that it can carry triggers.
const versionTriggers = `
CREATE TABLE IF NOT EXISTS row_tables (
	id      INTEGER PRIMARY KEY AUTOINCREMENT,
	catalog TEXT NOT NULL,
	db      TEXT NOT NULL,
	name    TEXT NOT NULL,
	UNIQUE (catalog, db, name));
INSERT INTO eddy_meta (key, value) VALUES ('catalog_version', '0') ON CONFLICT (key) DO NOTHING;
CREATE TRIGGER IF NOT EXISTS eddy_version_catalog_defs_insert AFTER INSERT ON catalog_defs
BEGIN UPDATE eddy_meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'catalog_version'; END;
CREATE TRIGGER IF NOT EXISTS eddy_version_catalog_defs_update AFTER UPDATE ON catalog_defs
BEGIN UPDATE eddy_meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'catalog_version'; END;
CREATE TRIGGER IF NOT EXISTS eddy_version_catalog_defs_delete AFTER DELETE ON catalog_defs
BEGIN UPDATE eddy_meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'catalog_version'; END;
CREATE TRIGGER IF NOT EXISTS eddy_version_databases_insert AFTER INSERT ON databases
BEGIN UPDATE eddy_meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'catalog_version'; END;
CREATE TRIGGER IF NOT EXISTS eddy_version_databases_update AFTER UPDATE ON databases
BEGIN UPDATE eddy_meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'catalog_version'; END;
CREATE TRIGGER IF NOT EXISTS eddy_version_databases_delete AFTER DELETE ON databases
BEGIN UPDATE eddy_meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'catalog_version'; END;
CREATE TRIGGER IF NOT EXISTS eddy_version_objects_insert AFTER INSERT ON objects
BEGIN UPDATE eddy_meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'catalog_version'; END;
CREATE TRIGGER IF NOT EXISTS eddy_version_objects_update AFTER UPDATE ON objects
BEGIN UPDATE eddy_meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'catalog_version'; END;
CREATE TRIGGER IF NOT EXISTS eddy_version_objects_delete AFTER DELETE ON objects
BEGIN UPDATE eddy_meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'catalog_version'; END;
CREATE TRIGGER IF NOT EXISTS eddy_version_functions_insert AFTER INSERT ON functions
BEGIN UPDATE eddy_meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'catalog_version'; END;
CREATE TRIGGER IF NOT EXISTS eddy_version_functions_update AFTER UPDATE ON functions
BEGIN UPDATE eddy_meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'catalog_version'; END;
CREATE TRIGGER IF NOT EXISTS eddy_version_functions_delete AFTER DELETE ON functions
BEGIN UPDATE eddy_meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'catalog_version'; END;
CREATE TRIGGER IF NOT EXISTS eddy_version_row_tables_insert AFTER INSERT ON row_tables
BEGIN UPDATE eddy_meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'catalog_version'; END;
CREATE TRIGGER IF NOT EXISTS eddy_version_row_tables_update AFTER UPDATE ON row_tables
BEGIN UPDATE eddy_meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'catalog_version'; END;
CREATE TRIGGER IF NOT EXISTS eddy_version_row_tables_delete AFTER DELETE ON row_tables
BEGIN UPDATE eddy_meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'catalog_version'; END;
`

// versionTriggerCount is the number of triggers versionTriggers makes.
const versionTriggerCount = 15

// installTriggers makes the catalog version and its triggers, in the
// transaction that initialises or upgrades the store (Store.upgrade).
func installTriggers(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, versionTriggers)
	return err
}

// versionQuery reads the catalog version.
const versionQuery = `SELECT CAST(value AS INTEGER) FROM eddy_meta WHERE key = 'catalog_version'`

// versionIn reads the catalog version inside the transaction tx, which
// sees its own writes.
func versionIn(ctx context.Context, tx *sql.Tx) (int64, error) {
	var v int64
	err := tx.QueryRowContext(ctx, versionQuery).Scan(&v)
	return v, err
}

// versionReadsBeforeReader is the number of version reads a store makes
// through database/sql before it opens its own read connection for them.
const versionReadsBeforeReader = 64

// catalogVersion reads the catalog version: on the store's own read
// connection (one cgo call), or through database/sql when that cannot be
// opened.
func (s *Store) catalogVersion(ctx context.Context) (int64, bool) {
	// The first reads go through database/sql, whose connection has read
	// the schema already: a short session (eddy -e) opens no connection
	// for them; a script that runs many statements does.
	if s.versionReads.Add(1) > versionReadsBeforeReader {
		if v, ok := s.version.read(s.name, versionQuery); ok && v >= 0 {
			return v, true
		}
	}
	var text string
	err := s.read(ctx, func() error {
		return s.db.QueryRowContext(ctx, `SELECT value FROM eddy_meta WHERE key = 'catalog_version'`).Scan(&text)
	})
	if err != nil {
		return 0, false
	}
	v, err := strconv.ParseInt(text, 10, 64)
	return v, err == nil
}

// objectKey names an object of a catalog.
type objectKey struct {
	catalog, db, name string
}

// objectCache holds what lookups read, for one catalog version.
type objectCache struct {
	enabled bool // set once when the store opens
	mu      sync.Mutex
	version int64 // the version the entries belong to; -1: none yet
	objects map[objectKey]catalogs.BaseTable
	rows    map[objectKey]string // data table of a managed table
	names   map[string][]string  // listings, by query and arguments
}

// current reads the catalog version and, when it moved, forgets every
// entry. It returns false when the cache is not in use.
func (s *Store) current(ctx context.Context) (int64, bool) {
	if !s.cache.enabled {
		return 0, false
	}
	if g := s.activeGroup(); g != nil && g.cached {
		// The group holds the write lock: the version cannot move until
		// it ends (its own writes change data tables, not definitions).
		return g.version, true
	}
	v, ok := s.catalogVersion(ctx)
	if !ok {
		return 0, false
	}
	s.cache.mu.Lock()
	defer s.cache.mu.Unlock()
	if v != s.cache.version || s.cache.objects == nil {
		s.cache.version = v
		s.cache.objects = map[objectKey]catalogs.BaseTable{}
		s.cache.rows = map[objectKey]string{}
		s.cache.names = map[string][]string{}
	}
	return v, true
}

// cachedObject returns a copy of the cached definition of k (nil when it
// does not exist) and whether one was cached at version v.
func (s *Store) cachedObject(v int64, k objectKey) (catalogs.BaseTable, bool) {
	s.cache.mu.Lock()
	defer s.cache.mu.Unlock()
	if s.cache.version != v {
		return nil, false
	}
	t, ok := s.cache.objects[k]
	if !ok || t == nil {
		return nil, ok
	}
	return t.CopyBase(), true
}

// remember caches what a lookup read after the version was v (nil: the
// object does not exist). Read after the version, it can only be newer
// than v, and a newer version empties the cache before it is used again.
func (s *Store) remember(v int64, k objectKey, t catalogs.BaseTable) {
	s.cache.mu.Lock()
	defer s.cache.mu.Unlock()
	if s.cache.version == v && s.cache.objects != nil {
		if t != nil {
			t = t.CopyBase()
		}
		s.cache.objects[k] = t
	}
}

func (s *Store) cachedRows(v int64, k objectKey) (string, bool) {
	s.cache.mu.Lock()
	defer s.cache.mu.Unlock()
	if s.cache.version != v {
		return "", false
	}
	tbl, ok := s.cache.rows[k]
	return tbl, ok
}

func (s *Store) rememberRows(v int64, k objectKey, tbl string) {
	s.cache.mu.Lock()
	defer s.cache.mu.Unlock()
	if s.cache.version == v && s.cache.rows != nil {
		s.cache.rows[k] = tbl
	}
}

// cachedNames returns a copy of the listing cached under key at version v.
func (s *Store) cachedNames(v int64, key string) ([]string, bool) {
	s.cache.mu.Lock()
	defer s.cache.mu.Unlock()
	if s.cache.version != v {
		return nil, false
	}
	names, ok := s.cache.names[key]
	return slices.Clone(names), ok
}

// rememberNames caches a listing read after the version was v.
func (s *Store) rememberNames(v int64, key string, names []string) {
	s.cache.mu.Lock()
	defer s.cache.mu.Unlock()
	if s.cache.version == v && s.cache.names != nil {
		s.cache.names[key] = slices.Clone(names)
	}
}
