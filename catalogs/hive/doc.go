// Package hive is the catalog type 'hive' (Flink's HiveCatalog): databases,
// tables, views, functions and partitions kept in a Hive Metastore, reached
// over its Thrift API, in the layout Flink's HiveCatalog writes so that
// Flink and eddy read each other's objects.
//
// Two kinds of tables live there. Generic tables (any connector but
// 'hive') and every view keep their Flink definition in table parameters
// prefixed with 'flink.' (schema.N.name, schema.N.data-type, comment,
// partition.keys.N.name and the WITH options), marked is_generic when they
// name no connector. Hive tables (connector 'hive', what the Hive dialect's
// CREATE TABLE makes) are plain Hive tables: columns, partition keys and a
// storage descriptor; their rows are text files in Hive's default SerDe
// (LazySimpleSerDe: \001 between fields, \N for NULL) that this package
// reads and writes itself, or Parquet files read and written through the
// engine's parquet format (Connector), new partitions committed to the
// metastore.
//
// The interoperability test runs real Flink 1.20 with its Hive connector
// (testdata/flink120/gateway.sh) on the same metastore as eddy.
//
// The metastore client (client.go) uses the Thrift bindings generated from
// hive_metastore.thrift that github.com/beltran/gohive ships, over a plain
// buffered binary transport (hive.metastore.sasl.enabled = false), with a
// bounded connect and socket timeout so that an unreachable metastore is an
// error naming its URI.
package hive
