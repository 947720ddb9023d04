package catalogs

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"
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
// temporary tables, views, functions and models, and name resolution. Each method
// that changes something applies whole or not at all. A Manager is safe
// for use by several goroutines, but it is meant for one session, whose
// statements run one at a time while completion and jobs read.
//
// The Manager never holds its lock while it calls a catalog, a factory or
// the store, so a slow or remote catalog delays only the calls that use
// it. Changes to the set of catalogs (register, CREATE, DROP and ALTER
// CATALOG, opening a stored catalog on first use) are serialized among
// themselves. Other changes check and then act in separate steps: two
// goroutines changing the same object at once may interleave, as two
// sessions sharing a catalog may. A catalog dropped while another
// goroutine is still using it is closed under that use, as a table
// dropped under a running query would be.
type Manager struct {
	factories   map[string]Factory // fixed by NewManager
	store       CatalogStore       // or nil: CREATE CATALOG definitions then last for the session
	openTimeout time.Duration      // fixed by NewManager

	// changes serializes changes to the set of catalogs; it is held across
	// store and factory calls, and taken before mu.
	changes sync.Mutex

	// mu guards the fields below and nothing else: it is held only while
	// they are read or written.
	mu              sync.Mutex
	catalogs        map[string]*registered // entries are replaced, never changed
	currentCatalog  string
	currentDatabase string

	temporary       map[Identifier]BaseTable
	tempFunctions   map[Identifier]*CatalogFunction
	systemFunctions map[string]*CatalogFunction // keyed by lower-case name
	tempModels      map[Identifier]*CatalogModel
}

// DefaultOpenTimeout bounds how long a factory may take to open a catalog
// (connect to a metastore, a REST service, a database) unless the Manager
// is given another bound with WithOpenTimeout.
const DefaultOpenTimeout = 10 * time.Second

// ManagerOption changes a Manager made by NewManager.
type ManagerOption func(*Manager)

// WithOpenTimeout bounds each catalog open by d instead of
// DefaultOpenTimeout; d <= 0 keeps the default.
func WithOpenTimeout(d time.Duration) ManagerOption {
	return func(m *Manager) {
		if d > 0 {
			m.openTimeout = d
		}
	}
}

// NewManager returns a Manager that makes catalogs with the given factories
// (keyed by type) and keeps CREATE CATALOG definitions in store (nil for
// none). No catalog is registered and none is current.
func NewManager(factories map[string]Factory, store CatalogStore, opts ...ManagerOption) *Manager {
	m := &Manager{
		factories:       maps.Clone(factories),
		store:           store,
		openTimeout:     DefaultOpenTimeout,
		catalogs:        map[string]*registered{},
		temporary:       map[Identifier]BaseTable{},
		tempFunctions:   map[Identifier]*CatalogFunction{},
		systemFunctions: map[string]*CatalogFunction{},
		tempModels:      map[Identifier]*CatalogModel{},
	}
	for _, o := range opts {
		o(m)
	}
	return m
}

// OpenTimeout returns the bound on each catalog open.
func (m *Manager) OpenTimeout() time.Duration { return m.openTimeout }

