// Package qtest runs `.q` golden scripts — Flink's own SQL client and SQL
// gateway test scripts and eddy's files in the same format — against eddy and
// compares every answer with the expected text.
//
// It owns the script reader (prefix lines, statement ends per dialect,
// expected block, tag), placeholder substitution, dialect detection, the
// rendering of answers the way Flink's gateway test harness prints them, the
// comparison (exact text plus three documented normalisations, see
// normalize.go), the baseline and skip lists, and the run summary.
//
// A script runs against a Target: one fresh session over a fresh store per
// file. The package does not build sessions itself; the conformance test
// wires the real engine and shell into a Target.
//
// qtest must not import catalogs/memory, catalogs/sqlite or anything that
// writes to a terminal; only its tests may open a store.
package qtest
