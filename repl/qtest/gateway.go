package qtest

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"eddy/engine"
	"eddy/engine/types"
	"eddy/repl/render"
)

// jobIDColumn is the column name of a gateway result that reports a
// submitted job (Flink's Constants.JOB_ID).
const jobIDColumn = "job id"

// lineNumber: Flink's gateway harness rewrites "at line N" to "at line 0" in
// error texts (AbstractSqlGatewayStatementITCaseBase.removeRowNumber), so the
// gateway files say `Encountered "END" at line 0, column 1.`.
var lineNumber = regexp.MustCompile(`at line \d+`)

// gatewayKind is how the gateway harness classifies a statement by its
// first words (its StatementType).
type gatewayKind uint8

const (
	gwOther gatewayKind = iota
	gwRawText
	gwQuery
)

func classifyGateway(stmt string) gatewayKind {
	s := strings.ToUpper(strings.TrimSpace(stmt))
	switch {
	case strings.HasPrefix(s, "SHOW CREATE"), strings.HasPrefix(s, "EXPLAIN"):
		return gwRawText
	case strings.HasPrefix(s, "SELECT"):
		return gwQuery
	}
	return gwOther
}

// RenderGateway writes an answer the way Flink's gateway test harness does
// (README of the Flink scripts, "sql-gateway scripts"):
//   - an error: "<class>: <message>" trimmed, plus "\n", tag !error;
//   - SHOW CREATE ... and EXPLAIN ...: the text of the rows' first column,
//     raw, ending in exactly one "\n", tag !ok;
//   - a statement that submitted a job: "Job ID:\n", tag !info;
//   - anything else: a tableau table with widths from the data, NULL as an
//     empty cell, an `op` column only for a statement starting with SELECT
//     while the session is in streaming mode (streaming), and the
//     `N rows in set` / `Empty set` footer, tag !ok. An acknowledgement is
//     the one-column table `result` holding `OK`.
//
// Values print as the client prints them (render.FormatValue), with
// TIMESTAMP_LTZ in UTC: the harness converts rows with the UTC zone.
//
// It consumes and closes res.
func RenderGateway(ctx context.Context, stmt string, res *engine.Result, err error, streaming bool) (string, Tag) {
	if err != nil {
		return gatewayError(err)
	}
	if res == nil {
		return gatewayOK(), TagOK
	}
	defer res.Close()
	kind := classifyGateway(stmt)
	switch {
	case res.Kind == engine.ResultSuccess:
		return gatewayOK(), TagOK
	case res.Kind == engine.ResultInfo:
		// eddy answers a statement that ran a job (INSERT, END, EXECUTE
		// STATEMENT SET, CTAS) with an info line; the gateway answers it
		// with the job id, which the harness prints as "Job ID:".
		return jobIDPrefix + "\n", TagInfo
	case len(res.Columns) > 0 && res.Columns[0].Name == jobIDColumn:
		return jobIDPrefix + "\n", TagInfo
	}
	rows, err := collect(ctx, res)
	if err != nil {
		return gatewayError(err)
	}
	if kind == gwRawText {
		var b strings.Builder
		for _, r := range rows {
			if len(r.Values) > 0 && r.Values[0] != nil {
				b.WriteString(cellText(r.Values[0], res.Columns[0].Type))
			}
		}
		// The block ends with the last text line and one "\n"; eddy's text
		// may end in a newline of its own (the client shows one in the cell).
		return strings.TrimRight(b.String(), "\n") + "\n", TagOK
	}
	withOp := kind == gwQuery && streaming
	return tableau(res.Columns, rows, withOp), TagOK
}

func cellText(v any, t *types.Type) string {
	return render.FormatValue(t, v, time.UTC)
}

func gatewayError(err error) (string, Tag) {
	e := engine.AsError(err)
	text := strings.TrimSpace(e.Class + ": " + e.Message)
	return lineNumber.ReplaceAllString(text, "at line 0") + "\n", TagError
}

func gatewayOK() string {
	return tableau([]engine.Column{{Name: "result", Type: types.NewString()}},
		[]engine.Row{{Values: []any{"OK"}}}, false)
}

