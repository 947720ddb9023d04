package repl

import (
	"strings"

	"eddy/catalogs"
	"eddy/engine/parser"
)

// maskSecrets returns a statement with the value of every option whose
// key names a credential (catalogs.IsSensitiveOption)
// replaced by '****', as SHOW CREATE prints it; the history file keeps
// that text, never the secret. Options are found with the parser's lexer,
// so quotes, comments and ';' inside the statement cannot hide one.
func maskSecrets(stmt string) string {
	lx := parser.NewLexer(stmt)
	var out strings.Builder
	copied := 0
	var prev [2]parser.Token // the two tokens before the current one
	for {
		tok, err := lx.Next()
		if err != nil || tok.Kind == parser.EOF {
			break
		}
		if (tok.Kind == parser.String || tok.Kind == parser.UString) &&
			prev[1].Kind == parser.Op && prev[1].Text == "=" &&
			(prev[0].Kind == parser.String || prev[0].Kind == parser.UString) && isSecretKey(prev[0].Text) &&
			tok.Pos.Offset >= copied && tok.End <= len(stmt) {
			out.WriteString(stmt[copied:tok.Pos.Offset])
			out.WriteString("'" + catalogs.HiddenValue + "'")
			copied = tok.End
		}
		prev[0], prev[1] = prev[1], tok
	}
	if copied == 0 {
		return stmt
	}
	out.WriteString(stmt[copied:])
	return out.String()
}

func isSecretKey(key string) bool { return catalogs.IsSensitiveOption(key) }
