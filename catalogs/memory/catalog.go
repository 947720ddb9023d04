package memory

import (
	"context"
	"maps"
	"slices"
	"sync"

	"eddy/catalogs"
)

// Type is the catalog type this package serves.
const Type = "generic_in_memory"

type database struct {
	def       *catalogs.CatalogDatabase
	tables    map[string]catalogs.BaseTable
	functions map[string]*catalogs.CatalogFunction
	models    map[string]*catalogs.CatalogModel
}

// Catalog is a generic_in_memory catalog. Values are deep-copied on the
// way in and out, so callers can never change what is stored.
type Catalog struct {
	name      string
	defaultDB string
	mu        sync.RWMutex
	dbs       map[string]*database
}

var (
	_ catalogs.Catalog = (*Catalog)(nil)
	_ catalogs.Typed   = (*Catalog)(nil)
	_ catalogs.Mover   = (*Catalog)(nil)
)

// New returns an empty catalog holding only its default database.
func New(name, defaultDatabase string) *Catalog {
	c := &Catalog{name: name, defaultDB: defaultDatabase, dbs: map[string]*database{}}
	c.dbs[defaultDatabase] = newDatabase(&catalogs.CatalogDatabase{})
	return c
}

func newDatabase(def *catalogs.CatalogDatabase) *database {
	return &database{def: def.Copy(), tables: map[string]catalogs.BaseTable{}, functions: map[string]*catalogs.CatalogFunction{},
		models: map[string]*catalogs.CatalogModel{}}
}

// Factory makes generic_in_memory catalogs; its only option is
// default-database.
type Factory struct{}

// Type returns generic_in_memory.
func (Factory) Type() string { return Type }

// Open makes an empty catalog; it has nothing to connect to.
func (Factory) Open(_ context.Context, name string, options map[string]string) (catalogs.Catalog, error) {
	for k := range options {
		if k != catalogs.OptionDefaultDatabase {
			return nil, catalogs.ClassErrorf(catalogs.ErrInvalidOption, "ValidationException",
				"Unsupported options found for catalog '%s' of type '%s'.\n\nUnsupported options:\n\n%s\n\nSupported options:\n\n%s",
				name, Type, k, catalogs.OptionDefaultDatabase)
		}
	}
	return New(name, catalogs.DefaultDatabaseOf(options)), nil
}

// Type returns generic_in_memory.
func (c *Catalog) Type() string { return Type }

// DefaultDatabase returns the default database name.
func (c *Catalog) DefaultDatabase() string { return c.defaultDB }

// Close does nothing; contents live as long as the value.
func (c *Catalog) Close() error { return nil }

// ListDatabases returns the database names, sorted.
func (c *Catalog) ListDatabases(context.Context) ([]string, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return slices.Sorted(maps.Keys(c.dbs)), nil
}

// GetDatabase returns a copy of a database definition.
func (c *Catalog) GetDatabase(_ context.Context, name string) (*catalogs.CatalogDatabase, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	db, ok := c.dbs[name]
	if !ok {
		return nil, catalogs.DatabaseNotExist(c.name, name)
	}
	return db.def.Copy(), nil
}

// DatabaseExists reports whether a database exists.
func (c *Catalog) DatabaseExists(_ context.Context, name string) (bool, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	_, ok := c.dbs[name]
	return ok, nil
}

// CreateDatabase adds a database.
func (c *Catalog) CreateDatabase(_ context.Context, name string, db *catalogs.CatalogDatabase, ignoreIfExists bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.dbs[name]; ok {
		if ignoreIfExists {
			return nil
		}
		return catalogs.DatabaseAlreadyExist(c.name, name)
	}
	if db == nil {
		db = &catalogs.CatalogDatabase{}
	}
	c.dbs[name] = newDatabase(db)
	return nil
}

