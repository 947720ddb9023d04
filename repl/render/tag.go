package render

// Tag says how the Flink SQL client colours an answer: an error is red,
// a warning yellow, an info line blue, and tables and other plain text
// are not coloured. The Flink .q golden files record it as !error,
// !warning, !info and !ok.
type Tag uint8

// The tags, from least to most severe.
const (
	TagOK Tag = iota
	TagInfo
	TagWarning
	TagError
)

var tagNames = [...]string{"ok", "info", "warning", "error"}

// String returns the tag's name as the .q files write it, without the '!'.
func (t Tag) String() string {
	if int(t) < len(tagNames) {
		return tagNames[t]
	}
	return "unknown"
}

// Max returns the more severe of two tags: when one answer holds several
// colours, the most severe one names it (error > warning > info > ok).
func Max(a, b Tag) Tag {
	if a > b {
		return a
	}
	return b
}
