package render

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"eddy/engine/result"
	"eddy/engine/sqlerr"
)

// Result writes a statement's answer to w as the Flink SQL client shows it
// and returns the answer's tag. An acknowledgement prints
// "[INFO] Execute statement succeeded."; SHOW, DESCRIBE and SET listings
// print a table sized by content, nothing cut, NULL as an empty cell; a
// query prints the tableau view of its result mode. Rows are read with ctx:
// when ctx is cancelled the answer ends with "Query terminated, received a
// total of N rows" and no error.
//
// A non-nil error is the statement's own failure (a row that could not be
// computed, a result mode the terminal cannot show). Result has written
// what came before it; the caller reports the error with Error, on the
// stream it uses for errors. Result always closes res.
func Result(ctx context.Context, w io.Writer, res *result.Result, opt Options) (Tag, error) {
	if res == nil {
		return Info(w, msgStatementSucceeded, opt), nil
	}
	defer res.Close()
	switch res.Kind {
	case result.KindSuccess:
		return Info(w, msgStatementSucceeded, opt), nil
	case result.KindInfo:
		return Info(w, res.Message, opt), nil
	}
	if opt.format() != FormatTableau {
		return TagOK, formatted(ctx, w, res, opt)
	}
	if !res.IsQuery {
		return TagOK, metadataTable(ctx, w, res, opt)
	}
	mode := opt.mode()
	switch {
	case !opt.Interactive && mode != ModeTableau:
		return TagOK, clientError(msgNonInteractiveResultMode)
	case mode == ModeChangelog && !res.Changelog:
		return TagOK, clientError(msgBatchChangelog)
	case opt.Screen != nil && !res.Bounded && (mode == ModeTable || mode == ModeChangelog):
		return TagOK, fullScreen(ctx, w, res, opt, mode == ModeChangelog)
	case mode == ModeTable:
		return TagOK, materialized(ctx, w, res, opt)
	case res.Changelog || mode == ModeChangelog:
		return TagOK, streaming(ctx, w, res, opt)
	}
	return TagOK, batch(ctx, w, res, opt)
}

// Info writes "[INFO] msg" and returns TagInfo.
func Info(w io.Writer, msg string, opt Options) Tag {
	writeTagged(w, infoPrefix, msg, TagInfo, opt.Color)
	return TagInfo
}

// Warning writes "[WARNING] msg" and returns TagWarning.
func Warning(w io.Writer, msg string, opt Options) Tag {
	writeTagged(w, warningPrefix, msg, TagWarning, opt.Color)
	return TagWarning
}

// Quit writes the answer to QUIT and EXIT.
func Quit(w io.Writer, opt Options) Tag { return Info(w, msgQuit, opt) }

// HelpAnswer writes the answer to HELP; it is not coloured.
func HelpAnswer(w io.Writer, backslash ...BackslashHelp) Tag {
	io.WriteString(w, Help(backslash...))
	return TagOK
}

func clientError(msg string) error {
	return &sqlerr.Error{Class: sqlerr.SqlExecutionException, Message: msg}
}

// cells turns a row into printed cells. nullText is what NULL prints as.
func cells(cols []result.Column, r result.Row, nullText string, opt Options) []string {
	return cellsInto(make([]string, len(cols)), cols, r, nullText, opt)
}

// spoolText reads every row as printed cells into a spool that holds at
// most a quarter of opt.MemoryBudget bytes of them in memory (the garbage
// collector lets the heap grow to about twice what is live, and the query
// producing the rows holds memory of its own), so a long answer neither
// grows a slice without bound nor outgrows the session's budget. The caller
// closes the spool; cancelled reports a cancelled ctx, which is not an
// error of the statement.
func spoolText(ctx context.Context, res *result.Result, nullText string, opt Options) (s *cellSpool, cancelled bool, err error) {
	held := opt.MemoryBudget / 4
	if opt.MemoryBudget > 0 {
		held = max(held, 1) // 0 would mean no limit
	}
	s = newCellSpool(len(res.Columns), held)
	if res.Rows == nil {
		return s, false, nil
	}
	row := make([]string, len(res.Columns))
	for {
		r, ok, err := res.Rows.Next(ctx)
		if err != nil {
			if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
				return s, true, nil
			}
			return s, false, err
		}
		if !ok {
			return s, false, nil
		}
		if err := s.add(cellsInto(row, res.Columns, r, nullText, opt)); err != nil {
			return s, false, err
		}
	}
}

// cellsInto fills out (one cell per column) from a row.
func cellsInto(out []string, cols []result.Column, r result.Row, nullText string, opt Options) []string {
	for i := range cols {
		var v any
		if i < len(r.Values) {
			v = r.Values[i]
		}
		if v == nil {
			out[i] = nullText
			continue
		}
		out[i] = FormatValue(cols[i].Type, v, opt.Location)
	}
	return out
}

// collect reads every row. cancelled reports a cancelled ctx, which is not
// an error of the statement.
func collect(ctx context.Context, res *result.Result) (rows []result.Row, cancelled bool, err error) {
	if res.Rows == nil {
		return nil, false, nil
	}
	for {
		r, ok, err := res.Rows.Next(ctx)
		if err != nil {
			if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
				return rows, true, nil
			}
			return rows, false, err
		}
		if !ok {
			return rows, false, nil
		}
		rows = append(rows, r)
	}
}

