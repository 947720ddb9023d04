package validate

import (
	"strings"

	"eddy/engine/ast"
	"eddy/engine/functions"
	"eddy/engine/types"
)

// Validator types expressions. Its zero value is not usable; build one with
// New. A Validator is not modified by validating, so one may serve several
// goroutines once its fields are set.
type Validator struct {
	funcs *functions.Registry
	// Source is the text of the statement the expressions were parsed
	// from. When set, messages name functions as the user wrote them
	// (`invalid_function()`), which the parser's tree no longer keeps.
	Source string
	// AllowAggregates lets aggregate calls and OVER windows through and
	// types them; when false (computed columns, watermarks, WHERE) they are
	// errors.
	AllowAggregates bool
	// Record, when not nil, receives the type of every sub-expression
	// validated, keyed by the input node, so a caller walking the tree
	// afterwards need not validate each sub-tree again.
	Record map[ast.Expr]*types.Type

	depth int // of the expression being validated
}

// maxExprDepth bounds how deep an expression tree may be. The parser reads
// long operator chains without recursion, so `1 + 1 + ... + 1` with
// millions of terms is a tree that deep; validating it recursively would
// exhaust the stack, so it is refused here with an error instead.
const maxExprDepth = 50_000

// New returns a validator that resolves functions in reg.
func New(reg *functions.Registry) *Validator { return &Validator{funcs: reg} }

// Typed is a validated expression: the rewritten tree, whose ast.String is
// Flink's expanded text, and its type.
type Typed struct {
	Expr ast.Expr
	Type *types.Type
}

// Expr validates e against the columns of scope and returns its type and
// its rewritten tree. The input tree is not modified.
func (v *Validator) Expr(scope *Scope, e ast.Expr) (*Typed, error) {
	if scope == nil {
		scope = NewScope()
	}
	return v.expr(scope, e)
}

// ComputedColumn validates the expression of a computed column (`name AS
// expr`): a scalar expression over the table's other columns.
func (v *Validator) ComputedColumn(scope *Scope, e ast.Expr) (*Typed, error) {
	scalar := *v
	scalar.AllowAggregates = false
	return scalar.Expr(scope, e)
}

// Watermark validates WATERMARK FOR rowtime AS e (Flink's
// DefaultSchemaResolver): the rowtime column must exist and be a
// TIMESTAMP(p) or TIMESTAMP_LTZ(p) with p at most 3 and not a
// processing-time attribute, and e must have such a type with the same
// root. It returns the typed expression and the rowtime column's type
// marked *ROWTIME*.
func (v *Validator) Watermark(scope *Scope, rowtime string, pos ast.Pos, e ast.Expr) (*Typed, *types.Type, error) {
	found := scope.lookup("", rowtime)
	if len(found) == 0 {
		names := make([]string, len(scope.cols))
		for i, c := range scope.cols {
			names[i] = c.Name
		}
		return nil, nil, errorf(pos, ErrWatermark,
			"Invalid column name '%s' for rowtime attribute in watermark declaration. Available columns are: [%s]",
			rowtime, strings.Join(names, ", "))
	}
	ct := found[0].Type
	if !timeAttributeType(ct) {
		return nil, nil, errorf(pos, ErrWatermark, "Invalid data type of time field for watermark definition. "+
			"The field must be of type TIMESTAMP(p) or TIMESTAMP_LTZ(p), the supported precision 'p' is from 0 to 3, "+
			"but the time field type is %s", ct)
	}
	if ct.TimeAttr == types.Proctime {
		return nil, nil, errorf(pos, ErrWatermark, "A watermark can not be defined for a processing-time attribute.")
	}
	typed, err := v.ComputedColumn(scope, e)
	if err != nil {
		return nil, nil, err
	}
	if !timeAttributeType(typed.Type) {
		return nil, nil, errorf(e.Position(), ErrWatermark, "Invalid data type of expression for watermark definition. "+
			"The field must be of type TIMESTAMP(p) or TIMESTAMP_LTZ(p), the supported precision 'p' is from 0 to 3, "+
			"but the watermark expression type is %s", typed.Type)
	}
	if typed.Type.Kind != ct.Kind {
		return nil, nil, errorf(e.Position(), ErrWatermark,
			"The watermark declaration's output data type '%s' is different from the time field's data type '%s'.",
			typed.Type, ct)
	}
	return typed, ct.WithTimeAttr(types.Rowtime), nil
}

