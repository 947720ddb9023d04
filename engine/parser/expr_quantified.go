package parser

import (
	"strings"

	"eddy/engine/ast"
)

// isQuantifier reports whether the current token starts the right side of
// a quantified comparison: SOME | ANY | ALL followed by '('.
func (p *Parser) isQuantifier() bool {
	t := p.tok()
	return t.Kind == Ident && (t.Upper == "SOME" || t.Upper == "ANY" || t.Upper == "ALL") && p.peek(1).IsOp("(")
}

// parseQuantified reads SOME | ANY | ALL (query) or (value, ...) after the
// comparison operator op; ANY is Calcite's synonym of SOME.
func (p *Parser) parseQuantified(left ast.Expr, op string) ast.Expr {
	p.enter()
	defer p.leave()
	q := p.next()
	e := &ast.QuantifiedExpr{Pos: left.Position(), X: left, Op: op, Quantifier: q.Upper}
	if q.Upper == "ANY" {
		e.Quantifier = "SOME"
	}
	if p.isQueryStart(1) {
		p.next()
		e.Query = p.parseQuery()
		p.expectOp(")")
		return e
	}
	if p.peek(1).IsOp("(") {
		m := p.mark()
		var sub ast.Query
		if p.try(func() {
			p.next()
			sub = p.parseQuery()
			p.expectOp(")")
		}) {
			e.Query = sub
			return e
		}
		p.reset(m)
	}
	p.expectOp("(")
	e.List = p.parseExprList()
	p.expectOp(")")
	return e
}

// timestampUnits maps the time units TIMESTAMPADD and TIMESTAMPDIFF take
// (Calcite's TimestampInterval) to their standard names.
var timestampUnits = map[string]ast.TimeUnit{
	"NANOSECOND": "NANOSECOND", "SQL_TSI_FRAC_SECOND": "NANOSECOND",
	"MICROSECOND": "MICROSECOND", "SQL_TSI_MICROSECOND": "MICROSECOND", "FRAC_SECOND": "MICROSECOND",
	"SECOND": "SECOND", "SQL_TSI_SECOND": "SECOND",
	"MINUTE": "MINUTE", "SQL_TSI_MINUTE": "MINUTE",
	"HOUR": "HOUR", "SQL_TSI_HOUR": "HOUR",
	"DAY": "DAY", "SQL_TSI_DAY": "DAY",
	"WEEK": "WEEK", "SQL_TSI_WEEK": "WEEK",
	"MONTH": "MONTH", "SQL_TSI_MONTH": "MONTH",
	"QUARTER": "QUARTER", "SQL_TSI_QUARTER": "QUARTER",
	"YEAR": "YEAR", "SQL_TSI_YEAR": "YEAR",
}

// timestampUnit reports the time unit that opens the arguments of
// TIMESTAMPADD or TIMESTAMPDIFF, if the call is one and the unit is there.
func (p *Parser) timestampUnit(name *ast.ObjectName) (ast.TimeUnit, bool) {
	if len(name.Parts) != 1 || name.Parts[0].Quoted {
		return "", false
	}
	switch strings.ToUpper(name.Parts[0].Name) {
	case "TIMESTAMPADD", "TIMESTAMPDIFF":
	default:
		return "", false
	}
	t := p.tok()
	if t.Kind != Ident {
		return "", false
	}
	u, ok := timestampUnits[strings.ToUpper(t.Text)]
	return u, ok && p.peek(1).IsOp(",")
}
