package validate

import (
	"reflect"

	"eddy/engine/ast"
)

var (
	exprType  = reflect.TypeFor[ast.Expr]()
	queryType = reflect.TypeFor[ast.Query]()
)

// mapExpr returns a copy of e in which f has replaced sub-expressions. f
// sees every expression top-down; when it reports done, its result stands
// for that sub-tree and mapExpr does not descend into it. Nested queries
// are never entered: f decides what they become. Nodes that are not
// replaced are copied shallowly, so the input tree is never modified.
func mapExpr(e ast.Expr, f func(ast.Expr) (ast.Expr, bool, error)) (ast.Expr, error) {
	if e == nil || reflect.ValueOf(e).IsNil() {
		return e, nil
	}
	out, done, err := f(e)
	if err != nil || done {
		return out, err
	}
	v, err := mapValue(reflect.ValueOf(e), f)
	if err != nil {
		return nil, err
	}
	return v.Interface().(ast.Expr), nil
}

// mapValue copies the node v points to and maps the expressions in its
// fields.
func mapValue(v reflect.Value, f func(ast.Expr) (ast.Expr, bool, error)) (reflect.Value, error) {
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return v, nil
	}
	cp := reflect.New(v.Elem().Type())
	cp.Elem().Set(v.Elem())
	s := cp.Elem()
	for i := 0; i < s.NumField(); i++ {
		fv := s.Field(i)
		if !fv.CanSet() {
			continue
		}
		nv, err := mapField(fv, f)
		if err != nil {
			return reflect.Value{}, err
		}
		fv.Set(nv)
	}
	return cp, nil
}

func mapField(fv reflect.Value, f func(ast.Expr) (ast.Expr, bool, error)) (reflect.Value, error) {
	t := fv.Type()
	switch {
	case t == exprType:
		if fv.IsNil() {
			return fv, nil
		}
		e, err := mapExpr(fv.Interface().(ast.Expr), f)
		if err != nil {
			return reflect.Value{}, err
		}
		out := reflect.New(exprType).Elem()
		if e != nil {
			out.Set(reflect.ValueOf(e))
		}
		return out, nil
	case t == queryType:
		return fv, nil
	case t.Kind() == reflect.Slice:
		if fv.IsNil() || !(t.Elem() == exprType || astStruct(t.Elem())) {
			return fv, nil
		}
		out := reflect.MakeSlice(t, fv.Len(), fv.Len())
		for i := 0; i < fv.Len(); i++ {
			nv, err := mapField(fv.Index(i), f)
			if err != nil {
				return reflect.Value{}, err
			}
			out.Index(i).Set(nv)
		}
		return out, nil
	case astStruct(t):
		if fv.IsNil() {
			return fv, nil
		}
		if e, ok := fv.Interface().(ast.Expr); ok {
			ne, err := mapExpr(e, f)
			if err != nil {
				return reflect.Value{}, err
			}
			if nv := reflect.ValueOf(ne); nv.Type() == t {
				return nv, nil
			}
			return mapValue(fv, f)
		}
		return mapValue(fv, f)
	}
	return fv, nil
}

// astStruct reports whether t points to a syntax-tree struct other than a
// query (WHEN branches and window specs hold expressions too).
func astStruct(t reflect.Type) bool {
	return t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Struct &&
		t.Elem().PkgPath() == exprType.PkgPath() && !t.Implements(queryType)
}

// mapChildren is mapExpr without calling f on e itself: a copy of e whose
// sub-expressions f has mapped.
func mapChildren(e ast.Expr, f func(ast.Expr) (ast.Expr, bool, error)) (ast.Expr, error) {
	v, err := mapValue(reflect.ValueOf(e), f)
	if err != nil {
		return nil, err
	}
	return v.Interface().(ast.Expr), nil
}
