// Package arctic is the catalog type 'arctic' of Apache Amoro (formerly
// Arctic), seed 004's catalog of Iceberg-based tables. It checks the
// options exactly as Amoro's Flink catalog documents them (the required
// 'metastore.url' of the form thrift://<host>:<port>/<catalog>,
// 'default-database', 'property-version' and the 'properties.auth.*'
// rules) and then refuses to connect: the catalog lives in an Amoro
// Management Service, which eddy does not reach; its error names the
// 'iceberg' catalog declaration (package catalogs/iceberg) for the
// service's Iceberg REST endpoint.
package arctic
