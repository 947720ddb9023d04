package render

import (
	"context"
	"errors"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"eddy/engine/result"
)

// The full-screen result views: Flink's CliTableResultView (the table
// result mode) and CliChangelogResultView (the changelog result mode). A
// goroutine reads the query's changes into a collector; the view draws a
// snapshot of it at each refresh and answers the keys until Q.

// changelogMaxRows is how many changes the changelog view keeps (Flink's
// CliChangelogResultView.DEFAULT_MAX_ROW_COUNT).
const changelogMaxRows = 1000

// keyWait is how long the view waits for a key before it looks at the
// collector again: the fastest refresh.
const keyWait = 50 * time.Millisecond

// collector receives a running query's changes on its own goroutine.
type collector struct {
	mu       sync.Mutex
	table    *liveTable // the table view's materialised table
	log      [][]string // the changelog view's last changes, op first
	received int64
	done     bool // the query ended
	err      error
}

func (c *collector) run(ctx context.Context, res *result.Result, opt Options) {
	for res.Rows != nil {
		r, ok, err := res.Rows.Next(ctx)
		if err != nil || !ok {
			c.mu.Lock()
			if err != nil && !(ctx.Err() != nil && errors.Is(err, ctx.Err())) {
				c.err = err
			}
			c.done = true
			c.mu.Unlock()
			return
		}
		cs := cells(res.Columns, r, nullValue, opt)
		c.mu.Lock()
		c.received++
		if c.table != nil {
			if r.Kind.IsAccumulate() {
				c.table.insert(cs)
			} else {
				c.table.retract(cs)
			}
		} else {
			if len(c.log) == changelogMaxRows {
				c.log = c.log[1:] // append moves the rest when it grows
			}
			c.log = append(c.log, append([]string{r.Kind.String()}, cs...))
		}
		c.mu.Unlock()
	}
	c.mu.Lock()
	c.done = true
	c.mu.Unlock()
}

// snapshot copies what the view shows.
func (c *collector) snapshot() (rows [][]string, received int64, done bool, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.table != nil {
		rows = c.table.rows()
	} else {
		rows = append([][]string(nil), c.log...)
	}
	return rows, c.received, c.done, c.err
}

// resultView is the state of a full-screen view.
type resultView struct {
	changelog bool
	names     []string
	widths    []int
	interval  int // index into refreshIntervals
	minimum   int // the smallest interval index allowed

	rows      [][]string // the last snapshot
	received  int64
	done      bool
	updated   time.Time
	page      int  // from 1; 0 is the last page (the table view)
	selected  int  // index into rows, -1 for none
	following bool // the changelog view shows the newest changes
	open      bool // the selected row is shown on its own
	offset    int  // columns scrolled off to the left
}

// fullScreen runs a view over res until Q and then writes one line: the
// rows in the table (table view) and the changes received.
func fullScreen(ctx context.Context, w io.Writer, res *result.Result, opt Options, changelog bool) error {
	v := &resultView{changelog: changelog, selected: -1, following: true}
	col := &collector{}
	if changelog {
		v.names = append([]string{opColumn}, columnNames(res.Columns)...)
		v.widths = widthsByType(res.Columns, opt.maxWidth())
		v.interval, v.minimum = 0, 0
	} else {
		v.names = columnNames(res.Columns)
		v.widths = widthsByType(res.Columns, opt.maxWidth())[1:]
		v.interval, v.minimum = 3, 1
		col.table = newLiveTable(opt.MaxTableRows)
	}
	restore, err := opt.Screen.Open()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		col.run(ctx, res, opt)
	}()
	// The terminal is given back and the reader stopped even when the view
	// panics: res is closed after this returns, never under a Next.
	stop := func() {
		cancel()
		<-finished
	}
	err = func() error {
		defer stop()
		defer func() {
			io.WriteString(w, leaveAltScreen)
			flush(w)
			restore()
		}()
		io.WriteString(w, enterAltScreen)
		return v.loop(ctx, w, col, opt.Screen)
	}()
	if err != nil {
		return err
	}
	_, received, _, _ := col.snapshot()
	if changelog {
		io.WriteString(w, plural(received, "change")+" received"+opt.elapsed()+"\n")
	} else {
		io.WriteString(w, v.counts(int64(col.table.live), received)+opt.elapsed()+"\n")
	}
	return nil
}

