package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"eddy/catalogs"
)

// Type is the catalog type this package serves.
const Type = "sqlite"

// OptionPath names another store file for a catalog's contents; a relative
// path is taken from the directory of the store that makes the catalog.
const OptionPath = "path"

// Catalog is a persistent catalog whose contents live in a store, keyed by
// the catalog's name.
type Catalog struct {
	store     *Store
	own       bool // the store was opened for this catalog's path option
	name      string
	defaultDB string
}

var (
	_ catalogs.Catalog = (*Catalog)(nil)
	_ catalogs.Typed   = (*Catalog)(nil)
	_ catalogs.Mover   = (*Catalog)(nil)
)

// Type returns sqlite.
func (s *Store) Type() string { return Type }

// Create is Open without a deadline, for callers that open a catalog of a
// local file directly.
func (s *Store) Create(name string, options map[string]string) (catalogs.Catalog, error) {
	return s.Open(context.Background(), name, options)
}

// Open makes the sqlite catalog name, stored in this store or, with the
// path option, in that file. Its default database (option
// default-database, default "default") is created when missing; ctx bounds
// that write.
func (s *Store) Open(ctx context.Context, name string, options map[string]string) (catalogs.Catalog, error) {
	var unsupported []string
	for k := range options {
		if k != catalogs.OptionDefaultDatabase && k != OptionPath {
			unsupported = append(unsupported, k)
		}
	}
	if len(unsupported) > 0 {
		sort.Strings(unsupported)
		return nil, catalogs.ClassErrorf(catalogs.ErrInvalidOption, "ValidationException",
			"Unsupported options found for catalog '%s' of type '%s'.\n\nUnsupported options:\n\n%s\n\nSupported options:\n\n%s\n%s",
			name, Type, strings.Join(unsupported, "\n"), catalogs.OptionDefaultDatabase, OptionPath)
	}
	c := &Catalog{store: s, name: name, defaultDB: catalogs.DefaultDatabaseOf(options)}
	if p, ok := options[OptionPath]; ok {
		if p == "" {
			return nil, catalogs.ClassErrorf(catalogs.ErrInvalidOption, "ValidationException",
				"Option 'path' of catalog '%s' is empty.", name)
		}
		if !filepath.IsAbs(p) {
			// Relative to the store, so every session finds the same file
			// whatever its working directory.
			p = filepath.Join(filepath.Dir(s.path), p)
		}
		if filepath.Clean(p) != filepath.Clean(s.path) {
			other, err := OpenStore(p)
			if err != nil {
				return nil, err
			}
			c.store, c.own = other, true
		}
	}
	if err := c.store.ensureDatabase(ctx, name, c.defaultDB); err != nil {
		c.Close()
		return nil, storeErr(err, "cannot open catalog %s", name)
	}
	return c, nil
}

// Type returns sqlite.
func (c *Catalog) Type() string { return Type }

// DefaultDatabase returns the default database name.
func (c *Catalog) DefaultDatabase() string { return c.defaultDB }

// Close closes the catalog's own store file, if it has one.
func (c *Catalog) Close() error {
	if c.own {
		return c.store.Close()
	}
	return nil
}

func (c *Catalog) tx(ctx context.Context, what string, fn func(tx *sql.Tx) error) error {
	return storeErr(c.store.WriteTx(ctx, fn), "cannot %s in catalog %s", what, c.name)
}

func dbExists(ctx context.Context, tx *sql.Tx, catalog, db string) (bool, error) {
	var n int
	err := tx.QueryRowContext(ctx, `SELECT count(*) FROM databases WHERE catalog = ? AND name = ?`, catalog, db).Scan(&n)
	return n > 0, err
}

func objectKind(ctx context.Context, tx *sql.Tx, catalog string, p catalogs.ObjectPath) (string, error) {
	var kind string
	err := tx.QueryRowContext(ctx, `SELECT kind FROM objects WHERE catalog = ? AND db = ? AND name = ?`,
		catalog, p.Database, p.Object).Scan(&kind)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return kind, err
}

