package qtest

import (
	"regexp"
	"strings"
)

// The comparison is exact text equality of the answer block and the tag,
// after the three normalisations below and nothing else. Each is applied to
// the expected and the actual side alike.

// javaClassPrefix matches a fully qualified Java exception class at the start
// of a line, as Flink prints the root cause of an error
// ("org.apache.flink.table.api.ValidationException: ...").
var javaClassPrefix = regexp.MustCompile(`(?m)^(?:[a-z_$][a-z0-9_$]*\.)+([A-Z][A-Za-z0-9_$]*(?:Exception|Error))(:|$)`)

// stripJavaPackages drops the package of exception class names. eddy has no
// Java packages: its errors carry Flink's short class name
// (`ValidationException`), while Flink's files print the qualified one.
// Only a class name opening a line is touched, so message text such as
// `No enum constant org.apache.flink.table.api.SqlDialect.UNKNOWN` stays.
func stripJavaPackages(s string) string {
	return javaClassPrefix.ReplaceAllString(s, "$1$2")
}

// succeededLine: the files span Flink versions; older ones acknowledge a
// statement with "Execute statement succeed." and newer ones with
// "Execute statement succeeded.". Both spell the same answer.
const (
	succeedOld = "[INFO] Execute statement succeed."
	succeedNew = "[INFO] Execute statement succeeded."
)

func unifySucceed(s string) string {
	if !strings.Contains(s, succeedOld) {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if l == succeedOld {
			lines[i] = succeedNew
		}
	}
	return strings.Join(lines, "\n")
}

// jobIDPrefix: Flink's client harness cuts every output line starting with
// "Job ID:" down to "Job ID:" (a job id differs on every run), and the
// gateway harness prints only "Job ID:" for a job-submitting statement.
const jobIDPrefix = "Job ID:"

func cutJobIDs(s string) string {
	if !strings.Contains(s, jobIDPrefix) {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, jobIDPrefix) {
			lines[i] = jobIDPrefix
		}
	}
	return strings.Join(lines, "\n")
}

// Normalize applies the three documented normalisations to an answer block.
func Normalize(block string) string {
	return cutJobIDs(unifySucceed(stripJavaPackages(block)))
}

// stripTrailingSpaces removes spaces (only spaces) at the end of every line,
// as Flink's client harness does with the terminal output; trailing spaces
// never matter on the actual side of a client-dialect answer.
func stripTrailingSpaces(s string) string {
	if !strings.Contains(s, " \n") && !strings.HasSuffix(s, " ") {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}
