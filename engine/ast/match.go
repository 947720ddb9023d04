package ast

import "strconv"

// MatchRecognize is input MATCH_RECOGNIZE (...) [AS] alias: row pattern
// recognition over a table reference (Calcite's SqlMatchRecognize).
type MatchRecognize struct {
	Pos         Pos
	Input       TableExpr
	PartitionBy []Expr
	OrderBy     []*OrderItem
	Measures    []*MatchMeasure
	// RowsPerMatch is "", "ONE ROW PER MATCH" or "ALL ROWS PER MATCH".
	RowsPerMatch string
	After        *AfterMatch // or nil
	StartAnchor  bool        // PATTERN (^ ...)
	EndAnchor    bool        // PATTERN (... $)
	Pattern      PatternNode
	Within       Expr // an interval; or nil
	Subsets      []*MatchSubset
	Defines      []*MatchDefine
	Alias        *Alias // or nil
}

var _ TableExpr = (*MatchRecognize)(nil)

func (m *MatchRecognize) Position() Pos { return m.Pos }
func (*MatchRecognize) tableNode()      {}
func (m *MatchRecognize) Format(p *Printer) {
	m.Input.Format(p)
	p.Keyword(" MATCH_RECOGNIZE (")
	p.Newline()
	if len(m.PartitionBy) > 0 {
		p.Keyword("PARTITION BY ")
		exprList(p, m.PartitionBy)
		p.Newline()
	}
	if len(m.OrderBy) > 0 {
		p.Keyword("ORDER BY ")
		orderList(p, m.OrderBy)
		p.Newline()
	}
	if len(m.Measures) > 0 {
		p.Keyword("MEASURES ")
		formatJoined(p, m.Measures, ", ")
		p.Newline()
	}
	if m.RowsPerMatch != "" {
		p.Keyword(m.RowsPerMatch)
		p.Newline()
	}
	if m.After != nil {
		m.After.Format(p)
		p.Newline()
	}
	p.Keyword("PATTERN (")
	if m.StartAnchor {
		p.Write("^ ")
	}
	m.Pattern.Format(p)
	if m.EndAnchor {
		p.Write(" $")
	}
	p.Write(")")
	if m.Within != nil {
		p.Keyword(" WITHIN ")
		m.Within.Format(p)
	}
	p.Newline()
	if len(m.Subsets) > 0 {
		p.Keyword("SUBSET ")
		formatJoined(p, m.Subsets, ", ")
		p.Newline()
	}
	p.Keyword("DEFINE ")
	formatJoined(p, m.Defines, ", ")
	p.Newline()
	p.Write(")")
	formatAlias(p, m.Alias)
}

// MatchMeasure is one `[FINAL | RUNNING] expr AS name` of MEASURES.
type MatchMeasure struct {
	Semantics string // "", "FINAL" or "RUNNING"
	Expr      Expr
	Alias     *Ident
}

func (m *MatchMeasure) Position() Pos { return m.Expr.Position() }
func (m *MatchMeasure) Format(p *Printer) {
	if m.Semantics != "" {
		p.Keyword(m.Semantics + " ")
	}
	m.Expr.Format(p)
	p.Keyword(" AS ")
	m.Alias.Format(p)
}

// AfterMatch is AFTER MATCH SKIP PAST LAST ROW | TO NEXT ROW | TO FIRST v
// | TO LAST v (TO v is TO LAST v).
type AfterMatch struct {
	Pos  Pos
	Kind string // "PAST LAST ROW", "TO NEXT ROW", "TO FIRST", "TO LAST"
	Var  *Ident // TO FIRST / TO LAST; or nil
}

func (a *AfterMatch) Position() Pos { return a.Pos }
func (a *AfterMatch) Format(p *Printer) {
	p.Keyword("AFTER MATCH SKIP " + a.Kind)
	if a.Var != nil {
		p.Write(" ")
		a.Var.Format(p)
	}
}

// MatchSubset is one `name = (v, ...)` of SUBSET.
type MatchSubset struct {
	Name *Ident
	Vars []*Ident
}

func (s *MatchSubset) Position() Pos { return s.Name.Pos }
func (s *MatchSubset) Format(p *Printer) {
	s.Name.Format(p)
	p.Write(" = ")
	identList(p, s.Vars)
}

// MatchDefine is one `v AS condition` of DEFINE.
type MatchDefine struct {
	Var  *Ident
	Cond Expr
}

