// Package opt is eddy's plan optimizer: named passes that turn the
// logical plan the validator (engine/validate) builds into the plan the
// executor (engine/exec) runs. Every pass is an immutable rewrite: it
// returns new nodes and never modifies its input, so the validated plan
// stays printable next to the optimized one (EXPLAIN).
//
// Optimize runs the passes in order:
//
//   - changelog-normalize (streaming) puts a ChangelogNormalize keyed by
//     the PRIMARY KEY above every scan of an upsert source (see
//     ChangelogSources), before push-down: the source's rows are
//     normalized whole.
//   - prune-projections drops the expressions of a projection that the
//     projection above it never reads (a view's casts to its frozen
//     types must not run for columns nobody reads).
//   - push-down gives every scan the columns the operators above it use
//     (Scan.Projection) and the filter conjuncts directly above it that
//     its source takes (Scan.Filters), renumbering the column references
//     above; what a source takes is asked of Sources.
//   - semi-join (streaming) turns a WHERE conjunct `x IN (SELECT ...)` or
//     `[NOT] EXISTS (SELECT ... WHERE inner = outer)` into a semi (anti)
//     plan.Join.
//   - top-n (streaming) turns a Filter bounding the rank of a ranking
//     window call, and ORDER BY ... LIMIT, into plan.TopN.
//   - changelog (streaming) derives which nodes produce only inserts and
//     which produce updates, and records it where the executor needs it:
//     Aggregate.InputUpdates, TopN.InputUpdates, Sink.InputUpdates and
//     Join.Strategy; a join of insert-only inputs whose condition ties
//     their event times becomes a plan.IntervalJoin or plan.WindowJoin
//     (interval.go, windowjoin.go).
//   - direct-insert marks a Sink of constant rows into a table whose
//     catalog keeps its rows (Sink.Direct), for an executor that writes
//     them without operators.
//
// The relational passes (push-down, semi-join, top-n, changelog) cannot
// apply to constant rows (`INSERT ... VALUES`), whose plans skip them.
// What a source takes and whether it ends, and whether a sink's table
// keeps its rows in a store, are Sources' answers: the engine answers
// from the connector registry's declared abilities.
//
// Trace holds the plan after each pass, for EXPLAIN and tests.
//
// The package imports engine/plan, engine/types, engine/vector and
// engine/sqlerr; it must not import the connectors, the validator, the
// executor, catalogs or the engine.
package opt
