// Package connectors holds eddy's table sources and sinks: the readers and
// writers the executor opens for a Scan or a Sink, and the storage of
// managed tables (tables created without a 'connector' option), which keep
// their rows in their catalog: in memory for generic_in_memory catalogs,
// in the SQLite store for sqlite catalogs (see RowStore).
//
// The connectors are Flink's, with Flink's option names and validation
// texts (Validate): datagen (bounded with 'number-of-rows' or a sequence
// column, unbounded otherwise, rate-limited by 'rows-per-second'),
// filesystem with the csv and json formats (partitioned k=v/ directories),
// print (to the writers in Connectors.Stdout/Stderr) and blackhole.
//
// A managed table of a catalog that scans its rows column by column
// (catalogs.RowScanner) is read with one cursor for the whole scan, and its
// reader implements Pushdown: it reads only the columns the executor asks
// for and leaves the filters it takes (column-op-constant comparisons on
// integer, DOUBLE and VARCHAR columns, NULL tests) to the store.
//
// A Writer buffers or stages what it is given and makes it visible only on
// Commit, so a statement that fails half-way writes nothing (print, which
// shows rows as they arrive, is the exception).
//
// It imports engine/types, engine/vector and catalogs; it must not import
// engine, engine/exec, engine/plan or the catalog implementations.
package connectors
