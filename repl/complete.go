package repl

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"eddy/engine/parser"
)

// nameSource is what completion reads from the session, live at every Tab
// (*engine.Session has it). A session without it completes keywords only.
type nameSource interface {
	CatalogNames(ctx context.Context) []string
	DatabaseNames(ctx context.Context, catalog string) []string
	ObjectNames(ctx context.Context, catalog, database string) []string
	ColumnNames(ctx context.Context, name []string) []string
	FunctionNames(ctx context.Context) []string
	OptionKeys() []string
	OptionValues(key string) []string
}

// completer is readline's AutoCompleter: it finds what the word at the
// cursor can be from the lexer's tokens of the statement typed so far —
// keywords at a statement's start and between clauses, catalogs,
// databases, tables and views after FROM, JOIN, INTO, TABLE, VIEW, USE,
// columns of the tables in scope and function names in expressions, option
// keys and values after SET and RESET, file names after SOURCE.
type completer struct {
	names nameSource // or nil
	// pending returns the earlier lines of the statement being typed.
	pending func() string
	// budget bounds the name lookups of one Tab press (0:
	// completionBudget).
	budget time.Duration
	// jobs returns the ids of the running jobs (STOP JOB '...'), or is nil.
	jobs func() []string
}

// completionBudget is how long one Tab press waits for names from the
// catalogs. A lookup still running then is abandoned: Tab offers what
// arrived in time (keywords always), and a remote catalog never freezes
// the prompt.
const completionBudget = 200 * time.Millisecond

// boundedNames is a nameSource whose lookups return by ctx's deadline: a
// lookup that has not answered by then gives no names. Its results are
// handed over through a channel, so an abandoned lookup finishes on its
// own without touching the completion.
type boundedNames struct{ src nameSource }

// within calls f and returns its names, or nil once ctx ends first.
func within(ctx context.Context, f func() []string) []string {
	if ctx.Err() != nil {
		return nil
	}
	done := make(chan []string, 1)
	go func() {
		defer func() {
			if recover() != nil {
				done <- nil // no names rather than a crashed shell
			}
		}()
		done <- f()
	}()
	select {
	case names := <-done:
		return names
	case <-ctx.Done():
		return nil
	}
}

func (b boundedNames) CatalogNames(ctx context.Context) []string {
	return within(ctx, func() []string { return b.src.CatalogNames(ctx) })
}

func (b boundedNames) DatabaseNames(ctx context.Context, catalog string) []string {
	return within(ctx, func() []string { return b.src.DatabaseNames(ctx, catalog) })
}

func (b boundedNames) ObjectNames(ctx context.Context, catalog, database string) []string {
	return within(ctx, func() []string { return b.src.ObjectNames(ctx, catalog, database) })
}

func (b boundedNames) ColumnNames(ctx context.Context, name []string) []string {
	return within(ctx, func() []string { return b.src.ColumnNames(ctx, name) })
}

func (b boundedNames) FunctionNames(ctx context.Context) []string {
	return within(ctx, func() []string { return b.src.FunctionNames(ctx) })
}

func (b boundedNames) OptionKeys() []string { return b.src.OptionKeys() }

func (b boundedNames) OptionValues(key string) []string { return b.src.OptionValues(key) }

// Do returns the candidates for the word before pos as the text to insert
// after it, and the length of that word.
func (c *completer) Do(line []rune, pos int) (cands [][]rune, length int) {
	defer func() {
		if recover() != nil {
			cands, length = nil, 0 // no candidates rather than a crashed shell
		}
	}()
	before := ""
	if c.pending != nil {
		before = c.pending()
	}
	after := ""
	if pos < len(line) {
		after = string(line[pos:])
	}
	words, partial := c.complete(before+string(line[:pos]), after)
	for _, w := range words {
		cands = append(cands, []rune(w[len(partial):]))
	}
	return cands, utf8.RuneCountInString(partial)
}

