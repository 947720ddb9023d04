package repl

import (
	"context"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"eddy/engine"
	"eddy/repl/render"
)

// defaultProgressDelay is how long a statement runs before its status
// line appears.
const defaultProgressDelay = time.Second

// progressEvery is how often the status line is redrawn.
const progressEvery = 100 * time.Millisecond

// progress draws a one-line live status of a running statement (elapsed
// time, rows received so far) on the terminal's error stream and erases it
// before any answer text is written and when the statement ends. Only an
// interactive shell with a terminal on its error stream has one.
type progress struct {
	w     io.Writer
	start time.Time
	rows  atomic.Int64

	mu    sync.Mutex
	shown bool
	// midLine is set while answer text has been written up to the middle
	// of a line: the status line waits for the line's end.
	midLine bool
	// suspended is set while a full-screen view or the pager owns the
	// terminal.
	suspended bool

	stopOnce sync.Once
	done     chan struct{}
	finished chan struct{}
}

// startProgress begins watching a statement: after delay the status line
// appears and is redrawn until stop.
func startProgress(w io.Writer, delay time.Duration) *progress {
	p := &progress{w: w, start: time.Now(), done: make(chan struct{}), finished: make(chan struct{})}
	go p.run(delay)
	return p
}

func (p *progress) run(delay time.Duration) {
	defer close(p.finished)
	timer := time.NewTimer(delay)
	defer timer.Stop()
	select {
	case <-p.done:
		return
	case <-timer.C:
	}
	tick := time.NewTicker(progressEvery)
	defer tick.Stop()
	for {
		p.draw()
		select {
		case <-p.done:
			return
		case <-tick.C:
		}
	}
}

func (p *progress) draw() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.midLine || p.suspended {
		return
	}
	io.WriteString(p.w, "\r"+render.Progress(time.Since(p.start), p.rows.Load())+eraseLine)
	p.shown = true
}

// clear erases the status line if it is on the screen.
func (p *progress) clear() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		io.WriteString(p.w, "\r"+eraseLine)
		p.shown = false
	}
}

// suspend erases the status line and keeps it away until resume.
func (p *progress) suspend() {
	p.clear()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.suspended = true
}

func (p *progress) resume() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.suspended = false
}

// before is called before answer text b is written: the status line goes,
// and stays away while b leaves a line unfinished.
func (p *progress) before(b []byte) {
	p.clear()
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(b) > 0 {
		p.midLine = b[len(b)-1] != '\n'
	}
}

// stop ends the status line for good and erases it.
func (p *progress) stop() {
	p.stopOnce.Do(func() { close(p.done) })
	<-p.finished
	p.clear()
}

// eraseLine erases from the cursor to the end of the line.
const eraseLine = "\x1b[K"

// countRows counts the rows a result yields into p.
func (p *progress) countRows(res *engine.Result) {
	if res != nil && res.Rows != nil {
		res.Rows = &countingRows{RowIterator: res.Rows, n: &p.rows}
	}
}

type countingRows struct {
	engine.RowIterator
	n *atomic.Int64
}

func (c *countingRows) Next(ctx context.Context) (engine.Row, bool, error) {
	r, ok, err := c.RowIterator.Next(ctx)
	if ok {
		c.n.Add(1)
	}
	return r, ok, err
}

// clearingWriter erases the running statement's status line before
// answer text reaches the terminal.
type clearingWriter struct {
	w  io.Writer
	sh *Shell
}

func (c clearingWriter) Write(b []byte) (int, error) {
	if p := c.sh.running(); p != nil {
		p.before(b)
	}
	return c.w.Write(b)
}
