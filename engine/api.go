package engine

import (
	"context"
	"maps"
	"slices"

	"eddy/catalogs"
	"eddy/engine/ast"
	"eddy/engine/ddl"
	"eddy/engine/parser"
	"eddy/engine/sqlerr"
)

// TableDescriptor describes a table for the Go API, as Flink's
// TableDescriptor does for the Table API: a connector, a schema, options,
// and optional comment, partition keys and distribution.
type TableDescriptor struct {
	Connector     string // stored as the 'connector' option
	Schema        catalogs.Schema
	Options       map[string]string
	Comment       string
	PartitionKeys []string
	Distribution  *catalogs.Distribution
}

// CreateTable registers a permanent table at path (a 1-, 2- or 3-part SQL
// name such as "db.orders" or "`my cat`.db.t"). With ignoreIfExists an
// existing object is left alone and created is false.
func (s *Session) CreateTable(ctx context.Context, path string, d TableDescriptor, ignoreIfExists bool) (created bool, err error) {
	return s.createFromDescriptor(ctx, path, d, ignoreIfExists, false)
}

// CreateTemporaryTable registers a temporary table at path, shadowing a
// permanent one of the same name for this session.
func (s *Session) CreateTemporaryTable(ctx context.Context, path string, d TableDescriptor, ignoreIfExists bool) (created bool, err error) {
	return s.createFromDescriptor(ctx, path, d, ignoreIfExists, true)
}

func (s *Session) createFromDescriptor(ctx context.Context, path string, d TableDescriptor, ignoreIfExists, temporary bool) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.epoch++
	id, err := s.qualifyPath(path)
	if err != nil {
		return false, AsError(err)
	}
	t := &catalogs.CatalogTable{
		Schema:        d.Schema.Copy(),
		PartitionKeys: d.PartitionKeys,
		Distribution:  d.Distribution,
		Options:       maps.Clone(d.Options),
		Comment:       d.Comment,
	}
	if d.Connector != "" {
		if t.Options == nil {
			t.Options = map[string]string{}
		}
		t.Options["connector"] = d.Connector
	}
	if pk := t.Schema.PrimaryKey; pk != nil && pk.Name == "" {
		pk.Name = ddl.DefaultPKName(pk.Columns)
	}
	if err := s.ddl.CheckTable(t); err != nil {
		return false, AsError(err)
	}
	exists, err := s.objectExists(ctx, id, temporary)
	if err != nil {
		return false, AsError(err)
	}
	if temporary {
		err = s.cat.CreateTemporaryTable(ctx, id, t, ignoreIfExists)
	} else {
		err = s.cat.CreateTable(ctx, id, t, ignoreIfExists)
	}
	if err != nil {
		return false, AsError(err)
	}
	return !exists, nil
}

// objectExists reports whether a temporary (or permanent) table or view
// exists at id, ignoring the other kind that may shadow or be shadowed.
func (s *Session) objectExists(ctx context.Context, id catalogs.Identifier, temporary bool) (bool, error) {
	if temporary {
		return slices.Contains(s.cat.ListTemporaryTables(), id), nil
	}
	c, err := s.cat.Catalog(ctx, id.Catalog)
	if err != nil {
		return false, err
	}
	return c.TableExists(ctx, id.Path())
}

// qualifyPath parses a SQL object name and qualifies it.
func (s *Session) qualifyPath(path string) (catalogs.Identifier, error) {
	e, err := parser.ParseExpr(path)
	if err != nil {
		return catalogs.Identifier{}, err
	}
	id, ok := e.(*ast.Identifier)
	if !ok {
		return catalogs.Identifier{}, Errorf(sqlerr.ValidationException, "Invalid object path '%s'.", path)
	}
	names := make([]string, len(id.Parts))
	for i, p := range id.Parts {
		names[i] = p.Name
	}
	return s.cat.Qualify(names...)
}
