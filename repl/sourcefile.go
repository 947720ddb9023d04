package repl

import (
	"context"
	"io"
	"os"
	"strings"
	"time"

	"eddy/engine/parser"
	"eddy/repl/render"
)

// cmdSource is eddy's SOURCE 'file.sql' statement: it runs a file's
// statements in the current session, as psql's \i and DuckDB's .read do.
const cmdSource = "SOURCE"

// maxSourceDepth bounds SOURCE inside sourced files (a file that sources
// itself would never end).
const maxSourceDepth = 16

// sourceCommand returns the file of a SOURCE 'path' statement. It looks at
// the lexer's tokens only: the word SOURCE, one string literal, nothing
// else.
func sourceCommand(stmt string) (path string, ok bool) {
	if !mayBeClientCommand(stmt) {
		return "", false
	}
	toks, err := parser.Tokenize(stmt)
	if err != nil || len(toks) != 3 || !toks[0].Is(cmdSource) || toks[1].Kind != parser.String {
		return "", false
	}
	return toks[1].Text, true
}

// source runs the statements of the file at path with the error policy of
// -f: the first failing statement stops the file (unless --keep-going);
// the session goes on either way. Each answer is written as the shell
// writes it, with a blank line between answers; the last one's blank line
// is the caller's. The tag is the most severe of the answers.
func (sh *Shell) source(ctx context.Context, path string, out, errw io.Writer, interactive bool) render.Tag {
	opt := sh.options(interactive, time.Time{})
	if sh.sourceDepth >= maxSourceDepth {
		return render.Error(errw, render.SourceTooDeep(path, maxSourceDepth), opt)
	}
	f, err := os.Open(path)
	if err != nil {
		return render.Error(errw, render.SourceError(path, err), opt)
	}
	defer f.Close()
	sh.sourceDepth++
	defer func() { sh.sourceDepth-- }()
	// The file is read a statement at a time, as piped input is: an
	// endless file stops at MaxStatementBytes, a long script is never
	// held whole.
	src := newPlainSource(f)
	tag, prev := render.TagOK, render.TagOK
	bare := sh.bare
	ran := 0
	run := func(stmt string) bool {
		if ran > 0 {
			if prev == render.TagError {
				io.WriteString(errw, "\n")
			} else if !sh.bare {
				io.WriteString(out, "\n")
			}
		}
		ran++
		t := sh.exec(ctx, stmt, out, errw, interactive)
		bare = sh.bare
		if t == render.TagError {
			flushWriter(out)
		}
		tag, prev = render.Max(tag, t), t
		return !(t == render.TagError && !sh.cfg.KeepGoing || sh.exited || ctx.Err() != nil)
	}
	fail := func(err error) render.Tag {
		if !isTooLarge(err) {
			err = render.SourceError(path, err)
		}
		if ran > 0 {
			if prev == render.TagError {
				io.WriteString(errw, "\n")
			} else if !sh.bare {
				io.WriteString(out, "\n")
			}
		}
		flushWriter(out)
		sh.bare = bare
		return render.Max(tag, render.Error(errw, err, opt))
	}
	// Where buf starts in the file (line, 0-based column), for the
	// location line after an error.
	bufLine, bufCol := 1, 0
	defer func(outer stmtPlace) { sh.place = outer }(sh.place)
	var buf strings.Builder
	for {
		line, err := src.ReadLine("")
		if err == io.EOF {
			break
		}
		if err != nil {
			return fail(err)
		}
		buf.WriteString(line)
		buf.WriteByte('\n')
		if buf.Len() > MaxStatementBytes {
			return fail(statementTooLargeError{})
		}
		if !strings.Contains(line, ";") {
			continue
		}
		text := buf.String()
		stmts, rest := parser.Split(text)
		batch := &locBatch{file: path, first: bufLine, firstCol: bufCol, text: text, stmts: stmts}
		bufLine, bufCol = advance(bufLine, bufCol, strings.TrimSuffix(text, rest))
		buf.Reset()
		buf.WriteString(rest)
		for i, p := range stmts {
			sh.place = stmtPlace{batch: batch, i: i}
			if !run(p.Text) {
				sh.bare = bare
				return tag
			}
		}
	}
	if !parser.IsBlank(buf.String()) {
		sh.place = stmtPlace{batch: &locBatch{file: path, first: bufLine, firstCol: bufCol, text: buf.String(),
			stmts: []parser.Piece{lastPiece(buf.String())}}}
		run(strings.TrimSpace(buf.String()))
	}
	sh.bare = bare
	return tag
}