// Close closes every registered catalog.
func (m *Manager) Close() error {
	m.changes.Lock()
	defer m.changes.Unlock()
	m.mu.Lock()
	regs := m.catalogs
	m.catalogs = map[string]*registered{}
	m.mu.Unlock()
	var first error
	for _, r := range regs {
		if err := r.catalog.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// SupportedTypes returns the catalog types the factories serve, sorted.
func (m *Manager) SupportedTypes() []string {
	return slices.Sorted(maps.Keys(m.factories))
}

// openCatalog makes a catalog from a descriptor through the factory its
// 'type' option names, without registering it. The factory gets a context
// that ends after the open timeout; a factory that does not return by then
// is abandoned (the catalog it returns later is closed) and the open fails
// with ErrCatalogOpen.
func (m *Manager) openCatalog(ctx context.Context, desc CatalogDescriptor) (Catalog, error) {
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
	return openWithin(ctx, m.openTimeout, f, desc.Name, opts)
}

// openWithin calls f.Open with a context that ends after timeout and
// returns by then whether or not the factory does.
func openWithin(ctx context.Context, timeout time.Duration, f Factory, name string, opts map[string]string) (Catalog, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	type opened struct {
		cat      Catalog
		err      error
		panic    any
		panicked bool
	}
	done := make(chan opened, 1)
	go func() {
		o := opened{panicked: true}
		defer func() {
			if o.panicked {
				o.panic = recover()
			}
			done <- o
		}()
		o.cat, o.err = f.Open(ctx, name, opts)
		o.panicked = false
	}()
	select {
	case o := <-done:
		if o.panicked {
			// A factory's panic surfaces where it would have without the
			// deadline: in the caller, which may recover it.
			panic(o.panic)
		}
		if o.err != nil && ctx.Err() != nil {
			return nil, openFailed(ctx, name, f.Type(), timeout, o.err)
		}
		return o.cat, o.err
	case <-ctx.Done():
		go func() {
			// The factory ignored its context: close what it makes.
			if o := <-done; o.err == nil && o.cat != nil {
				_ = o.cat.Close()
			}
		}()
		return nil, openFailed(ctx, name, f.Type(), timeout, ctx.Err())
	}
}

// openFailed is the error of an open cut short by its deadline or by the
// caller's cancellation.
func openFailed(ctx context.Context, name, typ string, timeout time.Duration, cause error) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return &Error{Kind: ErrCatalogOpen, Cause: cause,
			Msg: fmt.Sprintf("Could not open catalog '%s' of type '%s' within %s: %v", name, typ, timeout, cause)}
	}
	return &Error{Kind: ErrCatalogOpen, Cause: cause,
		Msg: fmt.Sprintf("Opening catalog '%s' of type '%s' was cancelled: %v", name, typ, cause)}
}

// registeredCatalog returns the catalog registered under name, without
// opening a stored one.
func (m *Manager) registeredCatalog(name string) (*registered, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.catalogs[name]
	return r, ok
}

// register records r under name.
func (m *Manager) register(name string, r *registered) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.catalogs[name] = r
}

// RegisterCatalog registers a catalog of the program (OriginBuiltIn) or of
// the configuration (OriginConfig) for this session; it is not written to
// the store. With cat nil the catalog is made from desc by its factory.
// A name already registered, or kept in the store by CREATE CATALOG, is
// ErrCatalogAlreadyExist naming both.
func (m *Manager) RegisterCatalog(ctx context.Context, desc CatalogDescriptor, cat Catalog, origin Origin) error {
	m.changes.Lock()
	defer m.changes.Unlock()
	name := desc.Name
	if name == "" {
		return validation(ErrInvalidIdentifier, "Catalog name cannot be null or empty.")
	}
	if r, ok := m.registeredCatalog(name); ok {
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
		c, err := m.openCatalog(ctx, desc)
		if err != nil {
			return err
		}
		cat = c
	}
	m.register(name, &registered{catalog: cat, desc: desc.Copy(), origin: origin})
	return nil
}

// getCatalog returns a registered catalog, opening one kept in the store on
// first use (CM getCatalog). ok is false when there is none.
func (m *Manager) getCatalog(ctx context.Context, name string) (*registered, bool, error) {
	if r, ok := m.registeredCatalog(name); ok {
		return r, true, nil
	}
	if m.store == nil || name == "" {
		return nil, false, nil
	}
	m.changes.Lock()
	defer m.changes.Unlock()
	return m.openStored(ctx, name)
}

