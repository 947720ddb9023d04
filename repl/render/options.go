package render

import (
	"strconv"
	"strings"
	"time"

	"eddy/conf"
)

// Result modes (sql-client.execution.result-mode).
const (
	ModeTable     = "table"
	ModeTableau   = "tableau"
	ModeChangelog = "changelog"
)

// Output formats (sql-client.display.output-format). FormatTableau is the
// Flink client's display, shaped by the result mode; the others print rows
// only, for export and reading.
const (
	FormatTableau  = "tableau"
	FormatCSV      = "csv"
	FormatTSV      = "tsv"
	FormatJSON     = "json"
	FormatJSONL    = "jsonl"
	FormatMarkdown = "markdown"
	FormatVertical = "vertical"
)

// Formats lists the output formats in the order the help shows them.
var Formats = []string{FormatTableau, FormatCSV, FormatTSV, FormatJSON, FormatJSONL, FormatMarkdown, FormatVertical}

// IsFormat reports whether name is an output format.
func IsFormat(name string) bool {
	for _, f := range Formats {
		if strings.EqualFold(f, name) {
			return true
		}
	}
	return false
}

// IsMachineFormat reports whether a format is meant for programs (csv,
// tsv, json, jsonl): its output is the rows and nothing else.
func IsMachineFormat(name string) bool {
	switch strings.ToLower(name) {
	case FormatCSV, FormatTSV, FormatJSON, FormatJSONL:
		return true
	}
	return false
}

// DefaultPrompt is sql-client.display.prompt's default.
var DefaultPrompt = conf.Default(conf.Prompt)

// DefaultMaxColumnWidth is table.display.max-column-width's default.
var DefaultMaxColumnWidth, _ = strconv.Atoi(conf.Default(conf.MaxColumnWidth))

// Options controls how results are shown. The session's configuration
// supplies most fields; the shell adds Interactive, Color and Started.
type Options struct {
	ResultMode     string // ModeTable (Flink's default), ModeTableau or ModeChangelog
	Streaming      bool   // execution.runtime-mode = streaming
	MaxColumnWidth int    // cap on query result columns; 0 means DefaultMaxColumnWidth
	PrintTimeCost  bool   // append " (X.YZ seconds)" to query footers
	Verbose        bool   // errors show their whole cause chain
	Color          bool   // ANSI colours (a terminal that wants them)
	Interactive    bool   // a person at a terminal: table and changelog modes are allowed

	// Format is the output format; "" means FormatTableau.
	Format string
	// MaxTableRows caps the rows the table result mode keeps (the oldest
	// go first); 0 means no cap.
	MaxTableRows int
	// MemoryBudget is eddy.exec.memory-budget in bytes: the printed cells a
	// bounded tableau answer holds in memory while its widths are found;
	// past it they wait in a temporary file. 0 means no limit.
	MemoryBudget int64

	// Prompt is the prompt template (%c catalog, %d database); "" means
	// DefaultPrompt. ShowLineNumbers numbers continuation lines. Highlight
	// colours SQL at the prompt (when the terminal has colours).
	Prompt          string
	ShowLineNumbers bool
	Highlight       bool

	// Screen is the terminal a person watches, or nil (piped output,
	// tests). With one, the table and changelog result modes show an
	// unbounded query in a full-screen view, and Pager sends a bounded
	// answer taller than the screen through its pager.
	Screen Screen
	Pager  bool

	// Location is table.local-time-zone: TIMESTAMP_LTZ values are shown in
	// it. Nil keeps each value's own location.
	Location *time.Location
	// Started is when the statement began (for PrintTimeCost); Now is the
	// clock, time.Now when nil.
	Started time.Time
	Now     func() time.Time
}

func (o Options) maxWidth() int {
	if o.MaxColumnWidth <= 0 {
		return DefaultMaxColumnWidth
	}
	return o.MaxColumnWidth
}

func (o Options) format() string {
	if o.Format == "" {
		return FormatTableau
	}
	return strings.ToLower(o.Format)
}

func (o Options) mode() string {
	if o.ResultMode == "" {
		return ModeTable
	}
	return strings.ToLower(o.ResultMode)
}

// elapsed returns the time-cost suffix of a query footer, or "".
func (o Options) elapsed() string {
	if !o.PrintTimeCost || o.Started.IsZero() {
		return ""
	}
	now := time.Now
	if o.Now != nil {
		now = o.Now
	}
	return timeCost(now().Sub(o.Started).Seconds())
}