// complete returns the full candidates for the word ending text (each
// starts with the returned partial word, byte for byte) and that word.
// rest is what follows the cursor on its line (it helps to find the tables
// of the statement).
func (c *completer) complete(text, rest string) (cands []string, partial string) {
	budget := c.budget
	if budget <= 0 {
		budget = completionBudget
	}
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
	if c.names != nil {
		// A copy per press: the completer itself keeps no state.
		bounded := *c
		bounded.names = boundedNames{c.names}
		c = &bounded
	}
	if cmd := strings.TrimLeft(text, " \t"); strings.HasPrefix(cmd, `\`) && !strings.Contains(cmd, "\n") {
		return c.backslash(ctx, cmd)
	}
	toks, open := lexForCompletion(text)
	// Only the statement at the cursor counts.
	start := 0
	for i := len(toks) - 1; i >= 0; i-- {
		if toks[i].IsOp(";") {
			start = toks[i].End
			toks = toks[i+1:]
			break
		}
	}
	switch {
	case open == '\'':
		return c.inString(toks, text)
	case open == '`':
		partial = text[strings.LastIndexByte(text, '`')+1:]
	case open != 0:
		return nil, ""
	case len(toks) > 0 && toks[len(toks)-1].End == len(text) && isWord(toks[len(toks)-1]):
		last := toks[len(toks)-1]
		if last.Kind == parser.QIdent {
			return nil, "" // a finished `name`
		}
		partial = last.Text
		toks = toks[:len(toks)-1]
	}
	quoted := open == '`'
	// The qualifier: name . name . before the word.
	var qual []string
	for len(toks) >= 2 && toks[len(toks)-1].IsOp(".") && isWord(toks[len(toks)-2]) {
		qual = append([]string{toks[len(toks)-2].Text}, qual...)
		toks = toks[:len(toks)-2]
	}
	var words []string
	keywords := false
	switch kind := contextOf(toks, len(qual) > 0); kind {
	case ctxStart:
		return matchKeywords(statementStarts, partial, quoted), partial
	case ctxObject:
		words = c.objectNames(ctx, qual)
	case ctxDatabase:
		words = c.databaseNames(ctx, qual)
	case ctxCatalog:
		if len(qual) == 0 && c.names != nil {
			words = c.names.CatalogNames(ctx)
		}
	case ctxColumn:
		words = c.columnNames(ctx, qual, tablesInScope(text[start:]+rest))
		if len(qual) == 0 && (partial != "" || len(words) == 0) && !quoted {
			// Functions and keywords once a word is begun: hundreds of
			// them would drown the columns.
			keywords = true
			if c.names != nil {
				cands = matchFunctions(c.names.FunctionNames(ctx), partial)
			}
		}
	case ctxOptionKey, ctxOptionValue:
		if c.names == nil || quoted || partial != "" {
			return nil, ""
		}
		if kind == ctxOptionKey {
			words = c.names.OptionKeys()
		} else {
			words = c.names.OptionValues(toks[1].Text)
		}
		for _, w := range words {
			cands = append(cands, "'"+w+"'")
		}
		return dedupe(cands), ""
	default:
		if len(qual) > 0 {
			return nil, ""
		}
		keywords = true
	}
	cands = append(cands, matchNames(words, partial, quoted)...)
	if keywords && !quoted {
		cands = append(cands, matchKeywords(clauseKeywords, partial, false)...)
	}
	return dedupe(cands), partial
}

// lexForCompletion returns the tokens of text and, when text ends inside a
// string literal or a back-quoted name, its opening quote.
func lexForCompletion(text string) (toks []parser.Token, open byte) {
	l := parser.NewLexer(text)
	for {
		tok, err := l.Next()
		if err != nil {
			var pe *parser.Error
			if errors.As(err, &pe) && pe.Incomplete {
				end := 0
				if len(toks) > 0 {
					end = toks[len(toks)-1].End
				}
				rest := strings.TrimLeft(text[end:], " \t\r\n\f")
				switch {
				case strings.HasPrefix(rest, "`"):
					return toks, '`'
				case strings.HasPrefix(rest, "'"):
					return toks, '\''
				}
				return toks, '*' // an open comment
			}
			continue
		}
		if tok.Kind == parser.EOF {
			return toks, 0
		}
		toks = append(toks, tok)
	}
}

func isWord(t parser.Token) bool { return t.Kind == parser.Ident || t.Kind == parser.QIdent }

// Completion contexts.
const (
	ctxKeyword = iota
	ctxStart
	ctxObject
	ctxDatabase
	ctxCatalog
	ctxColumn
	ctxOptionKey
	ctxOptionValue
)