// counts is the table view's footer: rows in the table, changes received.
func (v *resultView) counts(rows, received int64) string {
	return plural(rows, "row") + " in the table, " + plural(received, "change") + " received"
}

func (v *resultView) loop(ctx context.Context, w io.Writer, col *collector, s Screen) error {
	var last, drawn time.Time
	for {
		if ctx.Err() != nil {
			return nil
		}
		every := refreshIntervals[v.interval].every
		if last.IsZero() || (every >= 0 && time.Since(last) >= every) || (!v.done && v.isDone(col)) {
			before, wasDone := v.received, v.done
			if err := v.refresh(col, mainHeight(s)); err != nil {
				return err
			}
			// An unchanged result is drawn again once a second at most.
			if last.IsZero() || v.received != before || v.done != wasDone || time.Since(drawn) >= time.Second {
				v.draw(w, s)
				drawn = time.Now()
			}
			last = time.Now()
		}
		b, err := s.ReadKeys(keyWait)
		if err != nil {
			return err
		}
		keys := decodeKeys(b)
		for _, k := range keys {
			if v.open {
				if k == keyQuit || k == keyOpen {
					v.open = false
				}
				continue
			}
			switch k {
			case keyQuit:
				return nil
			case keyRefresh:
				if err := v.refresh(col, mainHeight(s)); err != nil {
					return err
				}
				last = time.Now()
			default:
				v.apply(k, s)
			}
		}
		if len(keys) > 0 {
			v.draw(w, s)
		}
	}
}

func (v *resultView) isDone(col *collector) bool {
	col.mu.Lock()
	defer col.mu.Unlock()
	return col.done
}

// refresh takes a new snapshot; a failed query ends the view with its
// error.
func (v *resultView) refresh(col *collector, height int) error {
	rows, received, done, err := col.snapshot()
	if err != nil {
		return err
	}
	if v.changelog && received != v.received {
		v.following = true // new changes scroll to the end, as Flink's view
		v.selected = -1
	}
	v.rows, v.received, v.done, v.updated = rows, received, done, time.Now()
	if v.selected >= len(v.rows) {
		v.selected = -1
	}
	if v.page > v.pageCount(height) {
		v.page = 0
	}
	return nil
}

// mainHeight is the number of lines rows get: the screen less the title,
// the status line and the blank under it, the column names, the counts
// and the two help lines.
func mainHeight(s Screen) int {
	_, h := s.Size()
	return max(h-7, 1)
}

func (v *resultView) pageCount(height int) int {
	return max((len(v.rows)+height-1)/height, 1)
}

// pageRows returns the range of rows on the current page (table view) or
// in the window (changelog view).
func (v *resultView) pageRows(height int) (from, to int) {
	if v.changelog {
		to = len(v.rows)
		if !v.following && v.selected >= 0 {
			to = min(max(v.selected+1, height), len(v.rows))
		}
		return max(to-height, 0), to
	}
	page := v.page
	if page == 0 {
		page = v.pageCount(height)
	}
	from = (page - 1) * height
	return from, min(from+height, len(v.rows))
}

func (v *resultView) apply(k key, s Screen) {
	h := mainHeight(s)
	from, to := v.pageRows(h)
	current := v.page
	if current == 0 {
		current = v.pageCount(h)
	}
	switch k {
	case keyUp:
		switch {
		case v.selected < 0:
			v.selected = to - 1
		case v.selected > from:
			v.selected--
		case v.changelog && v.selected > 0:
			v.selected--
		}
		v.following = false
	case keyDown:
		switch {
		case v.selected < 0:
			v.selected = from
		case v.selected < to-1:
			v.selected++
		case v.changelog && v.selected < len(v.rows)-1:
			v.selected++
		}
		v.following = false
	case keyOpen:
		v.open = v.selected >= 0 && v.selected < len(v.rows)
	case keyIncRefresh:
		v.interval = min(v.interval+1, len(refreshIntervals)-1)
	case keyDecRefresh:
		v.interval = max(v.interval-1, v.minimum)
	case keyLeft:
		v.offset = max(v.offset-1, 0)
	case keyRight:
		v.offset = min(v.offset+1, len(v.names)-1)
	}
	if v.changelog {
		return
	}
	switch k {
	case keyFirst:
		v.page, v.selected = 1, -1
	case keyNext:
		if current < v.pageCount(h) {
			v.page, v.selected = current+1, -1
		}
	case keyPrev:
		if current > 1 {
			v.page, v.selected = current-1, -1
		}
	case keyLast:
		v.page, v.selected = 0, -1
	}
}

