// Package iceberg is the catalog type 'iceberg' (Iceberg's Flink catalog,
// FlinkCatalogFactory).
//
// An iceberg catalog maps Iceberg namespaces to databases and Iceberg
// tables to tables as Iceberg's FlinkCatalog does: a table's columns are
// its schema's fields, its PRIMARY KEY the schema's identifier fields, its
// PARTITIONED BY columns an identity partition spec and its WITH options
// the table properties. It reaches the catalog through Apache Iceberg's Go
// library (github.com/apache/iceberg-go): 'catalog-type' = 'rest' (an
// Iceberg REST catalog at 'uri') or 'hadoop' (a directory 'warehouse').
//
// The catalog supplies the connector of its tables (connector.go): scans
// read the current snapshot, or the one 'snapshot-id' or
// 'as-of-timestamp' names, through iceberg-go's Arrow scan (Parquet data
// files, delete files applied); INSERT INTO appends Parquet data files in
// one snapshot, INSERT OVERWRITE replaces the table's rows (the partitions
// written, for a partitioned table), and a table with a PRIMARY KEY and
// 'write.upsert.enabled' (or a changelog input) is written as Iceberg's
// Flink sink writes it: equality deletes by the key, then the new rows. A
// streaming INSERT commits at each checkpoint; 'streaming' = 'true' reads
// appended snapshots incrementally (stream.go).
package iceberg
