package validate

import (
	"strings"

	"eddy/engine/ast"
	"eddy/engine/types"
)

// Flink's legacy group windows, GROUP BY TUMBLE(ts, size), HOP(ts, slide,
// size) and SESSION(ts, gap) with their auxiliary functions
// TUMBLE_START, _END, _ROWTIME and _PROCTIME (HOP_ and SESSION_ alike),
// mean what a windowing table-valued function over the FROM table
// grouped by window_start and window_end means. groupWindow rewrites a
// SELECT of that form into the TVF form, which the rest of the validator
// knows.

// groupWindowKinds maps a group window function to its argument count.
var groupWindowKinds = map[string]int{"TUMBLE": 2, "HOP": 3, "SESSION": 2}

// groupWindow returns sel rewritten when it groups by a legacy group
// window over one table, with the table function it now reads; else sel
// itself and nil.
func groupWindow(sel *ast.Select) (*ast.Select, *ast.TableFunc) {
	idx, call := -1, (*ast.FuncCall)(nil)
	for i, g := range sel.GroupBy {
		if fc, ok := g.(*ast.FuncCall); ok && fc.Over == nil && len(fc.Name.Parts) == 1 {
			if n, ok := groupWindowKinds[strings.ToUpper(fc.Name.Parts[0].Name)]; ok && len(fc.Args) == n {
				idx, call = i, fc
				break
			}
		}
	}
	if call == nil {
		return sel, nil
	}
	from, ok := sel.From.(*ast.TableName)
	if !ok || from.SystemTime != nil {
		return sel, nil
	}
	timeCol, ok := call.Args[0].(*ast.Identifier)
	if !ok {
		return sel, nil
	}
	kind := strings.ToUpper(call.Name.Parts[0].Name)
	table := &ast.TableArg{Pos: from.Name.Position(), Name: from.Name}
	if kind == "SESSION" {
		// A session group window sessionizes each group of its other
		// keys apart: the session table function partitioned by them.
		for i, g := range sel.GroupBy {
			if i == idx {
				continue
			}
			id, ok := g.(*ast.Identifier)
			if !ok {
				return sel, nil // a computed key cannot partition the sessions
			}
			table.PartitionBy = append(table.PartitionBy, &ast.Identifier{Parts: id.Parts[len(id.Parts)-1:]})
		}
	}
	args := []ast.Expr{
		table,
		&ast.Descriptor{Pos: call.Pos, Cols: []*ast.Ident{timeCol.Parts[len(timeCol.Parts)-1]}},
	}
	args = append(args, call.Args[1:]...)
	out := *sel
	tf := &ast.TableFunc{Pos: call.Pos, Call: &ast.FuncCall{Pos: call.Pos,
		Name: &ast.ObjectName{Parts: []*ast.Ident{{Pos: call.Pos, Name: kind}}}, Args: args}, Alias: from.Alias}
	out.From = tf
	qualifier := func(name string) ast.Expr {
		if from.Alias != nil {
			return &ast.Identifier{Parts: []*ast.Ident{from.Alias.Name, {Pos: call.Pos, Name: name}}}
		}
		return &ast.Identifier{Parts: []*ast.Ident{{Pos: call.Pos, Name: name}}}
	}
	out.GroupBy = append([]ast.Expr{}, sel.GroupBy[:idx]...)
	out.GroupBy = append(out.GroupBy, qualifier("window_start"), qualifier("window_end"))
	out.GroupBy = append(out.GroupBy, sel.GroupBy[idx+1:]...)
	// The auxiliary functions become the window's columns; a select item
	// keeps the name Calcite gives the call (EXPR$ and its position).
	replaced, timed := 0, false
	aux := func(e ast.Expr) (ast.Expr, bool, error) {
		fc, ok := e.(*ast.FuncCall)
		if !ok || fc.Over != nil || len(fc.Name.Parts) != 1 || len(fc.Args) != len(call.Args) {
			return e, false, nil
		}
		name := strings.ToUpper(fc.Name.Parts[0].Name)
		if !strings.HasPrefix(name, kind+"_") {
			return e, false, nil
		}
		replaced++
		switch strings.TrimPrefix(name, kind+"_") {
		case "START":
			return &ast.Cast{Pos: fc.Pos, X: qualifier("window_start"), Type: types.NewTimestamp(3)}, true, nil
		case "END":
			return &ast.Cast{Pos: fc.Pos, X: qualifier("window_end"), Type: types.NewTimestamp(3)}, true, nil
		case "ROWTIME", "PROCTIME":
			timed = true
			return qualifier("window_time"), true, nil
		}
		replaced--
		return e, false, nil
	}
	out.Items = make([]*ast.SelectItem, len(sel.Items))
	for i, it := range sel.Items {
		before := replaced
		x, err := mapExpr(it.Expr, aux)
		if err != nil {
			return sel, nil
		}
		item := *it
		if replaced != before && item.Alias == nil {
			item.Alias = &ast.Ident{Pos: it.Expr.Position(), Name: "EXPR$" + itoa(i), Quoted: true}
		}
		item.Expr = x
		out.Items[i] = &item
	}
	if sel.Having != nil {
		h, err := mapExpr(sel.Having, aux)
		if err != nil {
			return sel, nil
		}
		out.Having = h
	}
	if timed {
		// window_time follows from the window; grouping by it too lets
		// the select list name it.
		out.GroupBy = append(out.GroupBy, qualifier("window_time"))
	}
	return &out, tf
}
