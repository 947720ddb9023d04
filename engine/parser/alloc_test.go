package parser

import (
	"testing"

	"eddy/engine/ast"
)

// TestSlabNodesNotShared checks that trees whose nodes come from the same
// pooled slabs stay independent: growing one call's arguments or one
// SELECT's items in place must leave the other tree as it was parsed.
func TestSlabNodesNotShared(t *testing.T) {
	const sql = "SELECT f(a, b), c FROM t /*+ OPTIONS('k'='v') */ ORDER BY c"
	var trees []ast.Statement
	for range 3 {
		stmt, err := Parse(sql)
		if err != nil {
			t.Fatal(err)
		}
		trees = append(trees, stmt)
	}
	want := ast.String(trees[1])
	sel := trees[0].(*ast.QueryStatement).Query.(*ast.OrderedQuery).Query.(*ast.Select)
	call := sel.Items[0].Expr.(*ast.FuncCall)
	call.Args = append(call.Args, &ast.Literal{Kind: ast.LitInteger, Value: "1"})
	sel.Items = append(sel.Items, &ast.SelectItem{Expr: &ast.Literal{Kind: ast.LitInteger, Value: "2"}})
	for _, other := range trees[1:] {
		if got := ast.String(other); got != want {
			t.Fatalf("a tree changed with another:\n got %s\nwant %s", got, want)
		}
	}
	if got := ast.String(trees[0]); got == want {
		t.Fatalf("the edited tree did not change: %s", got)
	}
}
