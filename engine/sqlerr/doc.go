// Package sqlerr is the error contract of a statement: Error carries
// Flink's short exception class name (the constants of this package, such
// as ValidationException), the root-cause message and the position in the
// statement text; As turns any error into one, asking error kinds that know
// their class (Classed) and position (Positioned).
//
// Whatever runs a statement (the local engine, the Flink SQL Gateway client
// in engine/gateway) answers failures with an *Error, and repl/render
// prints it as "Class: Message". The package imports nothing of eddy, so
// those packages use it without linking the local engine. Package engine
// keeps aliases (engine.Error, engine.AsError, engine.Errorf).
package sqlerr
