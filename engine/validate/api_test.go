package validate

import (
	"errors"
	"testing"

	"eddy/engine/ast"
	"eddy/engine/functions"
	"eddy/engine/parser"
	"eddy/engine/types"
)

// TestInputNotModified checks that Expr rewrites into a new tree.
func TestInputNotModified(t *testing.T) {
	e, err := parser.ParseExpr("CASE WHEN a > 1 THEN UPPER(b) ELSE b || 'x' END")
	if err != nil {
		t.Fatal(err)
	}
	before := ast.String(e)
	scope := NewScope(Column{Table: "t", Name: "a", Type: types.New(types.Int)},
		Column{Table: "t", Name: "b", Type: types.NewVarChar(5)})
	typed, err := New(functions.NewRegistry()).Expr(scope, e)
	if err != nil {
		t.Fatal(err)
	}
	if got := ast.String(e); got != before {
		t.Errorf("input changed: %s, was %s", got, before)
	}
	want := "CASE WHEN `t`.`a` > 1 THEN UPPER(`t`.`b`) ELSE `t`.`b` || 'x' END"
	if got := ast.String(typed.Expr); got != want {
		t.Errorf("rewritten %s, want %s", got, want)
	}
	if got := typed.Type.String(); got != "VARCHAR(6)" {
		t.Errorf("type %s", got)
	}
}

// TestErrorKinds checks that callers can tell errors apart by kind and
// reach the function layer's error.
func TestErrorKinds(t *testing.T) {
	scope := NewScope(Column{Name: "a", Type: types.New(types.Int)}, Column{Name: "s", Type: types.NewString()})
	cases := []struct {
		sql  string
		kind *Kind
	}{
		{"c", ErrColumnNotFound},
		{"x.a", ErrTableNotFound},
		{"nope(a)", ErrUnknownFunction},
		{"ABS()", ErrArgCount},
		{"ABS(s)", ErrCannotApply},
		{"a + s", ErrCannotApply},
		{"CAST(a AS DATE)", ErrCast},
		{"COALESCE(a, s)", ErrInvalidCall},
		{"UPPER(NULL)", ErrNullIllegal},
		{"CASE WHEN a THEN 1 END", ErrExpectedBoolean},
		{"DATE 'x'", ErrLiteral},
		{"(SELECT 1)", ErrNotSupported},
		{"COUNT(a)", ErrNotSupported},
	}
	v := New(functions.NewRegistry())
	for _, c := range cases {
		e, err := parser.ParseExpr(c.sql)
		if err != nil {
			t.Fatalf("%s: %v", c.sql, err)
		}
		_, err = v.Expr(scope, e)
		if !errors.Is(err, c.kind) {
			t.Errorf("%s: error %v, want kind %q", c.sql, err, c.kind)
		}
	}
	e, _ := parser.ParseExpr("ABS()")
	_, err := v.Expr(scope, e)
	var count *functions.ArgCountError
	if !errors.As(err, &count) || count.Func != "ABS" {
		t.Errorf("ABS(): %v does not wrap *functions.ArgCountError", err)
	}
	var ve *Error
	if !errors.As(err, &ve) || ve.Class() != "SqlValidatorException" {
		t.Errorf("ABS(): class of %v", err)
	}
	e, _ = parser.ParseExpr("(SELECT 1)")
	_, err = v.Expr(scope, e)
	if !errors.As(err, &ve) || ve.Class() != "ValidationException" {
		t.Errorf("sub-query: class of %v", err)
	}
}

// TestComputedColumnRejectsAggregates checks that a computed column stays
// scalar even when the validator otherwise allows aggregates.
func TestComputedColumnRejectsAggregates(t *testing.T) {
	v := New(functions.NewRegistry())
	v.AllowAggregates = true
	e, _ := parser.ParseExpr("SUM(a)")
	scope := NewScope(Column{Name: "a", Type: types.New(types.Int)})
	if _, err := v.ComputedColumn(scope, e); !errors.Is(err, ErrNotSupported) {
		t.Errorf("SUM in a computed column: %v", err)
	}
	if !v.AllowAggregates {
		t.Errorf("ComputedColumn changed AllowAggregates")
	}
	if _, err := v.Expr(scope, e); err != nil {
		t.Errorf("SUM with aggregates allowed: %v", err)
	}
}
