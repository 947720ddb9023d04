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
// With table.dml-sync = false an INSERT over an unbounded source is a
// background job (engine/jobs): a goroutine the Session owns, listed by
// SHOW JOBS, ended by STOP JOB or by Close, which leaves no job running.
//
// Nothing here writes to a terminal; rendering belongs to repl/render.
// The engine must not import catalogs/memory or catalogs/sqlite: concrete
// catalog implementations are chosen by main and handed in.
package engine
