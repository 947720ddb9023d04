package parser

import (
	"strings"

	"eddy/engine/ast"
)

// parseMatchRecognize reads MATCH_RECOGNIZE (...) [AS] alias after the
// table reference input (Calcite's MatchRecognize production).
func (p *Parser) parseMatchRecognize(input ast.TableExpr) ast.TableExpr {
	p.enter()
	defer p.leave()
	t := p.next()
	m := &ast.MatchRecognize{Pos: t.Pos, Input: input}
	p.expectOp("(")
	if p.acceptKeyword("PARTITION") {
		p.expectKeyword("BY")
		m.PartitionBy = p.parseExprList()
	}
	if p.acceptKeyword("ORDER") {
		p.expectKeyword("BY")
		m.OrderBy = p.parseOrderItems()
	}
	if p.acceptKeyword("MEASURES") {
		for {
			m.Measures = append(m.Measures, p.parseMeasure())
			if !p.acceptOp(",") {
				break
			}
		}
	}
	switch {
	case p.acceptKeyword("ONE"):
		p.expectKeyword("ROW", "PER", "MATCH")
		m.RowsPerMatch = "ONE ROW PER MATCH"
	case p.acceptKeyword("ALL"):
		p.expectKeyword("ROWS", "PER", "MATCH")
		m.RowsPerMatch = "ALL ROWS PER MATCH"
	}
	if at := p.tok(); p.acceptKeyword("AFTER") {
		p.expectKeyword("MATCH", "SKIP")
		m.After = p.parseAfterMatch(at.Pos)
	}
	p.expectKeyword("PATTERN")
	p.expectOp("(")
	m.StartAnchor = p.acceptOp("^")
	m.Pattern = p.parsePatternAlt()
	if t := p.tok(); t.Kind == Ident && t.Text == "$" {
		p.next()
		m.EndAnchor = true
	}
	p.expectOp(")")
	if p.acceptKeyword("WITHIN") {
		if !p.isKeyword("INTERVAL") {
			p.expect(`"INTERVAL"`)
			p.fail()
		}
		m.Within = p.parseInterval()
	}
	if p.acceptKeyword("SUBSET") {
		for {
			s := &ast.MatchSubset{Name: p.parseIdent()}
			p.expectOp("=")
			s.Vars = p.parseParenIdents()
			m.Subsets = append(m.Subsets, s)
			if !p.acceptOp(",") {
				break
			}
		}
	}
	p.expectKeyword("DEFINE")
	for {
		d := &ast.MatchDefine{Var: p.parseIdent()}
		p.expectKeyword("AS")
		d.Cond = p.parseExpr()
		m.Defines = append(m.Defines, d)
		if !p.acceptOp(",") {
			break
		}
	}
	p.expectOp(")")
	m.Alias = p.parseAlias()
	return m
}

// parseMeasure reads [FINAL | RUNNING] expr AS name.
func (p *Parser) parseMeasure() *ast.MatchMeasure {
	ms := &ast.MatchMeasure{}
	if t := p.tok(); (t.Is("FINAL") || t.Is("RUNNING")) && !p.peek(1).IsOp(",") && !p.peek(1).Is("AS") {
		p.next()
		ms.Semantics = t.Upper
	}
	ms.Expr = p.parseExpr()
	p.expectKeyword("AS")
	ms.Alias = p.parseIdent()
	return ms
}

// parseAfterMatch reads what follows AFTER MATCH SKIP.
func (p *Parser) parseAfterMatch(pos ast.Pos) *ast.AfterMatch {
	a := &ast.AfterMatch{Pos: pos}
	if p.acceptKeyword("PAST") {
		p.expectKeyword("LAST", "ROW")
		a.Kind = "PAST LAST ROW"
		return a
	}
	p.expectKeyword("TO")
	switch {
	case p.isKeyword("NEXT") && p.peek(1).Is("ROW"):
		p.next()
		p.next()
		a.Kind = "TO NEXT ROW"
		return a
	case p.isKeyword("FIRST") && !p.peek(1).IsOp(")"):
		p.next()
		a.Kind = "TO FIRST"
	case p.isKeyword("LAST") && !p.peek(1).IsOp(")"):
		p.next()
		a.Kind = "TO LAST"
	default:
		// TO v is TO LAST v.
		a.Kind = "TO LAST"
	}
	a.Var = p.parseIdent()
	return a
}

