// Package jdbc is eddy's 'jdbc' connector and 'jdbc' catalog: Flink's
// JdbcDynamicTableFactory and JdbcCatalog over PostgreSQL
// (jdbc:postgresql:// URLs, the pgx driver) and over MySQL or MariaDB
// (jdbc:mysql:// URLs, the go-sql-driver/mysql driver).
//
// The options, defaults and error texts are Flink's (url, table-name,
// username, password, connection.max-retry-timeout, scan.partition.*,
// scan.fetch-size, scan.auto-commit, filter.handling.policy,
// sink.buffer-flush.*, sink.max-retries, lookup.*). The dialect (Flink's
// PostgresDialect or MySqlDialect) checks the column types a table may
// have and writes the statements: PostgreSQL's identifiers are not
// quoted and an upsert is INSERT ... ON CONFLICT (key) DO UPDATE SET;
// MySQL's are quoted with backticks and an upsert is
// INSERT ... ON DUPLICATE KEY UPDATE. Each dialect reaches its database
// through a conn (conn.go), the one place that knows the driver.
//
// A source runs one SELECT of the columns the planner asks for, with the
// comparisons it pushes down as the WHERE clause; with
// scan.partition.column it runs one SELECT per partition of the bounds,
// in order. A sink buffers rows and writes each batch in a transaction:
// inserts without a primary key, upserts and deletes by key with one (the
// batch reduced by key). A lookup reader answers a lookup join's point
// queries, through a PARTIAL cache when lookup.cache asks for one.
//
// A catalog shows the server's databases and their tables as Flink's
// PostgresCatalog (schema.table) or MySqlCatalog (the table's name) does,
// with types mapped as their type mappers map them.
//
// Failures name the host, port, database and user, never the password; a
// connection attempt is bounded by a connect timeout (10 s) or
// connection.max-retry-timeout when smaller.
package jdbc
