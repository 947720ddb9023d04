package render

// ANSI styles of the Flink client: bold blue info lines, bold yellow
// warnings, bold red errors; plain text stays uncoloured.
const (
	ansiInfo    = "\x1b[1;34m"
	ansiWarning = "\x1b[1;33m"
	ansiError   = "\x1b[1;31m"
	ansiReset   = "\x1b[0m"
)

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