// contextOf decides what the word after toks names.
func contextOf(toks []parser.Token, qualified bool) int {
	if len(toks) == 0 {
		return ctxStart
	}
	first, prev := toks[0], toks[len(toks)-1]
	if (first.Is("SET") || first.Is("RESET")) && len(toks) == 1 {
		return ctxOptionKey
	}
	if first.Is("SET") && len(toks) == 3 && toks[1].Kind == parser.String && toks[2].IsOp("=") {
		return ctxOptionValue
	}
	if prev.Kind == parser.Ident {
		switch {
		case prev.Is("FROM") || prev.Is("IN"):
			if first.Is("SHOW") {
				if tokensHave(toks, "TABLES", "VIEWS", "FUNCTIONS", "PROCEDURES") {
					return ctxDatabase
				}
				if tokensHave(toks, "DATABASES") {
					return ctxCatalog
				}
				if tokensHave(toks, "COLUMNS") {
					return ctxObject
				}
			}
			if prev.Is("IN") {
				return ctxColumn
			}
			return ctxObject
		case prev.Is("JOIN") || prev.Is("INTO") || prev.Is("TABLE") || prev.Is("VIEW") ||
			prev.Is("DESCRIBE") || prev.Is("DESC") && len(toks) == 1 || prev.Is("UPDATE") ||
			prev.Is("OVERWRITE") || prev.Is("EXISTS") && (tokensHave(toks, "TABLE", "VIEW")):
			return ctxObject
		case prev.Is("EXISTS") && tokensHave(toks, "DATABASE"):
			return ctxDatabase
		case prev.Is("EXISTS") && tokensHave(toks, "CATALOG"):
			return ctxCatalog
		case prev.Is("USE"):
			return ctxDatabase
		case prev.Is("CATALOG"):
			return ctxCatalog
		case prev.Is("DATABASE"):
			return ctxDatabase
		case prev.Is("SELECT") || prev.Is("WHERE") || prev.Is("ON") || prev.Is("BY") || prev.Is("HAVING") ||
			prev.Is("AND") || prev.Is("OR") || prev.Is("NOT") || prev.Is("WHEN") || prev.Is("THEN") ||
			prev.Is("ELSE") || prev.Is("DISTINCT") || prev.Is("CASE"):
			return ctxColumn
		}
		if qualified {
			return ctxColumn
		}
		return ctxKeyword
	}
	if prev.Kind == parser.Op {
		if prev.Text == "," {
			if clause := lastClause(toks); clause == "FROM" || clause == "JOIN" {
				return ctxObject
			}
		}
		return ctxColumn
	}
	return ctxKeyword
}

// lastClause returns the clause keyword nearest before the end of toks.
func lastClause(toks []parser.Token) string {
	for i := len(toks) - 1; i >= 0; i-- {
		for _, kw := range []string{"SELECT", "FROM", "JOIN", "WHERE", "ON", "BY", "HAVING", "SET", "VALUES"} {
			if toks[i].Is(kw) {
				return kw
			}
		}
	}
	return ""
}

func tokensHave(toks []parser.Token, kws ...string) bool {
	for _, t := range toks {
		for _, kw := range kws {
			if t.Is(kw) {
				return true
			}
		}
	}
	return false
}

// inString completes inside a string literal: SET and RESET keys, SET
// values, SOURCE file names, STOP JOB ids.
func (c *completer) inString(toks []parser.Token, text string) ([]string, string) {
	partial := text[strings.LastIndexByte(text, '\'')+1:]
	if len(toks) == 0 {
		return nil, ""
	}
	first := toks[0]
	var words []string
	switch {
	case first.Is(cmdSource) && len(toks) == 1:
		return completeFile(partial)
	case first.Is("STOP") && len(toks) == 2 && toks[1].Is("JOB") && c.jobs != nil:
		words = c.jobs()
	case c.names == nil:
		return nil, ""
	case (first.Is("SET") || first.Is("RESET")) && len(toks) == 1:
		words = c.names.OptionKeys()
	case first.Is("SET") && len(toks) == 3 && toks[1].Kind == parser.String && toks[2].IsOp("="):
		words = c.names.OptionValues(toks[1].Text)
	default:
		return nil, ""
	}
	var cands []string
	for _, w := range words {
		if strings.HasPrefix(strings.ToLower(w), strings.ToLower(partial)) {
			cands = append(cands, partial+w[len(partial):]+"'")
		}
	}
	return cands, partial
}

// completeFile completes a file name: directories end in '/'.
func completeFile(partial string) ([]string, string) {
	dir, base := filepath.Split(partial)
	read := dir
	if read == "" {
		read = "."
	}
	entries, err := os.ReadDir(read)
	if err != nil {
		return nil, ""
	}
	var cands []string
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, base) || strings.HasPrefix(name, ".") && !strings.HasPrefix(base, ".") {
			continue
		}
		if e.IsDir() {
			cands = append(cands, dir+name+"/")
		} else {
			cands = append(cands, dir+name+"'")
		}
	}
	return cands, partial
}

