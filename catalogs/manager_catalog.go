package catalogs

import (
	"context"
	"maps"
	"slices"
)

// CreateCatalog is CREATE CATALOG: the catalog is made by the factory its
// 'type' option names, its definition saved in the store (so it comes back
// in later sessions), and it is registered. A name in use is
// "Catalog x already exists." unless ignoreIfExists.
func (m *Manager) CreateCatalog(ctx context.Context, desc CatalogDescriptor, ignoreIfExists bool) error {
	m.changes.Lock()
	defer m.changes.Unlock()
	if desc.Name == "" {
		return validation(ErrInvalidIdentifier, "Catalog name cannot be null or empty.")
	}
	exists, err := m.catalogExists(ctx, desc.Name)
	if err != nil {
		return err
	}
	if exists {
		if ignoreIfExists {
			return nil
		}
		return Errorf(ErrCatalogAlreadyExist, "Catalog %s already exists.", desc.Name)
	}
	cat, err := m.openCatalog(ctx, desc)
	if err != nil {
		return err
	}
	if m.store != nil {
		if err := m.store.StoreCatalog(ctx, desc.Copy()); err != nil {
			_ = cat.Close()
			return err
		}
	}
	m.register(desc.Name, &registered{catalog: cat, desc: desc.Copy(), origin: OriginStore})
	return nil
}

// DropCatalog is DROP CATALOG: it unregisters the catalog and removes its
// definition from the store (CM unregisterCatalog). The current catalog
// cannot be dropped. The contents of a persistent catalog stay where they
// are, so creating it again finds them.
func (m *Manager) DropCatalog(ctx context.Context, name string, ignoreIfNotExists bool) error {
	m.changes.Lock()
	defer m.changes.Unlock()
	_, inMemory := m.registeredCatalog(name)
	inStore := false
	if m.store != nil {
		ok, err := m.store.Contains(ctx, name)
		if err != nil {
			return err
		}
		inStore = ok
	}
	if !inMemory && !inStore {
		if ignoreIfNotExists {
			return nil
		}
		return Errorf(ErrCatalogNotExist, "Catalog %s does not exist.", name)
	}
	if cur, _ := m.current(); name == cur {
		return Errorf(ErrCatalogInUse, "Cannot drop a catalog which is currently in use.")
	}
	if inStore {
		if err := m.store.RemoveCatalog(ctx, name, true); err != nil {
			return err
		}
	}
	m.mu.Lock()
	r, ok := m.catalogs[name]
	delete(m.catalogs, name)
	m.mu.Unlock()
	if ok {
		_ = r.catalog.Close()
	}
	// Temporary objects in the dropped catalog's namespace stay, as in Flink:
	// they never depended on the catalog existing.
	return nil
}

// AlterCatalogOptions is ALTER CATALOG c SET (...) / RESET (...): set
// options are added or replaced, reset keys removed, and the catalog is
// made again from the new definition (CM alterCatalog). Only catalogs kept
// in the store can be altered.
func (m *Manager) AlterCatalogOptions(ctx context.Context, name string, set map[string]string, reset []string) error {
	if set == nil && len(reset) == 0 {
		return validation(ErrInvalidOption, "ALTER CATALOG RESET does not support empty key")
	}
	if slices.Contains(reset, OptionType) {
		return validation(ErrInvalidOption, "ALTER CATALOG RESET does not support changing 'type'")
	}
	return m.alterCatalog(ctx, name, func(d *CatalogDescriptor) {
		if d.Options == nil {
			d.Options = map[string]string{}
		}
		maps.Copy(d.Options, set)
		for _, k := range reset {
			delete(d.Options, k)
		}
	})
}

// AlterCatalogComment is ALTER CATALOG c COMMENT '...'.
func (m *Manager) AlterCatalogComment(ctx context.Context, name, comment string) error {
	return m.alterCatalog(ctx, name, func(d *CatalogDescriptor) { d.Comment = comment })
}

func (m *Manager) alterCatalog(ctx context.Context, name string, change func(*CatalogDescriptor)) error {
	m.changes.Lock()
	defer m.changes.Unlock()
	r, ok, err := m.openStored(ctx, name)
	if err != nil {
		return err
	}
	if !ok || r.origin != OriginStore || m.store == nil {
		return Errorf(ErrCatalogNotExist, "Catalog %s does not exist in the catalog store.", name)
	}
	newDesc := r.desc.Copy()
	change(&newDesc)
	cat := r.catalog
	rebuilt := !maps.Equal(newDesc.Options, r.desc.Options)
	if rebuilt {
		if cat, err = m.openCatalog(ctx, newDesc); err != nil {
			return err
		}
	}
	if err := m.store.ReplaceCatalog(ctx, newDesc.Copy()); err != nil {
		if rebuilt {
			_ = cat.Close()
		}
		return err
	}
	m.register(name, &registered{catalog: cat, desc: newDesc, origin: OriginStore})
	if rebuilt {
		_ = r.catalog.Close()
	}
	return nil
}
