package catalogs

import "fmt"

// Messages the engine raises about tables and views by name, with Flink's
// exact texts (catalog-semantics.md §3), so that every caller words them
// the same way.

// DescribeNotExist is DESCRIBE / SHOW COLUMNS of a missing object.
func DescribeNotExist(id Identifier) *Error {
	return ClassErrorf(ErrTableNotExist, "ValidationException",
		"Tables or views with the identifier '%s' doesn't exist.", id.SummaryString())
}

// ShowCreateTableNotExist is SHOW CREATE TABLE of a missing table.
func ShowCreateTableNotExist(id Identifier) *Error {
	return ClassErrorf(ErrTableNotExist, "ValidationException",
		"Could not execute SHOW CREATE TABLE. Table with identifier %s does not exist.", id)
}

// ShowCreateViewNotExist is SHOW CREATE VIEW of a missing view.
func ShowCreateViewNotExist(id Identifier) *Error {
	return ClassErrorf(ErrTableNotExist, "ValidationException",
		"Could not execute SHOW CREATE VIEW. View with identifier %s does not exist.", id)
}

// ShowCreateTableOnView is SHOW CREATE TABLE naming a view.
func ShowCreateTableOnView(id Identifier) *Error {
	return ClassErrorf(ErrWrongKind, "TableException",
		"SHOW CREATE TABLE is only supported for tables, but %s is a view. Please use SHOW CREATE VIEW instead.", id)
}

// ShowCreateViewOnTable is SHOW CREATE VIEW naming a table.
func ShowCreateViewOnTable(id Identifier) *Error {
	return ClassErrorf(ErrWrongKind, "TableException",
		"SHOW CREATE VIEW is only supported for views, but %s is a table. Please use SHOW CREATE TABLE instead.", id)
}

func catalogNotExistValidation(name string) *Error {
	return ClassErrorf(ErrCatalogNotExist, "ValidationException", "Catalog %s does not exist", name)
}

func catalogNotExistValidationPeriod(name string) *Error {
	return ClassErrorf(ErrCatalogNotExist, "ValidationException", "Catalog %s does not exist.", name)
}

// catalogNotExistException is Flink's CatalogNotExistException.
func catalogNotExistException(name string) *Error {
	return ClassErrorf(ErrCatalogNotExist, "CatalogNotExistException", "Catalog %s does not exist.", name)
}

func validation(k *Kind, format string, args ...any) *Error {
	return ClassErrorf(k, "ValidationException", "%s", fmt.Sprintf(format, args...))
}