// objectNames lists what can follow qual in a table name: with no
// qualifier the current database's tables and views, the current catalog's
// databases and the catalogs (these two ending in '.'); after one part its
// databases (when it is a catalog) or its tables (when it is a database);
// after two parts the tables of that catalog's database.
func (c *completer) objectNames(ctx context.Context, qual []string) []string {
	if c.names == nil {
		return nil
	}
	switch len(qual) {
	case 0:
		out := c.names.ObjectNames(ctx, "", "")
		for _, d := range c.names.DatabaseNames(ctx, "") {
			out = append(out, d+".")
		}
		for _, cat := range c.names.CatalogNames(ctx) {
			out = append(out, cat+".")
		}
		return out
	case 1:
		var out []string
		for _, d := range c.names.DatabaseNames(ctx, qual[0]) {
			out = append(out, d+".")
		}
		return append(out, c.names.ObjectNames(ctx, "", qual[0])...)
	case 2:
		return c.names.ObjectNames(ctx, qual[0], qual[1])
	}
	return nil
}

// databaseNames lists databases (of the current catalog, or of the
// qualifying one) and, unqualified, catalogs ending in '.'.
func (c *completer) databaseNames(ctx context.Context, qual []string) []string {
	if c.names == nil {
		return nil
	}
	switch len(qual) {
	case 0:
		out := c.names.DatabaseNames(ctx, "")
		for _, cat := range c.names.CatalogNames(ctx) {
			out = append(out, cat+".")
		}
		return out
	case 1:
		return c.names.DatabaseNames(ctx, qual[0])
	}
	return nil
}

// columnNames lists the columns of the tables in scope, or, qualified, of
// the table or alias named.
func (c *completer) columnNames(ctx context.Context, qual []string, scope []tableRef) []string {
	if c.names == nil {
		return nil
	}
	if len(qual) > 0 {
		for _, t := range scope {
			if len(qual) == 1 && (t.alias == qual[0] || t.alias == "" && t.name[len(t.name)-1] == qual[0]) {
				return c.names.ColumnNames(ctx, t.name)
			}
		}
		return c.names.ColumnNames(ctx, qual)
	}
	if len(scope) == 0 {
		// No FROM yet (SELECT is typed first): the columns of the current
		// database's tables, when there are not too many.
		objs := c.names.ObjectNames(ctx, "", "")
		if len(objs) > maxScopeTables {
			return nil
		}
		for _, o := range objs {
			scope = append(scope, tableRef{name: []string{o}})
		}
	}
	var out []string
	for _, t := range scope {
		out = append(out, c.names.ColumnNames(ctx, t.name)...)
	}
	return out
}

// maxScopeTables bounds the tables whose columns are offered before the
// statement names any.
const maxScopeTables = 50

// tableRef is a table named in a FROM or JOIN clause.
type tableRef struct {
	name  []string
	alias string
}

// tablesInScope finds the tables a statement reads or writes: the names
// after FROM, JOIN, INTO and UPDATE (and after the commas of a FROM list),
// with their aliases. text is the whole statement, the cursor's line
// included.
func tablesInScope(text string) []tableRef {
	toks, _ := lexForCompletion(text)
	var refs []tableRef
	for i := 0; i < len(toks); i++ {
		if !toks[i].Is("FROM") && !toks[i].Is("JOIN") && !toks[i].Is("INTO") && !toks[i].Is("UPDATE") {
			continue
		}
		for j := i + 1; j < len(toks); {
			var ref tableRef
			for j < len(toks) && isWord(toks[j]) {
				ref.name = append(ref.name, toks[j].Text)
				j++
				if j < len(toks) && toks[j].IsOp(".") {
					j++
					continue
				}
				break
			}
			if len(ref.name) == 0 {
				break
			}
			if j < len(toks) && toks[j].Is("AS") {
				j++
			}
			if j < len(toks) && isWord(toks[j]) && !isClauseWord(toks[j]) {
				ref.alias = toks[j].Text
				j++
			}
			refs = append(refs, ref)
			if j < len(toks) && toks[j].IsOp(",") && toks[i].Is("FROM") {
				j++
				continue
			}
			break
		}
	}
	return refs
}

// isClauseWord reports whether a word after a table name is a keyword
// rather than an alias.
func isClauseWord(t parser.Token) bool {
	if t.Kind != parser.Ident {
		return false
	}
	if parser.IsReserved(strings.ToUpper(t.Text)) {
		return true
	}
	for _, kw := range []string{"WHERE", "JOIN", "LEFT", "RIGHT", "FULL", "INNER", "CROSS", "ON", "GROUP", "ORDER", "LIMIT", "HAVING", "UNION", "WINDOW"} {
		if t.Is(kw) {
			return true
		}
	}
	return false
}

