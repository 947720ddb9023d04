package engine

import (
	"context"

	"eddy/engine/ast"
	"eddy/engine/parser"
)

// execAnalyze runs ANALYZE TABLE: engine/ddl checks the statement as Flink
// does, then the table is read through, as Flink's statistics job reads
// it, so that a table that cannot be read fails the statement. Nothing
// stores statistics: eddy's planner reads none.
func (s *Session) execAnalyze(ctx context.Context, st *ast.AnalyzeTable) (*Result, error) {
	if _, err := s.ddl.Execute(ctx, st, s.sql); err != nil {
		return nil, err
	}
	id, err := s.cat.Qualify(st.Name.Names()...)
	if err != nil {
		return nil, err
	}
	q, err := parser.Parse("SELECT COUNT(*) FROM " + id.String())
	if err != nil {
		return nil, err
	}
	res, err := s.execute(ctx, q)
	if err != nil {
		return nil, err
	}
	defer res.Close()
	for {
		_, ok, err := res.Rows.Next(ctx)
		if err != nil {
			return nil, err
		}
		if !ok {
			return Success(), nil
		}
	}
}
