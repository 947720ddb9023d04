package qtest

import (
	"fmt"
	"strings"
)

// outputMarker separates SQL from the expected block in the gateway dialect.
const outputMarker = "!output"

// DetectDialect returns Gateway when some line of text, trimmed, is exactly
// `!output`, and Client otherwise (README of the Flink scripts, "Using this
// from a Go test runner").
func DetectDialect(text string) Dialect {
	for _, line := range splitLines(text) {
		if strings.TrimSpace(line) == outputMarker {
			return Gateway
		}
	}
	return Client
}

// splitLines cuts text into lines the way Java's BufferedReader.readLine
// does for "\n"-terminated text: a final "\n" does not start another line.
func splitLines(text string) []string {
	if text == "" {
		return nil
	}
	lines := strings.Split(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

type readState uint8

const (
	statePrefix readState = iota
	stateSQL
	stateExpected
)

// Parse reads a script whose placeholders are already substituted,
// reproducing Flink's SqlScriptReader: lines starting with '#' in column 0
// and blank lines before a statement are its prefix; the SQL follows; then
// the expected block up to the first line starting with '!', the tag.
//
// The SQL ends per dialect: in the client dialect at the first line whose
// trimmed text ends with ';' while the SQL so far is not inside an open
// literal, quoted identifier or comment; in the gateway dialect at the line
// `!output` (the marker is not SQL). Text after the last tag that holds only
// prefix lines is dropped, as Flink's reader does; an unfinished statement
// there is an error, since no expected answer closes it.
func Parse(text string) (*Script, error) {
	s := &Script{Dialect: DetectDialect(text)}
	var (
		state            = statePrefix
		prefix, sql, exp strings.Builder
		sqlLine          int
	)
	for i, line := range splitLines(text) {
		switch state {
		case statePrefix:
			if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
				prefix.WriteString(line + "\n")
				continue
			}
			state, sqlLine = stateSQL, i+1
			fallthrough
		case stateSQL:
			if s.Dialect == Gateway {
				if strings.TrimSpace(line) == outputMarker {
					state = stateExpected
					continue
				}
				sql.WriteString(line + "\n")
				continue
			}
			sql.WriteString(line + "\n")
			if strings.HasSuffix(strings.TrimSpace(line), ";") && !openAtEnd(strings.TrimSuffix(sql.String(), "\n")) {
				state = stateExpected
			}
		case stateExpected:
			if !strings.HasPrefix(line, "!") {
				exp.WriteString(line + "\n")
				continue
			}
			s.Records = append(s.Records, Record{
				Num:      len(s.Records) + 1,
				Line:     sqlLine,
				Prefix:   prefix.String(),
				SQL:      sql.String(),
				Expected: exp.String(),
				TagLine:  line,
			})
			prefix.Reset()
			sql.Reset()
			exp.Reset()
			state = statePrefix
		}
	}
	if state != statePrefix {
		return s, fmt.Errorf("line %d: statement #%d has no closing tag line", sqlLine, len(s.Records)+1)
	}
	return s, nil
}

// openAtEnd reports whether text ends inside a '...' string literal, a
// "..." or `...` quoted identifier, a /* */ comment or a -- comment. It is
// the statement-end rule of Flink's script reader (so `SELECT ';` / `';` in
// the client select.q is one statement), not eddy's statement splitter: the
// reader must cut records exactly as Flink's harness does even where eddy's
// lexer would disagree.
func openAtEnd(text string) bool {
	const (
		normal = iota
		single
		double
		back
		block
		line
	)
	st := normal
	for i := 0; i < len(text); i++ {
		c := text[i]
		next := byte(0)
		if i+1 < len(text) {
			next = text[i+1]
		}
		switch st {
		case normal:
			switch {
			case c == '\'':
				st = single
			case c == '"':
				st = double
			case c == '`':
				st = back
			case c == '/' && next == '*':
				st = block
				i++
			case c == '-' && next == '-':
				st = line
				i++
			}
		case single:
			if c == '\'' { // a doubled '' leaves and re-enters the literal
				st = normal
			}
		case double:
			if c == '"' {
				st = normal
			}
		case back:
			if c == '`' {
				st = normal
			}
		case block:
			if c == '*' && next == '/' {
				st = normal
				i++
			}
		case line:
			if c == '\n' {
				st = normal
			}
		}
	}
	return st != normal
}
