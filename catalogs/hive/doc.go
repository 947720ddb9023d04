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
// reads and writes itself (Connector), committing new partitions to the
// metastore.
//
// The metastore client (client.go) uses the Thrift bindings generated from
// hive_metastore.thrift that github.com/beltran/gohive ships, over a plain
// buffered binary transport (hive.metastore.sasl.enabled = false), with a
// bounded connect and socket timeout so that an unreachable metastore is an
// error naming its URI.
package hive
