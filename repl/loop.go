package repl

import (
	"context"
	"errors"
	"io"
	"strings"
	"time"

	"eddy/engine/parser"
	"eddy/repl/render"
)

// runLines is the loop: read a line, let parser.Split cut the complete
// statements out of what has been read, run each, keep the unfinished rest.
// At the end of piped input an unfinished rest that is not blank runs as a
// last statement. sh.input names the input in the location line that
// follows an error of a script (see writeLocation).
func (sh *Shell) runLines(ctx context.Context, src lineSource, interactive bool) int {
	name := sh.input
	w := sh.newWriters(interactive)
	defer w.flush()
	failed := false
	// Piped input groups INSERTs into shared commits (groupcommit.go).
	var g *grouper
	plain, _ := src.(*plainSource)
	if !interactive && plain != nil {
		g = sh.newGrouper(w)
	}
	var buf strings.Builder
	// lines read; the input line and column (0-based) buf starts at
	lineNo, bufLine, bufCol := 0, 1, 0
	defer func(outer stmtPlace) { sh.place = outer }(sh.place)
	for !sh.exited && sh.signal == nil {
		prompt := ""
		if interactive {
			prompt = sh.prompt(strings.Count(buf.String(), "\n") + 1)
			sh.setPending(buf.String())
		}
		if g != nil && g.pending() && !plain.lineReady() {
			// Reading on could wait for the writer: answer first.
			if !g.commit(ctx) {
				failed = true
				if !sh.cfg.KeepGoing {
					return 1
				}
			}
		}
		line, err := src.ReadLine(prompt)
		if errors.Is(err, errInterrupt) {
			buf.Reset() // Ctrl-C drops the statement being typed
			continue
		}
		if errors.Is(err, io.EOF) {
			break
		}
		lineNo++
		if err != nil {
			if g != nil {
				g.commit(ctx)
			}
			if isTooLarge(err) {
				render.Error(w.err, err, sh.options(interactive, time.Time{}))
			} else {
				render.Problem(w.err, "%v", err)
			}
			return 1
		}
		if interactive && buf.Len() == 0 && isBareQuit(line) {
			sh.exited = true
			break
		}
		if buf.Len() == 0 && strings.TrimSpace(line) == "" {
			continue // blank lines between statements
		}
		if buf.Len() == 0 && isBackslashLine(line) {
			// A backslash command is its line, as in psql.
			text := strings.TrimSpace(line)
			if interactive {
				src.SaveHistory(text)
			} else {
				sh.place = stmtPlace{batch: &locBatch{locs: []stmtLocation{
					{file: name, line: lineNo, col: 1 + len(line) - len(strings.TrimLeft(line, " \t")), text: text}}}}
			}
			var ok bool
			if g != nil {
				ok = g.runOne(ctx, text)
			} else {
				ok = sh.runOne(ctx, text, w, interactive)
			}
			if !ok {
				failed = true
				if !interactive && !sh.cfg.KeepGoing {
					return 1
				}
			}
			continue
		}
		if buf.Len() == 0 {
			bufLine, bufCol = lineNo, 0
		}
		buf.WriteString(line)
		buf.WriteByte('\n')
		if buf.Len() > MaxStatementBytes {
			// A statement without its ';' must not grow until memory
			// runs out.
			if g != nil {
				g.commit(ctx)
			}
			render.Error(w.err, statementTooLargeError{}, sh.options(interactive, time.Time{}))
			w.flush()
			if !interactive {
				return 1
			}
			buf.Reset()
			continue
		}
		if !strings.Contains(line, ";") {
			// A statement ends at a ';' token, so only a line holding a ';'
			// can end one; not splitting otherwise keeps long statements
			// linear.
			continue
		}
		text := buf.String()
		stmts, rest := parser.Split(text)
		// Keep the unfinished rest, comments included: they belong to the
		// next statement, whose error positions count their lines. A
		// comment after the ';' on the same line belongs to the statement
		// that ended.
		if i := strings.IndexByte(rest, '\n'); i >= 0 && parser.IsBlank(rest[:i]) {
			rest = rest[i+1:]
		}
		if len(stmts) > 0 && interactive {
			for _, e := range historyEntries(strings.TrimSuffix(text, rest)) {
				src.SaveHistory(e)
			}
		}
		// Where each statement starts is worked out only for one that
		// fails (or for the group's error at its commit).
		var batch *locBatch
		if !interactive && len(stmts) > 0 {
			batch = &locBatch{file: name, first: bufLine, firstCol: bufCol, text: text, stmts: stmts}
		}
		buf.Reset()
		if strings.TrimSpace(rest) != "" {
			buf.WriteString(rest)
			bufLine, bufCol = advance(bufLine, bufCol, strings.TrimSuffix(text, rest))
		}
		for i, p := range stmts {
			if batch != nil {
				sh.place = stmtPlace{batch: batch, i: i}
			}
			var ok bool
			if g != nil {
				ok = g.runOne(ctx, p.Text)
			} else {
				ok = sh.runOne(ctx, p.Text, w, interactive)
			}
			if !ok {
				failed = true
				if !interactive && !sh.cfg.KeepGoing {
					return 1
				}
			}
			if sh.exited || sh.signal != nil {
				break
			}
		}
	}
	if sh.signal != nil {
		return 1
	}
	if !interactive && !sh.exited && !parser.IsBlank(buf.String()) {
		sh.place = stmtPlace{batch: &locBatch{file: name, first: bufLine, firstCol: bufCol, text: buf.String(),
			stmts: []parser.Piece{lastPiece(buf.String())}}}
		if g != nil {
			if !g.runOne(ctx, strings.TrimSpace(buf.String())) {
				failed = true
			}
		} else if !sh.runOne(ctx, strings.TrimSpace(buf.String()), w, false) {
			failed = true
		}
	}
	if g != nil && !g.commit(ctx) {
		failed = true
	}
	if failed && !interactive {
		return 1
	}
	return 0
}

// runOne runs a statement, prints its answer and the blank line after it,
// and reports whether it succeeded.
func (sh *Shell) runOne(ctx context.Context, stmt string, w writers, interactive bool) bool {
	var tag render.Tag
	if interactive {
		tag = sh.execInterruptible(ctx, stmt, w)
	} else {
		tag = sh.exec(ctx, stmt, w.out, w.err, false)
	}
	if tag == render.TagError {
		w.out.Flush()
		w.err.WriteString("\n")
	} else if !sh.bare {
		w.out.WriteString("\n")
	}
	w.flush()
	return tag != render.TagError
}

// isBareQuit accepts "quit" and "exit" typed alone at the prompt, without
// the ';' the statements need.
func isBareQuit(line string) bool {
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "quit", "exit":
		return true
	}
	return false
}

// lastPiece is the unfinished rest of a script, run as its last statement,
// as Split would cut it.
func lastPiece(rest string) parser.Piece {
	p := parser.Piece{Text: strings.TrimSpace(rest), Line: 1}
	if stmts, _ := parser.Split(rest + "\n;"); len(stmts) > 0 {
		p.Line = stmts[len(stmts)-1].Line
	}
	return p
}
