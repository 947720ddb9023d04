// Package plan holds eddy's logical query plans: immutable trees of
// relational operators (Scan, Values, Project, Filter, Join, Aggregate,
// Over, Sort, Limit, SetOp, Correlate, Unnest, WindowTVF, Match, Sink)
// whose expressions are typed and fully resolved, and the nodes and
// fields the optimizer (engine/opt) adds: TopN, Scan.Projection and
// Scan.Filters, Join.Strategy, the InputUpdates of Aggregate, TopN and
// Sink, Sink.Direct. The validator never sets those.
//
// The contract between the query validator (engine/validate), which builds
// plans, and the executor (engine/exec), which runs them:
//
//   - Every node reports its output Schema: column names and Flink types,
//     nullability included. Column names need not be unique (a join may
//     produce two `id` columns); positions are what count.
//   - Expressions refer to the columns of their node's input by position
//     (ColumnRef.Index). For a Join's condition the input is the left
//     schema followed by the right schema. For a Values row there is no
//     input: only literals, calls over literals and casts appear.
//   - Calls name either a registry function (Call.Func is set, Call.Name is
//     its upper-case name) or one of the operators listed as Op* constants
//     (Call.Func is nil). Every call carries its result type: the executor
//     never infers types, it only picks the kernel for the argument types.
//     Arguments are already of the types the kernel expects as far as Flink
//     inserts implicit casts (the validator adds Cast nodes where Flink's
//     planner would); numeric operators over mixed numeric types are
//     accepted and widened by the executor.
//   - Literals hold engine values (see engine/types value.go): int32 for
//     INT, *decimal.Decimal for DECIMAL, string for CHAR/VARCHAR, nil for NULL.
//   - A simple CASE (CASE x WHEN v ...) is given as a searched Case with
//     `x = v` conditions; BETWEEN as two comparisons joined by AND; NOT IN
//     (list) as NOT(IN(...)); x IN (list) is a call of OpIn with x first.
//   - Sub-queries inside expressions are SubQuery nodes. A correlated
//     sub-query (or the right side of a Correlate) reads the current row of
//     an outer input through CorrelRef{ID, Index}; the ID matches the
//     SubQuery.ID or Correlate.ID that binds it.
//   - Aggregate, Over and Sink outputs are specified on each node.
//   - Nodes are immutable: WithChildren returns a copy; nothing mutates a
//     node after its constructor (or literal construction) returns.
//
// Format prints a plan tree in the style of Flink's EXPLAIN (one operator a
// line, `:- ` before every child but the last, `+- ` before the last).
//
// The package imports only engine/types and engine/functions; it must not
// import the validator, the executor, catalogs or connectors.
package plan
