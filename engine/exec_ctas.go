package engine

import (
	"context"

	"eddy/engine/ast"
)

// execCreateTableQuery runs CREATE TABLE ... AS: a query fills the new
// table, so the session runs it (execCreateTableAs) rather than engine/ddl,
// which runs every other CREATE TABLE.
func (s *Session) execCreateTableQuery(ctx context.Context, st *ast.CreateTable) (*Result, error) {
	if st.Replace {
		return nil, unsupported(st)
	}
	id, err := s.cat.Qualify(st.Name.Names()...)
	if err != nil {
		return nil, err
	}
	// CREATE TABLE IF NOT EXISTS ... AS on an existing table does
	// nothing: its rows are neither replaced nor added to.
	if st.IfNotExists {
		if ok, err := s.cat.TableExists(ctx, id); err != nil {
			return nil, err
		} else if ok {
			return Success(), nil
		}
	}
	return s.execCreateTableAs(ctx, st)
}
