// Package connectors holds eddy's table sources and sinks: the readers and
// writers the executor opens for a Scan or a Sink, and the storage of
// managed tables (tables created without a 'connector' option), which keep
// their rows in their catalog: in memory for generic_in_memory catalogs,
// in the SQLite store for sqlite catalogs (see RowStore).
//
// A Writer buffers or stages what it is given and makes it visible only on
// Commit, so a statement that fails half-way writes nothing.
//
// It imports engine/types, engine/vector and catalogs; it must not import
// engine, engine/exec, engine/plan or the catalog implementations.
package connectors