// DropDatabase removes a database; a non-empty one only with cascade.
// Models do not count (as in Flink's GenericInMemoryCatalog) and go with
// the database.
func (c *Catalog) DropDatabase(_ context.Context, name string, ignoreIfNotExists, cascade bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	db, ok := c.dbs[name]
	if !ok {
		if ignoreIfNotExists {
			return nil
		}
		return catalogs.DatabaseNotExist(c.name, name)
	}
	if !cascade && (len(db.tables) > 0 || len(db.functions) > 0) {
		return catalogs.DatabaseNotEmpty(c.name, name)
	}
	delete(c.dbs, name)
	return nil
}

// AlterDatabase replaces a database definition.
func (c *Catalog) AlterDatabase(_ context.Context, name string, def *catalogs.CatalogDatabase, ignoreIfNotExists bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	db, ok := c.dbs[name]
	if !ok {
		if ignoreIfNotExists {
			return nil
		}
		return catalogs.DatabaseNotExist(c.name, name)
	}
	if def == nil {
		def = &catalogs.CatalogDatabase{}
	}
	db.def = def.Copy()
	return nil
}

func (c *Catalog) db(name string) (*database, error) {
	db, ok := c.dbs[name]
	if !ok {
		return nil, catalogs.DatabaseNotExist(c.name, name)
	}
	return db, nil
}

// ListTables returns the names of tables and views, sorted.
func (c *Catalog) ListTables(_ context.Context, database string) ([]string, error) {
	return c.listTables(database, false)
}

// ListViews returns the names of views, sorted.
func (c *Catalog) ListViews(_ context.Context, database string) ([]string, error) {
	return c.listTables(database, true)
}

