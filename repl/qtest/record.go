package qtest

// Dialect is the flavour of a `.q` file.
type Dialect uint8

const (
	// Client is the SQL client dialect: a statement ends at a line ending in
	// ';' and its answer is what the interactive client prints.
	Client Dialect = iota
	// Gateway is the marker dialect of the SQL gateway scripts: a statement
	// ends at a line `!output` and its answer is printed by the gateway test
	// harness.
	Gateway
)

// String returns "client" or "gateway".
func (d Dialect) String() string {
	if d == Gateway {
		return "gateway"
	}
	return "client"
}

// Tag is the result kind closing a record.
type Tag uint8

// The tags Flink's harness writes. TagUnknown stands for any other line
// starting with '!' (Flink's reader closes a record on it too).
const (
	TagUnknown Tag = iota
	TagOK
	TagInfo
	TagWarning
	TagError
)

var tagText = [...]string{"!?", "!ok", "!info", "!warning", "!error"}

// String returns the tag line without its newline: "!ok", "!info", ...
func (t Tag) String() string {
	if int(t) < len(tagText) {
		return tagText[t]
	}
	return "!?"
}

// ParseTag returns the tag a tag line names; TagUnknown when the line is not
// one of the four known tags.
func ParseTag(line string) Tag {
	for t := TagOK; t <= TagError; t++ {
		if line == tagText[t] {
			return t
		}
	}
	return TagUnknown
}

// Record is one statement of a script with its expected answer.
type Record struct {
	Num      int    // 1-based position in the file
	Line     int    // 1-based line of the first SQL line
	Prefix   string // comment and blank lines before the SQL, each ending in "\n"
	SQL      string // the SQL lines, each ending in "\n" (the `!output` marker excluded)
	Expected string // the expected block, each line ending in "\n"
	TagLine  string // the closing line as written, without "\n"
}

// Tag returns the record's expected tag.
func (r *Record) Tag() Tag { return ParseTag(r.TagLine) }

// Script is a parsed `.q` file.
type Script struct {
	Dialect Dialect
	Records []Record
}
