package catalogs

import (
	"context"
	"maps"
	"slices"
	"strings"
	"sync"
)

// Origin says where a registered catalog came from.
type Origin uint8

// Catalog origins.
const (
	OriginBuiltIn Origin = iota + 1 // registered by the program (default_catalog)
	OriginConfig                    // declared in the YAML configuration
	OriginStore                     // made with CREATE CATALOG, kept in the CatalogStore
)

// String returns built-in, configuration or CREATE CATALOG.
func (o Origin) String() string {
	switch o {
	case OriginConfig:
		return "configuration"
	case OriginStore:
		return "CREATE CATALOG"
	}
	return "built-in"
}

type registered struct {
	catalog Catalog
	desc    CatalogDescriptor
	origin  Origin
}

// CatalogInfo describes a registered catalog for SHOW CREATE CATALOG and
// DESCRIBE CATALOG.
type CatalogInfo struct {
	Descriptor CatalogDescriptor // options include 'type'
	Origin     Origin
}

// Manager is one session's view of the catalogs (Flink's CatalogManager):
// registered catalogs, the current catalog and database, the session's
// temporary tables, views and functions, and name resolution. Each method
// that changes something applies whole or not at all. A Manager is safe for
// use by several goroutines, but it is meant for one session.
type Manager struct {
	mu        sync.Mutex
	factories map[string]Factory
	store     CatalogStore // or nil: CREATE CATALOG definitions then last for the session

	catalogs        map[string]*registered
	currentCatalog  string
	currentDatabase string

	temporary       map[Identifier]BaseTable
	tempFunctions   map[Identifier]*CatalogFunction
	systemFunctions map[string]*CatalogFunction // keyed by lower-case name
}

// NewManager returns a Manager that makes catalogs with the given factories
// (keyed by type) and keeps CREATE CATALOG definitions in store (nil for
// none). No catalog is registered and none is current.
func NewManager(factories map[string]Factory, store CatalogStore) *Manager {
	return &Manager{
		factories:       maps.Clone(factories),
		store:           store,
		catalogs:        map[string]*registered{},
		temporary:       map[Identifier]BaseTable{},
		tempFunctions:   map[Identifier]*CatalogFunction{},
		systemFunctions: map[string]*CatalogFunction{},
	}
}

// Close closes every registered catalog.
func (m *Manager) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	var first error
	for _, r := range m.catalogs {
		if err := r.catalog.Close(); err != nil && first == nil {
			first = err
		}
	}
	m.catalogs = map[string]*registered{}
	return first
}

// SupportedTypes returns the catalog types the factories serve, sorted.
func (m *Manager) SupportedTypes() []string {
	return slices.Sorted(maps.Keys(m.factories))
}

// NewCatalog makes a catalog from a descriptor through the factory its
// 'type' option names, without registering it.
func (m *Manager) NewCatalog(desc CatalogDescriptor) (Catalog, error) {
	typ, ok := desc.Options[OptionType]
	supported := strings.Join(m.SupportedTypes(), ", ")
	if !ok || typ == "" {
		return nil, validation(ErrMissingOption,
			"Catalog '%s' has no 'type' option. Supported catalog types are: %s", desc.Name, supported)
	}
	f, ok := m.factories[typ]
	if !ok {
		return nil, validation(ErrUnsupportedType,
			"Unsupported catalog type '%s' for catalog '%s'. Supported catalog types are: %s", typ, desc.Name, supported)
	}
	opts := maps.Clone(desc.Options)
	delete(opts, OptionType)
	if opts == nil {
		opts = map[string]string{}
	}
	return f.Create(desc.Name, opts)
}

// RegisterCatalog registers a catalog of the program (OriginBuiltIn) or of
// the configuration (OriginConfig) for this session; it is not written to
// the store. With cat nil the catalog is made from desc by its factory.
// A name already registered, or kept in the store by CREATE CATALOG, is
// ErrCatalogAlreadyExist naming both.
func (m *Manager) RegisterCatalog(ctx context.Context, desc CatalogDescriptor, cat Catalog, origin Origin) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	name := desc.Name
	if name == "" {
		return validation(ErrInvalidIdentifier, "Catalog name cannot be null or empty.")
	}
	if r, ok := m.catalogs[name]; ok {
		return Errorf(ErrCatalogAlreadyExist, "Catalog %s already exists: the %s catalog %s clashes with the %s catalog of that name.",
			name, origin, name, r.origin)
	}
	if m.store != nil {
		ok, err := m.store.Contains(ctx, name)
		if err != nil {
			return err
		}
		if ok {
			return Errorf(ErrCatalogAlreadyExist,
				"Catalog %s already exists: the %s catalog %s clashes with the catalog %s made by CREATE CATALOG and kept in the store.",
				name, origin, name, name)
		}
	}
	if cat == nil {
		c, err := m.NewCatalog(desc)
		if err != nil {
			return err
		}
		cat = c
	}
	m.catalogs[name] = &registered{catalog: cat, desc: desc.Copy(), origin: origin}
	return nil
}

