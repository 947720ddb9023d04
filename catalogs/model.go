package catalogs

import (
	"context"
	"fmt"
	"maps"
	"slices"
)

// CatalogModel is a model's stored definition (Flink's CatalogModel): the
// columns the model takes and gives, its options (the provider and its
// settings) and a comment. Input and Output hold physical columns only.
type CatalogModel struct {
	Input   []Column
	Output  []Column
	Options map[string]string // or nil
	Comment string
}

// Copy returns a deep copy.
func (m *CatalogModel) Copy() *CatalogModel {
	if m == nil {
		return nil
	}
	return &CatalogModel{Input: slices.Clone(m.Input), Output: slices.Clone(m.Output),
		Options: maps.Clone(m.Options), Comment: m.Comment}
}

// ModelCatalog is implemented by catalogs that keep models (Flink's
// Catalog model methods, which GenericInMemoryCatalog implements). The
// Manager answers for a catalog that does not implement it, in one place,
// as Flink's Catalog defaults do: the operation is not implemented.
// A missing model is ErrModelNotExist (ModelNotExist), an existing one
// ErrModelAlreadyExist (ModelAlreadyExist), a missing database
// ErrDatabaseNotExist. Models are a namespace of their own: a model may
// share its name with a table.
type ModelCatalog interface {
	Catalog
	// ListModels returns the model names of a database, sorted.
	ListModels(ctx context.Context, database string) ([]string, error)
	GetModel(ctx context.Context, path ObjectPath) (*CatalogModel, error)
	ModelExists(ctx context.Context, path ObjectPath) (bool, error)
	CreateModel(ctx context.Context, path ObjectPath, model *CatalogModel, ignoreIfExists bool) error
	// AlterModel replaces a model's definition.
	AlterModel(ctx context.Context, path ObjectPath, model *CatalogModel, ignoreIfNotExists bool) error
	// RenameModel renames within the database of path.
	RenameModel(ctx context.Context, path ObjectPath, newName string, ignoreIfNotExists bool) error
	DropModel(ctx context.Context, path ObjectPath, ignoreIfNotExists bool) error
}

// Error kinds of models.
var (
	ErrModelNotExist     = &Kind{"model does not exist", "ModelNotExistException"}
	ErrModelAlreadyExist = &Kind{"model already exists", "ModelAlreadyExistException"}
	// ErrModelsUnsupported is the kind of a model operation on a catalog
	// that keeps no models.
	ErrModelsUnsupported = &Kind{"catalog keeps no models", "UnsupportedOperationException"}
)

// ModelNotExist returns "Model '`c`.`d`.`m`' does not exist." (Flink's
// ModelNotExistException).
func ModelNotExist(catalog string, path ObjectPath) *Error {
	return Errorf(ErrModelNotExist, "Model '%s.%s.%s' does not exist.", quote(catalog), quote(path.Database), quote(path.Object))
}

// ModelAlreadyExist returns "Model d.m already exists in Catalog c."
// (Flink's ModelAlreadyExistException).
func ModelAlreadyExist(catalog string, path ObjectPath) *Error {
	return Errorf(ErrModelAlreadyExist, "Model %s already exists in Catalog %s.", path.FullName(), catalog)
}

// modelsUnsupported is the error of a model operation on a catalog that
// keeps none: Flink's Catalog default methods throw
// "<method> is not implemented for <catalog class>.".
func modelsUnsupported(method, name string, c Catalog) *Error {
	what := fmt.Sprintf("catalog '%s'", name)
	if t, ok := c.(Typed); ok {
		what = fmt.Sprintf("%s catalog '%s'", t.Type(), name)
	}
	return Errorf(ErrModelsUnsupported, "%s is not implemented for %s: it keeps no models.", method, what)
}

// modelCatalog returns the catalog as a ModelCatalog, or the "not
// implemented" error of method.
func modelCatalog(name string, r *registered, method string) (ModelCatalog, error) {
	if mc, ok := r.catalog.(ModelCatalog); ok {
		return mc, nil
	}
	return nil, modelsUnsupported(method, name, r.catalog)
}
