// Package engine is eddy's library entry point: a Session executes Flink SQL
// statements (Execute) against a catalog manager and session configuration
// and returns a Result — an acknowledgement, an info message, a table of
// rows or a changelog stream — or an *Error carrying Flink's exception class.
//
// Every statement takes one path: parse, validate (engine/validate binds
// everything, INSERT and CREATE TABLE AS targets included), plan, run.
// INSERT runs in engine/sink, whose fast path for literal rows is a
// physical choice made on the bound plan; a write group (BeginGroup) is a
// transaction mode of the same path that lets many INSERTs share one store
// transaction (group commit of piped scripts).
//
// Result, Error and their companions are aliases of the contract packages
// engine/result and engine/sqlerr, which the renderer and the gateway client
// import without this package.
//
// The session parses a statement and dispatches it (exec.go): SET and RESET
// it runs itself (exec_config.go); DDL and metadata statements (CREATE,
// ALTER, DROP, USE, SHOW, DESCRIBE, modules, jars) go to engine/ddl;
// queries, INSERT, CREATE TABLE ... AS, statement sets, EXPLAIN and
// compiled plans are validated (engine/validate, with table schemas
// resolved by engine/schema), planned and run here.
//
// With table.dml-sync = false an INSERT over an unbounded source is a
// background job (engine/jobs): a goroutine the Session owns, listed by
// SHOW JOBS, ended by STOP JOB or by Close, which leaves no job running.
//
// Nothing here writes to a terminal; rendering belongs to repl/render.
// The engine must not import catalogs/memory or catalogs/sqlite: concrete
// catalog implementations are chosen by main and handed in.
package engine
