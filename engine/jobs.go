package engine

import (
	"context"
	"strconv"
	"strings"

	"eddy/conf"
	"eddy/engine/ast"
	"eddy/engine/jobs"
	"eddy/engine/sqlerr"
	"eddy/engine/types"
)

// Jobs: with table.dml-sync = false (Flink's default) an INSERT or a
// statement set is a job, kept by the session's jobs.Registry (see
// package jobs; Session.runPlannedInserts says which jobs run in the
// background).

// Job states, as Flink names them.
const (
	JobRunning  = jobs.Running
	JobFinished = jobs.Finished
	JobCanceled = jobs.Canceled
	JobFailed   = jobs.Failed
)

// JobInfo describes one job of the session.
type JobInfo = jobs.Info

// Console texts of the Flink SQL client for a submitted job
// (CliStrings.MESSAGE_SUBMITTING_STATEMENT, MESSAGE_STATEMENT_SUBMITTED).
const (
	msgSubmittingStatement = "Submitting SQL update statement to the cluster..."
	msgStatementSubmitted  = "SQL update statement has been successfully submitted to the cluster:"
	msgFinishStatement     = "Complete execution of the SQL update statement."
)

// Jobs returns the session's jobs, newest first.
func (s *Session) Jobs() []JobInfo { return s.jobs.Snapshot() }

// CloseJobs ends the session's background jobs: it waits for those that
// read only bounded sources, cancels those that read an unbounded one and
// returns their ids. No job goroutine is left when it returns.
func (s *Session) CloseJobs() []string { return s.jobs.CloseAll() }

// SetJobFailureHandler sets what is called, from the job's goroutine,
// when a background job fails (the shell prints it); nil ignores
// failures, which SHOW JOBS still lists as FAILED.
func (s *Session) SetJobFailureHandler(f func(JobInfo)) { s.jobs.SetFailureHandler(f) }

// jobError is err as a job records it: an *Error, or nil.
func jobError(err error) error {
	if err == nil {
		return nil
	}
	return AsError(err)
}

// backgroundJob returns run with its failures as *Error.
func backgroundJob(run func(ctx context.Context) error) func(ctx context.Context) error {
	return func(ctx context.Context) error { return jobError(run(ctx)) }
}

// dmlSync is table.dml-sync.
func (s *Session) dmlSync() bool {
	v, _ := strconv.ParseBool(s.conf.get(conf.DMLSync))
	return v
}

// jobName is Flink's name of a job writing the given tables:
// pipeline.name when set, else insert-into_ and the tables' full names.
func (s *Session) jobName(targets []string) string {
	if n := s.conf.get(conf.PipelineName); n != "" {
		return n
	}
	return "insert-into_" + strings.Join(targets, ",")
}

// submitted is the answer to a statement that submitted the job with id.
func submitted(id string) *Result {
	return Info(msgSubmittingStatement + "\n[INFO] " + msgStatementSubmitted + "\nJob ID: " + id + "\n")
}

// showJobs answers SHOW JOBS.
func (s *Session) showJobs() *Result {
	cols := []Column{{Name: "job id", Type: types.NewString()}, {Name: "job name", Type: types.NewString()},
		{Name: "status", Type: types.NewString()}, {Name: "start time", Type: types.NewTimestampLTZ(6)}}
	var rows []Row
	for _, j := range s.jobs.Snapshot() {
		rows = append(rows, Row{Values: []any{j.ID, j.Name, j.Status, j.Start}})
	}
	return &Result{Kind: ResultRows, Columns: cols, Rows: SliceRows(rows), Bounded: true}
}

// execStopJob runs STOP JOB 'id' [WITH SAVEPOINT] [WITH DRAIN]: it
// cancels the job and returns when it has ended. A savepoint needs a
// savepoint directory, which the local engine does not have.
func (s *Session) execStopJob(st *ast.StopJob) (*Result, error) {
	if st.Drain && !st.Savepoint {
		return nil, Errorf(sqlerr.SqlParserException, "WITH DRAIN could only be used after WITH SAVEPOINT.")
	}
	if err := jobs.CheckID(st.JobID); err != nil {
		return nil, err
	}
	j := s.jobs.Find(strings.ToLower(st.JobID))
	if j == nil {
		return nil, Errorf(sqlerr.FlinkJobNotFoundException, "Could not find Flink job (%s)", strings.ToLower(st.JobID))
	}
	if st.Savepoint {
		return nil, Errorf(sqlerr.RestHandlerException,
			"Config key [execution.checkpointing.savepoint-dir] is not set. Property [targetDirectory] must be provided.")
	}
	s.jobs.Stop(j)
	return Success(), nil
}
