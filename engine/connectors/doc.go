// Package connectors holds eddy's table sources and sinks: the readers and
// writers the executor opens for a Scan or a Sink, the formats their files
// are written in, and the storage of managed tables (tables created
// without a 'connector' option), which keep their rows in their catalog:
// in memory for generic_in_memory catalogs, in the SQLite store for sqlite
// catalogs (see RowStore).
//
// Connectors are Factory values in a Registry (NewRegistry registers
// eddy's own; a program adds its own with Register): an identifier (the
// 'connector' option), the options it takes, with Flink's validation texts
// (CheckOptions), functions opening a source and a sink, and the Abilities
// it declares for a table: bounded or not, projection and filter pushdown,
// limit, partitions, readable and writable metadata keys, the changelog
// its source produces and its sink accepts, lookup. The planner asks for
// abilities (Registry.Abilities) before anything is opened; nothing
// outside the registry looks at a connector's identifier. A catalog may
// supply the connector of its own tables (CatalogConnector). A
// connector is one file with its Factory and one line in NewRegistry.
//
// The connectors are Flink's: datagen (bounded with 'number-of-rows' or a
// sequence column, unbounded otherwise, rate-limited by
// 'rows-per-second'), filesystem (partitioned k=v/ directories, the
// file.* metadata keys), print (to the writers in Env.Stdout/Stderr) and
// blackhole.
//
// Formats (the 'format' option: csv, json, raw, avro, parquet,
// debezium-json, canal-json, maxwell-json; avro-confluent and
// debezium-avro-confluent are known and refused, as eddy reaches no schema
// registry, and so is orc, for want of a Go library) are Format
// values in the same registry (format_*.go): a Codec decodes and encodes
// rows with their row kind, and a BulkCodec reads a whole file into
// column vectors (the csv format does, from the bytes of its read
// buffer). Optional interfaces say more: a ChangelogCodec produces and
// takes rows of every kind (the CDC formats), a MetadataCodec reads
// metadata of its messages (debezium's source.timestamp, ...), a
// MessageDecoder or MessageEncoder codes a message otherwise than a file
// (raw: a message is one value, a file a value per line; avro: a message
// is a binary record, a file an object container). DecodeBytes and
// EncodeBytes code one message, for connectors of message queues. The
// filesystem connector reads every file through a BulkReader (OpenBulk;
// a ChangelogBulkReader carries row kinds; a FilterBulkCodec, parquet,
// also takes the pushed filters to skip row groups by their statistics)
// and shares its multi-file handling (listing, partition directories,
// SHOW PARTITIONS and ALTER TABLE ADD/DROP PARTITION) in files.go. A
// pushed filter on a partition key chooses the directories read. A table
// created without columns takes them from its files (InferColumns).
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
