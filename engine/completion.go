package engine

import (
	"context"
	"sort"

	"eddy/catalogs"
	"eddy/conf"
)

// What the shell asks between statements: names for Tab completion, read
// live from the catalogs (an object created a moment ago is there), and
// whether an option was given a value. Failures give no names: completion
// offers nothing rather than an error. The name lookups pass ctx on to the
// catalogs, which give up when it ends; the shell bounds each Tab press
// with a short deadline, so a remote catalog cannot freeze the prompt.

// OptionIsSet reports whether key has a value of its own in the session —
// from SET, the configuration or a -D flag — rather than only a default.
func (s *Session) OptionIsSet(key string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.conf.set[key]; ok {
		return true
	}
	_, ok := s.conf.base[key]
	return ok
}

// OptionKeys returns the option keys eddy knows and those the session has
// values for, sorted.
func (s *Session) OptionKeys() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	seen := map[string]bool{}
	var keys []string
	add := func(k string) {
		if !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	for _, k := range s.conf.reg.Keys() {
		add(k)
	}
	for _, kv := range s.conf.list() {
		add(kv[0])
	}
	sort.Strings(keys)
	return keys
}

// OptionValues returns the values an option accepts when they form a
// short list (enumerations and booleans), else nil.
func (s *Session) OptionValues(key string) []string {
	o, ok := s.conf.reg.Lookup(key)
	if !ok {
		return nil
	}
	switch o.Type {
	case conf.TypeBool:
		return []string{"true", "false"}
	case conf.TypeEnum:
		return append([]string(nil), o.Values...)
	}
	return nil
}

// CatalogNames returns the registered catalogs, sorted.
func (s *Session) CatalogNames(ctx context.Context) []string {
	names, _ := s.cat.ListCatalogs(ctx, nil)
	return names
}

// DatabaseNames returns the databases of a catalog ("" is the current
// one), sorted.
func (s *Session) DatabaseNames(ctx context.Context, catalog string) []string {
	if catalog == "" {
		catalog = s.cat.CurrentCatalog()
	}
	names, _ := s.cat.ListDatabases(ctx, catalog, nil)
	return names
}

// ObjectNames returns the tables and views, temporary ones included, of a
// database ("" parts are the current catalog and database), sorted.
func (s *Session) ObjectNames(ctx context.Context, catalog, database string) []string {
	if catalog == "" {
		catalog = s.cat.CurrentCatalog()
	}
	if database == "" {
		database = s.cat.CurrentDatabase()
	}
	names, _ := s.cat.ListTables(ctx, catalog, database, nil)
	return names
}

// ColumnNames returns the column names of the table or view a one, two or
// three part name denotes, in schema order; nil when there is none.
func (s *Session) ColumnNames(ctx context.Context, name []string) []string {
	id := catalogs.Identifier{Catalog: s.cat.CurrentCatalog(), Database: s.cat.CurrentDatabase()}
	switch len(name) {
	case 1:
		id.Object = name[0]
	case 2:
		id.Database, id.Object = name[0], name[1]
	case 3:
		id.Catalog, id.Database, id.Object = name[0], name[1], name[2]
	default:
		return nil
	}
	e, err := s.cat.GetTable(ctx, id)
	if err != nil {
		return nil
	}
	var cols []catalogs.Column
	switch t := e.Table.(type) {
	case *catalogs.CatalogTable:
		cols = t.Schema.Columns
	case *catalogs.CatalogView:
		cols = t.Columns
	}
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c.Name
	}
	return out
}

// FunctionNames returns the built-in functions (lower case) and the user
// functions of the current database, sorted.
func (s *Session) FunctionNames(ctx context.Context) []string {
	names := s.funcs.Names()
	user, _ := s.cat.ListUserFunctions(ctx, s.cat.CurrentCatalog(), s.cat.CurrentDatabase(), nil)
	names = append(names, user...)
	sort.Strings(names)
	return names
}
