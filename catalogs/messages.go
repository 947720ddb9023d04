package catalogs

import "fmt"

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
