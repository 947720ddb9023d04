// Package parser reads Flink SQL: a lexer with positions on every token,
// Split (statement boundaries for the REPL, decided by the lexer), and a
// hand-written recursive-descent parser producing engine/ast trees.
//
// Errors are *Error values carrying a position and a message in the shape
// of Flink's generated parser ("Encountered "x" at line L, column C.").
// The package knows nothing of catalogs.
package parser
