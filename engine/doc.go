// Package engine is eddy's library entry point: a Session executes Flink SQL
// statements (Execute) against a catalog manager and session configuration
// and returns a Result — an acknowledgement, an info message, a table of
// rows or a changelog stream — or an *Error carrying Flink's exception class.
//
// With table.dml-sync = false an INSERT over an unbounded source is a
// background job (jobs.go): a goroutine the Session owns, listed by SHOW
// JOBS, ended by STOP JOB or by Close, which leaves no job running.
//
// Nothing here writes to a terminal; rendering belongs to repl/render.
// The engine must not import catalogs/memory or catalogs/sqlite: concrete
// catalog implementations are chosen by main and handed in.
package engine
