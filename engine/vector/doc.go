// Package vector holds eddy's columnar batches: typed column vectors with
// a null bitmap, and batches of them with a row-kind vector. Operators of
// engine/exec exchange batches; function kernels of engine/functions
// compute over vectors; connectors fill them. A vector stores each type in
// one of a few physical classes (int64 for every integer-like type,
// float64 for FLOAT and DOUBLE, ...) so kernels need not be written per
// type; values leave a vector in their engine form (see engine/types
// value.go) only at the edges (Get, Append).
//
// It imports only engine/types; it must not import plan, exec, functions
// or connectors.
package vector
