package repl

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"eddy/repl/render"
)

// prompt returns the prompt for line n (from 1) of the statement being
// typed: sql-client.display.prompt on the first line, a continuation mark
// as wide as it on the others, numbered when
// sql-client.display.show-line-numbers is on.
func (sh *Shell) prompt(n int) string {
	opt := sh.sess.DisplayOptions()
	cat, db := sh.sess.Prompt()
	mode := "batch"
	if opt.Streaming {
		mode = "streaming"
	}
	p := expandPrompt(opt.Prompt, cat, db, mode)
	if n <= 1 {
		return p
	}
	mark := "-> "
	if opt.ShowLineNumbers {
		mark = strconv.Itoa(n) + mark
	}
	pad := utf8.RuneCountInString(p) - utf8.RuneCountInString(mark)
	return strings.Repeat(" ", max(pad, 0)) + mark
}

// expandPrompt fills a prompt template: %c is the current catalog, %d the
// current database, %m the runtime mode (streaming or batch), %% a percent
// sign; any other % stays as written. An empty template is
// render.DefaultPrompt.
func expandPrompt(tmpl, catalog, database, mode string) string {
	if tmpl == "" {
		tmpl = render.DefaultPrompt
	}
	var b strings.Builder
	for i := 0; i < len(tmpl); i++ {
		if tmpl[i] != '%' || i+1 == len(tmpl) {
			b.WriteByte(tmpl[i])
			continue
		}
		switch tmpl[i+1] {
		case 'c':
			b.WriteString(catalog)
		case 'd':
			b.WriteString(database)
		case 'm':
			b.WriteString(mode)
		case '%':
			b.WriteByte('%')
		default:
			b.WriteByte('%')
			continue
		}
		i++
	}
	return b.String()
}