// ListDatabases returns the database names, sorted.
func (c *Catalog) ListDatabases(ctx context.Context) ([]string, error) {
	return c.store.names(ctx, `SELECT name FROM databases WHERE catalog = ? ORDER BY name`, c.name)
}

// GetDatabase returns a database definition.
func (c *Catalog) GetDatabase(ctx context.Context, name string) (*catalogs.CatalogDatabase, error) {
	var comment, options string
	err := c.store.read(ctx, func() error {
		return c.store.db.QueryRowContext(ctx, `SELECT comment, options FROM databases WHERE catalog = ? AND name = ?`,
			c.name, name).Scan(&comment, &options)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return nil, catalogs.DatabaseNotExist(c.name, name)
	}
	if err != nil {
		return nil, storeErr(err, "cannot read database %s of catalog %s", name, c.name)
	}
	opts, err := decodeOptions(options)
	if err != nil {
		return nil, storeErr(err, "cannot read database %s of catalog %s", name, c.name)
	}
	return &catalogs.CatalogDatabase{Comment: comment, Options: opts}, nil
}

// DatabaseExists reports whether a database exists.
func (c *Catalog) DatabaseExists(ctx context.Context, name string) (bool, error) {
	return c.store.exists(ctx, `SELECT count(*) FROM databases WHERE catalog = ? AND name = ?`, c.name, name)
}

// CreateDatabase adds a database.
func (c *Catalog) CreateDatabase(ctx context.Context, name string, db *catalogs.CatalogDatabase, ignoreIfExists bool) error {
	if db == nil {
		db = &catalogs.CatalogDatabase{}
	}
	return c.tx(ctx, "create database "+name, func(tx *sql.Tx) error {
		ok, err := dbExists(ctx, tx, c.name, name)
		if err != nil {
			return err
		}
		if ok {
			if ignoreIfExists {
				return nil
			}
			return catalogs.DatabaseAlreadyExist(c.name, name)
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO databases (catalog, name, comment, options) VALUES (?, ?, ?, ?)`,
			c.name, name, db.Comment, encodeOptions(db.Options))
		return err
	})
}

// DropDatabase removes a database; a non-empty one only with cascade,
// which removes its tables, views and functions in the same transaction.
// Its models do not count (as in Flink's GenericInMemoryCatalog) and are
// removed with it.
func (c *Catalog) DropDatabase(ctx context.Context, name string, ignoreIfNotExists, cascade bool) error {
	return c.tx(ctx, "drop database "+name, func(tx *sql.Tx) error {
		ok, err := dbExists(ctx, tx, c.name, name)
		if err != nil {
			return err
		}
		if !ok {
			if ignoreIfNotExists {
				return nil
			}
			return catalogs.DatabaseNotExist(c.name, name)
		}
		var n int
		if err := tx.QueryRowContext(ctx,
			`SELECT (SELECT count(*) FROM objects WHERE catalog = ?1 AND db = ?2) +
			        (SELECT count(*) FROM functions WHERE catalog = ?1 AND db = ?2)`, c.name, name).Scan(&n); err != nil {
			return err
		}
		if n > 0 && !cascade {
			return catalogs.DatabaseNotEmpty(c.name, name)
		}
		if err := dropDatabaseRows(ctx, tx, c.name, name); err != nil {
			return err
		}
		for _, q := range []string{
			`DELETE FROM objects WHERE catalog = ? AND db = ?`,
			`DELETE FROM functions WHERE catalog = ? AND db = ?`,
			`DELETE FROM models WHERE catalog = ? AND db = ?`,
			`DELETE FROM databases WHERE catalog = ? AND name = ?`,
		} {
			if _, err := tx.ExecContext(ctx, q, c.name, name); err != nil {
				return err
			}
		}
		return nil
	})
}

// AlterDatabase replaces a database definition.
func (c *Catalog) AlterDatabase(ctx context.Context, name string, db *catalogs.CatalogDatabase, ignoreIfNotExists bool) error {
	if db == nil {
		db = &catalogs.CatalogDatabase{}
	}
	return c.tx(ctx, "alter database "+name, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE databases SET comment = ?, options = ? WHERE catalog = ? AND name = ?`,
			db.Comment, encodeOptions(db.Options), c.name, name)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 && !ignoreIfNotExists {
			return catalogs.DatabaseNotExist(c.name, name)
		}
		return nil
	})
}

func (c *Catalog) listObjects(ctx context.Context, database, query string) ([]string, error) {
	ok, err := c.DatabaseExists(ctx, database)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, catalogs.DatabaseNotExist(c.name, database)
	}
	return c.store.packedNames(ctx, query, c.name, database)
}

