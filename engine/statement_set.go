package engine

import (
	"context"

	"eddy/engine/ast"
	"eddy/engine/sqlerr"
)

// statementSet holds the INSERTs typed between BEGIN STATEMENT SET and END;
// END runs them together (Flink's client-side statement set).
type statementSet struct {
	inserts []*ast.Insert
}

// errOnlyInserts is the gateway's answer to anything but INSERT (or CTAS)
// and END inside a statement set.
func errOnlyInserts() error {
	return Errorf(sqlerr.SqlExecutionException, "Only 'INSERT/CREATE TABLE AS' statement is allowed in Statement Set or use 'END' statement to submit Statement Set.")
}

func (s *Session) executeInStatementSet(ctx context.Context, stmt ast.Statement) (*Result, error) {
	switch st := stmt.(type) {
	case *ast.Insert:
		if _, err := s.cat.Qualify(st.Table.Names()...); err != nil {
			return nil, err
		}
		s.stmtSet.inserts = append(s.stmtSet.inserts, st)
		return Success(), nil
	case *ast.End:
		set := s.stmtSet
		s.stmtSet = nil
		if len(set.inserts) == 0 {
			return Success(), nil
		}
		return s.execStatementSetRun(ctx, &ast.StatementSet{Inserts: set.inserts})
	case *ast.CreateTable:
		if st.Query != nil {
			return nil, errOnlyInserts()
		}
	}
	return nil, errOnlyInserts()
}
