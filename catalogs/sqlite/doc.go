// Package sqlite implements eddy's store: one SQLite file (WAL mode, a busy
// timeout with a bounded retry, BEGIN IMMEDIATE for every read-modify-write,
// a schema version with migrations, file mode 0600) that keeps the catalog
// definitions made with CREATE CATALOG (the Store is a catalogs.CatalogStore)
// and the contents of persistent catalogs of type "sqlite" (the Store is the
// catalogs.Factory for that type). Databases, tables, views and functions
// are stored one row per object, keyed by catalog name, so several catalogs
// share one file; every DDL call is one transaction. All SQL uses
// parameters: names are data, never SQL.
//
// Opening a store reads its layout and schema version in one snapshot and
// takes the write lock only to initialise or migrate it, in one
// transaction that reads them again under the lock: a store that is up to
// date opens while another process holds the lock, and a store on a
// location this process cannot write opens for reading only (ErrReadOnly
// for every write). A store whose bookkeeping was edited by hand is
// ErrDamaged. DROP CATALOG removes a catalog's definition and keeps its
// contents, as Flink keeps the tables of a dropped Hive or JDBC catalog.
//
// The rows of a managed table without a primary key are kept as column
// chunks (chunks.go, colenc.go): up to 32,768 rows a chunk, one blob per
// column (integers, dates, times and timestamps frame-of-reference or
// delta bit-packed, strings dictionary-encoded or lengths and bytes,
// doubles plain or, when a chunk's are all decimals, as a power of ten
// and bit-packed integers, booleans bit-packed, a NULL bitmap) with the column's
// row and NULL counts and smallest and largest value; newer rows wait in
// a row-wise delta (the table's data table) that the write reaching a
// chunk's size folds into a chunk in its own transaction. Upserts by
// primary key and ALTER TABLE rebuilds move the chunks back into the
// delta first; overwriting, truncating and dropping remove them. Scans of
// managed tables (ScanRows) run on read-only connections of their own, in
// one read transaction: they read the blobs of the columns they need
// only, skip the chunks whose statistics rule a filter out, decode chunks
// outside the cursor's lock, on the callers of Next and on up to
// ScanSpec.Workers goroutines that read ahead, and hand the rows out in
// order, so that several workers may call Next at once
// (catalogs.ConcurrentCursor; chunkscan.go), then step the delta from C in
// chunks (cscan.go, with the sqlite3 functions the driver links in: cgo
// is required, and the driver's libsqlite3 build tag works too); lookups of tables go through a cache of definitions that the
// store's catalog version, raised by triggers on every catalog table,
// invalidates (cache.go). A RowGroup (group.go) is one write transaction
// that the row writes of several statements share, each in a savepoint of
// its own, for the group commit of piped scripts. A managed table with a
// primary key keeps one row per key: a write's rows replace the rows of
// their keys, and ApplyTarget applies a changelog (catalogs.Changes) in
// its order, a deletion removing its key's rows (rows.go, rows_stage.go).
//
// It imports catalogs, engine/types and github.com/mattn/go-sqlite3; no
// engine package may import it (main wires it).
package sqlite
