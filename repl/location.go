package repl

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"eddy/engine/parser"
	"eddy/engine/sqlerr"
)

// Names of the script inputs that are not files, in location lines.
const (
	StdinName = "<stdin>"
	ExecName  = "-e"
)

// maxEchoLines and maxEchoWidth bound how much of a failing statement its
// location echoes: a line of a huge statement is cut.
const (
	maxEchoLines = 10
	maxEchoWidth = 200
)

// stmtLocation is where a statement of a script starts in its input: the
// input's name (a file, StdinName, ExecName) and the 1-based line and
// column, counted in the input.
type stmtLocation struct {
	file      string
	line, col int
	text      string // the statement as run
}

// writeLocation writes, after the error of a script's statement, the line
// "FILE:LINE:COLUMN: in this statement:" and the statement, indented. The
// position is the error's own when it has one (a parse or validation error
// points into the statement), else the statement's start. Flink's lines of
// the error are left as they are; this is one more line of eddy's.
func writeLocation(w io.Writer, loc *stmtLocation, err error) {
	line, col := loc.line, loc.col
	var p sqlerr.Positioned
	e := sqlerr.As(err)
	switch {
	case e != nil && e.Line > 0:
		line, col = loc.absolute(e.Line, e.Col)
	case errors.As(err, &p):
		if l, c := p.Position(); l > 0 {
			line, col = loc.absolute(l, c)
		}
	}
	fmt.Fprintf(w, "%s:%d:%d: in this statement:\n", loc.file, line, col)
	lines := strings.Split(loc.text, "\n")
	if len(lines) > maxEchoLines {
		lines = append(lines[:maxEchoLines:maxEchoLines], "...")
	}
	for _, l := range lines {
		l = strings.TrimRight(l, " \t\r")
		if utf8.RuneCountInString(l) > maxEchoWidth {
			l = string([]rune(l)[:maxEchoWidth]) + "..."
		}
		fmt.Fprintf(w, "    %s\n", l)
	}
}

// absolute turns a position in the statement into one in the input.
func (loc *stmtLocation) absolute(line, col int) (int, int) {
	if col < 1 {
		col = 1
	}
	if line == 1 {
		return loc.line, loc.col + col - 1
	}
	return loc.line + line - 1, col
}

// stmtPlace is where the running statement of a script lies: statement i
// of a batch, whose locations are worked out only when one of its
// statements fails. The zero value is no place (the prompt).
type stmtPlace struct {
	batch *locBatch
	i     int
}

// location returns the place's location, or nil.
func (p stmtPlace) location() *stmtLocation {
	if p.batch == nil {
		return nil
	}
	return p.batch.at(p.i)
}

// locBatch is the statements Split cut out of text, which starts at line
// first, column firstCol+1 of the input named file; locs are their
// locations once asked for (or from the start, for a line that is one
// statement by itself).
type locBatch struct {
	file            string
	first, firstCol int
	text            string
	stmts           []parser.Piece
	locs            []stmtLocation
}

// at returns the location of statement i of the batch.
func (b *locBatch) at(i int) *stmtLocation {
	if b.locs == nil {
		b.locs = locate(b.file, b.first, b.firstCol, b.text, b.stmts)
	}
	return &b.locs[i]
}

// locate returns the locations of the statements Split cut out of text,
// which starts at line first, column firstCol+1 of the input named file.
func locate(file string, first, firstCol int, text string, stmts []parser.Piece) []stmtLocation {
	locs := make([]stmtLocation, len(stmts))
	// The statements come in order: the line of each is found by walking
	// on from the previous one's, without cutting text into lines.
	line, start := 1, 0    // the line at text[start:]
	prevLine, from := 0, 0 // a statement after another on the same line starts after it
	for i, p := range stmts {
		col := 1
		for line < p.Line && start < len(text) {
			j := strings.IndexByte(text[start:], '\n')
			if j < 0 {
				start = len(text)
				break
			}
			start += j + 1
			line++
		}
		if p.Line >= 1 && line == p.Line {
			src := text[start:]
			if j := strings.IndexByte(src, '\n'); j >= 0 {
				src = src[:j+1]
			}
			if p.Line != prevLine {
				from = 0
			}
			head, _, _ := strings.Cut(p.Text, "\n")
			from = min(from, len(src))
			if j := strings.Index(src[from:], head); j >= 0 {
				col = utf8.RuneCountInString(src[:from+j]) + 1
				from += j + len(head)
			}
			prevLine = p.Line
		}
		if p.Line == 1 {
			col += firstCol
		}
		locs[i] = stmtLocation{file: file, line: first + p.Line - 1, col: col, text: p.Text}
	}
	return locs
}

// advance moves a position (line, 0-based column) past text.
func advance(line, col int, text string) (int, int) {
	if n := strings.Count(text, "\n"); n > 0 {
		line, col = line+n, 0
	}
	return line, col + utf8.RuneCountInString(text[strings.LastIndexByte(text, '\n')+1:])
}
