package engine

import (
	"context"
	"errors"

	"eddy/catalogs"
	"eddy/engine/ast"
	"eddy/engine/ddl"
	"eddy/engine/parser"
	"eddy/engine/sqlerr"
	"eddy/engine/validate"
)

// Table is a query of the Go API, validated against the session's
// catalogs when it was made (Flink's Table of Table API): names are
// already resolved, so registering it as a view later stores the same
// objects whatever the current catalog has become.
type Table struct {
	sql      string
	analyzed *validate.Analyzed
}

// Columns returns the query's output columns and their Flink types.
func (t *Table) Columns() []validate.OutputColumn {
	return append([]validate.OutputColumn(nil), t.analyzed.Columns...)
}

// Query returns the query text as given to SQLQuery.
func (t *Table) Query() string { return t.sql }

// ExpandedQuery returns the expanded query text: every name fully
// qualified, `*` replaced by the column list.
func (t *Table) ExpandedQuery() string { return t.analyzed.ExpandedText() }

// SQLQuery validates a single query (SELECT, VALUES, WITH, set
// operations) and returns it as a Table (Flink's TableEnvironment.sqlQuery).
func (s *Session) SQLQuery(ctx context.Context, sql string) (*Table, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	stmt, err := parser.Parse(sql)
	if err != nil {
		return nil, AsError(err)
	}
	qs, ok := stmt.(*ast.QueryStatement)
	if !ok {
		return nil, Errorf(sqlerr.ValidationException, "Unsupported SQL query! sqlQuery() only accepts a single SQL query.")
	}
	an, err := s.analyzer(sql).Query(ctx, qs.Query)
	if err != nil {
		return nil, AsError(err)
	}
	return &Table{sql: ast.String(qs.Query), analyzed: an}, nil
}

// CreateView registers t as a permanent view at path (a 1-, 2- or 3-part
// SQL name). An existing table or view of that name is an error, unless
// ignoreIfExists: then nothing changes and created is false.
func (s *Session) CreateView(ctx context.Context, path string, t *Table, ignoreIfExists bool) (created bool, err error) {
	return s.createViewFromTable(ctx, path, t, ignoreIfExists, false)
}

// CreateTemporaryView registers t as a temporary view at path, shadowing a
// permanent object of the same name for this session.
func (s *Session) CreateTemporaryView(ctx context.Context, path string, t *Table, ignoreIfExists bool) (created bool, err error) {
	return s.createViewFromTable(ctx, path, t, ignoreIfExists, true)
}

func (s *Session) createViewFromTable(ctx context.Context, path string, t *Table, ignoreIfExists, temporary bool) (bool, error) {
	if t == nil {
		return false, Errorf(sqlerr.ValidationException, "A view needs a query.")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.epoch++
	id, err := s.qualifyPath(path)
	if err != nil {
		return false, AsError(err)
	}
	v, err := ddl.ViewOf(t.analyzed, t.sql, nil)
	if err != nil {
		return false, AsError(err)
	}
	exists, err := s.existsFor(ctx, id, temporary)
	if err != nil {
		return false, AsError(err)
	}
	if temporary {
		err = s.cat.CreateTemporaryTable(ctx, id, v, ignoreIfExists)
	} else {
		err = s.cat.CreateTable(ctx, id, v, ignoreIfExists)
	}
	if err != nil {
		return false, AsError(err)
	}
	return !exists, nil
}

// existsFor reports whether creating id would meet an existing object: a
// temporary one for a temporary object, else a permanent one.
func (s *Session) existsFor(ctx context.Context, id catalogs.Identifier, temporary bool) (bool, error) {
	e, err := s.cat.GetTable(ctx, id)
	if errors.Is(err, catalogs.ErrTableNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if temporary {
		return e.Temporary, nil
	}
	if !e.Temporary {
		return true, nil
	}
	c, err := s.cat.Catalog(ctx, id.Catalog)
	if err != nil {
		return false, nil
	}
	_, err = c.GetTable(ctx, id.Path())
	return err == nil, nil
}
