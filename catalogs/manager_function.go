package catalogs

import (
	"context"
	"errors"
	"slices"
	"strings"
)

// Function names are case-insensitive in Flink: FunctionIdentifier
// normalizes them to lower case, for catalog and temporary functions alike.
func normalizeFunction(id Identifier) Identifier {
	id.Object = strings.ToLower(id.Object)
	return id
}

// FunctionEntry is a catalog or temporary function found by name.
type FunctionEntry struct {
	ID        Identifier // Catalog and Database empty for a temporary system function
	Function  *CatalogFunction
	Temporary bool
	System    bool
}

// CreateFunction is CREATE FUNCTION of a catalog function.
func (m *Manager) CreateFunction(ctx context.Context, id Identifier, fn *CatalogFunction, ignoreIfExists bool) error {
	r, err := m.catalogForDDL(ctx, id, false)
	if err != nil {
		return err
	}
	return r.catalog.CreateFunction(ctx, normalizeFunction(id).Path(), fn, ignoreIfExists)
}

// AlterFunction is ALTER FUNCTION of a catalog function.
func (m *Manager) AlterFunction(ctx context.Context, id Identifier, fn *CatalogFunction, ignoreIfNotExists bool) error {
	r, err := m.catalogForDDL(ctx, id, false)
	if err != nil {
		return err
	}
	return r.catalog.AlterFunction(ctx, normalizeFunction(id).Path(), fn, ignoreIfNotExists)
}

// DropFunction is DROP FUNCTION of a catalog function.
func (m *Manager) DropFunction(ctx context.Context, id Identifier, ignoreIfNotExists bool) error {
	r, err := m.catalogForDDL(ctx, id, false)
	if err != nil {
		return err
	}
	return r.catalog.DropFunction(ctx, normalizeFunction(id).Path(), ignoreIfNotExists)
}

// CreateTemporaryFunction is CREATE TEMPORARY FUNCTION (a temporary
// catalog function).
func (m *Manager) CreateTemporaryFunction(id Identifier, fn *CatalogFunction, ignoreIfExists bool) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := normalizeFunction(id)
	if _, ok := m.tempFunctions[n]; ok {
		if ignoreIfExists {
			return nil
		}
		return validation(ErrFunctionAlreadyExist,
			"Could not register temporary catalog function. A function '%s' does already exist.", id.SummaryString())
	}
	m.tempFunctions[n] = fn.Copy()
	return nil
}

// DropTemporaryFunction is DROP TEMPORARY FUNCTION.
func (m *Manager) DropTemporaryFunction(id Identifier, ignoreIfNotExists bool) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := normalizeFunction(id)
	if _, ok := m.tempFunctions[n]; ok {
		delete(m.tempFunctions, n)
		return nil
	}
	if ignoreIfNotExists {
		return nil
	}
	return validation(ErrFunctionNotExist, "Temporary catalog function %s doesn't exist", id)
}

// CreateTemporarySystemFunction is CREATE TEMPORARY SYSTEM FUNCTION.
func (m *Manager) CreateTemporarySystemFunction(name string, fn *CatalogFunction, ignoreIfExists bool) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	key := strings.ToLower(name)
	if _, ok := m.systemFunctions[key]; ok {
		if ignoreIfExists {
			return nil
		}
		return validation(ErrFunctionAlreadyExist,
			"Could not register temporary system function. A function named '%s' does already exist.", name)
	}
	m.systemFunctions[key] = fn.Copy()
	return nil
}

// DropTemporarySystemFunction is DROP TEMPORARY SYSTEM FUNCTION.
func (m *Manager) DropTemporarySystemFunction(name string, ignoreIfNotExists bool) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	key := strings.ToLower(name)
	if _, ok := m.systemFunctions[key]; ok {
		delete(m.systemFunctions, key)
		return nil
	}
	if ignoreIfNotExists {
		return nil
	}
	return validation(ErrFunctionNotExist,
		"Could not drop temporary system function. A function named '%s' doesn't exist.", name)
}

// GetTemporarySystemFunction returns a temporary system function by name
// (case-insensitive); ok is false when there is none.
func (m *Manager) GetTemporarySystemFunction(name string) (FunctionEntry, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	key := strings.ToLower(name)
	fn, ok := m.systemFunctions[key]
	if !ok {
		return FunctionEntry{}, false
	}
	return FunctionEntry{ID: Identifier{Object: key}, Function: fn.Copy(), Temporary: true, System: true}, true
}

// GetFunction returns the temporary catalog function at id, or else the
// catalog function. A missing one is ErrFunctionNotExist.
func (m *Manager) GetFunction(ctx context.Context, id Identifier) (FunctionEntry, error) {
	n := normalizeFunction(id)
	m.mu.Lock()
	temp, ok := m.tempFunctions[n]
	m.mu.Unlock()
	if ok {
		return FunctionEntry{ID: n, Function: temp.Copy(), Temporary: true}, nil
	}
	r, ok, err := m.getCatalog(ctx, id.Catalog)
	if err != nil {
		return FunctionEntry{}, err
	}
	if !ok {
		return FunctionEntry{}, FunctionNotExist(id.Catalog, n.Path())
	}
	fn, err := r.catalog.GetFunction(ctx, n.Path())
	if err != nil {
		if errors.Is(err, ErrDatabaseNotExist) {
			return FunctionEntry{}, FunctionNotExist(id.Catalog, n.Path())
		}
		return FunctionEntry{}, err
	}
	return FunctionEntry{ID: n, Function: fn}, nil
}

// ListUserFunctions is SHOW USER FUNCTIONS: temporary system functions,
// the temporary catalog functions of the namespace and the catalog's
// functions of the database, sorted and filtered by f.
func (m *Manager) ListUserFunctions(ctx context.Context, catalog, database string, f *LikeFilter) ([]string, error) {
	r, err := m.catalogOrValidation(ctx, catalog)
	if err != nil {
		return nil, err
	}
	names, err := r.catalog.ListFunctions(ctx, database)
	if errors.Is(err, ErrDatabaseNotExist) {
		return nil, &Error{Kind: ErrDatabaseNotExist, class: "ValidationException",
			Msg: "Database " + database + " does not exist", Cause: err}
	}
	if err != nil {
		return nil, err
	}
	names = slices.Clone(names)
	m.mu.Lock()
	for k := range m.systemFunctions {
		names = append(names, k)
	}
	for id := range m.tempFunctions {
		if id.Catalog == catalog && id.Database == database {
			names = append(names, id.Object)
		}
	}
	m.mu.Unlock()
	return f.Filter(sortedUnique(names)), nil
}
