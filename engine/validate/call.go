package validate

import (
	"errors"
	"strings"

	"eddy/engine/ast"
	"eddy/engine/functions"
	"eddy/engine/types"
)

// timeUnitArgs are the functions whose first argument is a time unit
// keyword rather than a value.
var timeUnitArgs = map[string]bool{"TIMESTAMPADD": true, "TIMESTAMPDIFF": true}

// ErrCodeGen is an error Flink's code generator raises (CodeGenException)
// for a call its type inference accepted.
var ErrCodeGen = &Kind{"no code for this call", "CodeGenException"}

// ErrPlanner is a call Flink's planner refuses after validation
// (TableException), such as MAX of a VARIANT.
var ErrPlanner = &Kind{"refused by the planner", "TableException"}

// timeFrameName is the name Calcite's "not a valid time frame" message
// quotes: the identifier's text, upper-cased unless it was quoted.
func timeFrameName(e ast.Expr) string {
	if id, ok := e.(*ast.Identifier); ok && len(id.Parts) == 1 {
		if id.Parts[0].Quoted {
			return id.Parts[0].Name
		}
		return strings.ToUpper(id.Parts[0].Name)
	}
	return ast.String(e)
}

// unitCallError restores the time unit in the messages about the other
// operands of TIMESTAMPADD and TIMESTAMPDIFF: Calcite counts the unit as an
// operand (typed as an interval, checked as ANY).
func unitCallError(err error, name string, unit ast.TimeUnit) error {
	e, ok := err.(*Error)
	if !ok {
		return err
	}
	msg := strings.Replace(e.Msg, "of type '"+name+"(", "of type '"+name+"(<INTERVAL "+string(unit)+">, ", 1)
	msg = strings.ReplaceAll(msg, "Supported form(s): '"+name+"(", "Supported form(s): '"+name+"(<ANY>, ")
	msg = strings.Replace(msg, "Was expecting 2 arguments", "Was expecting 3 arguments", 1)
	out := *e
	out.Msg = msg
	return &out
}

// timestampAddType is the result type of TIMESTAMPADD(unit, n, t) given the
// type inferred from t (Calcite's SqlTimestampAddFunction.deduceType):
// sub-second units widen the precision; HOUR, MINUTE and SECOND turn a
// DATE into a TIMESTAMP (of Flink's default precision, 6).
func timestampAddType(unit ast.TimeUnit, t *types.Type) *types.Type {
	nullable := t.Nullable()
	widen := func(p int) *types.Type {
		switch t.Kind {
		case types.Timestamp:
			return types.NewTimestamp(max(p, t.Prec)).WithNullable(nullable)
		case types.TimestampLTZ:
			return types.NewTimestampLTZ(max(p, t.Prec)).WithNullable(nullable)
		case types.Time:
			return types.NewTime(max(p, t.Prec)).WithNullable(nullable)
		}
		return t
	}
	switch unit {
	case "MICROSECOND":
		return widen(6)
	case "NANOSECOND":
		return widen(9)
	case "HOUR", "MINUTE", "SECOND":
		if t.Kind == types.Date {
			return types.NewTimestamp(6).WithNullable(nullable)
		}
	}
	return t
}