// getCatalog returns a registered catalog, opening one kept in the store on
// first use (CM getCatalog). ok is false when there is none.
func (m *Manager) getCatalog(ctx context.Context, name string) (*registered, bool, error) {
	if r, ok := m.catalogs[name]; ok {
		return r, true, nil
	}
	if m.store == nil || name == "" {
		return nil, false, nil
	}
	desc, ok, err := m.store.GetCatalog(ctx, name)
	if err != nil || !ok {
		return nil, false, err
	}
	cat, err := m.NewCatalog(desc)
	if err != nil {
		return nil, false, err
	}
	r := &registered{catalog: cat, desc: desc, origin: OriginStore}
	m.catalogs[name] = r
	return r, true, nil
}

// catalogOrValidation is CM getCatalogOrThrowException: "Catalog x does not exist".
func (m *Manager) catalogOrValidation(ctx context.Context, name string) (*registered, error) {
	r, ok, err := m.getCatalog(ctx, name)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, catalogNotExistValidation(name)
	}
	return r, nil
}

// Catalog returns the registered catalog named name, opening a stored one
// on first use. A missing catalog is ErrCatalogNotExist
// ("Catalog x does not exist", ValidationException).
func (m *Manager) Catalog(ctx context.Context, name string) (Catalog, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, err := m.catalogOrValidation(ctx, name)
	if err != nil {
		return nil, err
	}
	return r.catalog, nil
}

// CatalogExists reports whether a catalog is registered or stored.
func (m *Manager) CatalogExists(ctx context.Context, name string) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.catalogExists(ctx, name)
}

func (m *Manager) catalogExists(ctx context.Context, name string) (bool, error) {
	if _, ok := m.catalogs[name]; ok {
		return true, nil
	}
	if m.store == nil {
		return false, nil
	}
	return m.store.Contains(ctx, name)
}

// DescribeCatalog returns a catalog's definition and origin.
func (m *Manager) DescribeCatalog(ctx context.Context, name string) (CatalogInfo, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, err := m.catalogOrValidation(ctx, name)
	if err != nil {
		return CatalogInfo{}, err
	}
	return CatalogInfo{Descriptor: r.desc.Copy(), Origin: r.origin}, nil
}

// ListCatalogs returns the registered and stored catalog names sorted,
// filtered by f (nil for all).
func (m *Manager) ListCatalogs(ctx context.Context, f *LikeFilter) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	names := slices.Collect(maps.Keys(m.catalogs))
	if m.store != nil {
		stored, err := m.store.ListCatalogs(ctx)
		if err != nil {
			return nil, err
		}
		names = append(names, stored...)
	}
	return f.Filter(sortedUnique(names)), nil
}

// CurrentCatalog returns the current catalog name, or "" when none is set.
func (m *Manager) CurrentCatalog() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.currentCatalog
}

// CurrentDatabase returns the current database name, or "" when none is set.
func (m *Manager) CurrentDatabase() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.currentDatabase
}

// SetCurrentCatalog is USE CATALOG: it switches the catalog and, when the
// catalog changes, resets the current database to the catalog's default
// database (CM setCurrentCatalog).
func (m *Manager) SetCurrentCatalog(ctx context.Context, name string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.setCurrentCatalog(ctx, name)
}

func (m *Manager) setCurrentCatalog(ctx context.Context, name string) error {
	r, ok, err := m.getCatalog(ctx, name)
	if err != nil {
		return err
	}
	if !ok {
		return Errorf(ErrCatalogNotExist, "A catalog with name [%s] does not exist.", name)
	}
	if name != m.currentCatalog {
		m.currentCatalog = name
		m.currentDatabase = r.catalog.DefaultDatabase()
	}
	return nil
}

// SetCurrentDatabase is USE db: the database must exist in the current
// catalog (CM setCurrentDatabase).
func (m *Manager) SetCurrentDatabase(ctx context.Context, name string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.setCurrentDatabase(ctx, name)
}

func (m *Manager) setCurrentDatabase(ctx context.Context, name string) error {
	if m.currentCatalog == "" {
		return Errorf(ErrNoCurrentCatalog, "Current catalog has not been set.")
	}
	r, err := m.catalogOrValidation(ctx, m.currentCatalog)
	if err != nil {
		return err
	}
	ok, err := r.catalog.DatabaseExists(ctx, name)
	if err != nil {
		return err
	}
	if !ok {
		return ClassErrorf(ErrDatabaseNotExist, "CatalogException",
			"A database with name [%s] does not exist in the catalog: [%s].", name, m.currentCatalog)
	}
	m.currentDatabase = name
	return nil
}

// Use is USE [catalog.]database: with a catalog it switches catalog and
// database together, and on failure leaves both as they were.
func (m *Manager) Use(ctx context.Context, catalog, database string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	oldCat, oldDB := m.currentCatalog, m.currentDatabase
	if catalog != "" {
		if err := m.setCurrentCatalog(ctx, catalog); err != nil {
			return err
		}
	}
	if err := m.setCurrentDatabase(ctx, database); err != nil {
		m.currentCatalog, m.currentDatabase = oldCat, oldDB
		return err
	}
	return nil
}

// UnsetCurrent clears the current catalog and database (Flink's
// setCurrentCatalog(null)); names then need full qualification.
func (m *Manager) UnsetCurrent() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.currentCatalog, m.currentDatabase = "", ""
}
