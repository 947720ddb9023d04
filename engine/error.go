package engine

import "eddy/engine/sqlerr"

// The error contract lives in package engine/sqlerr, where the renderer and
// the gateway client import it without the local engine; these aliases keep
// the engine names.
type (
	// Error is how every failed statement reaches the shell.
	Error = sqlerr.Error
	// Classed is implemented by error kinds that know their Flink
	// exception class.
	Classed = sqlerr.Classed
	// Positioned is implemented by errors that point into the statement
	// text.
	Positioned = sqlerr.Positioned
)

// AsError turns any error into an *Error (see sqlerr.As).
func AsError(err error) *Error { return sqlerr.As(err) }

// Errorf builds an *Error of the given class.
func Errorf(class, format string, args ...any) *Error {
	return sqlerr.Errorf(class, format, args...)
}
