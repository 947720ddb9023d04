// Package ddl gives the DDL and metadata statements their meaning, as
// Flink's SqlNode converters and operations do: CREATE, ALTER, DROP and USE
// of catalogs, databases, tables, views and functions; CREATE, ALTER and
// DROP of models; SHOW, SHOW CURRENT,
// SHOW CREATE and DESCRIBE; LOAD, UNLOAD and USE MODULES; ADD and REMOVE
// JAR.
//
// An Executor belongs to one session and runs one statement at a time
// (Execute). The catalog manager it is given holds the catalogs and the
// temporary objects; the Executor itself holds only the module list and
// the registered jars. CREATE TABLE checks its schema as Flink's schema
// resolver does (package schema), merges a LIKE source as
// MergeTableLikeUtil does, and ALTER TABLE applies schema changes with
// AlterSchemaConverter's rules and messages. CREATE and ALTER VIEW
// validate the query with the session's analyzer and store the original
// text, the expanded text and the frozen columns.
//
// Statements that run queries (CREATE TABLE ... AS, INSERT, SELECT) and
// the session's jobs (SHOW JOBS) are not here: package engine runs them and
// hands every other statement of this kind to Execute. Answers are
// result.Results; failures carry Flink's exception classes (sqlerr).
package ddl
