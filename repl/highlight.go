package repl

import (
	"errors"
	"strings"

	"eddy/engine/parser"
)

// ANSI styles of the highlighted input line.
const (
	styleKeyword = "\x1b[1;34m" // bold blue
	styleString  = "\x1b[32m"   // green
	styleNumber  = "\x1b[35m"   // magenta
	styleComment = "\x1b[90m"   // grey
	styleReset   = "\x1b[0m"
)

// highlighter is readline's Painter: it colours keywords, string
// literals, numbers, comments and hints of the line being typed, reading
// it with the parser's lexer together with the statement's earlier lines
// (so a literal or comment opened on an earlier line is still one).
type highlighter struct {
	pending  func() string // earlier lines of the statement, or nil
	enabled  func() bool   // sql-client.display.color-schema, read live
	keywords map[string]bool
}

func newHighlighter(pending func() string, enabled func() bool) *highlighter {
	h := &highlighter{pending: pending, enabled: enabled, keywords: map[string]bool{}}
	for _, list := range [][]string{statementStarts, clauseKeywords} {
		for _, phrase := range list {
			for _, w := range strings.Fields(phrase) {
				h.keywords[w] = true
			}
		}
	}
	return h
}

// Paint returns the line with ANSI colours; readline places the cursor
// from the plain line.
func (h *highlighter) Paint(line []rune, _ int) (painted []rune) {
	defer func() {
		if recover() != nil {
			painted = line // a plain line beats a crashed shell
		}
	}()
	if h.enabled != nil && !h.enabled() {
		return line
	}
	before := ""
	if h.pending != nil {
		before = h.pending()
	}
	if len(before) > maxPaintContext {
		// Lexing a long pasted statement on every key would be slow: the
		// line is read alone.
		before = ""
	}
	return []rune(h.paint(before+string(line), len(before)))
}

// maxPaintContext is the most of a statement's earlier lines the
// highlighter reads with the line being typed.
const maxPaintContext = 16 << 10

// paint returns text[from:] with colours.
func (h *highlighter) paint(text string, from int) string {
	var b strings.Builder
	done := from // text[from:done] is written
	emit := func(start, end int, style string) {
		start, end = max(start, done), min(end, len(text))
		if end <= start {
			return
		}
		b.WriteString(text[done:start])
		if style == "" {
			b.WriteString(text[start:end])
		} else {
			b.WriteString(style + text[start:end] + styleReset)
		}
		done = end
	}
	l := parser.NewLexer(text)
	l.KeepComments = true
	last := 0
	for {
		tok, err := l.Next()
		if err != nil {
			var pe *parser.Error
			if errors.As(err, &pe) && pe.Incomplete {
				// An unfinished literal or comment runs to the end.
				rest := text[last:]
				start := last + len(rest) - len(strings.TrimLeft(rest, " \t\r\n\f"))
				style := ""
				switch r := text[start:]; {
				case strings.HasPrefix(r, "/*"):
					style = styleComment
				case strings.HasPrefix(r, "`"):
				default:
					style = styleString
				}
				emit(start, len(text), style)
				break
			}
			continue
		}
		if tok.Kind == parser.EOF {
			break
		}
		last = tok.End
		if tok.End <= from {
			continue
		}
		emit(tok.Pos.Offset, tok.End, h.style(tok))
	}
	b.WriteString(text[done:])
	return b.String()
}

func (h *highlighter) style(t parser.Token) string {
	switch t.Kind {
	case parser.Ident:
		if up := strings.ToUpper(t.Text); h.keywords[up] || parser.IsReserved(up) {
			return styleKeyword
		}
	case parser.String, parser.UString, parser.Binary:
		return styleString
	case parser.Integer, parser.Decimal, parser.Float:
		return styleNumber
	case parser.Comment, parser.Hint:
		return styleComment
	}
	return ""
}
