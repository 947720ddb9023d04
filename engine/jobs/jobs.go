package jobs

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"
)

// Job states, as Flink names them.
const (
	Running  = "RUNNING"
	Finished = "FINISHED"
	Canceled = "CANCELED"
	Failed   = "FAILED"
)

// Info describes one job.
type Info struct {
	ID     string // 32 hexadecimal digits
	Name   string // insert-into_<catalog>.<database>.<table>[,...], or pipeline.name
	Status string // Running, Finished, Canceled or Failed
	Start  time.Time
	// Err is why a failed job failed.
	Err error
}

// Job is one job of a Registry.
type Job struct {
	info    Info
	bounded bool
	cancel  context.CancelFunc
	stopped bool          // Stop or CloseAll cancelled it
	done    chan struct{} // closed when the job has ended
}

// ID returns the job's id.
func (j *Job) ID() string { return j.info.ID }

// Registry holds a session's jobs, newest last. Its zero value is ready
// to use; its methods are safe for use by the session and the jobs'
// goroutines at the same time.
type Registry struct {
	mu   sync.Mutex
	list []*Job
	wg   sync.WaitGroup
	// failures is called for each background job that fails, or nil.
	failures func(Info)
}

// NewID returns a new job id: 16 random bytes in hexadecimal.
func NewID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		// rand.Read does not fail on supported platforms; a clock-derived
		// id keeps ids unique even so.
		return fmt.Sprintf("%032x", time.Now().UnixNano())
	}
	return hex.EncodeToString(b[:])
}

// Add records a running job; run, when not nil, runs it in the background
// and its result ends the job (Finish).
func (r *Registry) Add(name string, bounded bool, run func(ctx context.Context) error) *Job {
	j := &Job{info: Info{ID: NewID(), Name: name, Status: Running, Start: time.Now().Truncate(time.Millisecond)},
		bounded: bounded, done: make(chan struct{})}
	r.mu.Lock()
	r.list = append(r.list, j)
	r.mu.Unlock()
	if run == nil {
		return j
	}
	ctx, cancel := context.WithCancel(context.Background())
	j.cancel = cancel
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		defer cancel()
		r.Finish(j, run(ctx))
	}()
	return j
}

// Finish records how a job ended: err nil is success, a cancellation
// (Stop, or a context.Canceled error) is CANCELED.
func (r *Registry) Finish(j *Job, err error) {
	r.mu.Lock()
	switch {
	case j.stopped || errors.Is(err, context.Canceled):
		j.info.Status = Canceled
	case err != nil:
		j.info.Status, j.info.Err = Failed, err
	default:
		j.info.Status = Finished
	}
	info := j.info
	report := r.failures
	r.mu.Unlock()
	close(j.done)
	if info.Status == Failed && j.cancel != nil && report != nil {
		report(info)
	}
}

// Find returns the job with an id, or nil.
func (r *Registry) Find(id string) *Job {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, j := range r.list {
		if j.info.ID == id {
			return j
		}
	}
	return nil
}

// Stop cancels a running background job and waits for it to end.
func (r *Registry) Stop(j *Job) {
	r.mu.Lock()
	running := j.info.Status == Running && j.cancel != nil
	if running {
		j.stopped = true
	}
	r.mu.Unlock()
	if running {
		j.cancel()
		<-j.done
	}
}

// Snapshot returns every job, newest first (as Flink lists them).
func (r *Registry) Snapshot() []Info {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]Info, len(r.list))
	for i, j := range r.list {
		out[len(out)-1-i] = j.info
	}
	return out
}

// CloseAll waits for bounded background jobs, cancels the unbounded ones
// and returns the ids of those it cancelled. No job goroutine is left
// when it returns.
func (r *Registry) CloseAll() []string {
	r.mu.Lock()
	var cancelled []string
	var toStop []*Job
	for _, j := range r.list {
		if j.info.Status == Running && j.cancel != nil && !j.bounded {
			cancelled = append(cancelled, j.info.ID)
			toStop = append(toStop, j)
		}
	}
	r.mu.Unlock()
	for _, j := range toStop {
		r.Stop(j)
	}
	r.wg.Wait()
	return cancelled
}

// SetFailureHandler sets what is called, from the job's goroutine, when a
// background job fails; nil ignores failures (Snapshot still lists them).
func (r *Registry) SetFailureHandler(f func(Info)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failures = f
}

// Error is a malformed job id, with Flink's exception class.
type Error struct {
	Exception string
	Msg       string
}

func (e *Error) Error() string { return e.Msg }

// Class returns Flink's exception class.
func (e *Error) Class() string { return e.Exception }

// CheckID parses a job id as Flink's JobID.fromHexString does and returns
// its error (the root cause Flink reports).
func CheckID(id string) error {
	for i := 0; i+2 <= len(id); i += 2 {
		if _, err := strconv.ParseUint(id[i:i+2], 16, 8); err != nil {
			return &Error{"NumberFormatException", fmt.Sprintf("For input string: \"%s\" under radix 16", id[i:i+2])}
		}
	}
	if len(id) != 32 {
		return &Error{"IllegalArgumentException", "Argument bytes must by an array of 16 bytes"}
	}
	return nil
}
