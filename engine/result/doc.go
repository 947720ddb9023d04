// Package result holds the answer to one statement: a Result is an
// acknowledgement, an info line, or a table of rows (a query, SHOW,
// DESCRIBE, SET) read through a RowIterator, possibly a changelog stream.
//
// It is the contract between whatever runs a statement (the local engine,
// the Flink SQL Gateway client in engine/gateway) and what shows the answer
// (repl/render), so it imports nothing of eddy but engine/types: the
// renderer and the gateway client use it without linking the local engine.
// Package engine keeps aliases for every name (engine.Result,
// engine.ResultRows, ...).
package result