func timeAttributeType(t *types.Type) bool {
	return (t.Kind == types.Timestamp || t.Kind == types.TimestampLTZ) && t.Prec <= 3
}

func (v *Validator) expr(scope *Scope, e ast.Expr) (*Typed, error) {
	v.depth++
	defer func() { v.depth-- }()
	if v.depth > maxExprDepth {
		return nil, errorf(e.Position(), ErrNotSupported, "The expression is nested too deeply (more than %d levels).", maxExprDepth)
	}
	t, err := v.exprNode(scope, e)
	if err == nil && v.Record != nil {
		v.Record[e] = t.Type
	}
	return t, err
}

func (v *Validator) exprNode(scope *Scope, e ast.Expr) (*Typed, error) {
	switch e := e.(type) {
	case *ast.Literal:
		return v.literal(e, false)
	case *ast.IntervalLit:
		return v.interval(e)
	case *ast.Identifier:
		return v.identifier(scope, e)
	case *ast.UnaryExpr:
		return v.unary(scope, e)
	case *ast.BinaryExpr:
		return v.binary(scope, e)
	case *ast.IsExpr:
		return v.isExpr(scope, e)
	case *ast.IsDistinctFrom:
		return v.isDistinct(scope, e)
	case *ast.BetweenExpr:
		return v.between(scope, e)
	case *ast.InExpr:
		return v.in(scope, e)
	case *ast.QuantifiedExpr:
		return v.quantified(scope, e)
	case *ast.LikeExpr:
		return v.like(scope, e)
	case *ast.Cast:
		return v.cast(scope, e)
	case *ast.Case:
		return v.caseExpr(scope, e)
	case *ast.ArrayCtor:
		return v.array(scope, e)
	case *ast.MapCtor:
		return v.mapCtor(scope, e)
	case *ast.RowCtor:
		return v.row(scope, e)
	case *ast.Index:
		return v.index(scope, e)
	case *ast.FieldAccess:
		return v.fieldAccess(scope, e)
	case *ast.FuncCall:
		return v.call(scope, e)
	case *ast.Extract:
		return v.extract(scope, e)
	case *ast.FloorCeil:
		return v.floorCeil(scope, e)
	case *ast.PositionExpr:
		return v.special(scope, e, "POSITION", []ast.Expr{e.Sub, e.Str, e.From}, func(args []ast.Expr) ast.Expr {
			return &ast.PositionExpr{Pos: e.Pos, Sub: args[0], Str: args[1], From: opt(args, 2)}
		})
	case *ast.Trim:
		args := []ast.Expr{e.X, e.Chars}
		return v.special(scope, e, "TRIM", args, func(args []ast.Expr) ast.Expr {
			return &ast.Trim{Pos: e.Pos, Mode: e.Mode, X: args[0], Chars: opt(args, 1)}
		})
	case *ast.Overlay:
		return v.special(scope, e, "OVERLAY", []ast.Expr{e.X, e.Placing, e.From, e.For}, func(args []ast.Expr) ast.Expr {
			return &ast.Overlay{Pos: e.Pos, X: args[0], Placing: args[1], From: args[2], For: opt(args, 3)}
		})
	case *ast.Substring:
		return v.special(scope, e, "SUBSTRING", []ast.Expr{e.X, e.From, e.For}, func(args []ast.Expr) ast.Expr {
			return &ast.Substring{Pos: e.Pos, X: args[0], From: args[1], For: opt(args, 2)}
		})
	case *ast.JSONCall:
		return v.jsonCall(scope, e)
	case *ast.Subquery:
		return nil, errorf(e.Pos, ErrNotSupported, "Sub-queries are not supported in this context")
	case *ast.Exists:
		return nil, errorf(e.Pos, ErrNotSupported, "EXISTS sub-queries are not supported in this context")
	case *ast.Param:
		return nil, errorf(e.Pos, ErrNotSupported, "Illegal use of dynamic parameter")
	case *ast.Star:
		return nil, errorf(e.Pos, ErrNotSupported, "'*' is not supported in this context")
	}
	return nil, errorf(e.Position(), ErrNotSupported, "%s is not supported in this context", describe(e))
}

