package validate

import (
	"strings"

	"eddy/engine/ast"
	"eddy/engine/types"
)

// windowTVFs lists the parameters of Flink's window table-valued
// functions after DATA and TIMECOL, in order; the last ones are optional.
var windowTVFs = map[string]struct {
	params   []string
	required int
	usage    string
}{
	"TUMBLE":   {[]string{"SIZE", "OFFSET"}, 1, "TUMBLE(TABLE table_name, DESCRIPTOR(timecol), datetime interval[, datetime interval])"},
	"HOP":      {[]string{"SLIDE", "SIZE", "OFFSET"}, 2, "HOP(TABLE table_name, DESCRIPTOR(timecol), datetime interval, datetime interval[, datetime interval])"},
	"CUMULATE": {[]string{"STEP", "SIZE", "OFFSET"}, 2, "CUMULATE(TABLE table_name, DESCRIPTOR(timecol), datetime interval, datetime interval[, datetime interval])"},
	"SESSION":  {[]string{"GAP"}, 1, "SESSION(TABLE table_name [PARTITION BY (keycols, ...)], DESCRIPTOR(timecol), datetime interval)"},
}

// tableFunc validates TABLE(call) in FROM. Window TVFs give the input's
// columns plus window_start, window_end and window_time; other table
// functions are not built in.
func (s *state) tableFunc(t *ast.TableFunc, qs *qscope) (ast.TableExpr, error) {
	call, ok := t.Call.(*ast.FuncCall)
	if !ok {
		return nil, errorf(t.Pos, ErrNotSupported, "TABLE(...) needs a table function call")
	}
	name := ""
	if len(call.Name.Parts) == 1 {
		name = strings.ToUpper(call.Name.Parts[0].Name)
	}
	spec, ok := windowTVFs[name]
	if !ok {
		typed, err := s.typeExpr(qs, call, clauseFrom)
		if err != nil {
			return nil, err
		}
		return nil, errorf(call.Pos, ErrNotSupported, "%s is not a table function (it returns %s)", ast.String(call.Name), typed.Type)
	}
	// Bind the arguments, positional or named (DATA => ..., TIMECOL => ...).
	params := append([]string{"DATA", "TIMECOL"}, spec.params...)
	bound := map[string]ast.Expr{}
	for i, a := range call.Args {
		if na, ok := a.(*ast.NamedArg); ok {
			bound[strings.ToUpper(na.Name.Name)] = na.Value
			continue
		}
		if i >= len(params) {
			return nil, errorf(a.Position(), ErrArgCount, "Invalid number of arguments to function '%s'. Was expecting %d arguments", name, len(params))
		}
		bound[params[i]] = a
	}
	for _, p := range params[:2+spec.required] {
		if bound[p] == nil {
			return nil, errorf(call.Pos, ErrArgCount, "Invalid number of arguments to function '%s'. Was expecting %d arguments", name, 2+spec.required)
		}
	}
	data, ok := bound["DATA"].(*ast.TableArg)
	if !ok {
		return nil, errorf(bound["DATA"].Position(), ErrCannotApply, "The first argument of %s must be a table: %s", name, spec.usage)
	}
	desc, ok := bound["TIMECOL"].(*ast.Descriptor)
	if !ok || len(desc.Cols) != 1 {
		return nil, errorf(bound["TIMECOL"].Position(), ErrCannotApply, "The second argument of %s must be DESCRIPTOR(timecol): %s", name, spec.usage)
	}
	// The input table, in a scope of its own.
	in := &qscope{parent: qs.parent}
	inExpr, err := s.from(&ast.TableName{Name: data.Name}, in)
	if err != nil {
		return nil, err
	}
	rel := in.rels[0]
	outArg := &ast.TableArg{Pos: data.Pos, Name: inExpr.(*ast.TableName).Name}
	for _, p := range data.PartitionBy {
		x, err := s.typeExpr(in, p, clauseFrom)
		if err != nil {
			return nil, err
		}
		outArg.PartitionBy = append(outArg.PartitionBy, x.Expr)
	}
	tc := desc.Cols[0]
	i := rel.index(tc.Name)
	if i < 0 {
		return nil, errorf(tc.Pos, ErrColumnNotFound, "Unknown identifier '%s'", tc.Name)
	}
	timeType := rel.cols[i].Type
	if timeType.TimeAttr == types.Regular {
		return nil, errorf(tc.Pos, ErrCannotApply,
			"The window function %s requires the timecol to be a time attribute type, but is %s.", spec.usage, timeType)
	}
	args := []ast.Expr{outArg, &ast.Descriptor{Pos: desc.Pos, Cols: []*ast.Ident{quoted(tc)}}}
	for _, p := range spec.params {
		a := bound[p]
		if a == nil {
			continue
		}
		x, err := s.typeExpr(qs, a, clauseFrom)
		if err != nil {
			return nil, err
		}
		if x.Type.Kind != types.IntervalDayTime && x.Type.Kind != types.IntervalYearMonth {
			return nil, errorf(a.Position(), ErrCannotApply, "%s: the %s must be an interval, but is %s", spec.usage, strings.ToLower(p), x.Type)
		}
		args = append(args, x.Expr)
	}
	cols := append([]OutputColumn(nil), rel.cols...)
	bound3 := types.NewTimestamp(3).WithNullable(false)
	wt := types.NewTimestamp(3).WithNullable(false).WithTimeAttr(types.Rowtime)
	switch {
	case timeType.TimeAttr == types.Proctime:
		wt = types.NewTimestampLTZ(3).WithNullable(false).WithTimeAttr(types.Proctime)
	case timeType.Kind == types.TimestampLTZ:
		wt = types.NewTimestampLTZ(3).WithNullable(false).WithTimeAttr(types.Rowtime)
	}
	cols = append(cols,
		OutputColumn{Name: "window_start", Type: bound3},
		OutputColumn{Name: "window_end", Type: bound3},
		OutputColumn{Name: "window_time", Type: wt})
	outCall := &ast.FuncCall{Pos: call.Pos, Name: &ast.ObjectName{Parts: []*ast.Ident{{Pos: call.Pos, Name: name}}}, Args: args}
	alias, err := s.addRelation(qs, t.Alias, "", cols, t.Pos)
	if err != nil {
		return nil, err
	}
	return &ast.TableFunc{Pos: t.Pos, Lateral: t.Lateral, Call: outCall, Alias: alias}, nil
}
