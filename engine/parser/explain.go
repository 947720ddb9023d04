package parser

import "eddy/engine/ast"

// explainDetails are the words of EXPLAIN's detail list.
var explainDetails = []string{"ESTIMATED_COST", "CHANGELOG_MODE", "PLAN_ADVICE", "JSON_EXECUTION_PLAN"}

// parseExplain reads EXPLAIN [PLAN FOR | detail [, detail]*] followed by a
// query, an INSERT, STATEMENT SET BEGIN ... END, or EXECUTE of one of them.
func (p *Parser) parseExplain() ast.Statement {
	s := &ast.Explain{Pos: p.expectKeyword("EXPLAIN").Pos}
	if p.acceptKeyword("PLAN", "FOR") {
		s.PlanFor = true
	} else if p.isExplainDetail() {
		for {
			t := p.next()
			for _, d := range s.Details {
				if d == t.Upper {
					// Flink's explainDetailIsDuplicate.
					p.errorf(t.Pos, "Duplicate EXPLAIN DETAIL is not allowed.")
				}
			}
			s.Details = append(s.Details, t.Upper)
			if !p.acceptOp(",") {
				break
			}
			if !p.isExplainDetail() {
				p.fail()
			}
		}
	}
	t := p.tok()
	switch {
	case t.Is("STATEMENT"):
		s.Stmt = p.parseStatementSet()
	case t.Is("INSERT"), t.Is("UPSERT"):
		s.Stmt = p.parseInsert()
	case t.Is("EXECUTE"):
		start := p.next().Pos
		if p.tok().Is("STATEMENT") {
			s.Stmt = &ast.Execute{Pos: start, Stmt: p.parseStatementSet()}
		} else if p.isKeyword("INSERT", "UPSERT") {
			s.Stmt = &ast.Execute{Pos: start, Stmt: p.parseInsert()}
		} else {
			s.Stmt = &ast.Execute{Pos: start, Stmt: p.parseQueryStatement()}
		}
	default:
		for _, kw := range []string{"EXECUTE", "INSERT", "STATEMENT", "UPSERT"} {
			p.expect(`"` + kw + `"`)
		}
		s.Stmt = p.parseQueryStatement()
	}
	return s
}

// isExplainDetail reports whether the current token is an EXPLAIN detail
// word followed by more of the statement.
func (p *Parser) isExplainDetail() bool {
	t := p.tok()
	for _, d := range explainDetails {
		if t.Is(d) {
			return true
		}
		p.expect(`"` + d + `"`)
	}
	return false
}
