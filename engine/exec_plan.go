package engine

import (
	"context"

	"eddy/engine/ast"
	"eddy/engine/parser"
	"eddy/engine/plan"
)

// planQuery validates a query and returns its logical plan, which the
// query validator (engine/validate) builds next to the expanded text.
func (s *Session) planQuery(ctx context.Context, q ast.Query) (plan.Node, error) {
	a := s.analyzer(s.sql)
	if a.ParseExpr == nil {
		a.ParseExpr = parser.ParseExpr
	}
	an, err := a.Query(ctx, q)
	if err != nil {
		return nil, err
	}
	if an.Plan == nil {
		if an.PlanErr != nil {
			return nil, an.PlanErr
		}
		return nil, Errorf("TableException", "Unsupported query: the local engine of eddy cannot plan it yet.")
	}
	return an.Plan, nil
}
