package catalogs

import (
	"errors"
	"fmt"
)

// Kind is a kind of catalog error. Kinds are package variables; match them
// with errors.Is(err, catalogs.ErrTableNotExist). A Kind is itself an error
// so that errors.Is works, but functions return *Error values.
type Kind struct {
	name  string
	class string // Flink's short exception class used unless the error overrides it
}

// Error returns the kind's description.
func (k *Kind) Error() string { return k.name }

// NewKind returns a new error kind for packages that implement catalogs
// (a store's own failures); name describes it, class is the Flink
// exception class its errors report.
func NewKind(name, class string) *Kind { return &Kind{name: name, class: class} }

// Class returns the Flink exception class errors of this kind usually carry.
func (k *Kind) Class() string { return k.class }

// Error kinds raised by catalogs, the Manager and the catalog store.
var (
	ErrCatalogNotExist      = &Kind{"catalog does not exist", "CatalogException"}
	ErrCatalogAlreadyExist  = &Kind{"catalog already exists", "CatalogException"}
	ErrCatalogInUse         = &Kind{"catalog in use", "CatalogException"}
	ErrDatabaseNotExist     = &Kind{"database does not exist", "DatabaseNotExistException"}
	ErrDatabaseAlreadyExist = &Kind{"database already exists", "DatabaseAlreadyExistException"}
	ErrDatabaseNotEmpty     = &Kind{"database not empty", "DatabaseNotEmptyException"}
	ErrDatabaseInUse        = &Kind{"database in use", "ValidationException"}
	ErrTableNotExist        = &Kind{"table does not exist", "TableNotExistException"}
	ErrTableAlreadyExist    = &Kind{"table already exists", "TableAlreadyExistException"}
	ErrTemporaryExists      = &Kind{"temporary object shadows permanent object", "ValidationException"}
	ErrWrongKind            = &Kind{"object is a view where a table is expected, or the reverse", "ValidationException"}
	ErrFunctionNotExist     = &Kind{"function does not exist", "FunctionNotExistException"}
	ErrFunctionAlreadyExist = &Kind{"function already exists", "FunctionAlreadyExistException"}
	ErrNoCurrentCatalog     = &Kind{"no current catalog", "ValidationException"}
	ErrNoCurrentDatabase    = &Kind{"no current database", "ValidationException"}
	ErrInvalidIdentifier    = &Kind{"invalid identifier", "ValidationException"}
	ErrUnsupportedType      = &Kind{"unsupported catalog type", "ValidationException"}
	ErrMissingOption        = &Kind{"missing required catalog option", "ValidationException"}
	ErrInvalidOption        = &Kind{"invalid catalog option", "ValidationException"}
	ErrReadOnly             = &Kind{"catalog is read-only", "ValidationException"}
	ErrViewsUnsupported     = &Kind{"view DDL not supported", "ValidationException"}
	ErrUnsupported          = &Kind{"operation not supported", "CatalogException"}
	ErrStore                = &Kind{"catalog store failure", "CatalogException"}
	ErrCatalogOpen          = &Kind{"catalog could not be opened in time", "CatalogException"}
)

// Error is a catalog error: a kind, the Flink exception class and Flink's
// exact message. Error() returns the message alone, as the Flink SQL client
// shows the root cause's message after its class.
type Error struct {
	Kind  *Kind
	class string
	Msg   string
	Cause error // or nil
}

// Error returns the message.
func (e *Error) Error() string { return e.Msg }

// Class returns Flink's short exception class (TableAlreadyExistException,
// ValidationException, ...).
func (e *Error) Class() string {
	if e.class != "" {
		return e.class
	}
	return e.Kind.class
}

// Is reports whether target is the error's kind.
func (e *Error) Is(target error) bool {
	k, ok := target.(*Kind)
	return ok && k == e.Kind
}

// Unwrap returns the cause, if any.
func (e *Error) Unwrap() error { return e.Cause }

// Errorf returns an error of kind k with its default class.
func Errorf(k *Kind, format string, args ...any) *Error {
	return &Error{Kind: k, Msg: fmt.Sprintf(format, args...)}
}

// ClassErrorf returns an error of kind k that reports class instead of the
// kind's default (Flink raises the same situation with different classes
// on different paths, e.g. "Catalog x does not exist" is a
// ValidationException while USE CATALOG raises a CatalogException).
func ClassErrorf(k *Kind, class, format string, args ...any) *Error {
	return &Error{Kind: k, class: class, Msg: fmt.Sprintf(format, args...)}
}

// WrapStore returns a CatalogException of kind ErrStore wrapping a storage
// failure. Catalog errors pass through unchanged.
func WrapStore(err error, format string, args ...any) error {
	if err == nil {
		return nil
	}
	var ce *Error
	if errors.As(err, &ce) {
		return err
	}
	return &Error{Kind: ErrStore, Msg: fmt.Sprintf(format, args...) + ": " + err.Error(), Cause: err}
}

// Constructors for the exceptions Flink's catalogs throw, with their exact
// messages (flink-table-common .../catalog/exceptions/*.java).

// DatabaseNotExist returns "Database %s does not exist in Catalog %s.".
func DatabaseNotExist(catalog, database string) *Error {
	return Errorf(ErrDatabaseNotExist, "Database %s does not exist in Catalog %s.", database, catalog)
}

// DatabaseAlreadyExist returns "Database %s already exists in Catalog %s.".
func DatabaseAlreadyExist(catalog, database string) *Error {
	return Errorf(ErrDatabaseAlreadyExist, "Database %s already exists in Catalog %s.", database, catalog)
}

// DatabaseNotEmpty returns "Database %s in Catalog %s is not empty.".
func DatabaseNotEmpty(catalog, database string) *Error {
	return Errorf(ErrDatabaseNotEmpty, "Database %s in Catalog %s is not empty.", database, catalog)
}

// TableNotExist returns "Table (or view) %s does not exist in Catalog %s.".
func TableNotExist(catalog string, path ObjectPath) *Error {
	return Errorf(ErrTableNotExist, "Table (or view) %s does not exist in Catalog %s.", path.FullName(), catalog)
}

// TableAlreadyExist returns "Table (or view) %s already exists in Catalog %s.".
func TableAlreadyExist(catalog string, path ObjectPath) *Error {
	return Errorf(ErrTableAlreadyExist, "Table (or view) %s already exists in Catalog %s.", path.FullName(), catalog)
}

// FunctionNotExist returns "Function %s does not exist in Catalog %s.".
func FunctionNotExist(catalog string, path ObjectPath) *Error {
	return Errorf(ErrFunctionNotExist, "Function %s does not exist in Catalog %s.", path.FullName(), catalog)
}

// FunctionAlreadyExist returns "Function %s already exists in Catalog %s.".
func FunctionAlreadyExist(catalog string, path ObjectPath) *Error {
	return Errorf(ErrFunctionAlreadyExist, "Function %s already exists in Catalog %s.", path.FullName(), catalog)
}