// ListTables returns the names of tables and views, sorted.
func (c *Catalog) ListTables(ctx context.Context, database string) ([]string, error) {
	return c.listObjects(ctx, database, `SELECT name FROM objects WHERE catalog = ? AND db = ? ORDER BY name`)
}

// ListViews returns the names of views, sorted.
func (c *Catalog) ListViews(ctx context.Context, database string) ([]string, error) {
	return c.listObjects(ctx, database, `SELECT name FROM objects WHERE catalog = ? AND db = ? AND kind = 'VIEW' ORDER BY name`)
}

// GetTable returns a table or view.
func (c *Catalog) GetTable(ctx context.Context, path catalogs.ObjectPath) (catalogs.BaseTable, error) {
	key := objectKey{c.name, path.Database, path.Object}
	version, cached := c.store.current(ctx)
	if cached {
		if t, ok := c.store.cachedObject(version, key); ok {
			if t == nil {
				return nil, catalogs.TableNotExist(c.name, path)
			}
			return t, nil
		}
	}
	var kind, comment, options, def string
	var orig, expanded sql.NullString
	err := c.store.read(ctx, func() error {
		return c.store.db.QueryRowContext(ctx,
			`SELECT kind, comment, options, definition, original_query, expanded_query
			 FROM objects WHERE catalog = ? AND db = ? AND name = ?`, c.name, path.Database, path.Object).
			Scan(&kind, &comment, &options, &def, &orig, &expanded)
	})
	if errors.Is(err, sql.ErrNoRows) {
		if cached {
			c.store.remember(version, key, nil)
		}
		return nil, catalogs.TableNotExist(c.name, path)
	}
	if err != nil {
		return nil, storeErr(err, "cannot read %s of catalog %s", path.FullName(), c.name)
	}
	t, err := decodeObject(kind, def, comment, options, orig, expanded)
	if err != nil {
		return nil, storeErr(err, "cannot read %s of catalog %s", path.FullName(), c.name)
	}
	if cached {
		c.store.remember(version, key, t)
	}
	return t, nil
}

// TableExists reports whether a table or view exists.
func (c *Catalog) TableExists(ctx context.Context, path catalogs.ObjectPath) (bool, error) {
	if version, ok := c.store.current(ctx); ok {
		if t, ok := c.store.cachedObject(version, objectKey{c.name, path.Database, path.Object}); ok {
			return t != nil, nil
		}
	}
	return c.store.exists(ctx, `SELECT count(*) FROM objects WHERE catalog = ? AND db = ? AND name = ?`,
		c.name, path.Database, path.Object)
}

