package ast

import (
	"fmt"
	"strings"

	"eddy/engine/types"
)

// Pos is a position in a statement's text: a byte offset and a 1-based line
// and column (the column counts characters, as Flink's parser does).
type Pos struct {
	Offset int
	Line   int
	Col    int
}

// IsValid reports whether the position was set.
func (p Pos) IsValid() bool { return p.Line > 0 }

func (p Pos) String() string { return fmt.Sprintf("line %d, column %d", p.Line, p.Col) }

// Node is any syntax tree node.
type Node interface {
	// Position returns where the node starts.
	Position() Pos
	// Format prints the node as canonical Flink SQL.
	Format(p *Printer)
}

// Statement is a top-level statement.
type Statement interface {
	Node
	stmtNode()
}

// Expr is a scalar expression.
type Expr interface {
	Node
	exprNode()
}

// Printer accumulates formatted SQL. Nodes write through it so that
// indentation and quoting stay in one place.
type Printer struct {
	b      strings.Builder
	indent int
}

// String returns a node's canonical SQL text.
func String(n Node) string {
	var p Printer
	n.Format(&p)
	return p.b.String()
}

// Text returns what was printed so far.
func (p *Printer) Text() string { return p.b.String() }

// Write writes s unchanged.
func (p *Printer) Write(s string) { p.b.WriteString(s) }

// Writef writes a formatted string.
func (p *Printer) Writef(format string, args ...any) { fmt.Fprintf(&p.b, format, args...) }

// Keyword writes an SQL keyword (callers pass it upper-case).
func (p *Printer) Keyword(kw string) { p.b.WriteString(kw) }

// Ident writes a backtick-quoted identifier.
func (p *Printer) Ident(name string) { p.b.WriteString(types.QuoteIdent(name)) }

// String writes a single-quoted string literal, doubling quotes inside.
func (p *Printer) String(s string) {
	p.b.WriteByte('\'')
	p.b.WriteString(strings.ReplaceAll(s, "'", "''"))
	p.b.WriteByte('\'')
}

// Node formats a child node.
func (p *Printer) Node(n Node) { n.Format(p) }

// Indent increases the indentation used by Newline.
func (p *Printer) Indent() { p.indent++ }

// Dedent decreases the indentation used by Newline.
func (p *Printer) Dedent() { p.indent-- }

// Newline writes a line break followed by the current indentation (two
// spaces a level, as Flink's ShowCreateUtil and Calcite print).
func (p *Printer) Newline() {
	p.b.WriteByte('\n')
	for i := 0; i < p.indent; i++ {
		p.b.WriteString("  ")
	}
}

// Ident is an identifier as written: Quoted tells whether it was in backticks.
type Ident struct {
	Pos    Pos
	Name   string
	Quoted bool
}

func (i *Ident) Position() Pos     { return i.Pos }
func (i *Ident) Format(p *Printer) { p.Ident(i.Name) }

// ObjectName is a 1-, 2- or 3-part name: [catalog.][database.]object.
type ObjectName struct {
	Parts []*Ident
}

func (n *ObjectName) Position() Pos {
	if len(n.Parts) == 0 {
		return Pos{}
	}
	return n.Parts[0].Pos
}

func (n *ObjectName) Format(p *Printer) {
	for i, part := range n.Parts {
		if i > 0 {
			p.Write(".")
		}
		part.Format(p)
	}
}

// Names returns the parts as plain strings.
func (n *ObjectName) Names() []string {
	out := make([]string, len(n.Parts))
	for i, part := range n.Parts {
		out[i] = part.Name
	}
	return out
}

// Property is one 'key' = 'value' pair of a WITH (...) or SET (...) list.
type Property struct {
	Pos   Pos
	Key   string
	Value string
}

func (pr *Property) Position() Pos { return pr.Pos }
func (pr *Property) Format(p *Printer) {
	p.String(pr.Key)
	p.Write(" = ")
	p.String(pr.Value)
}

// Query is a query expression: SELECT, set operations, VALUES, WITH, or a
// parenthesised query. It may stand as a statement (see QueryStatement) or
// inside CREATE VIEW, INSERT, sub-queries and CTAS.
type Query interface {
	Node
	queryNode()
}
