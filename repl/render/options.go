package render

import (
	"strings"
	"time"
)

// Result modes (sql-client.execution.result-mode).
const (
	ModeTable     = "table"
	ModeTableau   = "tableau"
	ModeChangelog = "changelog"
)

// DefaultMaxColumnWidth is sql-client.display.max-column-width's default.
const DefaultMaxColumnWidth = 30

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
