package repl

import (
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"

	"eddy/engine/parser"
	"eddy/engine/sqlerr"
	"eddy/repl/render"
)

// encountered is the head of Flink's parse error: the token the parser
// stopped at.
var encountered = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^Encountered "([^"]+)" at line \d+, column \d+\.`) })

// reservedName returns the reserved word err stopped at where a name could
// have stood (the parser was expecting an identifier), or "".
func reservedName(err error) string {
	e := sqlerr.As(err)
	if e == nil || !strings.HasSuffix(e.Class, "ParseException") {
		return ""
	}
	m := encountered().FindStringSubmatch(e.Message)
	if m == nil || !parser.IsReserved(strings.ToUpper(m[1])) || !strings.Contains(e.Message, "<IDENTIFIER>") {
		return ""
	}
	return m[1]
}

// msgReservedHint follows Flink's parse error at a terminal when the word
// it stopped at is a reserved word used as a name.
const msgReservedHint = "Hint: %s is a reserved word: quote it as `%s` to use it as a name."

// reservedHint writes the hint for a reserved word used as a name.
func reservedHint(w io.Writer, err error, opt render.Options) {
	if word := reservedName(err); word != "" && opt.Interactive {
		fmt.Fprintf(w, msgReservedHint+"\n", word, word)
	}
}