// CreateTable adds a table or view.
func (c *Catalog) CreateTable(ctx context.Context, path catalogs.ObjectPath, t catalogs.BaseTable, ignoreIfExists bool) error {
	kind, def, orig, expanded, err := encodeObject(t)
	if err != nil {
		return storeErr(err, "cannot store %s", path.FullName())
	}
	return c.tx(ctx, "create "+path.FullName(), func(tx *sql.Tx) error {
		ok, err := dbExists(ctx, tx, c.name, path.Database)
		if err != nil {
			return err
		}
		if !ok {
			return catalogs.DatabaseNotExist(c.name, path.Database)
		}
		old, err := objectKind(ctx, tx, c.name, path)
		if err != nil {
			return err
		}
		if old != "" {
			if ignoreIfExists {
				return nil
			}
			return catalogs.TableAlreadyExist(c.name, path)
		}
		_, err = tx.ExecContext(ctx,
			`INSERT INTO objects (catalog, db, name, kind, comment, options, definition, original_query, expanded_query)
			 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			c.name, path.Database, path.Object, kind, t.GetComment(), encodeOptions(t.GetOptions()), def, orig, expanded)
		if err != nil || kind != "TABLE" {
			return err
		}
		return newTableVersion(ctx, tx, c.name, path)
	})
}

// DropTable removes a table or view.
func (c *Catalog) DropTable(ctx context.Context, path catalogs.ObjectPath, ignoreIfNotExists bool) error {
	return c.tx(ctx, "drop "+path.FullName(), func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM objects WHERE catalog = ? AND db = ? AND name = ?`,
			c.name, path.Database, path.Object)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			if !ignoreIfNotExists {
				return catalogs.TableNotExist(c.name, path)
			}
			return nil
		}
		// A table created later under this name starts empty, and is
		// another table to the statements planned for this one.
		if err := dropTableVersion(ctx, tx, c.name, path); err != nil {
			return err
		}
		return DropRows(ctx, tx, c.name, path)
	})
}

// AlterTable replaces a table or view with one of the same kind.
func (c *Catalog) AlterTable(ctx context.Context, path catalogs.ObjectPath, t catalogs.BaseTable, ignoreIfNotExists bool) error {
	kind, def, orig, expanded, err := encodeObject(t)
	if err != nil {
		return storeErr(err, "cannot store %s", path.FullName())
	}
	return c.tx(ctx, "alter "+path.FullName(), func(tx *sql.Tx) error {
		old, err := objectKind(ctx, tx, c.name, path)
		if err != nil {
			return err
		}
		if old == "" {
			if ignoreIfNotExists {
				return nil
			}
			return catalogs.TableNotExist(c.name, path)
		}
		if old != kind {
			return catalogs.Errorf(catalogs.ErrUnsupported,
				"Table types don't match. Existing table is '%s' and new table is '%s'.", old, kind)
		}
		prev, err := c.oldObject(ctx, tx, path)
		if err != nil {
			return err
		}
		if err := c.reshapeRows(ctx, tx, path, prev, t); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx,
			`UPDATE objects SET comment = ?, options = ?, definition = ?, original_query = ?, expanded_query = ?
			 WHERE catalog = ? AND db = ? AND name = ?`,
			t.GetComment(), encodeOptions(t.GetOptions()), def, orig, expanded, c.name, path.Database, path.Object)
		return err
	})
}

// RenameTable renames a table or view within its database.
func (c *Catalog) RenameTable(ctx context.Context, path catalogs.ObjectPath, newName string, ignoreIfNotExists bool) error {
	return c.move(ctx, path, catalogs.ObjectPath{Database: path.Database, Object: newName}, ignoreIfNotExists)
}

// MoveTable moves a table or view to another database, in one transaction.
func (c *Catalog) MoveTable(ctx context.Context, from, to catalogs.ObjectPath) error {
	return c.move(ctx, from, to, false)
}

func (c *Catalog) move(ctx context.Context, from, to catalogs.ObjectPath, ignoreIfNotExists bool) error {
	return c.tx(ctx, fmt.Sprintf("rename %s to %s", from.FullName(), to.FullName()), func(tx *sql.Tx) error {
		old, err := objectKind(ctx, tx, c.name, from)
		if err != nil {
			return err
		}
		if old == "" {
			if ignoreIfNotExists {
				return nil
			}
			return catalogs.TableNotExist(c.name, from)
		}
		ok, err := dbExists(ctx, tx, c.name, to.Database)
		if err != nil {
			return err
		}
		if !ok {
			return catalogs.DatabaseNotExist(c.name, to.Database)
		}
		if k, err := objectKind(ctx, tx, c.name, to); err != nil {
			return err
		} else if k != "" {
			return catalogs.TableAlreadyExist(c.name, to)
		}
		_, err = tx.ExecContext(ctx, `UPDATE objects SET db = ?, name = ? WHERE catalog = ? AND db = ? AND name = ?`,
			to.Database, to.Object, c.name, from.Database, from.Object)
		if err != nil {
			return err
		}
		return moveRows(ctx, tx, c.name, from, to)
	})
}

