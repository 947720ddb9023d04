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
	data, err := os.ReadFile(path)
	if err != nil {
		return render.Error(errw, render.SourceError(path, err), opt)
	}
	sh.sourceDepth++
	defer func() { sh.sourceDepth-- }()
	text := strings.ReplaceAll(strings.TrimPrefix(string(data), "\uFEFF"), "\r\n", "\n")
	stmts, rest := parser.Split(text)
	if !parser.IsBlank(rest) {
		stmts = append(stmts, parser.Piece{Text: strings.TrimSpace(rest)})
	}
	tag, prev := render.TagOK, render.TagOK
	bare := false
	for i, p := range stmts {
		if i > 0 {
			if prev == render.TagError {
				io.WriteString(errw, "\n")
			} else if !sh.bare {
				io.WriteString(out, "\n")
			}
		}
		t := sh.exec(ctx, p.Text, out, errw, interactive)
		bare = sh.bare
		if t == render.TagError {
			flushWriter(out)
		}
		tag, prev = render.Max(tag, t), t
		if t == render.TagError && !sh.cfg.KeepGoing || sh.exited || ctx.Err() != nil {
			break
		}
	}
	sh.bare = bare
	return tag
}
