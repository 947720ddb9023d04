// Package jobs keeps the jobs of a session: with table.dml-sync = false
// (Flink's default) an INSERT or a statement set is a job, answered with
// Flink's submission lines and a job id and listed by SHOW JOBS. A job
// that reads an unbounded source runs in the background, in a goroutine
// the Registry owns, until it is stopped (STOP JOB) or the session closes;
// a bounded one runs inside its statement and is recorded as it ends.
package jobs
