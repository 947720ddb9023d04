// Package validate resolves and type-checks SQL against eddy's catalogs the
// way Flink's validator (Calcite plus Flink's own rules) does. This first
// part types scalar expressions: computed columns, WATERMARK expressions
// and, later, every expression of a query. Validator.Expr resolves column
// references against a Scope, infers each expression's Flink type (with
// nullability and time attributes), and returns a rewritten tree whose
// printed form is Flink's expanded text (back-quoted, qualified names;
// normalized interval units).
//
// Errors carry a position and report Flink's exception class through
// Class(): SqlValidatorException for Calcite's messages, ValidationException
// for Flink's.
//
// It imports engine/ast, engine/types and engine/functions (and, as the
// query validator grows, catalogs and engine/plan). It must not import the
// catalog implementations or engine.
package validate
