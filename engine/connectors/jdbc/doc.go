// Package jdbc is eddy's 'jdbc' connector: Flink's JdbcDynamicTableFactory
// over PostgreSQL (jdbc:postgresql:// URLs) with the pgx driver.
//
// The options, defaults and error texts are Flink's (url, table-name,
// username, password, connection.max-retry-timeout, scan.partition.*,
// scan.fetch-size, scan.auto-commit, filter.handling.policy,
// sink.buffer-flush.*, sink.max-retries, lookup.*). The dialect (Flink's
// PostgresDialect) checks the column types a table may have and writes
// the statements: identifiers are not quoted, an upsert is
// INSERT ... ON CONFLICT (key) DO UPDATE SET.
//
// A source runs one SELECT of the columns the planner asks for, with the
// comparisons it pushes down as the WHERE clause; with
// scan.partition.column it runs one SELECT per partition of the bounds,
// in order. A sink buffers rows and writes each batch in a transaction:
// inserts without a primary key, upserts and deletes by key with one (the
// batch reduced by key). A lookup reader answers a lookup join's point
// queries, through a PARTIAL cache when lookup.cache asks for one.
//
// Failures name the host, port, database and user, never the password; a
// connection attempt is bounded by the PostgreSQL driver's connect
// timeout (10 s) or connection.max-retry-timeout when smaller.
package jdbc