// openStored is getCatalog for a caller holding m.changes.
func (m *Manager) openStored(ctx context.Context, name string) (*registered, bool, error) {
	if r, ok := m.registeredCatalog(name); ok {
		return r, true, nil
	}
	if m.store == nil || name == "" {
		return nil, false, nil
	}
	desc, ok, err := m.store.GetCatalog(ctx, name)
	if err != nil || !ok {
		return nil, false, err
	}
	cat, err := m.openCatalog(ctx, desc)
	if err != nil {
		return nil, false, err
	}
	r := &registered{catalog: cat, desc: desc, origin: OriginStore}
	m.register(name, r)
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
	r, err := m.catalogOrValidation(ctx, name)
	if err != nil {
		return nil, err
	}
	return r.catalog, nil
}

// CatalogExists reports whether a catalog is registered or stored.
func (m *Manager) CatalogExists(ctx context.Context, name string) (bool, error) {
	return m.catalogExists(ctx, name)
}

func (m *Manager) catalogExists(ctx context.Context, name string) (bool, error) {
	if _, ok := m.registeredCatalog(name); ok {
		return true, nil
	}
	if m.store == nil {
		return false, nil
	}
	return m.store.Contains(ctx, name)
}

// DescribeCatalog returns a catalog's definition and origin.
func (m *Manager) DescribeCatalog(ctx context.Context, name string) (CatalogInfo, error) {
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
	names := slices.Collect(maps.Keys(m.catalogs))
	m.mu.Unlock()
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

// current returns the current catalog and database together.
func (m *Manager) current() (catalog, database string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.currentCatalog, m.currentDatabase
}

// setCurrent makes catalog and database current.
func (m *Manager) setCurrent(catalog, database string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.currentCatalog, m.currentDatabase = catalog, database
}

// SetCurrentCatalog is USE CATALOG: it switches the catalog and, when the
// catalog changes, resets the current database to the catalog's default
// database (CM setCurrentCatalog).
func (m *Manager) SetCurrentCatalog(ctx context.Context, name string) error {
	r, ok, err := m.getCatalog(ctx, name)
	if err != nil {
		return err
	}
	if !ok {
		return Errorf(ErrCatalogNotExist, "A catalog with name [%s] does not exist.", name)
	}
	defaultDB := r.catalog.DefaultDatabase()
	m.mu.Lock()
	defer m.mu.Unlock()
	if name != m.currentCatalog {
		m.currentCatalog = name
		m.currentDatabase = defaultDB
	}
	return nil
}

// SetCurrentDatabase is USE db: the database must exist in the current
// catalog (CM setCurrentDatabase).
func (m *Manager) SetCurrentDatabase(ctx context.Context, name string) error {
	cat, _ := m.current()
	if cat == "" {
		return Errorf(ErrNoCurrentCatalog, "Current catalog has not been set.")
	}
	r, err := m.catalogOrValidation(ctx, cat)
	if err != nil {
		return err
	}
	return m.useDatabase(ctx, cat, r, name)
}

// useDatabase makes catalog.name current when the database exists.
func (m *Manager) useDatabase(ctx context.Context, catalog string, r *registered, name string) error {
	ok, err := r.catalog.DatabaseExists(ctx, name)
	if err != nil {
		return err
	}
	if !ok {
		return ClassErrorf(ErrDatabaseNotExist, "CatalogException",
			"A database with name [%s] does not exist in the catalog: [%s].", name, catalog)
	}
	m.setCurrent(catalog, name)
	return nil
}

// Use is USE [catalog.]database: with a catalog it switches catalog and
// database together, and on failure leaves both as they were.
func (m *Manager) Use(ctx context.Context, catalog, database string) error {
	if catalog == "" {
		return m.SetCurrentDatabase(ctx, database)
	}
	r, ok, err := m.getCatalog(ctx, catalog)
	if err != nil {
		return err
	}
	if !ok {
		return Errorf(ErrCatalogNotExist, "A catalog with name [%s] does not exist.", catalog)
	}
	return m.useDatabase(ctx, catalog, r, database)
}

// UnsetCurrent clears the current catalog and database (Flink's
// setCurrentCatalog(null)); names then need full qualification.
func (m *Manager) UnsetCurrent() {
	m.setCurrent("", "")
}
