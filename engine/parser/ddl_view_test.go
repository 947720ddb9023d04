package parser

import (
	"testing"

	"eddy/engine/ast"
)

// TestQuerySpan checks that statements storing a query as written (views,
// CTAS) keep the exact text of the query, comments and layout included.
func TestQuerySpan(t *testing.T) {
	tests := []struct {
		sql, want string
	}{
		{"create view v as select a -- the a\n  from t;", "select a -- the a\n  from t"},
		{"CREATE TEMPORARY VIEW v (x) COMMENT 'c' AS (VALUES (1), (2))", "(VALUES (1), (2))"},
		{"create view `ü` as select 'ä' from t /* end */ ;", "select 'ä' from t"},
		{"alter view c.d.v as\n\tselect *\n\tfrom s", "select *\n\tfrom s"},
		{"create table t with ('connector' = 'x') as select 1 as a", "select 1 as a"},
	}
	for _, tt := range tests {
		stmt, err := Parse(tt.sql)
		if err != nil {
			t.Fatalf("%q: %v", tt.sql, err)
		}
		var span ast.Span
		switch s := stmt.(type) {
		case *ast.CreateView:
			span = s.QuerySpan
		case *ast.AlterViewAs:
			span = s.QuerySpan
		case *ast.CreateTable:
			span = s.QuerySpan
		default:
			t.Fatalf("%q: unexpected %T", tt.sql, stmt)
		}
		if got := span.Text(tt.sql); got != tt.want {
			t.Errorf("%q: query text %q, want %q", tt.sql, got, tt.want)
		}
	}
}
