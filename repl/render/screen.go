package render

import (
	"fmt"
	"strings"
	"time"
)

// Screen is the terminal a person watches: the full-screen result views
// draw on it and read its keys, and long answers go through its pager. The
// shell supplies one only when both its input and its output are a
// terminal.
type Screen interface {
	// Size returns the terminal's width and height in cells.
	Size() (width, height int)
	// Open prepares the terminal for a full-screen view: keys are read one
	// by one, unechoed, and nothing else draws on it. restore undoes it.
	Open() (restore func(), err error)
	// ReadKeys waits up to timeout for keys and returns the bytes typed,
	// or none when none came.
	ReadKeys(timeout time.Duration) ([]byte, error)
	// Page shows text through the pager ($PAGER, else less -FRSX); it
	// returns once the pager has ended.
	Page(text string) error
}

// Terminal control sequences of the full-screen views.
const (
	enterAltScreen = "\x1b[?1049h\x1b[?25l" // the alternate screen, cursor hidden
	leaveAltScreen = "\x1b[?25h\x1b[?1049l"
	inverse        = "\x1b[7m"
	underline      = "\x1b[4m"
	plain          = "\x1b[0m"
	eraseToEnd     = "\x1b[K"
)

// moveTo returns the sequence that puts the cursor at line y, column 1
// (lines count from 1).
func moveTo(y int) string { return fmt.Sprintf("\x1b[%d;1H", y) }

// key is one key press of a view.
type key int

const (
	keyNone key = iota
	keyQuit
	keyRefresh
	keyUp
	keyDown
	keyOpen
	keyFirst
	keyNext
	keyPrev
	keyLast
	keyIncRefresh
	keyDecRefresh
	keyLeft
	keyRight
)

// decodeKeys turns the bytes typed into the views' keys, as Flink's
// CliTableResultView binds them: q Q Esc Ctrl-C quit, r R refresh, w W Up
// and s S Down select, a A Left and d D Right scroll a column, o O Enter open the selected row, g G first page,
// n N next, p P previous, l L End last page, + and - change the refresh
// interval.
func decodeKeys(b []byte) []key {
	var keys []key
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c == 0x1b {
			if i+1 == len(b) || (b[i+1] != '[' && b[i+1] != 'O') {
				keys = append(keys, keyQuit) // Esc alone
				continue
			}
			j := i + 2
			for j < len(b) && (b[j] < 0x40 || b[j] > 0x7e) {
				j++
			}
			if j == len(b) {
				return keys
			}
			switch string(b[i+2 : j+1]) {
			case "A":
				keys = append(keys, keyUp)
			case "B":
				keys = append(keys, keyDown)
			case "D":
				keys = append(keys, keyLeft)
			case "C":
				keys = append(keys, keyRight)
			case "F", "4~":
				keys = append(keys, keyLast)
			case "H", "1~":
				keys = append(keys, keyFirst)
			case "15~":
				keys = append(keys, keyRefresh)
			}
			i = j
			continue
		}
		switch c {
		case 'q', 'Q', 0x03:
			keys = append(keys, keyQuit)
		case 'r', 'R':
			keys = append(keys, keyRefresh)
		case 'w', 'W':
			keys = append(keys, keyUp)
		case 's', 'S':
			keys = append(keys, keyDown)
		case 'a', 'A':
			keys = append(keys, keyLeft)
		case 'd', 'D':
			keys = append(keys, keyRight)
		case 'o', 'O', '\r', '\n':
			keys = append(keys, keyOpen)
		case 'g', 'G':
			keys = append(keys, keyFirst)
		case 'n', 'N':
			keys = append(keys, keyNext)
		case 'p', 'P':
			keys = append(keys, keyPrev)
		case 'l', 'L':
			keys = append(keys, keyLast)
		case '+':
			keys = append(keys, keyIncRefresh)
		case '-':
			keys = append(keys, keyDecRefresh)
		}
	}
	return keys
}

// refreshInterval is one step of the views' refresh intervals (Flink's
// CliResultView.REFRESH_INTERVALS): every means how often, 0 as fast as
// possible, -1 never by itself.
type refreshInterval struct {
	name  string
	every time.Duration
}

var refreshIntervals = [...]refreshInterval{
	{"Fastest", 0},
	{"100 ms", 100 * time.Millisecond},
	{"500 ms", 500 * time.Millisecond},
	{"1 s", time.Second},
	{"5 s", 5 * time.Second},
	{"10 s", 10 * time.Second},
	{"1 min", time.Minute},
	{"-", -1},
}

// plural returns "1 row", "0 rows", "2 rows": eddy's own messages count
// in English (the messages taken from Flink keep Flink's "0 row").
func plural(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// fit cuts s to width display cells and pads it with blanks to exactly
// width.
func fit(s string, width int) string {
	if width <= 0 {
		return ""
	}
	w := displayWidth(s)
	if w > width {
		return strings.TrimLeft(truncate(s, width), " ")
	}
	return s + strings.Repeat(" ", width-w)
}

// normalizeColumn right-aligns a cell in width cells, cutting a longer one
// with a '~' as its last character (Flink's CliUtils.normalizeColumn).
func normalizeColumn(s string, width int) string {
	if displayWidth(s) > width {
		return strings.TrimLeft(truncate(s, width-1), " ") + "~"
	}
	return truncate(s, width)
}

// helpLines lays out the views' key help in two lines, pairs of options
// one above the other (Flink's CliUtils.formatTwoLineHelpOptions).
func helpLines(width int, options [][2]string) [2]string {
	var lines, texts [2]strings.Builder
	columns := (len(options) + 1) / 2
	space := max((width-1-columns*13)/columns, 1)
	for i := range lines {
		lines[i].WriteByte(' ')
		texts[i].WriteByte(' ')
	}
	for i, o := range options {
		gap := strings.Repeat(" ", max(11-len(o[1]), 0)+space)
		lines[i%2].WriteString(inverse + o[0] + plain + " " + o[1] + gap)
		texts[i%2].WriteString(o[0] + " " + o[1] + gap)
	}
	var out [2]string
	for i := range out {
		out[i] = strings.TrimRight(lines[i].String(), " ")
		if displayWidth(strings.TrimRight(texts[i].String(), " ")) > width {
			// A narrow terminal: plain text, cut, so no line wraps.
			out[i] = fit(texts[i].String(), width)
		}
	}
	return out
}