// call types a function call: it types the arguments first (as Calcite
// does, so an argument's error wins), then resolves the function among the
// built-ins and lets it infer the result type.
func (v *Validator) call(scope *Scope, e *ast.FuncCall) (*Typed, error) {
	name := v.writtenName(e.Name)
	upper := ""
	if len(e.Name.Parts) == 1 {
		upper = strings.ToUpper(e.Name.Parts[0].Name)
	}
	args := e.Args
	var unit ast.Expr
	if timeUnitArgs[upper] && len(args) > 0 {
		if _, ok := args[0].(*ast.TimeUnitArg); !ok {
			return nil, errorf(args[0].Position(), ErrCannotApply, "'%s' is not a valid time frame", timeFrameName(args[0]))
		}
		unit, args = args[0], args[1:]
	}
	star := false
	if len(args) == 1 {
		if s, ok := args[0].(*ast.Star); ok && s.Qualifier == nil {
			if upper != "COUNT" {
				return nil, errorf(s.Pos, ErrNotSupported, "'*' is only allowed in COUNT(*)")
			}
			star, args = true, nil
		}
	}
	if upper == "MATCH_ROWTIME" || upper == "MATCH_PROCTIME" {
		return nil, errorf(e.Pos, ErrQuery, "Function '%s' can only be used in MATCH_RECOGNIZE", ast.String(quoteRefs(e)))
	}
	typed, err := v.exprs(scope, args)
	if err != nil {
		return nil, err
	}
	var f *functions.Func
	if upper != "" {
		f, _ = v.funcs.Lookup(upper)
	}
	if f == nil {
		fams := make([]string, len(typed))
		for i, t := range typed {
			fams[i] = "<" + functions.CalciteFamily(t.Type) + ">"
		}
		return nil, errorf(e.Pos, ErrUnknownFunction, "No match found for function signature %s(%s)",
			name, strings.Join(fams, ", "))
	}
	if err := v.checkCallForm(e, f); err != nil {
		return nil, err
	}
	ops := make([]functions.Operand, len(typed))
	for i, t := range typed {
		ops[i] = functions.Operand{Type: t.Type, Int: intValue(args[i])}
	}
	t, err := f.InferOperands(ops)
	if err != nil {
		if u, ok := unit.(*ast.TimeUnitArg); ok {
			return nil, unitCallError(v.inferError(e.Pos, err), f.Name, u.Unit)
		}
		return nil, v.inferError(e.Pos, err)
	}
	if u, ok := unit.(*ast.TimeUnitArg); ok && upper == "TIMESTAMPADD" {
		t = timestampAddType(u.Unit, t)
	}
	if unit != nil && upper == "TIMESTAMPDIFF" && len(typed) == 2 &&
		(typed[0].Type.Kind == types.TimestampLTZ) != (typed[1].Type.Kind == types.TimestampLTZ) {
		return nil, errorf(e.Pos, ErrCodeGen, "TIMESTAMP_LTZ only supports diff between the same type.")
	}
	out := *e
	out.Args = exprsOf(typed)
	if unit != nil {
		out.Args = append([]ast.Expr{unit}, out.Args...)
	}
	if star {
		out.Args = e.Args
	}
	if err := v.callClauses(scope, e, &out); err != nil {
		return nil, err
	}
	return &Typed{Expr: &out, Type: t}, nil
}

// checkCallForm checks what may surround a call: aggregates and OVER only
// where the context allows them, OVER only on aggregates and window
// functions, window functions only with OVER, DISTINCT and FILTER only on
// aggregates (Calcite's messages).
func (v *Validator) checkCallForm(e *ast.FuncCall, f *functions.Func) error {
	over := e.Over != nil || e.OverName != nil
	switch {
	case f.Kind == functions.Scalar && over:
		return errorf(e.Pos, ErrAggregateMisused, "OVER must be applied to aggregate function")
	case f.Kind == functions.Scalar && e.Filter != nil:
		return errorf(e.Pos, ErrAggregateMisused, "FILTER must be applied to aggregate function")
	case f.Kind == functions.Scalar && e.Quantifier != "":
		return errorf(e.Pos, ErrAggregateMisused, "DISTINCT/ALL not allowed with %s function", f.Name)
	case f.Kind == functions.Window && !over:
		return errorf(e.Pos, ErrAggregateMisused, "OVER clause is necessary for window functions")
	case (f.Kind == functions.Aggregate || f.Kind == functions.Window) && !v.AllowAggregates:
		if over {
			return errorf(e.Pos, ErrNotSupported, "Window function %s is not supported in this context", f.Name)
		}
		return errorf(e.Pos, ErrNotSupported, "Aggregate function %s is not supported in this context", f.Name)
	}
	return nil
}

