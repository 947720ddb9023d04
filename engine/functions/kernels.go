package functions

import (
	"fmt"
	"strings"
	"time"

	"eddy/engine/types"
	"eddy/engine/vector"
)

// Env is what kernels may read besides their arguments: the session's
// local time zone (table.local-time-zone) and the statement's start time
// (CURRENT_TIMESTAMP and friends are constant within a statement in batch
// mode).
type Env struct {
	Loc *time.Location
	Now time.Time
	// Catalog and Database are the session's current catalog and
	// database (CURRENT_CATALOG, CURRENT_DATABASE).
	Catalog, Database string
}

// ScalarKernel evaluates a scalar function or operator over n rows: one
// vector per argument (each of length n) in, a new vector of the result
// type out.
type ScalarKernel func(env *Env, args []*vector.Vec, n int) (*vector.Vec, error)

// EvalError is a failure while evaluating a function on a value (division
// by zero, a string that does not parse). Class is the Java exception
// class Flink reports (ArithmeticException, NumberFormatException, ...).
type EvalError struct {
	Exception string
	Msg       string
}

// Error returns the exception's message. The SQL client shows the root
// cause of a failed job ("java.lang.ArithmeticException: / by zero"), and
// eddy prints class names without their Java package, so the message
// travels apart from Class.
func (e *EvalError) Error() string { return e.Msg }

// Class returns the root-cause exception class Flink reports for the failed
// job (ArithmeticException, NumberFormatException, ...), as
// types.CastError does for a failed CAST.
func (e *EvalError) Class() string { return e.Exception }

// UnsupportedError says no kernel exists for a call.
type UnsupportedError struct {
	Name string
	Args []*types.Type
}

func (e *UnsupportedError) Error() string {
	args := make([]string, len(e.Args))
	for i, a := range e.Args {
		args[i] = a.String()
	}
	return fmt.Sprintf("Function %s(%s) is not supported by eddy's engine yet", e.Name, strings.Join(args, ", "))
}

// Class returns Flink's exception class for an unsupported call.
func (e *UnsupportedError) Class() string { return "TableException" }

// KernelFor returns the implementation of a scalar function (by its
// registry name or synonym) or operator (the plan's operator names: "+",
// "=", "AND", "IS NULL", ...) for arguments of the given types and the
// validated result type ret.
func KernelFor(name string, args []*types.Type, ret *types.Type) (ScalarKernel, error) {
	name = strings.ToUpper(name)
	if k := operatorKernel(name, args, ret); k != nil {
		return k, nil
	}
	if k := mathKernel(name, args, ret); k != nil {
		return k, nil
	}
	if k := stringKernel(name, args, ret); k != nil {
		return k, nil
	}
	if k := condKernel(name, args, ret); k != nil {
		return k, nil
	}
	if k := temporalKernel(name, args, ret); k != nil {
		return k, nil
	}
	if k := collectionKernel(name, args, ret); k != nil {
		return k, nil
	}
	if k := miscKernel(name, args, ret); k != nil {
		return k, nil
	}
	if k := jsonKernel(name, args, ret); k != nil {
		return k, nil
	}
	return nil, &UnsupportedError{Name: name, Args: args}
}

// RowFunc computes one row of a strict function from non-null engine
// values.
type RowFunc func(env *Env, args []any) (any, error)

// strict lifts a row function into a kernel: a NULL argument gives NULL.
// It boxes values, so it serves the functions off the hot paths.
func strict(ret *types.Type, fn RowFunc) ScalarKernel {
	return func(env *Env, args []*vector.Vec, n int) (*vector.Vec, error) {
		out := vector.New(ret, n)
		vals := make([]any, len(args))
	rows:
		for i := range n {
			for j, a := range args {
				if a.IsNull(i) {
					out.AppendNull()
					continue rows
				}
				vals[j] = a.Get(i)
			}
			v, err := fn(env, vals)
			if err != nil {
				return nil, err
			}
			out.Append(v)
		}
		return out, nil
	}
}

// lenient lifts a row function that sees NULL arguments as nil.
func lenient(ret *types.Type, fn RowFunc) ScalarKernel {
	return func(env *Env, args []*vector.Vec, n int) (*vector.Vec, error) {
		out := vector.New(ret, n)
		vals := make([]any, len(args))
		for i := range n {
			for j, a := range args {
				vals[j] = a.Get(i)
			}
			v, err := fn(env, vals)
			if err != nil {
				return nil, err
			}
			out.Append(v)
		}
		return out, nil
	}
}

// unionNulls returns the OR of the argument null bitmaps (nil: none).
func unionNulls(args []*vector.Vec, n int) []uint64 {
	var out []uint64
	for _, a := range args {
		nb := a.Nulls()
		if nb == nil {
			continue
		}
		if out == nil {
			out = make([]uint64, (n+63)>>6)
		}
		for w := range out {
			if w < len(nb) {
				out[w] |= nb[w]
			}
		}
	}
	return out
}