func (c *Catalog) listTables(database string, viewsOnly bool) ([]string, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	db, err := c.db(database)
	if err != nil {
		return nil, err
	}
	var names []string
	for n, t := range db.tables {
		if !viewsOnly || t.TableKind() == catalogs.KindView {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return names, nil
}

// GetTable returns a copy of a table or view.
func (c *Catalog) GetTable(_ context.Context, path catalogs.ObjectPath) (catalogs.BaseTable, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	db, ok := c.dbs[path.Database]
	if !ok {
		return nil, catalogs.TableNotExist(c.name, path)
	}
	t, ok := db.tables[path.Object]
	if !ok {
		return nil, catalogs.TableNotExist(c.name, path)
	}
	return t.CopyBase(), nil
}

// TableExists reports whether a table or view exists.
func (c *Catalog) TableExists(_ context.Context, path catalogs.ObjectPath) (bool, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	db, ok := c.dbs[path.Database]
	if !ok {
		return false, nil
	}
	_, ok = db.tables[path.Object]
	return ok, nil
}

// CreateTable adds a table or view.
func (c *Catalog) CreateTable(_ context.Context, path catalogs.ObjectPath, t catalogs.BaseTable, ignoreIfExists bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	db, err := c.db(path.Database)
	if err != nil {
		return err
	}
	if _, ok := db.tables[path.Object]; ok {
		if ignoreIfExists {
			return nil
		}
		return catalogs.TableAlreadyExist(c.name, path)
	}
	db.tables[path.Object] = t.CopyBase()
	return nil
}

// DropTable removes a table or view.
func (c *Catalog) DropTable(_ context.Context, path catalogs.ObjectPath, ignoreIfNotExists bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	db, ok := c.dbs[path.Database]
	if ok {
		if _, ok = db.tables[path.Object]; ok {
			delete(db.tables, path.Object)
			return nil
		}
	}
	if ignoreIfNotExists {
		return nil
	}
	return catalogs.TableNotExist(c.name, path)
}

// AlterTable replaces a table or view with one of the same kind.
func (c *Catalog) AlterTable(_ context.Context, path catalogs.ObjectPath, t catalogs.BaseTable, ignoreIfNotExists bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	db, ok := c.dbs[path.Database]
	var old catalogs.BaseTable
	if ok {
		old, ok = db.tables[path.Object]
	}
	if !ok {
		if ignoreIfNotExists {
			return nil
		}
		return catalogs.TableNotExist(c.name, path)
	}
	if old.TableKind() != t.TableKind() {
		return catalogs.Errorf(catalogs.ErrUnsupported, "Table types don't match. Existing table is '%s' and new table is '%s'.",
			old.TableKind(), t.TableKind())
	}
	db.tables[path.Object] = t.CopyBase()
	return nil
}

// RenameTable renames a table or view within its database.
func (c *Catalog) RenameTable(_ context.Context, path catalogs.ObjectPath, newName string, ignoreIfNotExists bool) error {
	return c.move(path, catalogs.ObjectPath{Database: path.Database, Object: newName}, ignoreIfNotExists)
}

// MoveTable moves a table or view to another database of the catalog.
func (c *Catalog) MoveTable(_ context.Context, from, to catalogs.ObjectPath) error {
	return c.move(from, to, false)
}

func (c *Catalog) move(from, to catalogs.ObjectPath, ignoreIfNotExists bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	src, ok := c.dbs[from.Database]
	var t catalogs.BaseTable
	if ok {
		t, ok = src.tables[from.Object]
	}
	if !ok {
		if ignoreIfNotExists {
			return nil
		}
		return catalogs.TableNotExist(c.name, from)
	}
	dst, err := c.db(to.Database)
	if err != nil {
		return err
	}
	if _, ok := dst.tables[to.Object]; ok {
		return catalogs.TableAlreadyExist(c.name, to)
	}
	delete(src.tables, from.Object)
	dst.tables[to.Object] = t
	return nil
}

// ListFunctions returns the function names of a database, sorted.
func (c *Catalog) ListFunctions(_ context.Context, database string) ([]string, error) {
	return listNames(c, database, functionsOf)
}

// GetFunction returns a copy of a function.
func (c *Catalog) GetFunction(_ context.Context, path catalogs.ObjectPath) (*catalogs.CatalogFunction, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if _, fn, ok := entry(c, path, functionsOf); ok {
		return fn.Copy(), nil
	}
	return nil, catalogs.FunctionNotExist(c.name, path)
}

// FunctionExists reports whether a function exists.
func (c *Catalog) FunctionExists(_ context.Context, path catalogs.ObjectPath) (bool, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	_, _, ok := entry(c, path, functionsOf)
	return ok, nil
}

// CreateFunction adds a function.
func (c *Catalog) CreateFunction(_ context.Context, path catalogs.ObjectPath, fn *catalogs.CatalogFunction, ignoreIfExists bool) error {
	return create(c, path, functionsOf, fn.Copy, ignoreIfExists, catalogs.FunctionAlreadyExist)
}

// AlterFunction replaces a function.
func (c *Catalog) AlterFunction(_ context.Context, path catalogs.ObjectPath, fn *catalogs.CatalogFunction, ignoreIfNotExists bool) error {
	return replace(c, path, functionsOf, fn.Copy, ignoreIfNotExists, catalogs.FunctionNotExist)
}

// DropFunction removes a function.
func (c *Catalog) DropFunction(_ context.Context, path catalogs.ObjectPath, ignoreIfNotExists bool) error {
	return replace(c, path, functionsOf, nil, ignoreIfNotExists, catalogs.FunctionNotExist)
}

var _ catalogs.ModelCatalog = (*Catalog)(nil)

// ListModels returns the model names of a database, sorted.
func (c *Catalog) ListModels(_ context.Context, database string) ([]string, error) {
	return listNames(c, database, modelsOf)
}

// GetModel returns a copy of a model.
func (c *Catalog) GetModel(_ context.Context, path catalogs.ObjectPath) (*catalogs.CatalogModel, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if _, m, ok := entry(c, path, modelsOf); ok {
		return m.Copy(), nil
	}
	return nil, catalogs.ModelNotExist(c.name, path)
}

// ModelExists reports whether a model exists.
func (c *Catalog) ModelExists(_ context.Context, path catalogs.ObjectPath) (bool, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	_, _, ok := entry(c, path, modelsOf)
	return ok, nil
}

// CreateModel adds a model.
func (c *Catalog) CreateModel(_ context.Context, path catalogs.ObjectPath, m *catalogs.CatalogModel, ignoreIfExists bool) error {
	return create(c, path, modelsOf, m.Copy, ignoreIfExists, catalogs.ModelAlreadyExist)
}

// AlterModel replaces a model.
func (c *Catalog) AlterModel(_ context.Context, path catalogs.ObjectPath, m *catalogs.CatalogModel, ignoreIfNotExists bool) error {
	return replace(c, path, modelsOf, m.Copy, ignoreIfNotExists, catalogs.ModelNotExist)
}

// RenameModel renames a model within its database.
func (c *Catalog) RenameModel(_ context.Context, path catalogs.ObjectPath, newName string, ignoreIfNotExists bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	db, ok := c.dbs[path.Database]
	var m *catalogs.CatalogModel
	if ok {
		m, ok = db.models[path.Object]
	}
	if !ok {
		if ignoreIfNotExists {
			return nil
		}
		return catalogs.ModelNotExist(c.name, path)
	}
	to := catalogs.NewObjectPath(path.Database, newName)
	if _, ok := db.models[newName]; ok {
		return catalogs.ModelAlreadyExist(c.name, to)
	}
	delete(db.models, path.Object)
	db.models[newName] = m
	return nil
}

// DropModel removes a model.
func (c *Catalog) DropModel(_ context.Context, path catalogs.ObjectPath, ignoreIfNotExists bool) error {
	return replace(c, path, modelsOf, nil, ignoreIfNotExists, catalogs.ModelNotExist)
}

// functionsOf and modelsOf pick a database's map of one kind of object,
// for the helpers below that serve both kinds.
func functionsOf(db *database) map[string]*catalogs.CatalogFunction { return db.functions }
func modelsOf(db *database) map[string]*catalogs.CatalogModel       { return db.models }

// listNames returns the sorted names of the objects of one kind of a
// database.
func listNames[T any](c *Catalog, database string, kind func(*database) map[string]T) ([]string, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	db, err := c.db(database)
	if err != nil {
		return nil, err
	}
	return slices.Sorted(maps.Keys(kind(db))), nil
}

// entry finds the object at path among the objects of its kind (c.mu
// held): the map it is in, the object and whether it exists.
func entry[T any](c *Catalog, path catalogs.ObjectPath, kind func(*database) map[string]T) (m map[string]T, v T, ok bool) {
	db, ok := c.dbs[path.Database]
	if !ok {
		return nil, v, false
	}
	m = kind(db)
	v, ok = m[path.Object]
	return m, v, ok
}

// create adds the object copy returns at path, unless one of its kind is
// there already.
func create[T any](c *Catalog, path catalogs.ObjectPath, kind func(*database) map[string]T, copy func() T,
	ignoreIfExists bool, exists func(catalog string, path catalogs.ObjectPath) *catalogs.Error) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	db, err := c.db(path.Database)
	if err != nil {
		return err
	}
	m := kind(db)
	if _, ok := m[path.Object]; ok {
		if ignoreIfExists {
			return nil
		}
		return exists(c.name, path)
	}
	m[path.Object] = copy()
	return nil
}

// replace puts the object copy returns in place of the one at path, or
// removes that one when copy is nil; a missing object is an error unless
// ignoreIfNotExists.
func replace[T any](c *Catalog, path catalogs.ObjectPath, kind func(*database) map[string]T, copy func() T,
	ignoreIfNotExists bool, missing func(catalog string, path catalogs.ObjectPath) *catalogs.Error) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	m, _, ok := entry(c, path, kind)
	switch {
	case !ok && ignoreIfNotExists:
		return nil
	case !ok:
		return missing(c.name, path)
	case copy == nil:
		delete(m, path.Object)
	default:
		m[path.Object] = copy()
	}
	return nil
}
