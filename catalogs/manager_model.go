package catalogs

import (
	"context"
	"errors"
	"slices"
)

// ModelEntry is a catalog or temporary model found by name.
type ModelEntry struct {
	ID        Identifier
	Model     *CatalogModel // a copy the caller owns
	Temporary bool
}

// GetModel returns the temporary model at id, or else the catalog's model
// (Flink's CatalogManager.getModel). ok is false when there is none, the
// catalog or database included.
func (m *Manager) GetModel(ctx context.Context, id Identifier) (e ModelEntry, ok bool, err error) {
	m.mu.Lock()
	temp, isTemp := m.tempModels[id]
	m.mu.Unlock()
	if isTemp {
		return ModelEntry{ID: id, Model: temp.Copy(), Temporary: true}, true, nil
	}
	r, ok, err := m.getCatalog(ctx, id.Catalog)
	if err != nil || !ok {
		return ModelEntry{}, false, err
	}
	mc, err := modelCatalog(id.Catalog, r, "getModel(ObjectPath)")
	if err != nil {
		return ModelEntry{}, false, err
	}
	model, err := mc.GetModel(ctx, id.Path())
	if errors.Is(err, ErrModelNotExist) || errors.Is(err, ErrDatabaseNotExist) {
		return ModelEntry{}, false, nil
	}
	if err != nil {
		return ModelEntry{}, false, err
	}
	return ModelEntry{ID: id, Model: model}, true, nil
}

// modelCatalogForDDL returns the catalog of id for a change of one of its
// models: it must exist ("Catalog c does not exist."), keep models and be
// writable.
func (m *Manager) modelCatalogForDDL(ctx context.Context, id Identifier, method string) (ModelCatalog, error) {
	r, err := m.catalogForDDL(ctx, id, false)
	if err != nil {
		return nil, err
	}
	return modelCatalog(id.Catalog, r, method)
}

// CreateModel is CREATE MODEL of a catalog model.
func (m *Manager) CreateModel(ctx context.Context, id Identifier, model *CatalogModel, ignoreIfExists bool) error {
	mc, err := m.modelCatalogForDDL(ctx, id, "createModel(ObjectPath, CatalogModel, boolean)")
	if err != nil {
		return err
	}
	return mc.CreateModel(ctx, id.Path(), model, ignoreIfExists)
}

// AlterModel replaces the definition of a catalog model.
func (m *Manager) AlterModel(ctx context.Context, id Identifier, model *CatalogModel, ignoreIfNotExists bool) error {
	mc, err := m.modelCatalogForDDL(ctx, id, "alterModel(ObjectPath, CatalogModel, boolean)")
	if err != nil {
		return err
	}
	return mc.AlterModel(ctx, id.Path(), model, ignoreIfNotExists)
}

// RenameModel renames a catalog model within its database: only the
// object name of the new name counts, as in Flink.
func (m *Manager) RenameModel(ctx context.Context, id Identifier, newName string, ignoreIfNotExists bool) error {
	mc, err := m.modelCatalogForDDL(ctx, id, "renameModel(ObjectPath, String, boolean)")
	if err != nil {
		return err
	}
	return mc.RenameModel(ctx, id.Path(), newName, ignoreIfNotExists)
}

// DropModel is DROP MODEL. As in Flink, it asks the catalog to drop the
// model whenever a model of the name is found, a temporary one included
// (the catalog then answers that its model does not exist); when none is
// found it fails with "Model with identifier '...' does not exist." unless
// ignoreIfNotExists.
func (m *Manager) DropModel(ctx context.Context, id Identifier, ignoreIfNotExists bool) error {
	_, ok, err := m.GetModel(ctx, id)
	if err != nil {
		return err
	}
	if !ok {
		if ignoreIfNotExists {
			return nil
		}
		return validation(ErrModelNotExist, "Model with identifier '%s' does not exist.", id.SummaryString())
	}
	mc, err := m.modelCatalogForDDL(ctx, id, "dropModel(ObjectPath, boolean)")
	if err != nil {
		return err
	}
	return mc.DropModel(ctx, id.Path(), ignoreIfNotExists)
}

// CreateTemporaryModel is CREATE TEMPORARY MODEL. Neither the catalog nor
// the database of id need exist.
func (m *Manager) CreateTemporaryModel(id Identifier, model *CatalogModel, ignoreIfExists bool) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.tempModels[id]; ok {
		if ignoreIfExists {
			return nil
		}
		return validation(ErrModelAlreadyExist, "Temporary model '%s' already exists", id)
	}
	m.tempModels[id] = model.Copy()
	return nil
}

// DropTemporaryModel is DROP TEMPORARY MODEL.
func (m *Manager) DropTemporaryModel(id Identifier, ignoreIfNotExists bool) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.tempModels[id]; ok {
		delete(m.tempModels, id)
		return nil
	}
	if ignoreIfNotExists {
		return nil
	}
	return validation(ErrModelNotExist, "Temporary model with identifier '%s' does not exist.", id.SummaryString())
}

// ListModels is SHOW MODELS: the catalog's models of a database, sorted
// and filtered by f. Temporary models are not listed, as in Flink. A
// missing catalog is "Catalog c does not exist", a missing database the
// catalog's DatabaseNotExistException.
func (m *Manager) ListModels(ctx context.Context, catalog, database string, f *LikeFilter) ([]string, error) {
	r, err := m.catalogOrValidation(ctx, catalog)
	if err != nil {
		return nil, err
	}
	mc, err := modelCatalog(catalog, r, "listModel(String)")
	if err != nil {
		return nil, err
	}
	names, err := mc.ListModels(ctx, database)
	if err != nil {
		return nil, err
	}
	names = slices.Clone(names)
	slices.Sort(names)
	return f.Filter(names), nil
}