// matchNames returns the names that start with partial, byte for byte
// (names are case-sensitive), back-quoted when they need it. Inside an
// open back quote the closing quote follows each name.
func matchNames(names []string, partial string, quoted bool) []string {
	var out []string
	for _, n := range names {
		if !strings.HasPrefix(n, partial) {
			continue
		}
		switch {
		case quoted:
			out = append(out, strings.TrimSuffix(n, ".")+"`"+suffixDot(n))
		case needsQuotes(strings.TrimSuffix(n, ".")):
			if partial == "" {
				out = append(out, "`"+strings.ReplaceAll(strings.TrimSuffix(n, "."), "`", "``")+"`"+suffixDot(n))
			}
		default:
			out = append(out, n)
		}
	}
	return out
}

func suffixDot(n string) string {
	if strings.HasSuffix(n, ".") {
		return "."
	}
	return ""
}

// needsQuotes reports whether a name must be back-quoted: it is not a
// plain word, or it is a reserved keyword.
func needsQuotes(name string) bool {
	if name == "" {
		return true
	}
	for i, r := range name {
		if !(r == '_' || unicode.IsLetter(r) || i > 0 && (unicode.IsDigit(r) || r == '$')) {
			return true
		}
	}
	return parser.IsReserved(strings.ToUpper(name))
}

// matchKeywords returns the keywords (and keyword phrases) that start with
// partial, ignoring case, in the case partial is typed in, and followed by
// a blank.
func matchKeywords(kws []string, partial string, quoted bool) []string {
	if quoted {
		return nil
	}
	lower := partial != "" && strings.ToLower(partial) == partial && strings.ToUpper(partial) != partial
	var out []string
	for _, kw := range kws {
		if !strings.HasPrefix(kw, strings.ToUpper(partial)) {
			continue
		}
		if lower {
			kw = strings.ToLower(kw)
		}
		out = append(out, partial+kw[len(partial):]+" ")
	}
	return out
}

// matchFunctions returns the functions whose names start with partial,
// ignoring case, written in the case of partial (lower case when it has no
// letters yet), followed by '('.
func matchFunctions(fns []string, partial string) []string {
	upper := partial != "" && strings.ToUpper(partial) == partial && strings.ToLower(partial) != partial
	var out []string
	for _, f := range fns {
		if !strings.HasPrefix(strings.ToUpper(f), strings.ToUpper(partial)) {
			continue
		}
		if upper {
			f = strings.ToUpper(f)
		} else {
			f = strings.ToLower(f)
		}
		out = append(out, partial+f[len(partial):]+"(")
	}
	return out
}

func dedupe(ss []string) []string {
	sort.Strings(ss)
	out := ss[:0]
	for i, s := range ss {
		if i == 0 || s != ss[i-1] {
			out = append(out, s)
		}
	}
	return out
}

// statementStarts are the statements and client commands a line can begin
// with: the parser's and the shell's SOURCE.
var statementStarts = func() []string {
	starts := append(parser.StatementStarts(), cmdSource)
	slices.Sort(starts)
	return starts
}()

// clauseKeywords are the keywords offered inside a statement.
var clauseKeywords = parser.ClauseKeywords()

// backslash completes a backslash command typed at the start of a
// statement: its name, the on/off of \timing and \x, and the table or
// view after \d.
func (c *completer) backslash(ctx context.Context, cmd string) (cands []string, partial string) {
	name, arg, spaced := strings.Cut(cmd, " ")
	if !spaced {
		for _, b := range backslashCommands {
			if strings.HasPrefix(b.name, name) {
				cands = append(cands, b.name+" ")
			}
		}
		return cands, name
	}
	arg = strings.TrimLeft(arg, " ")
	switch name {
	case `\timing`, `\x`:
		for _, v := range []string{"on", "off"} {
			if strings.HasPrefix(v, arg) {
				cands = append(cands, v)
			}
		}
		return cands, arg
	case `\d`:
		qual := strings.Split(arg, ".")
		partial = qual[len(qual)-1]
		for _, n := range c.objectNames(ctx, qual[:len(qual)-1]) {
			if strings.HasPrefix(strings.ToLower(n), strings.ToLower(partial)) {
				cands = append(cands, partial+n[len(partial):])
			}
		}
		return cands, partial
	}
	return nil, ""
}
