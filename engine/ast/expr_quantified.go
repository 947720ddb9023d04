package ast

// TimeUnitArg is the time unit written as the first argument of
// TIMESTAMPADD and TIMESTAMPDIFF (YEAR, QUARTER, MONTH, WEEK, DAY, HOUR,
// MINUTE, SECOND, ...). The SQL_TSI_ synonyms are stored under their
// standard name, as Calcite does, so the canonical text prints DAY for
// SQL_TSI_DAY.
type TimeUnitArg struct {
	Pos  Pos
	Unit TimeUnit
}

var _ Expr = (*TimeUnitArg)(nil)

func (e *TimeUnitArg) Position() Pos     { return e.Pos }
func (*TimeUnitArg) exprNode()           {}
func (e *TimeUnitArg) Format(p *Printer) { p.Keyword(string(e.Unit)) }

// QuantifiedExpr is a quantified comparison: X op SOME | ALL (query) or
// X op SOME | ALL (value, ...). ANY is stored as SOME, as Calcite does.
type QuantifiedExpr struct {
	Pos        Pos
	X          Expr
	Op         string // =, <>, <, <=, >, >=
	Quantifier string // SOME or ALL
	Query      Query  // or nil when List is set
	List       []Expr
}

var _ Expr = (*QuantifiedExpr)(nil)

func (e *QuantifiedExpr) Position() Pos { return e.Pos }
func (*QuantifiedExpr) exprNode()       {}
func (e *QuantifiedExpr) Format(p *Printer) {
	operand(p, e.X, PrecCompare)
	p.Write(" " + e.Op + " ")
	p.Keyword(e.Quantifier)
	p.Write(" (")
	if e.Query != nil {
		e.Query.Format(p)
	} else {
		exprList(p, e.List)
	}
	p.Write(")")
}

// ExplicitTable is the query TABLE name, which stands for SELECT * FROM
// name.
type ExplicitTable struct {
	Pos  Pos
	Name *ObjectName
}

var _ Query = (*ExplicitTable)(nil)

func (q *ExplicitTable) Position() Pos { return q.Pos }
func (*ExplicitTable) queryNode()      {}
func (q *ExplicitTable) Format(p *Printer) {
	p.Keyword("TABLE ")
	q.Name.Format(p)
}
