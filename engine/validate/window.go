package validate

import (
	"strings"

	"eddy/engine/ast"
	"eddy/engine/functions"
	"eddy/engine/plan"
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
func (s *state) tableFunc(t *ast.TableFunc, qs *qscope) (ast.TableExpr, plan.Node, error) {
	call, ok := t.Call.(*ast.FuncCall)
	if !ok {
		return nil, nil, errorf(t.Pos, ErrNotSupported, "TABLE(...) needs a table function call")
	}
	name := ""
	if len(call.Name.Parts) == 1 {
		name = strings.ToUpper(call.Name.Parts[0].Name)
	}
	derived := s.deriveAlias(t.Alias)
	spec, ok := windowTVFs[name]
	if !ok {
		typed, err := s.typeExpr(qs, call, clauseFrom)
		if err != nil {
			return nil, nil, err
		}
		return nil, nil, errorf(call.Pos, ErrNotSupported, "%s is not a table function (it returns %s)", ast.String(call.Name), typed.Type)
	}
	// Bind the arguments, positional or named (DATA => ..., TIMECOL => ...).
	params := append([]string{"DATA", "TIMECOL"}, spec.params...)
	bound := map[string]ast.Expr{}
	for i, a := range splitPartition(call.Args) {
		if na, ok := a.(*ast.NamedArg); ok {
			bound[strings.ToUpper(na.Name.Name)] = na.Value
			continue
		}
		if i >= len(params) {
			return nil, nil, errorf(a.Position(), ErrArgCount, "Invalid number of arguments to function '%s'. Was expecting %d arguments", name, len(params))
		}
		bound[params[i]] = a
	}
	for _, p := range params[:2+spec.required] {
		if bound[p] == nil {
			return nil, nil, errorf(call.Pos, ErrArgCount, "Invalid number of arguments to function '%s'. Was expecting %d arguments", name, 2+spec.required)
		}
	}
	data, ok := bound["DATA"].(*ast.TableArg)
	if !ok {
		return nil, nil, errorf(bound["DATA"].Position(), ErrCannotApply, "The first argument of %s must be a table: %s", name, spec.usage)
	}
	desc, ok := bound["TIMECOL"].(*ast.Descriptor)
	if !ok || len(desc.Cols) != 1 {
		return nil, nil, errorf(bound["TIMECOL"].Position(), ErrCannotApply, "The second argument of %s must be DESCRIPTOR(timecol): %s", name, spec.usage)
	}
	// The input table, in a scope of its own.
	in := &qscope{parent: qs.parent}
	inExpr, inPlan, err := s.from(&ast.TableName{Name: data.Name}, in)
	if err != nil {
		return nil, nil, err
	}
	rel := in.rels[0]
	outArg := &ast.TableArg{Pos: data.Pos, Name: inExpr.(*ast.TableName).Name}
	var partition []int
	for _, p := range data.PartitionBy {
		if id, ok := p.(*ast.Identifier); ok && len(id.Parts) == 1 {
			partition = append(partition, rel.index(id.Parts[0].Name))
		}
		if _, err := s.typeExpr(in, p, clauseFrom); err != nil {
			return nil, nil, err
		}
		// Partition keys name columns of the input table; they print bare.
		if id, ok := p.(*ast.Identifier); ok {
			p = &ast.Identifier{Parts: quotedList(id.Parts)}
		}
		outArg.PartitionBy = append(outArg.PartitionBy, p)
	}
	tc := desc.Cols[0]
	i := rel.index(tc.Name)
	if i < 0 {
		return nil, nil, errorf(tc.Pos, ErrColumnNotFound, "Unknown identifier '%s'", tc.Name)
	}
	timeType := rel.cols[i].Type
	if timeType.Kind != types.Timestamp && timeType.Kind != types.TimestampLTZ {
		// Flink 2.2's text (a ValidationException).
		return nil, nil, errorf(tc.Pos, ErrInvalidCall,
			"The window function %s requires the timecol to be TIMESTAMP or TIMESTAMP_LTZ, but is %s.\n"+
				"Besides, the timecol must be a time attribute type in streaming mode.", spec.usage, functions.CalciteTypeString(timeType))
	}
	args := []ast.Expr{outArg, &ast.Descriptor{Pos: desc.Pos, Cols: []*ast.Ident{quoted(tc)}}}
	millis := map[string]int64{}
	for _, p := range spec.params {
		a := bound[p]
		if a == nil {
			continue
		}
		x, env, err := s.typeExprEnv(qs, a, clauseFrom)
		if err != nil {
			return nil, nil, err
		}
		if x.Type.Kind != types.IntervalDayTime && x.Type.Kind != types.IntervalYearMonth {
			return nil, nil, errorf(a.Position(), ErrCannotApply, "%s: the %s must be an interval, but is %s", spec.usage, strings.ToLower(p), x.Type)
		}
		args = append(args, x.Expr)
		if lit, err := env.toPlan(env.pre); err == nil {
			if l, ok := lit.(*plan.Literal); ok {
				if n, ok := types.AsInt64(l.Value); ok {
					millis[p] = n
				}
			}
		}
	}
	cols := append([]OutputColumn(nil), rel.cols...)
	bound3 := types.NewTimestamp(3).WithNullable(false)
	wt := types.NewTimestamp(3).WithNullable(false).WithTimeAttr(types.Rowtime)
	switch {
	case timeType.TimeAttr == types.Regular:
		// A plain timestamp column (legal in batch mode only, checked when
		// the session plans the query): window_time keeps its type.
		wt = timeType
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
	alias, err := s.addRelation(qs, t.Alias, derived, cols, t.Pos)
	if err != nil {
		return nil, nil, err
	}
	for _, c := range rel.cols {
		switch c.Name {
		case "window_start", "window_end", "window_time":
			r := qs.rels[len(qs.rels)-1]
			if r.dup == nil {
				r.dup = map[string]bool{}
			}
			r.dup[c.Name] = true
		}
	}
	var p plan.Node
	if inPlan != nil {
		kinds := map[string]plan.WindowKind{"TUMBLE": plan.Tumble, "HOP": plan.Hop, "CUMULATE": plan.Cumulate, "SESSION": plan.Session}
		w := &plan.WindowTVF{Input: inPlan, Kind: kinds[name], TimeCol: i, Offset: millis["OFFSET"],
			Partition: partition, Cols: schemaOf(qs.rels[len(qs.rels)-1].cols), Legacy: s.legacyWindows[t]}
		switch name {
		case "TUMBLE":
			w.Size = millis["SIZE"]
		case "HOP":
			w.Size, w.Slide = millis["SIZE"], millis["SLIDE"]
		case "CUMULATE":
			w.Size, w.Slide = millis["SIZE"], millis["STEP"]
		case "SESSION":
			w.Size = millis["GAP"]
		}
		p = w
	}
	return &ast.TableFunc{Pos: t.Pos, Lateral: t.Lateral, Call: outCall, Alias: alias}, p, nil
}

// splitPartition undoes a greedy parse of `TABLE t PARTITION BY k,
// DESCRIPTOR(ts), ...`, whose partition list may have swallowed the
// arguments after it: from the first DESCRIPTOR (or named argument) on,
// the list items are arguments again.
func splitPartition(args []ast.Expr) []ast.Expr {
	if len(args) == 0 {
		return args
	}
	ta, ok := args[0].(*ast.TableArg)
	if !ok {
		return args
	}
	for i, p := range ta.PartitionBy {
		switch p.(type) {
		case *ast.Descriptor, *ast.NamedArg:
			fixed := *ta
			fixed.PartitionBy = ta.PartitionBy[:i]
			out := append([]ast.Expr{&fixed}, ta.PartitionBy[i:]...)
			return append(out, args[1:]...)
		}
	}
	return args
}

// windowSpec returns the window a call's OVER names, merged as Calcite's
// SqlWindow.overlay does: OVER w is w's definition; OVER (w ORDER BY ...)
// extends w with what it adds.
func (s *state) windowSpec(e *ast.FuncCall) (*ast.WindowSpec, error) {
	name := e.OverName
	var own *ast.WindowSpec
	if name == nil {
		own, name = e.Over, e.Over.Ref
	}
	base, ok := s.windows[name.Name]
	if !ok {
		return nil, errorf(name.Pos, ErrQuery, "Window '%s' not found", name.Name)
	}
	out := *base
	out.Ref = nil
	if own != nil {
		if len(own.PartitionBy) > 0 {
			return nil, errorf(own.Pos, ErrQuery, "PARTITION BY not allowed with existing window reference")
		}
		if len(own.OrderBy) > 0 {
			if len(base.OrderBy) > 0 {
				return nil, errorf(own.Pos, ErrQuery, "ORDER BY not allowed in both base and referenced windows")
			}
			out.OrderBy = own.OrderBy
		}
		if own.Frame != nil {
			out.Frame = own.Frame
		}
	}
	return &out, nil
}

// namedWindows validates a SELECT's WINDOW clause: each definition's
// expressions over the FROM clause. It returns the expanded clause.
func (s *state) namedWindows(ws []*ast.NamedWindow, qs *qscope) ([]*ast.NamedWindow, error) {
	if len(ws) == 0 {
		return nil, nil
	}
	s.windows = map[string]*ast.WindowSpec{}
	var out []*ast.NamedWindow
	for _, w := range ws {
		if _, dup := s.windows[w.Name.Name]; dup {
			return nil, errorf(w.Name.Pos, ErrQuery, "Duplicate window names not allowed")
		}
		spec := w.Spec
		if spec.Ref != nil {
			base, ok := s.windows[spec.Ref.Name]
			if !ok {
				return nil, errorf(spec.Ref.Pos, ErrQuery, "Window '%s' not found", spec.Ref.Name)
			}
			merged := *base
			if len(spec.OrderBy) > 0 {
				merged.OrderBy = spec.OrderBy
			}
			if spec.Frame != nil {
				merged.Frame = spec.Frame
			}
			spec = &merged
		}
		s.windows[w.Name.Name] = spec
		exp := *w.Spec
		exp.PartitionBy = nil
		for _, p := range w.Spec.PartitionBy {
			t, err := s.typeExpr(qs, p, clauseWhere)
			if err != nil {
				return nil, err
			}
			exp.PartitionBy = append(exp.PartitionBy, t.Expr)
		}
		exp.OrderBy = nil
		for _, o := range w.Spec.OrderBy {
			t, err := s.typeExpr(qs, o.Expr, clauseWhere)
			if err != nil {
				return nil, err
			}
			item := *o
			item.Expr = t.Expr
			exp.OrderBy = append(exp.OrderBy, &item)
		}
		out = append(out, &ast.NamedWindow{Name: quoted(w.Name), Spec: &exp})
	}
	return out, nil
}
