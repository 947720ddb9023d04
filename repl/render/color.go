package render

import "io"

// ANSI styles of the Flink client: bold blue info lines, bold yellow
// warnings, bold red errors; plain text stays uncoloured.
const (
	ansiInfo    = "\x1b[1;34m"
	ansiWarning = "\x1b[1;33m"
	ansiError   = "\x1b[1;31m"
	ansiReset   = "\x1b[0m"
)

// writeTagged writes the line prefix+msg, coloured as tag when on; without
// colour it writes the pieces as they are (a piped script writes one such
// line for each statement).
func writeTagged(w io.Writer, prefix, msg string, tag Tag, on bool) {
	if on {
		io.WriteString(w, colorize(prefix+msg, tag, true)+"\n")
		return
	}
	io.WriteString(w, prefix)
	io.WriteString(w, msg)
	io.WriteString(w, "\n")
}

func colorize(text string, tag Tag, on bool) string {
	if !on {
		return text
	}
	switch tag {
	case TagInfo:
		return ansiInfo + text + ansiReset
	case TagWarning:
		return ansiWarning + text + ansiReset
	case TagError:
		return ansiError + text + ansiReset
	}
	return text
}