// ListFunctions returns the function names of a database, sorted.
func (c *Catalog) ListFunctions(ctx context.Context, database string) ([]string, error) {
	return c.listObjects(ctx, database, `SELECT name FROM functions WHERE catalog = ? AND db = ? ORDER BY name`)
}

// GetFunction returns a function.
func (c *Catalog) GetFunction(ctx context.Context, path catalogs.ObjectPath) (*catalogs.CatalogFunction, error) {
	var class, lang, res string
	err := c.store.read(ctx, func() error {
		return c.store.db.QueryRowContext(ctx,
			`SELECT class_name, language, resources FROM functions WHERE catalog = ? AND db = ? AND name = ?`,
			c.name, path.Database, path.Object).Scan(&class, &lang, &res)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return nil, catalogs.FunctionNotExist(c.name, path)
	}
	if err != nil {
		return nil, storeErr(err, "cannot read function %s of catalog %s", path.FullName(), c.name)
	}
	fn := &catalogs.CatalogFunction{ClassName: class, Language: catalogs.FunctionLanguage(lang)}
	if err := json.Unmarshal([]byte(res), &fn.Resources); err != nil {
		return nil, storeErr(err, "cannot read function %s of catalog %s", path.FullName(), c.name)
	}
	return fn, nil
}

// FunctionExists reports whether a function exists.
func (c *Catalog) FunctionExists(ctx context.Context, path catalogs.ObjectPath) (bool, error) {
	return c.store.exists(ctx, `SELECT count(*) FROM functions WHERE catalog = ? AND db = ? AND name = ?`,
		c.name, path.Database, path.Object)
}

func encodeResources(fn *catalogs.CatalogFunction) string {
	r := fn.Resources
	if r == nil {
		r = []catalogs.Resource{}
	}
	b, _ := json.Marshal(r) // plain strings always marshal
	return string(b)
}

// CreateFunction adds a function.
func (c *Catalog) CreateFunction(ctx context.Context, path catalogs.ObjectPath, fn *catalogs.CatalogFunction, ignoreIfExists bool) error {
	return c.tx(ctx, "create function "+path.FullName(), func(tx *sql.Tx) error {
		ok, err := dbExists(ctx, tx, c.name, path.Database)
		if err != nil {
			return err
		}
		if !ok {
			return catalogs.DatabaseNotExist(c.name, path.Database)
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM functions WHERE catalog = ? AND db = ? AND name = ?`,
			c.name, path.Database, path.Object).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			if ignoreIfExists {
				return nil
			}
			return catalogs.FunctionAlreadyExist(c.name, path)
		}
		_, err = tx.ExecContext(ctx,
			`INSERT INTO functions (catalog, db, name, class_name, language, resources) VALUES (?, ?, ?, ?, ?, ?)`,
			c.name, path.Database, path.Object, fn.ClassName, string(fn.Language), encodeResources(fn))
		return err
	})
}

// AlterFunction replaces a function.
func (c *Catalog) AlterFunction(ctx context.Context, path catalogs.ObjectPath, fn *catalogs.CatalogFunction, ignoreIfNotExists bool) error {
	return c.tx(ctx, "alter function "+path.FullName(), func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx,
			`UPDATE functions SET class_name = ?, language = ?, resources = ? WHERE catalog = ? AND db = ? AND name = ?`,
			fn.ClassName, string(fn.Language), encodeResources(fn), c.name, path.Database, path.Object)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 && !ignoreIfNotExists {
			return catalogs.FunctionNotExist(c.name, path)
		}
		return nil
	})
}

// DropFunction removes a function.
func (c *Catalog) DropFunction(ctx context.Context, path catalogs.ObjectPath, ignoreIfNotExists bool) error {
	return c.tx(ctx, "drop function "+path.FullName(), func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM functions WHERE catalog = ? AND db = ? AND name = ?`,
			c.name, path.Database, path.Object)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 && !ignoreIfNotExists {
			return catalogs.FunctionNotExist(c.name, path)
		}
		return nil
	})
}
