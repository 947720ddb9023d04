package validate

import (
	"strings"

	"eddy/engine/ast"
)

// inferringFunctions are the functions whose operands take their type from
// one another (Flink's common-type input strategies), so that an untyped
// NULL among them is typed by the rest.
var inferringFunctions = map[string]bool{
	"COALESCE": true, "IFNULL": true, "GREATEST": true, "LEAST": true, "NULLIF": true,
	// Functions of Flink's own type inference take an untyped NULL.
	"TYPEOF": true, "UNHEX": true, "STARTSWITH": true, "ENDSWITH": true, "JSON_QUOTE": true, "JSON_UNQUOTE": true,
}

// checkUntypedNull reports a NULL literal that nothing gives a type, as
// Calcite's inferUnknownTypes does (type coercion off, as in Flink):
// known says whether the context of e infers a type for it. Comparisons,
// IN, BETWEEN, IS [NOT] NULL, IS [NOT] DISTINCT FROM, CASE, CAST, LIKE and
// the value constructors type a NULL operand from the others; arithmetic,
// AND, OR, NOT, ||, the unary signs, ROW and most functions do not, nor does
// a select item or a VALUES row. Subqueries are checked when they are
// validated themselves.
func checkUntypedNull(e ast.Expr, known bool) error {
	if e == nil {
		return nil
	}
	all := func(known bool, es ...ast.Expr) error {
		for _, x := range es {
			if err := checkUntypedNull(x, known); err != nil {
				return err
			}
		}
		return nil
	}
	switch e := e.(type) {
	case *ast.Literal:
		if e.Kind == ast.LitNull && !known {
			return errorf(e.Pos, ErrNullIllegal, "Illegal use of 'NULL'")
		}
	case *ast.UnaryExpr:
		return checkUntypedNull(e.X, false)
	case *ast.BinaryExpr:
		switch e.Op {
		case "=", "<>", "<", "<=", ">", ">=":
			return all(true, e.L, e.R)
		}
		return all(false, e.L, e.R)
	case *ast.IsExpr:
		return checkUntypedNull(e.X, e.What == "NULL")
	case *ast.IsDistinctFrom:
		return all(true, e.L, e.R)
	case *ast.BetweenExpr:
		return all(true, e.X, e.Lo, e.Hi)
	case *ast.InExpr:
		if err := checkUntypedNull(e.X, true); err != nil {
			return err
		}
		return all(true, e.List...)
	case *ast.LikeExpr:
		// LIKE types a NULL operand but then rejects it (typing reports it).
		return all(true, e.X, e.Pattern, e.Escape)
	case *ast.Cast:
		return checkUntypedNull(e.X, true)
	case *ast.Case:
		// A simple CASE compares its operand with each WHEN value; THEN and
		// ELSE take the CASE's type (all-NULL branches are reported when the
		// CASE is typed).
		if err := checkUntypedNull(e.Operand, true); err != nil {
			return err
		}
		for _, w := range e.Whens {
			if err := all(true, w.Cond, w.Then); err != nil {
				return err
			}
		}
		return checkUntypedNull(e.Else, true)
	case *ast.ArrayCtor:
		return all(true, e.Elems...)
	case *ast.MapCtor:
		return all(true, e.Elems...)
	case *ast.RowCtor:
		return all(false, e.Elems...)
	case *ast.FuncCall:
		if e.Name == nil || len(e.Name.Parts) != 1 {
			return nil
		}
		name := strings.ToUpper(e.Name.Parts[0].Name)
		if name == "NULLIF" && len(e.Args) == 2 && isNullLit(e.Args[0]) {
			// NULLIF(a, b) is CASE WHEN a = b THEN NULL ELSE a END: with a
			// NULL, no branch has a type.
			return errorf(e.Pos, ErrNullIllegal, "ELSE clause or at least one THEN clause must be non-NULL")
		}
		return all(inferringFunctions[name], e.Args...)
	}
	return nil
}

func isNullLit(e ast.Expr) bool {
	l, ok := e.(*ast.Literal)
	return ok && l.Kind == ast.LitNull
}
