// Package validate resolves and type-checks SQL against eddy's catalogs the
// way Flink's validator (Calcite plus Flink's own rules) does.
//
// Scalar expressions: Validator.Expr resolves column references against a
// Scope, infers each expression's Flink type (with nullability and time
// attributes), and returns a rewritten tree whose printed form is Flink's
// expanded text (back-quoted, qualified names; normalized interval units).
// Computed columns and WATERMARK expressions of CREATE TABLE use it.
//
// Queries: Analyzer.Query resolves every name of a query against a
// catalogs.Manager at the time of the statement, expands the views it
// reads (ViewQuery adds the cycle check views need), types every output
// column, produces the expanded query text that CREATE VIEW stores and
// SHOW CREATE VIEW prints (every table fully qualified with an alias,
// every column qualified, SELECT * expanded), and builds the logical plan
// (engine/plan) the executor runs.
//
// Errors carry a position and report Flink's exception class through
// Class(): SqlValidatorException for Calcite's messages, ValidationException
// for Flink's.
//
// It imports engine/ast, engine/types, engine/functions, engine/plan and
// catalogs. It must not import the catalog implementations or engine.
package validate
