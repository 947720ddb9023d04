// Command bench compares eddy with the sqlite3 CLI and DuckDB on the same
// data and checks eddy's performance targets.
//
// It is its own module so that DuckDB never enters eddy's go.mod: it builds
// the eddy binary from the repository root with `go build` and drives it as
// a process (piped scripts, -e, -f), runs the sqlite3 CLI as a process and
// DuckDB in process through database/sql. It imports no eddy package.
//
// Each workload runs on every engine in turn (alternating runs); the report
// is a markdown table of medians, eddy/peer ratios and each target marked
// met or missed.
//
//	cd engine/bench && go run . -scale small
package main
