package catalogs

import (
	"context"
)

// writable returns the catalog for a change, refusing read-only catalogs.
func (m *Manager) writable(name string, r *registered) error {
	if ro, ok := r.catalog.(ReadOnly); ok && ro.ReadOnly() {
		return validation(ErrReadOnly, "Catalog %s is read-only: %s.", name, "it does not support DDL statements")
	}
	return nil
}

// ListDatabases is SHOW DATABASES [FROM c]: the sorted databases of a
// catalog, filtered by f (nil for all).
func (m *Manager) ListDatabases(ctx context.Context, catalog string, f *LikeFilter) ([]string, error) {
	r, err := m.catalogOrValidation(ctx, catalog)
	if err != nil {
		return nil, err
	}
	names, err := r.catalog.ListDatabases(ctx)
	if err != nil {
		return nil, err
	}
	return f.Filter(sortedUnique(names)), nil
}

// GetDatabase returns a database's definition.
func (m *Manager) GetDatabase(ctx context.Context, catalog, name string) (*CatalogDatabase, error) {
	r, err := m.catalogOrValidation(ctx, catalog)
	if err != nil {
		return nil, err
	}
	return r.catalog.GetDatabase(ctx, name)
}

// DatabaseExists reports whether catalog.name exists; a missing catalog
// gives false.
func (m *Manager) DatabaseExists(ctx context.Context, catalog, name string) (bool, error) {
	r, ok, err := m.getCatalog(ctx, catalog)
	if err != nil || !ok {
		return false, err
	}
	return r.catalog.DatabaseExists(ctx, name)
}

// CreateDatabase is CREATE DATABASE [IF NOT EXISTS]. A missing catalog is
// "Catalog my does not exist" (no period, CM getCatalogOrThrowException).
func (m *Manager) CreateDatabase(ctx context.Context, catalog, name string, db *CatalogDatabase, ignoreIfExists bool) error {
	r, err := m.catalogOrValidation(ctx, catalog)
	if err != nil {
		return err
	}
	if err := m.writable(catalog, r); err != nil {
		return err
	}
	if db == nil {
		db = &CatalogDatabase{}
	}
	return r.catalog.CreateDatabase(ctx, name, db, ignoreIfExists)
}

// DropDatabase is DROP DATABASE [IF EXISTS] ... [RESTRICT | CASCADE]. The
// current database cannot be dropped (checked first, as CM dropDatabase
// does).
func (m *Manager) DropDatabase(ctx context.Context, catalog, name string, ignoreIfNotExists, cascade bool) error {
	if curCat, curDB := m.current(); catalog == curCat && name == curDB {
		return validation(ErrDatabaseInUse, "Cannot drop a database which is currently in use.")
	}
	r, ok, err := m.getCatalog(ctx, catalog)
	if err != nil {
		return err
	}
	if !ok {
		return catalogNotExistException(catalog)
	}
	if err := m.writable(catalog, r); err != nil {
		return err
	}
	return r.catalog.DropDatabase(ctx, name, ignoreIfNotExists, cascade)
}

// AlterDatabase is ALTER DATABASE: db replaces the stored definition (the
// engine merges SET options into the old ones first).
func (m *Manager) AlterDatabase(ctx context.Context, catalog, name string, db *CatalogDatabase, ignoreIfNotExists bool) error {
	r, ok, err := m.getCatalog(ctx, catalog)
	if err != nil {
		return err
	}
	if !ok {
		return catalogNotExistException(catalog)
	}
	if err := m.writable(catalog, r); err != nil {
		return err
	}
	return r.catalog.AlterDatabase(ctx, name, db, ignoreIfNotExists)
}
