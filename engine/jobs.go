package engine

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"eddy/conf"
	"eddy/engine/ast"
	"eddy/engine/types"
)

// Jobs: with table.dml-sync = false (Flink's default) an INSERT or a
// statement set is a job, answered with Flink's submission lines and a
// job id and listed by SHOW JOBS. A job that reads an unbounded source
// runs in the background, in a goroutine the session owns, until STOP JOB
// or the session's close cancels it. A bounded one runs inside the
// statement (see Session.runInserts for why) and is listed as finished.

// Job states, as Flink names them.
const (
	JobRunning  = "RUNNING"
	JobFinished = "FINISHED"
	JobCanceled = "CANCELED"
	JobFailed   = "FAILED"
)

// Console texts of the Flink SQL client for a submitted job
// (CliStrings.MESSAGE_SUBMITTING_STATEMENT, MESSAGE_STATEMENT_SUBMITTED).
const (
	msgSubmittingStatement = "Submitting SQL update statement to the cluster..."
	msgStatementSubmitted  = "SQL update statement has been successfully submitted to the cluster:"
	msgFinishStatement     = "Complete execution of the SQL update statement."
)

// JobInfo describes one job of the session.
type JobInfo struct {
	ID     string // 32 hexadecimal digits
	Name   string // insert-into_<catalog>.<database>.<table>[,...], or pipeline.name
	Status string // JobRunning, JobFinished, JobCanceled or JobFailed
	Start  time.Time
	// Err is why a failed job failed.
	Err error
}

type job struct {
	info    JobInfo
	bounded bool
	cancel  context.CancelFunc
	stopped bool          // STOP JOB or the session's close cancelled it
	done    chan struct{} // closed when the job has ended
}

// jobs are the session's jobs, newest last. Its methods are safe for use
// by the session and the jobs' goroutines at the same time.
type jobs struct {
	mu   sync.Mutex
	list []*job
	wg   sync.WaitGroup
	// failures receives a line for each background job that fails (the
	// session's standard error, or nil).
	failures func(JobInfo)
}

func newJobID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		// rand.Read does not fail on supported platforms; a clock-derived
		// id keeps ids unique even so.
		return fmt.Sprintf("%032x", time.Now().UnixNano())
	}
	return hex.EncodeToString(b[:])
}

// add records a job; run, when not nil, runs it in the background.
func (js *jobs) add(name string, bounded bool, run func(ctx context.Context) error) *job {
	j := &job{info: JobInfo{ID: newJobID(), Name: name, Status: JobRunning, Start: time.Now().Truncate(time.Millisecond)},
		bounded: bounded, done: make(chan struct{})}
	js.mu.Lock()
	js.list = append(js.list, j)
	js.mu.Unlock()
	if run == nil {
		return j
	}
	ctx, cancel := context.WithCancel(context.Background())
	j.cancel = cancel
	js.wg.Add(1)
	go func() {
		defer js.wg.Done()
		defer cancel()
		js.finish(j, run(ctx))
	}()
	return j
}

// finish records how a job ended.
func (js *jobs) finish(j *job, err error) {
	js.mu.Lock()
	switch {
	case j.stopped || errors.Is(err, context.Canceled):
		j.info.Status = JobCanceled
	case err != nil:
		j.info.Status, j.info.Err = JobFailed, AsError(err)
	default:
		j.info.Status = JobFinished
	}
	info := j.info
	report := js.failures
	js.mu.Unlock()
	close(j.done)
	if info.Status == JobFailed && j.cancel != nil && report != nil {
		report(info)
	}
}

// find returns the job with an id, or nil.
func (js *jobs) find(id string) *job {
	js.mu.Lock()
	defer js.mu.Unlock()
	for _, j := range js.list {
		if j.info.ID == id {
			return j
		}
	}
	return nil
}

// stop cancels a running background job and waits for it to end.
func (js *jobs) stop(j *job) {
	js.mu.Lock()
	running := j.info.Status == JobRunning && j.cancel != nil
	if running {
		j.stopped = true
	}
	js.mu.Unlock()
	if running {
		j.cancel()
		<-j.done
	}
}