func collect(ctx context.Context, res *engine.Result) ([]engine.Row, error) {
	if res.Rows == nil {
		return nil, nil
	}
	var rows []engine.Row
	for {
		r, ok, err := res.Rows.Next(ctx)
		if err != nil {
			return nil, err
		}
		if !ok {
			return rows, nil
		}
		rows = append(rows, r)
	}
}

// tableau prints rows as Flink's TableauStyle with data-inferred column
// widths and no width limit.
func tableau(cols []engine.Column, rows []engine.Row, withOp bool) string {
	if len(rows) == 0 {
		return "Empty set\n"
	}
	header := make([]string, 0, len(cols)+1)
	if withOp {
		header = append(header, "op")
	}
	for _, c := range cols {
		header = append(header, c.Name)
	}
	table := [][]string{header}
	for _, r := range rows {
		line := make([]string, 0, len(header))
		if withOp {
			line = append(line, r.Kind.String())
		}
		for i := range cols {
			var v any
			if i < len(r.Values) {
				v = r.Values[i]
			}
			if v == nil {
				line = append(line, "") // the harness prints NULL as an empty cell
				continue
			}
			line = append(line, cellText(v, cols[i].Type))
		}
		table = append(table, line)
	}
	// Header names count their Java length, cells their display width
	// (TableauStyle.columnWidthsByContent).
	widths := make([]int, len(header))
	for i, h := range header {
		widths[i] = javaLength(h)
	}
	for _, line := range table[1:] {
		for i, s := range line {
			widths[i] = max(widths[i], displayWidth(s))
		}
	}
	var b strings.Builder
	border := func() {
		b.WriteByte('+')
		for _, w := range widths {
			b.WriteString(strings.Repeat("-", w+2))
			b.WriteByte('+')
		}
		b.WriteByte('\n')
	}
	row := func(line []string) {
		b.WriteByte('|')
		for i, s := range line {
			b.WriteByte(' ')
			b.WriteString(strings.Repeat(" ", widths[i]-displayWidth(s)))
			b.WriteString(s)
			b.WriteString(" |")
		}
		b.WriteByte('\n')
	}
	border()
	row(header)
	border()
	for _, line := range table[1:] {
		row(line)
	}
	border()
	if len(rows) == 1 {
		b.WriteString("1 row in set\n")
	} else {
		b.WriteString(strconv.Itoa(len(rows)) + " rows in set\n")
	}
	return b.String()
}

// displayWidth is Flink's TableauStyle.getStringDisplayWidth: the length in
// UTF-16 code units plus one for every full-width or wide character.
func displayWidth(s string) int {
	n := 0
	for _, r := range s {
		n += utf16Len(r)
		if isWide(r) {
			n++
		}
	}
	return n
}

// javaLength is Java's String.length(): UTF-16 code units.
func javaLength(s string) int {
	n := 0
	for _, r := range s {
		n += utf16Len(r)
	}
	return n
}

func utf16Len(r rune) int {
	if r >= 0x10000 && r <= utf8.MaxRune {
		return 2
	}
	return 1
}

// isWide reports whether r has East Asian Width W or F (Unicode TR11): the
// main blocks of wide characters.
func isWide(r rune) bool {
	switch {
	case r < 0x1100:
		return false
	case r <= 0x115F, // Hangul Jamo
		r >= 0x2E80 && r <= 0x303E, // CJK radicals, punctuation
		r >= 0x3041 && r <= 0x33FF, // kana, CJK compatibility
		r >= 0x3400 && r <= 0x4DBF, // CJK extension A
		r >= 0x4E00 && r <= 0x9FFF, // CJK unified ideographs
		r >= 0xA000 && r <= 0xA4CF, // Yi
		r >= 0xAC00 && r <= 0xD7A3, // Hangul syllables
		r >= 0xF900 && r <= 0xFAFF, // CJK compatibility ideographs
		r >= 0xFE30 && r <= 0xFE4F, // CJK compatibility forms
		r >= 0xFF00 && r <= 0xFF60, // full-width forms
		r >= 0xFFE0 && r <= 0xFFE6,
		r >= 0x1F300 && r <= 0x1F64F, // pictographs, emoticons
		r >= 0x1F900 && r <= 0x1F9FF,
		r >= 0x20000 && r <= 0x3FFFD: // CJK extensions B and later
		return true
	}
	return false
}