// draw paints the whole screen: title, status line, column names, rows,
// counts and key help.
func (v *resultView) draw(w io.Writer, s Screen) {
	width, height := s.Size()
	h := max(height-7, 1)
	var b strings.Builder
	line := func(y int, text string) {
		b.WriteString(moveTo(y) + text + plain + eraseToEnd)
	}
	if v.open {
		v.drawRow(line, width, height)
		io.WriteString(w, b.String())
		flush(w)
		return
	}
	title := "SQL Query Result (Table)"
	if v.changelog {
		title = "SQL Query Result (Changelog)"
	}
	line(1, inverse+center(title, width))
	line(2, inverse+v.status(width, h))
	line(3, "")
	var head strings.Builder
	for i, n := range v.names[v.offset:] {
		head.WriteString(" " + underline + normalizeColumn(n, v.widths[v.offset+i]) + plain)
	}
	line(4, head.String())
	from, to := v.pageRows(h)
	for y := 0; y < h; y++ {
		i := from + y
		if i >= to {
			line(5+y, "")
			continue
		}
		var r strings.Builder
		for c, cell := range v.rows[i] {
			if c >= v.offset && c < len(v.widths) {
				r.WriteString(" " + normalizeColumn(cell, v.widths[c]))
			}
		}
		text := fit(r.String(), width)
		if i == v.selected {
			text = inverse + text
		}
		line(5+y, text)
	}
	if v.changelog {
		line(height-2, " "+plural(v.received, "change")+" received")
	} else {
		line(height-2, " "+v.counts(int64(len(v.rows)), v.received))
	}
	help := v.helpLines(width)
	line(height-1, help[0])
	line(height, help[1])
	io.WriteString(w, b.String())
	flush(w)
}

// status is the inverse line under the title: the refresh interval (or
// that the query ended), the page, the time of the last refresh.
func (v *resultView) status(width, height int) string {
	left := " Refresh: " + refreshIntervals[v.interval].name
	if v.done {
		left = " Table program finished."
	}
	right := "Updated: " + v.updated.Format("15:04:05.000") + " "
	if v.changelog {
		return fit(left+strings.Repeat(" ", max(width-len(left)-len(right), 1))+right, width)
	}
	page := "Last"
	if v.page != 0 {
		page = strconv.Itoa(v.page)
	}
	middle := "Page: " + page + " of " + strconv.Itoa(v.pageCount(height))
	leftSpace := max((width-len(middle))/2-len(left), 1)
	text := left + strings.Repeat(" ", leftSpace) + middle
	return fit(text+strings.Repeat(" ", max(width-len(text)-len(right), 1))+right, width)
}

func (v *resultView) helpLines(width int) [2]string {
	if v.changelog {
		return helpLines(width, [][2]string{{"Q", "Quit"}, {"R", "Refresh"}, {"+", "Inc Refresh"}, {"-", "Dec Refresh"}, {"O", "Open Row"}})
	}
	return helpLines(width, [][2]string{{"Q", "Quit"}, {"R", "Refresh"}, {"+", "Inc Refresh"}, {"-", "Dec Refresh"},
		{"G", "First Page"}, {"L", "Last Page"}, {"N", "Next Page"}, {"P", "Prev Page"}, {"O", "Open Row"}})
}

// drawRow shows the selected row on its own, a column a line (Flink's
// CliRowView).
func (v *resultView) drawRow(line func(int, string), width, height int) {
	line(1, inverse+center("Row Summary", width))
	line(2, "")
	row := v.rows[v.selected]
	y := 3
	for i, n := range v.names {
		if y > height-2 || i >= len(row) {
			break
		}
		line(y, fit(" "+n+": "+row[i], width))
		y++
	}
	for ; y <= height-2; y++ {
		line(y, "")
	}
	line(height-1, "")
	line(height, " "+inverse+"Q"+plain+" Back")
}

func center(s string, width int) string {
	pad := max((width-displayWidth(s))/2, 0)
	return fit(strings.Repeat(" ", pad)+s, width)
}