// metadataTable prints a SHOW / DESCRIBE / SET answer: widths from content,
// never cut, NULL as an empty cell (CliClient prints these with
// Integer.MAX_VALUE and printNullAsEmpty).
func metadataTable(ctx context.Context, w io.Writer, res *result.Result, opt Options) error {
	s, cancelled, err := spoolText(ctx, res, "", opt)
	defer s.Close()
	if err != nil {
		return err
	}
	if cancelled {
		io.WriteString(w, queryTerminated(int64(s.n))+"\n")
		return nil
	}
	if opt.paging(s.n) {
		var b strings.Builder
		if err := s.write(&b, columnNames(res.Columns), unlimited, ""); err != nil {
			return err
		}
		return opt.page(w, b.String())
	}
	return s.write(w, columnNames(res.Columns), unlimited, "")
}

// batch prints a bounded query result in tableau mode: all rows first, then
// a table sized by content and capped at the max column width
// (CliTableauResultView.printBatchResults). Past opt.MemoryBudget the rows
// wait in a temporary file rather than in memory.
func batch(ctx context.Context, w io.Writer, res *result.Result, opt Options) error {
	s, cancelled, err := spoolText(ctx, res, nullValue, opt)
	defer s.Close()
	if err != nil {
		return err
	}
	if cancelled {
		io.WriteString(w, queryTerminated(int64(s.n))+opt.elapsed()+"\n")
		return nil
	}
	if opt.paging(s.n) {
		var b strings.Builder
		if err := s.write(&b, columnNames(res.Columns), opt.maxWidth(), opt.elapsed()); err != nil {
			return err
		}
		return opt.page(w, b.String())
	}
	return s.write(w, columnNames(res.Columns), opt.maxWidth(), opt.elapsed())
}

// paging reports whether a bounded answer of n rows goes through the
// pager: there is a screen, the pager is on, and the table (a border, the
// names, a border, the rows, a border and the footer) is taller than the
// screen.
func (o Options) paging(n int) bool {
	if o.Screen == nil || !o.Pager {
		return false
	}
	_, h := o.Screen.Size()
	return n+5 > h
}

// page shows text through the screen's pager; what w holds goes first.
func (o Options) page(w io.Writer, text string) error {
	flush(w)
	if err := o.Screen.Page(text); err != nil {
		io.WriteString(w, text)
	}
	return nil
}

// materialized prints the final table of a query in table mode: the
// changelog is applied (a -U or -D removes the row it retracts) and the
// remaining rows are shown like a batch result. It stands in for Flink's
// full-screen table view.
func materialized(ctx context.Context, w io.Writer, res *result.Result, opt Options) error {
	// Rows are applied as they arrive, so memory holds the materialised
	// table (at most MaxTableRows rows), not the whole changelog. At a
	// terminal an unbounded query's table is redrawn in place as it changes,
	// until Ctrl-C, as Flink's table view refreshes.
	live := opt.Interactive && !res.Bounded
	var final [][]string
	var received int64
	drawn, lastDraw := 0, time.Time{}
	draw := func() {
		var b strings.Builder
		writeTable(&b, columnNames(res.Columns), final, opt.maxWidth(), "")
		if drawn > 0 {
			fmt.Fprintf(w, "\x1b[%dA\x1b[J", drawn) // back over the last drawing
		}
		io.WriteString(w, b.String())
		drawn, lastDraw = strings.Count(b.String(), "\n"), time.Now()
	}
	for res.Rows != nil {
		r, ok, err := res.Rows.Next(ctx)
		if err != nil {
			if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
				if live {
					draw()
				}
				io.WriteString(w, queryTerminated(received)+opt.elapsed()+"\n")
				return nil
			}
			return err
		}
		if !ok {
			break
		}
		received++
		c := cells(res.Columns, r, nullValue, opt)
		if r.Kind.IsAccumulate() {
			final = append(final, c)
			if opt.MaxTableRows > 0 && len(final) > opt.MaxTableRows {
				final = final[1:] // Flink's table view drops the oldest row
			}
		} else {
			for i := range final {
				if equalCells(final[i], c) {
					final = append(final[:i], final[i+1:]...)
					break
				}
			}
		}
		if live && time.Since(lastDraw) > 500*time.Millisecond {
			draw()
		}
	}
	if drawn > 0 {
		fmt.Fprintf(w, "\x1b[%dA\x1b[J", drawn)
	}
	if opt.paging(len(final)) {
		var b strings.Builder
		writeTable(&b, columnNames(res.Columns), final, opt.maxWidth(), opt.elapsed())
		return opt.page(w, b.String())
	}
	writeTable(w, columnNames(res.Columns), final, opt.maxWidth(), opt.elapsed())
	return nil
}

func equalCells(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// streaming prints a changelog as it arrives: the header at once, sized by
// the column types, then every row with its kind in the op column, then
// "Received a total of N rows" (CliTableauResultView.printStreamingResults).
func streaming(ctx context.Context, w io.Writer, res *result.Result, opt Options) error {
	names := append([]string{opColumn}, columnNames(res.Columns)...)
	tb := &tableau{w: w, widths: widthsByType(res.Columns, opt.maxWidth())}
	tb.border()
	tb.row(names)
	tb.border()
	flush(w)
	var n int64
	for res.Rows != nil {
		r, ok, err := res.Rows.Next(ctx)
		if err != nil {
			if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
				io.WriteString(w, queryTerminated(n)+opt.elapsed()+"\n")
				return nil
			}
			return err
		}
		if !ok {
			break
		}
		tb.row(append([]string{r.Kind.String()}, cells(res.Columns, r, nullValue, opt)...))
		flush(w)
		n++
	}
	if n > 0 {
		tb.border()
	}
	io.WriteString(w, receivedTotal(n)+opt.elapsed()+"\n")
	return nil
}

// flush pushes rows out at once when w buffers them, so a person watching
// an unbounded query sees each row as it arrives.
func flush(w io.Writer) {
	if f, ok := w.(interface{ Flush() error }); ok {
		f.Flush()
	}
}