func (d *MatchDefine) Position() Pos { return d.Var.Pos }
func (d *MatchDefine) Format(p *Printer) {
	d.Var.Format(p)
	p.Keyword(" AS ")
	d.Cond.Format(p)
}

// PatternNode is a row pattern term: a variable, a concatenation, an
// alternation, a quantified term, a group, PERMUTE or an exclusion.
type PatternNode interface {
	Node
	patternNode()
}

// PatternVar is a pattern variable.
type PatternVar struct {
	Name *Ident
}

func (v *PatternVar) Position() Pos     { return v.Name.Pos }
func (*PatternVar) patternNode()        {}
func (v *PatternVar) Format(p *Printer) { v.Name.Format(p) }

// PatternConcat is a sequence of terms (strict contiguity).
type PatternConcat struct {
	Items []PatternNode
}

func (c *PatternConcat) Position() Pos { return c.Items[0].Position() }
func (*PatternConcat) patternNode()    {}
func (c *PatternConcat) Format(p *Printer) {
	for i, it := range c.Items {
		if i > 0 {
			p.Write(" ")
		}
		if _, alt := it.(*PatternAlt); alt {
			p.Write("(")
			it.Format(p)
			p.Write(")")
			continue
		}
		it.Format(p)
	}
}

// PatternAlt is an alternation a | b | ....
type PatternAlt struct {
	Items []PatternNode
}

func (a *PatternAlt) Position() Pos { return a.Items[0].Position() }
func (*PatternAlt) patternNode()    {}
func (a *PatternAlt) Format(p *Printer) {
	formatJoined(p, a.Items, " | ")
}

// PatternGroup is a parenthesised term.
type PatternGroup struct {
	Pos Pos
	X   PatternNode
}

func (g *PatternGroup) Position() Pos { return g.Pos }
func (*PatternGroup) patternNode()    {}
func (g *PatternGroup) Format(p *Printer) {
	p.Write("(")
	g.X.Format(p)
	p.Write(")")
}

// PatternQuant is a quantified term: Min to Max rows (Max -1: no upper
// bound); Reluctant for a trailing '?'.
type PatternQuant struct {
	X         PatternNode
	Min, Max  int
	Reluctant bool
}

func (q *PatternQuant) Position() Pos { return q.X.Position() }
func (*PatternQuant) patternNode()    {}
func (q *PatternQuant) Format(p *Printer) {
	switch q.X.(type) {
	case *PatternConcat, *PatternAlt, *PatternQuant:
		p.Write("(")
		q.X.Format(p)
		p.Write(")")
	default:
		q.X.Format(p)
	}
	switch {
	case q.Min == 0 && q.Max == -1:
		p.Write("*")
	case q.Min == 1 && q.Max == -1:
		p.Write("+")
	case q.Min == 0 && q.Max == 1:
		p.Write("?")
	case q.Max == -1:
		p.Write("{ " + strconv.Itoa(q.Min) + ", }")
	case q.Min == q.Max:
		p.Write("{ " + strconv.Itoa(q.Min) + " }")
	default:
		p.Write("{ " + strconv.Itoa(q.Min) + ", " + strconv.Itoa(q.Max) + " }")
	}
	if q.Reluctant {
		p.Write("?")
	}
}

// PatternPermute is PERMUTE (a, b, ...).
type PatternPermute struct {
	Pos   Pos
	Items []PatternNode
}

func (e *PatternPermute) Position() Pos { return e.Pos }
func (*PatternPermute) patternNode()    {}
func (e *PatternPermute) Format(p *Printer) {
	p.Keyword("PERMUTE(")
	formatJoined(p, e.Items, ", ")
	p.Write(")")
}

// PatternExclude is {- term -}.
type PatternExclude struct {
	Pos Pos
	X   PatternNode
}

func (e *PatternExclude) Position() Pos { return e.Pos }
func (*PatternExclude) patternNode()    {}
func (e *PatternExclude) Format(p *Printer) {
	p.Write("{- ")
	e.X.Format(p)
	p.Write(" -}")
}

// formatJoined formats items one after the other with sep between them.
func formatJoined[T interface{ Format(*Printer) }](p *Printer, items []T, sep string) {
	for i, it := range items {
		if i > 0 {
			p.Write(sep)
		}
		it.Format(p)
	}
}
