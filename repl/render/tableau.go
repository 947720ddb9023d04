package render

import (
	"io"
	"math"
	"strings"

	"eddy/engine/result"
	"eddy/engine/types"
)

// tableau is Flink's TableauStyle: a frame of '+', '-' and '|' around
// right-aligned cells.
type tableau struct {
	w      io.Writer
	widths []int
	buf    []byte // the line being written, reused
}

// widthsByContent sizes each column from its header (Java string length)
// and the display width of every cell, capped at limit
// (TableauStyle.columnWidthsByContent).
func widthsByContent(names []string, rows [][]string, limit int) []int {
	widths := make([]int, len(names))
	for i, n := range names {
		widths[i] = javaLength(n)
	}
	for _, r := range rows {
		for i, c := range r {
			if w := displayWidth(c); w > widths[i] {
				widths[i] = w
			}
		}
	}
	for i := range widths {
		widths[i] = min(widths[i], limit)
	}
	return widths
}

// widthsByType sizes the columns of a streaming result from their types
// before any row arrives (TableauStyle.columnWidthsByType): each column is
// as wide as its header, its type's widest value and "<NULL>"; strings and
// other unbounded types take limit. The leading op column is two wide.
func widthsByType(cols []result.Column, limit int) []int {
	widths := make([]int, 0, len(cols)+1)
	widths = append(widths, len(opColumn))
	for _, c := range cols {
		w := max(typeWidth(c.Type, limit), len(nullValue))
		widths = append(widths, max(javaLength(c.Name), w))
	}
	return widths
}

func typeWidth(t *types.Type, limit int) int {
	if t == nil {
		return limit
	}
	switch t.Kind {
	case types.TinyInt:
		return 4 // precision 3, plus a sign
	case types.SmallInt:
		return 6
	case types.Int:
		return 11
	case types.BigInt:
		return 20
	case types.Decimal:
		return t.Prec + 2 // sign and decimal point
	case types.Boolean:
		return 5
	case types.Date:
		return 10
	case types.Time:
		if t.Prec == 0 {
			return 8
		}
		return t.Prec + 9
	case types.Timestamp, types.TimestampLTZ:
		switch {
		case t.Prec == 0:
			return 19
		case t.Prec <= 3:
			return 23
		case t.Prec <= 6:
			return 26
		}
		return 29
	}
	return limit
}

func (tb *tableau) border() {
	var b strings.Builder
	b.WriteByte('+')
	for _, w := range tb.widths {
		b.WriteString(strings.Repeat("-", w+2))
		b.WriteByte('+')
	}
	b.WriteByte('\n')
	io.WriteString(tb.w, b.String())
}

// row writes one line of cells: each right-aligned to its width, or cut to
// width-3 characters and "..." when longer. A cell holding newlines is
// written raw, so the closing " |" follows its last character.
func (tb *tableau) row(cells []string) {
	b := append(tb.buf[:0], '|')
	for i, c := range cells {
		b = append(b, ' ')
		w := tb.widths[i]
		if dw := displayWidth(c); dw <= w {
			b = appendSpaces(b, w-dw)
			b = append(b, c...)
		} else {
			b = append(b, truncate(c, w-len(truncatedMark))...)
			b = append(b, truncatedMark...)
		}
		b = append(b, " |"...)
	}
	b = append(b, '\n')
	tb.w.Write(b)
	tb.buf = b
}

const spaces = "                                                                "

// appendSpaces appends n spaces.
func appendSpaces(b []byte, n int) []byte {
	for n > len(spaces) {
		b = append(b, spaces...)
		n -= len(spaces)
	}
	return append(b, spaces[:max(n, 0)]...)
}

// writeTable writes a whole table sized by content and its "N rows in set"
// footer, or "Empty set" when there are no rows.
func writeTable(w io.Writer, names []string, rows [][]string, limit int, suffix string) {
	if len(rows) == 0 {
		io.WriteString(w, msgEmptySet+suffix+"\n")
		return
	}
	tb := &tableau{w: w, widths: widthsByContent(names, rows, limit)}
	tb.border()
	tb.row(names)
	tb.border()
	for _, r := range rows {
		tb.row(r)
	}
	tb.border()
	io.WriteString(w, rowsInSet(int64(len(rows)))+suffix+"\n")
}

// unlimited is the width limit of non-query answers (SHOW, DESCRIBE, SET):
// Flink passes Integer.MAX_VALUE, so nothing is ever cut.
const unlimited = math.MaxInt32

func columnNames(cols []result.Column) []string {
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.Name
	}
	return names
}