// snapshot returns every job, newest first (as Flink lists them).
func (js *jobs) snapshot() []JobInfo {
	js.mu.Lock()
	defer js.mu.Unlock()
	out := make([]JobInfo, len(js.list))
	for i, j := range js.list {
		out[len(out)-1-i] = j.info
	}
	return out
}

// closeAll waits for bounded background jobs, cancels the unbounded ones
// and returns the ids of those it cancelled.
func (js *jobs) closeAll() []string {
	js.mu.Lock()
	var cancelled []string
	var toStop []*job
	for _, j := range js.list {
		if j.info.Status == JobRunning && j.cancel != nil && !j.bounded {
			cancelled = append(cancelled, j.info.ID)
			toStop = append(toStop, j)
		}
	}
	js.mu.Unlock()
	for _, j := range toStop {
		js.stop(j)
	}
	js.wg.Wait()
	return cancelled
}

// Jobs returns the session's jobs, newest first.
func (s *Session) Jobs() []JobInfo { return s.jobs.snapshot() }

// CloseJobs ends the session's background jobs: it waits for those that
// read only bounded sources, cancels those that read an unbounded one and
// returns their ids. No job goroutine is left when it returns.
func (s *Session) CloseJobs() []string { return s.jobs.closeAll() }

// SetJobFailureHandler sets what is called, from the job's goroutine,
// when a background job fails (the shell prints it); nil ignores
// failures, which SHOW JOBS still lists as FAILED.
func (s *Session) SetJobFailureHandler(f func(JobInfo)) {
	s.jobs.mu.Lock()
	defer s.jobs.mu.Unlock()
	s.jobs.failures = f
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

// submitted is the answer to a statement that submitted job j.
func submitted(id string) *Result {
	return Info(msgSubmittingStatement + "\n[INFO] " + msgStatementSubmitted + "\nJob ID: " + id + "\n")
}

// showJobs answers SHOW JOBS.
func (s *Session) showJobs() *Result {
	cols := []Column{{Name: "job id", Type: types.NewString()}, {Name: "job name", Type: types.NewString()},
		{Name: "status", Type: types.NewString()}, {Name: "start time", Type: types.NewTimestampLTZ(6)}}
	var rows []Row
	for _, j := range s.jobs.snapshot() {
		rows = append(rows, Row{Values: []any{j.ID, j.Name, j.Status, j.Start}})
	}
	return &Result{Kind: ResultRows, Columns: cols, Rows: SliceRows(rows), Bounded: true}
}

// execStopJob runs STOP JOB 'id' [WITH SAVEPOINT] [WITH DRAIN]: it
// cancels the job and returns when it has ended. A savepoint needs a
// savepoint directory, which the local engine does not have.
func (s *Session) execStopJob(st *ast.StopJob) (*Result, error) {
	if st.Drain && !st.Savepoint {
		return nil, Errorf("SqlParserException", "WITH DRAIN could only be used after WITH SAVEPOINT.")
	}
	if err := checkJobID(st.JobID); err != nil {
		return nil, err
	}
	j := s.jobs.find(strings.ToLower(st.JobID))
	if j == nil {
		return nil, Errorf("FlinkJobNotFoundException", "Could not find Flink job (%s)", strings.ToLower(st.JobID))
	}
	if st.Savepoint {
		return nil, Errorf("RestHandlerException",
			"Config key [execution.checkpointing.savepoint-dir] is not set. Property [targetDirectory] must be provided.")
	}
	s.jobs.stop(j)
	return Success(), nil
}

// checkJobID parses a job id as Flink's JobID.fromHexString does and
// returns its error (the root cause Flink reports).
func checkJobID(id string) error {
	for i := 0; i+2 <= len(id); i += 2 {
		if _, err := strconv.ParseUint(id[i:i+2], 16, 8); err != nil {
			return Errorf("NumberFormatException", "For input string: \"%s\" under radix 16", id[i:i+2])
		}
	}
	if len(id) != 32 {
		return Errorf("IllegalArgumentException", "Argument bytes must by an array of 16 bytes")
	}
	return nil
}