// parsePatternAlt reads term | term | ....
func (p *Parser) parsePatternAlt() ast.PatternNode {
	p.enter()
	defer p.leave()
	first := p.parsePatternConcat()
	if !p.isOp("|") {
		return first
	}
	alt := &ast.PatternAlt{Items: []ast.PatternNode{first}}
	for p.acceptOp("|") {
		alt.Items = append(alt.Items, p.parsePatternConcat())
	}
	return alt
}

// parsePatternConcat reads a sequence of quantified factors.
func (p *Parser) parsePatternConcat() ast.PatternNode {
	items := []ast.PatternNode{p.parsePatternFactor()}
	for p.isPatternStart() {
		items = append(items, p.parsePatternFactor())
	}
	if len(items) == 1 {
		return items[0]
	}
	return &ast.PatternConcat{Items: items}
}

// isPatternStart reports whether the current token starts a pattern
// factor.
func (p *Parser) isPatternStart() bool {
	t := p.tok()
	switch t.Kind {
	case Ident:
		return t.Text != "$"
	case QIdent:
		return true
	case Op:
		return t.Text == "(" || t.Text == "{" && p.peek(1).IsOp("-")
	}
	return false
}

// parsePatternFactor reads a primary with an optional quantifier.
func (p *Parser) parsePatternFactor() ast.PatternNode {
	x := p.parsePatternPrimary()
	q := &ast.PatternQuant{X: x}
	switch t := p.tok(); {
	case t.IsOp("*"):
		p.next()
		q.Min, q.Max = 0, -1
	case t.IsOp("+"):
		p.next()
		q.Min, q.Max = 1, -1
	case t.Kind == Param:
		p.next()
		q.Min, q.Max = 0, 1
	case t.IsOp("{") && !p.peek(1).IsOp("-"):
		p.next()
		q.Min, q.Max = 0, -1
		if p.acceptOp(",") {
			q.Max = p.parseSmallInt()
		} else {
			q.Min = p.parseSmallInt()
			q.Max = q.Min
			if p.acceptOp(",") {
				q.Max = -1
				if !p.isOp("}") {
					q.Max = p.parseSmallInt()
				}
			}
		}
		p.expectOp("}")
		if q.Max != -1 && q.Max < q.Min {
			p.errorf(t.Pos, "Invalid quantifier: the upper bound %d is smaller than the lower bound %d", q.Max, q.Min)
		}
	default:
		return x
	}
	if p.tok().Kind == Param {
		p.next()
		q.Reluctant = true
	}
	return q
}

// parsePatternPrimary reads a variable, (pattern), {- pattern -} or
// PERMUTE (pattern, ...).
func (p *Parser) parsePatternPrimary() ast.PatternNode {
	p.enter()
	defer p.leave()
	t := p.tok()
	switch {
	case t.IsOp("("):
		p.next()
		g := &ast.PatternGroup{Pos: t.Pos, X: p.parsePatternAlt()}
		p.expectOp(")")
		return g
	case t.IsOp("{") && p.peek(1).IsOp("-"):
		p.next()
		p.next()
		e := &ast.PatternExclude{Pos: t.Pos, X: p.parsePatternAlt()}
		p.expectOp("-")
		p.expectOp("}")
		return e
	case t.Kind == Ident && strings.EqualFold(t.Text, "PERMUTE") && p.peek(1).IsOp("("):
		p.next()
		p.next()
		e := &ast.PatternPermute{Pos: t.Pos, Items: []ast.PatternNode{p.parsePatternAlt()}}
		for p.acceptOp(",") {
			e.Items = append(e.Items, p.parsePatternAlt())
		}
		p.expectOp(")")
		return e
	}
	return &ast.PatternVar{Name: p.parseIdent()}
}