// callClauses validates FILTER (WHERE ...) and the expressions of an OVER
// window, rewriting them into out.
func (v *Validator) callClauses(scope *Scope, e, out *ast.FuncCall) error {
	if e.Filter != nil {
		f, err := v.expr(scope, e.Filter)
		if err != nil {
			return err
		}
		if !isBool(f.Type) {
			return errorf(e.Filter.Position(), ErrExpectedBoolean, "FILTER clause must be a condition")
		}
		out.Filter = f.Expr
	}
	if e.Over != nil {
		w := *e.Over
		parts, err := v.exprs(scope, e.Over.PartitionBy)
		if err != nil {
			return err
		}
		w.PartitionBy = exprsOf(parts)
		w.OrderBy = nil
		for _, o := range e.Over.OrderBy {
			t, err := v.expr(scope, o.Expr)
			if err != nil {
				return err
			}
			item := *o
			item.Expr = t.Expr
			w.OrderBy = append(w.OrderBy, &item)
		}
		out.Over = &w
	}
	return nil
}

// special types the keyword-syntax calls (POSITION, TRIM, OVERLAY,
// SUBSTRING ... FROM, EXTRACT) through the function of that name; nil
// entries of args are absent optional operands. rebuild makes the
// rewritten node from the rewritten operands.
func (v *Validator) special(scope *Scope, e ast.Expr, name string, args []ast.Expr, rebuild func([]ast.Expr) ast.Expr) (*Typed, error) {
	var present []ast.Expr
	var slots []int
	for i, a := range args {
		if a != nil {
			present = append(present, a)
			slots = append(slots, i)
		}
	}
	typed, err := v.exprs(scope, present)
	if err != nil {
		return nil, err
	}
	f, ok := v.funcs.Lookup(name)
	if !ok {
		return nil, errorf(e.Position(), ErrUnknownFunction, "No match found for function signature %s", name)
	}
	ops := make([]functions.Operand, len(typed))
	for i, t := range typed {
		ops[i] = functions.Operand{Type: t.Type, Int: intValue(present[i])}
	}
	t, err := f.InferOperands(ops)
	if err != nil {
		return nil, v.inferError(e.Position(), err)
	}
	rebuilt := make([]ast.Expr, len(args))
	for i, slot := range slots {
		rebuilt[slot] = typed[i].Expr
	}
	return &Typed{Expr: rebuild(rebuilt), Type: t}, nil
}

// inferError turns a type-inference failure of package functions into a
// positioned validation error.
func (v *Validator) inferError(pos ast.Pos, err error) error {
	var (
		count *functions.ArgCountError
		typ   *functions.ArgTypeError
		null  *functions.NullIllegalError
		call  *functions.InvalidCallError
		mix   *functions.MixingError
		table *functions.TableError
		gen   *functions.CodeGenError
	)
	kind := ErrInvalidCall
	switch {
	case errors.As(err, &count):
		kind = ErrArgCount
	case errors.As(err, &typ):
		kind = ErrCannotApply
	case errors.As(err, &null):
		kind = ErrNullIllegal
	case errors.As(err, &call):
		kind = ErrInvalidCall
	case errors.As(err, &mix):
		kind = ErrIncompatible
	case errors.As(err, &table):
		kind = ErrPlanner
	case errors.As(err, &gen):
		kind = ErrCodeGen
	}
	return &Error{Pos: pos, Msg: err.Error(), Kind: kind, Cause: err}
}

// writtenName returns a function's name as the user wrote it: the parser
// upper-cases plain one-part names, but Calcite's messages quote the
// original spelling (`invalid_function()`), which Source still holds.
func (v *Validator) writtenName(n *ast.ObjectName) string {
	parts := make([]string, len(n.Parts))
	for i, p := range n.Parts {
		parts[i] = p.Name
		if p.Quoted || v.Source == "" {
			continue
		}
		off, end := p.Pos.Offset, p.Pos.Offset+len(p.Name)
		if off >= 0 && end <= len(v.Source) && strings.EqualFold(v.Source[off:end], p.Name) {
			parts[i] = v.Source[off:end]
		}
	}
	return strings.Join(parts, ".")
}