// describe names an expression construct for "not supported" messages.
func describe(e ast.Expr) string {
	switch e.(type) {
	case *ast.NamedArg:
		return "A named argument"
	case *ast.TableArg:
		return "A TABLE argument"
	case *ast.Descriptor:
		return "DESCRIPTOR"
	case *ast.GroupingSet:
		return "A grouping set"
	}
	return "The expression"
}

// opt returns args[i], or nil when the list is shorter (an optional
// operand that was absent).
func opt(args []ast.Expr, i int) ast.Expr {
	if i < len(args) {
		return args[i]
	}
	return nil
}

func (v *Validator) identifier(scope *Scope, id *ast.Identifier) (*Typed, error) {
	col, fields, err := scope.resolve(id)
	if err != nil {
		return nil, err
	}
	var parts []*ast.Ident
	if col.Table != "" {
		parts = append(parts, &ast.Ident{Pos: id.Parts[0].Pos, Name: col.Table, Quoted: true})
	}
	colPos := id.Parts[len(id.Parts)-len(fields)-1].Pos
	parts = append(parts, &ast.Ident{Pos: colPos, Name: col.Name, Quoted: true})
	t := col.Type
	for _, f := range fields {
		ft, err := fieldType(t, f)
		if err != nil {
			return nil, err
		}
		t = ft
		parts = append(parts, &ast.Ident{Pos: f.Pos, Name: f.Name, Quoted: true})
	}
	return &Typed{Expr: &ast.Identifier{Parts: parts}, Type: t}, nil
}

// fieldType returns the type of row.field: nullable when the row is.
func fieldType(row *types.Type, f *ast.Ident) (*types.Type, error) {
	if row.Kind == types.Row {
		for _, rf := range row.Fields {
			if rf.Name == f.Name {
				return withNullable(rf.Type, row.Nullable()), nil
			}
		}
	}
	return nil, errorf(f.Pos, ErrUnknownField, "Unknown field '%s'", f.Name)
}

func (v *Validator) fieldAccess(scope *Scope, e *ast.FieldAccess) (*Typed, error) {
	x, err := v.expr(scope, e.X)
	if err != nil {
		return nil, err
	}
	t, err := fieldType(x.Type, e.Field)
	if err != nil {
		return nil, err
	}
	f := &ast.Ident{Pos: e.Field.Pos, Name: e.Field.Name, Quoted: true}
	return &Typed{Expr: &ast.FieldAccess{Pos: e.Pos, X: x.Expr, Field: f}, Type: t}, nil
}

// withNullable makes t nullable when nullable is set.
func withNullable(t *types.Type, nullable bool) *types.Type {
	if nullable && !t.Nullable() {
		return t.WithNullable(true)
	}
	return t
}

// exprs validates a list of expressions.
func (v *Validator) exprs(scope *Scope, list []ast.Expr) ([]*Typed, error) {
	out := make([]*Typed, len(list))
	for i, e := range list {
		t, err := v.expr(scope, e)
		if err != nil {
			return nil, err
		}
		out[i] = t
	}
	return out, nil
}

func typesOf(ts []*Typed) []*types.Type {
	out := make([]*types.Type, len(ts))
	for i, t := range ts {
		out[i] = t.Type
	}
	return out
}

func exprsOf(ts []*Typed) []ast.Expr {
	out := make([]ast.Expr, len(ts))
	for i, t := range ts {
		out[i] = t.Expr
	}
	return out
}
