package gateway

import (
	"context"
	"sort"
	"strings"

	"eddy/engine/types"
)

// The methods below answer the shell's Tab completion in remote mode with
// the gateway's catalog objects, the same questions the local engine
// answers from its catalogs. Each one runs a SHOW or DESCRIBE statement on
// the gateway; while a statement is running they answer nothing rather
// than wait for it.

// CatalogNames returns the gateway session's catalogs, sorted.
func (s *Session) CatalogNames(ctx context.Context) []string {
	return s.names(ctx, "SHOW CATALOGS")
}

// DatabaseNames returns the databases of a catalog ("" is the current one),
// sorted.
func (s *Session) DatabaseNames(ctx context.Context, catalog string) []string {
	stmt := "SHOW DATABASES"
	if catalog != "" {
		stmt += " FROM " + types.QuoteIdent(catalog)
	}
	return s.names(ctx, stmt)
}

// ObjectNames returns the tables and views of a database ("" parts are the
// current catalog and database), sorted.
func (s *Session) ObjectNames(ctx context.Context, catalog, database string) []string {
	stmt := "SHOW TABLES"
	switch {
	case catalog != "" && database != "":
		stmt += " FROM " + types.QuoteIdent(catalog) + "." + types.QuoteIdent(database)
	case database != "":
		stmt += " FROM " + types.QuoteIdent(database)
	case catalog != "":
		cur, _ := s.Prompt()
		if catalog != cur {
			return nil // SHOW TABLES needs the database of another catalog
		}
	}
	// SHOW TABLES lists views too.
	return s.names(ctx, stmt)
}

// ColumnNames returns the column names of the table or view a one, two or
// three part name denotes, in schema order; nil when there is none.
func (s *Session) ColumnNames(ctx context.Context, name []string) []string {
	if len(name) == 0 || len(name) > 3 {
		return nil
	}
	parts := make([]string, len(name))
	for i, n := range name {
		parts[i] = types.QuoteIdent(n)
	}
	return s.names(ctx, "DESCRIBE "+strings.Join(parts, "."))
}

// FunctionNames returns the built-in and user functions, sorted.
func (s *Session) FunctionNames(ctx context.Context) []string {
	return s.names(ctx, "SHOW FUNCTIONS")
}

// OptionKeys returns the keys of the session's configuration, sorted.
func (s *Session) OptionKeys() []string {
	s.mu.Lock()
	keys := make([]string, 0, len(s.props))
	for k := range s.props {
		keys = append(keys, k)
	}
	s.mu.Unlock()
	sort.Strings(keys)
	return keys
}

// OptionValues returns the known values of a key: none in remote mode,
// where the gateway validates options.
func (s *Session) OptionValues(string) []string { return nil }

// names runs a listing statement and returns the string values of its
// first column, in the gateway's order (DESCRIBE) or sorted (SHOW). It
// returns nil on any failure or when a statement is running.
func (s *Session) names(ctx context.Context, stmt string) []string {
	if !s.exec.TryLock() {
		return nil
	}
	defer s.exec.Unlock()
	res, err := s.run(ctx, stmt)
	if err != nil {
		return nil
	}
	defer res.Close()
	if res.Rows == nil {
		return nil
	}
	var out []string
	for {
		row, ok, err := res.Rows.Next(ctx)
		if err != nil {
			return nil
		}
		if !ok {
			break
		}
		if len(row.Values) > 0 {
			if v, ok := row.Values[0].(string); ok {
				out = append(out, v)
			}
		}
	}
	if !strings.HasPrefix(stmt, "DESCRIBE") {
		sort.Strings(out)
	}
	return out
}
