package engine

import (
	"eddy/engine/parser"
	"eddy/engine/schema"
	"eddy/engine/validate"
)

// analyzer returns a query validator over the session's catalogs; source
// is the statement text. Queries, INSERTs and the queries of views (in
// engine/ddl) are all validated by it.
func (s *Session) analyzer(source string) *validate.Analyzer {
	return &validate.Analyzer{
		Funcs:        s.funcs,
		Catalogs:     s.cat,
		ParseQuery:   parser.ParseQuery,
		ParseExpr:    parser.ParseExpr,
		TableColumns: schema.Resolver{Funcs: s.funcs}.OutputColumns,
		Source:       source,
		Sources:      scanSources{s},
	}
}
