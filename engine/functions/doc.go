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
// Evaluation is not here yet: the query engine adds vectorized kernels, one
// file per function family next to the signatures, and hangs them on
// Func.Kernel.
//
// The registry is a value built by NewRegistry; there is no package-level
// mutable state. It imports only engine/types.
package functions
