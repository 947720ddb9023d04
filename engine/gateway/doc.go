// Package gateway is eddy's client of the Apache Flink SQL Gateway REST API
// (remote mode): it negotiates the API version (v2 at least, the newest
// both sides speak), opens a session with the configuration's properties
// and keeps it alive with heartbeats, runs statements, follows
// nextResultUri through NOT_READY, PAYLOAD and EOS pages with
// rowFormat=JSON, converts Flink's column types and JSON rows to eddy's
// types and values (see package types for the Go value of each type), and
// answers with the same result.Result the local engine gives, so one
// renderer shows both. Failures become *sqlerr.Error carrying the root
// cause of the server's Java stack trace, as the Flink SQL client prints
// it. A cancelled context cancels and closes the operation on the gateway.
//
// Session has the methods the shell's Session interface needs except the
// display options, which main derives from Option as it does for the local
// engine.
//
// Flink's JSON row format limits what a gateway can return: a MAP whose
// keys are not strings, or holding a NULL key, and NaN or infinite DOUBLE
// values fail on the server ("Could not map response to JSON.",
// "Infinite or NaN"); eddy reports that error as Flink does. Values of
// types eddy has no kind for (VARIANT, structured types) and TIMESTAMP
// WITH TIME ZONE are kept as the text the gateway sent.
//
// The package imports only the contracts engine/result and engine/sqlerr
// and engine/types, not the local engine; nothing below the shell imports
// it but main and tests.
//
// # Tests against a real gateway
//
// testdata/flink holds a Maven project and a launcher that start a real
// Flink MiniCluster and SQL Gateway on 127.0.0.1 (no Flink distribution
// needed: Maven fetches Flink 2.2 from Maven Central into ~/.m2):
//
//	engine/gateway/testdata/flink/gateway.sh start   # prints the URL
//	engine/gateway/testdata/flink/gateway.sh stop
//
// The integration tests use the gateway at $EDDY_GATEWAY when it is set.
// Otherwise, with -gateway, they start one through gateway.sh themselves
// (building it first if needed) and stop it afterwards:
//
//	EDDY_GATEWAY=$(engine/gateway/testdata/flink/gateway.sh start) go test ./engine/gateway/
//	go test ./engine/gateway/ -gateway
//
// Without either they are skipped, saying so (they also run when the
// launcher is already built). They check the acceptance script through the
// shell, errors, USE/SET bookkeeping, and that cancelling a streaming
// query's context stops its operation and job; TestConformanceRemote runs
// Flink's sql-client and sql-gateway .q scripts (../shared next to the
// repository) through this client and prints the pass counts;
// TestDifferential runs testdata/differential.sql on the local engine and
// on the gateway in batch mode and prints the mismatch count by category
// (EDDY_DIFF_REPORT=FILE writes every mismatch, EDDY_REMOTE_REPORT=FILE
// the conformance summary; EDDY_DIFF_STRICT=1 and
// EDDY_REMOTE_STRICT=1 turn differences into failures). The unit tests
// replay responses recorded from Flink 2.2 (testdata/responses) and a fake
// gateway.
package gateway
