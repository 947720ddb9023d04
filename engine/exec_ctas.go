package engine

import (
	"context"
	"errors"

	"eddy/catalogs"
	"eddy/engine/ast"
	"eddy/engine/sqlerr"
)

// execCreateTableQuery runs CREATE TABLE ... AS: a query fills the new
// table, so the session runs it (execCreateTableAs) rather than engine/ddl,
// which runs every other CREATE TABLE.
func (s *Session) execCreateTableQuery(ctx context.Context, st *ast.CreateTable) (*Result, error) {
	if st.Replace {
		return s.execReplaceTableAs(ctx, st)
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

// execReplaceTableAs runs [CREATE OR] REPLACE TABLE ... AS with Flink's
// rules: permanent tables only, no IF NOT EXISTS, REPLACE alone needs the
// table to exist. The query is validated before anything changes; then the
// old table is dropped and the new one created and filled, as Flink does
// on catalogs without staged tables. When creating or filling the new
// table fails, the old definition is put back.
func (s *Session) execReplaceTableAs(ctx context.Context, st *ast.CreateTable) (*Result, error) {
	syntax := "REPLACE TABLE AS SELECT"
	if st.OrReplace {
		syntax = "CREATE OR REPLACE TABLE AS SELECT"
	}
	if st.Temporary {
		return nil, Errorf(sqlerr.SqlValidateException, "%s syntax does not support temporary table yet.", syntax)
	}
	if st.IfNotExists {
		return nil, Errorf(sqlerr.SqlValidateException, "%s syntax does not support IF NOT EXISTS statements yet.", syntax)
	}
	id, err := s.cat.Qualify(st.Name.Names()...)
	if err != nil {
		return nil, err
	}
	if _, err := s.planQuery(ctx, st.Query); err != nil {
		return nil, err
	}
	old, err := s.cat.GetTable(ctx, id)
	exists := err == nil && !old.Temporary
	switch {
	case err != nil && !errors.Is(err, catalogs.ErrTableNotExist):
		return nil, err
	case exists && old.Table.TableKind() != catalogs.KindTable:
		return nil, Errorf(sqlerr.ValidationException, "Table with identifier '%s' does not exist.", id.SummaryString())
	case !exists && !st.OrReplace:
		return nil, Errorf(sqlerr.TableException, "The table %s to be replaced doesn't exist. You can try to use CREATE TABLE AS statement or CREATE OR REPLACE TABLE AS statement.", id)
	}
	if exists {
		if err := s.cat.DropTable(ctx, id, false); err != nil {
			return nil, err
		}
	}
	res, err := s.execCreateTableAs(ctx, st)
	if err != nil && exists {
		if rerr := s.cat.CreateTable(ctx, id, old.Table, true); rerr != nil {
			return nil, errors.Join(err, rerr)
		}
	}
	return res, err
}
