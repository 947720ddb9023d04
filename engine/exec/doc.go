// Package exec runs logical plans (engine/plan) with vectorized operators:
// each operator pulls batches of column vectors (engine/vector) from its
// inputs and returns batches of its own, with a row kind per row
// (+I -U +U -D). Expressions are compiled once per statement into
// functions over vectors, with the kernels of engine/functions.
//
// The same operators serve batch and streaming mode: in streaming mode an
// aggregate emits its changelog (+I, then -U/+U pairs as a group's result
// changes), in batch mode only final rows. Every operator checks the
// statement's context between batches, so cancellation stops a query
// within one batch of work; operators start no goroutines, except the
// parallel pipelines below and a batch window's sort of its partitions. A streaming
// aggregate grouped by a window table function's window_start and
// window_end is a window aggregate instead: each window emits its final
// rows once, as +I, when the watermark (from the source's WATERMARK
// clause) passes its end.
//
// Streaming mode has operators of its own where Flink's changelog differs
// from a batch result: Top-N (plan.TopN: Flink's rank functions and
// ORDER BY ... LIMIT, topn.go), deduplication (dedup.go), window Top-N
// (topn_window.go), regular joins with their outer-join retractions and
// semi/anti joins for IN and EXISTS (streamjoin*.go); aggregates over an
// updating input retract every function (streamjoin_retract.go). Event-time
// temporal joins (temporaljoin.go), interval and window joins
// (intervaljoin.go) hold rows until the watermark passes them.
//
// The executor runs the plan it is given and rewrites nothing: the
// optimizer (engine/opt) has already pruned the scans, made the Top-Ns
// and semi joins explicit nodes, chosen each streaming join's strategy
// (plan.Join.Strategy) and recorded which inputs carry updates
// (InputUpdates of aggregates, Top-Ns and sinks). Explain prints the
// operators Build makes of a plan.
//
// Operators that hold rows budget their estimated bytes against
// Options.MemoryBudget (the session's eddy.exec.memory-budget): a sort
// writes sorted runs to unlinked temporary files and merges them, a batch
// aggregation spills partitions of its groups, and a hash join whose
// build side outgrows the budget becomes a grace hash join over
// partition files.
//
// In batch mode, with Options.Parallelism (eddy.exec.parallelism) above
// 1, a pipeline of Project and Filter nodes over a Scan whose reader is
// shared (connectors.Concurrent) runs on that many workers (parallel.go):
// the builder builds one instance of the pipeline's operators per worker
// (expressions compiled per worker), each pulls the reader's next batch,
// and the batches are numbered in the order the reader hands them out.
// What the pipeline feeds decides what runs on the workers: a gather
// returns their batches in that order (so everything above sees the
// serial plan's rows in the serial order); a batch aggregation of COUNT,
// SUM over integers and DECIMAL, MIN and MAX aggregates per worker and
// merges (parallelagg.go), ordering the groups by their first row (a
// global one, whose answer needs no order, lets the workers call the
// reader at once, so a store decodes several batches together); a
// hash join builds once and probes on the workers (paralleljoin.go); a
// sort or Top-N sorts per worker with the row's number as a last key and
// merges (parallelsort.go), so ties keep the stable serial order; a
// window function's partitions are sorted on that many goroutines (a
// partition holding most rows as runs merged), which the row position as
// the last key makes the serial order. Workers
// share the memory budget; the first error cancels the others, and Close
// waits for every worker. A reader that is not shared runs the first
// worker's pipeline on the caller's goroutine, which is the serial plan.
// Streaming operators never run in parallel; Explain shows the serial
// operators.
//
// Tables are reached through the Tables interface the caller provides
// (engine wires it to connectors and catalogs). A scan reads the columns
// of Scan.Projection and applies Scan.Filters; a reader that implements
// connectors.Pushdown reads just those columns and applies the filters it
// can where the rows are stored, the executor the rest.
//
// It imports engine/plan, engine/types, engine/vector, engine/functions and
// engine/connectors; it must not import engine, validate or catalogs.
package exec
