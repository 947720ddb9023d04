// Package functions is eddy's registry of Flink's built-in functions: for
// each function its name and synonyms, its kind (scalar, aggregate, window,
// table), the signatures it accepts, how its result type follows from its
// argument types (nullability included), whether it is deterministic, and
// the signature text Flink prints in DESCRIBE FUNCTION and in Calcite's
// validation errors.
//
// It also holds Flink's type rules that functions and operators share:
// common types (LogicalTypeMerging.findCommonType), DECIMAL arithmetic,
// castability (LogicalTypeCasts), and the names Calcite gives types and
// type families in its messages.
//
// Evaluation lives next to the signatures in the kernels_*.go files:
// KernelFor finds the vectorized scalar kernel of a call and
// AggregateKernel the accumulator of an aggregate, both over the column
// vectors of engine/vector.
//
// The registry is a value built by NewRegistry; there is no package-level
// mutable state. It imports engine/types and engine/vector.
package functions
