package ast

import (
	"reflect"

	"eddy/engine/types"
)

var (
	posType  = reflect.TypeFor[Pos]()
	typeType = reflect.TypeFor[types.Type]()
)

// Inspect traverses the tree rooted at n in depth-first order: it calls
// f(n), and if that returns true, Inspect visits each child (every field
// holding a Node or a slice of Nodes, in field order). Nil children are
// skipped. It works for every node type, statement nodes included, because
// it finds children by reflection over the plain node structs.
func Inspect(n Node, f func(Node) bool) {
	if isNil(n) {
		return
	}
	if !f(n) {
		return
	}
	v := reflect.ValueOf(n)
	for v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return
	}
	for i := 0; i < v.NumField(); i++ {
		inspectValue(v.Field(i), f)
	}
}

func inspectValue(v reflect.Value, f func(Node) bool) {
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() || !v.CanInterface() {
			return
		}
		if n, ok := v.Interface().(Node); ok {
			Inspect(n, f)
			return
		}
		// A helper struct that is not a node itself (When, Alias, ...):
		// visit the nodes it holds. Types hold no nodes.
		if v.Kind() == reflect.Pointer && v.Elem().Kind() == reflect.Struct && v.Elem().Type() != typeType {
			inspectValue(v.Elem(), f)
		}
	case reflect.Slice:
		switch v.Type().Elem().Kind() {
		case reflect.Interface, reflect.Pointer, reflect.Struct:
			for i := 0; i < v.Len(); i++ {
				inspectValue(v.Index(i), f)
			}
		}
	case reflect.Struct:
		if v.Type() == posType {
			return
		}
		for i := 0; i < v.NumField(); i++ {
			inspectValue(v.Field(i), f)
		}
	}
}

// Walk calls f for every node of the tree rooted at n, in depth-first order.
func Walk(n Node, f func(Node)) {
	Inspect(n, func(n Node) bool { f(n); return true })
}

func isNil(n Node) bool {
	if n == nil {
		return true
	}
	v := reflect.ValueOf(n)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// Equal reports whether two trees are the same, ignoring positions (every
// field of type Pos) and whether identifiers were back-quoted. Nil and empty
// slices are equal.
func Equal(a, b Node) bool {
	if isNil(a) || isNil(b) {
		return isNil(a) && isNil(b)
	}
	return equalValue(reflect.ValueOf(a), reflect.ValueOf(b))
}

var identType = reflect.TypeFor[Ident]()

func equalValue(a, b reflect.Value) bool {
	if a.Type() != b.Type() {
		return false
	}
	switch a.Kind() {
	case reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return equalValue(a.Elem(), b.Elem())
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return equalValue(a.Elem(), b.Elem())
	case reflect.Slice:
		if a.Len() != b.Len() {
			return false
		}
		for i := 0; i < a.Len(); i++ {
			if !equalValue(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Struct:
		if a.Type() == posType {
			return true
		}
		for i := 0; i < a.NumField(); i++ {
			if a.Type() == identType && a.Type().Field(i).Name == "Quoted" {
				continue
			}
			if !equalValue(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.Len() != b.Len() {
			return false
		}
		for _, k := range a.MapKeys() {
			bv := b.MapIndex(k)
			if !bv.IsValid() || !equalValue(a.MapIndex(k), bv) {
				return false
			}
		}
		return true
	case reflect.String:
		return a.String() == b.String()
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Uint() == b.Uint()
	case reflect.Float32, reflect.Float64:
		return a.Float() == b.Float()
	}
	return false
}
