package hive

import (
	"context"
	"fmt"
	"maps"
	"sort"
	"strings"
	"time"

	hms "github.com/beltran/gohive/hive_metastore"

	"eddy/catalogs"
)

// Factory makes hive catalogs (CREATE CATALOG ... WITH ('type' = 'hive')).
type Factory struct{}

// Type returns hive.
func (Factory) Type() string { return Type }

// Open reads hive-site.xml, connects to the metastore and checks that the
// default database exists (HiveCatalog.open).
func (Factory) Open(ctx context.Context, name string, options map[string]string) (catalogs.Catalog, error) {
	cfg, err := parseOptions(name, options)
	if err != nil {
		return nil, err
	}
	cl, err := dial(ctx, cfg.uris)
	if err != nil {
		return nil, catalogs.Errorf(catalogs.ErrCatalogOpen, "Failed to create Hive Metastore client: %v", err)
	}
	c := &Catalog{name: name, cfg: cfg, cl: cl}
	ok, err := c.DatabaseExists(ctx, cfg.defaultDB)
	if err != nil {
		cl.close()
		return nil, err
	}
	if !ok {
		cl.close()
		return nil, catalogs.Errorf(catalogs.ErrUnsupported, "Configured default database %s doesn't exist in catalog %s.", cfg.defaultDB, name)
	}
	return c, nil
}

// Catalog is a hive catalog: one metastore connection.
type Catalog struct {
	name string
	cfg  *config
	cl   *client
}

var (
	_ catalogs.Catalog     = (*Catalog)(nil)
	_ catalogs.Partitioned = (*Catalog)(nil)
	_ catalogs.Typed       = (*Catalog)(nil)
)

// Type returns hive.
func (c *Catalog) Type() string { return Type }

// Name returns the catalog's name.
func (c *Catalog) Name() string { return c.name }

// URI returns the metastore's thrift URI.
func (c *Catalog) URI() string { return c.cl.uri }

// DefaultDatabase returns the configured default database.
func (c *Catalog) DefaultDatabase() string { return c.cfg.defaultDB }

// Close closes the metastore connection.
func (c *Catalog) Close() error { return c.cl.close() }

func (c *Catalog) fail(err error, format string, args ...any) error {
	return catalogs.WrapStore(err, format, args...)
}

// ---- databases ----

// ListDatabases returns every database of the metastore.
func (c *Catalog) ListDatabases(ctx context.Context) ([]string, error) {
	var out []string
	err := c.cl.call(ctx, func(ctx context.Context, h *hms.ThriftHiveMetastoreClient) (err error) {
		out, err = h.GetAllDatabases(ctx)
		return err
	})
	if err != nil {
		return nil, c.fail(err, "Failed to list all databases in %s", c.name)
	}
	sort.Strings(out)
	return out, nil
}

func (c *Catalog) hiveDatabase(ctx context.Context, name string) (*hms.Database, error) {
	var db *hms.Database
	err := c.cl.call(ctx, func(ctx context.Context, h *hms.ThriftHiveMetastoreClient) (err error) {
		db, err = h.GetDatabase(ctx, name)
		return err
	})
	if isNoSuchObject(err) {
		return nil, catalogs.DatabaseNotExist(c.name, name)
	}
	if err != nil {
		return nil, c.fail(err, "Failed to get database %s from %s", name, c.name)
	}
	return db, nil
}

// GetDatabase returns a database: its description as comment, its
// parameters and location as options (HiveCatalog.getDatabase).
func (c *Catalog) GetDatabase(ctx context.Context, name string) (*catalogs.CatalogDatabase, error) {
	db, err := c.hiveDatabase(ctx, name)
	if err != nil {
		return nil, err
	}
	opts := maps.Clone(db.Parameters)
	if opts == nil {
		opts = map[string]string{}
	}
	if db.LocationUri != "" {
		opts[optDBLocation] = db.LocationUri
	}
	return &catalogs.CatalogDatabase{Comment: db.Description, Options: opts}, nil
}

// DatabaseExists reports whether the metastore has the database.
func (c *Catalog) DatabaseExists(ctx context.Context, name string) (bool, error) {
	_, err := c.hiveDatabase(ctx, name)
	if err == nil {
		return true, nil
	}
	if isKind(err, catalogs.ErrDatabaseNotExist) {
		return false, nil
	}
	return false, err
}

func toHiveDatabase(name string, db *catalogs.CatalogDatabase) *hms.Database {
	params := map[string]string{}
	var comment, loc string
	if db != nil {
		params = maps.Clone(db.Options)
		if params == nil {
			params = map[string]string{}
		}
		comment = db.Comment
		loc = params[optDBLocation]
		delete(params, optDBLocation)
	}
	return &hms.Database{Name: name, Description: comment, LocationUri: loc, Parameters: params}
}

// CreateDatabase creates a database; option hive.database.location-uri
// is its location, else NAME.db in the warehouse.
func (c *Catalog) CreateDatabase(ctx context.Context, name string, db *catalogs.CatalogDatabase, ignoreIfExists bool) error {
	hdb := toHiveDatabase(name, db)
	if hdb.LocationUri == "" {
		wh := c.cfg.warehouse
		if wh == "" {
			// The metastore's own default database tells where its
			// warehouse is.
			def, err := c.hiveDatabase(ctx, "default")
			if err != nil {
				return err
			}
			wh = def.LocationUri
		}
		hdb.LocationUri = strings.TrimSuffix(wh, "/") + "/" + strings.ToLower(name) + ".db"
	}
	err := c.cl.call(ctx, func(ctx context.Context, h *hms.ThriftHiveMetastoreClient) error {
		return h.CreateDatabase(ctx, hdb)
	})
	if isAlreadyExists(err) {
		if ignoreIfExists {
			return nil
		}
		return catalogs.DatabaseAlreadyExist(c.name, name)
	}
	if err != nil {
		return c.fail(err, "Failed to create database %s", name)
	}
	return nil
}

// DropDatabase drops a database and, with cascade, what it holds.
func (c *Catalog) DropDatabase(ctx context.Context, name string, ignoreIfNotExists, cascade bool) error {
	err := c.cl.call(ctx, func(ctx context.Context, h *hms.ThriftHiveMetastoreClient) error {
		return h.DropDatabase(ctx, name, true, cascade)
	})
	switch {
	case isNoSuchObject(err):
		if ignoreIfNotExists {
			return nil
		}
		return catalogs.DatabaseNotExist(c.name, name)
	case isInvalidOperation(err):
		return catalogs.DatabaseNotEmpty(c.name, name)
	case err != nil:
		return c.fail(err, "Failed to drop database %s", name)
	}
	return nil
}

// AlterDatabase replaces a database's comment and properties.
func (c *Catalog) AlterDatabase(ctx context.Context, name string, db *catalogs.CatalogDatabase, ignoreIfNotExists bool) error {
	old, err := c.hiveDatabase(ctx, name)
	if err != nil {
		if ignoreIfNotExists && isKind(err, catalogs.ErrDatabaseNotExist) {
			return nil
		}
		return err
	}
	nd := toHiveDatabase(name, db)
	if nd.LocationUri == "" {
		nd.LocationUri = old.LocationUri
	}
	nd.OwnerName, nd.OwnerType = old.OwnerName, old.OwnerType
	err = c.cl.call(ctx, func(ctx context.Context, h *hms.ThriftHiveMetastoreClient) error {
		return h.AlterDatabase(ctx, name, nd)
	})
	if err != nil {
		return c.fail(err, "Failed to alter database %s", name)
	}
	return nil
}

// ---- tables and views ----

// ListTables returns the tables and views of a database.
func (c *Catalog) ListTables(ctx context.Context, database string) ([]string, error) {
	return c.listTables(ctx, database, "")
}

// ListViews returns the views of a database.
func (c *Catalog) ListViews(ctx context.Context, database string) ([]string, error) {
	return c.listTables(ctx, database, tableTypeView)
}

func (c *Catalog) listTables(ctx context.Context, database, tableType string) ([]string, error) {
	if ok, err := c.DatabaseExists(ctx, database); err != nil {
		return nil, err
	} else if !ok {
		return nil, catalogs.DatabaseNotExist(c.name, database)
	}
	var out []string
	err := c.cl.call(ctx, func(ctx context.Context, h *hms.ThriftHiveMetastoreClient) (err error) {
		if tableType == "" {
			out, err = h.GetAllTables(ctx, database)
		} else {
			out, err = h.GetTablesByType(ctx, database, "*", tableType)
		}
		return err
	})
	if isUnknownDB(err) {
		return nil, catalogs.DatabaseNotExist(c.name, database)
	}
	if err != nil {
		return nil, c.fail(err, "Failed to list tables in database %s", database)
	}
	sort.Strings(out)
	return out, nil
}

// hiveTable returns the metastore's record of a table or view.
func (c *Catalog) hiveTable(ctx context.Context, path catalogs.ObjectPath) (*hms.Table, error) {
	var t *hms.Table
	err := c.cl.call(ctx, func(ctx context.Context, h *hms.ThriftHiveMetastoreClient) (err error) {
		// get_table is gone from Hive 4's metastore; get_table_req is
		// served by Hive 3 and 4.
		r, err := h.GetTableReq(ctx, &hms.GetTableRequest{DbName: path.Database, TblName: path.Object})
		if err == nil {
			t = r.Table
		}
		return err
	})
	if isNoSuchObject(err) || isUnknownDB(err) {
		return nil, catalogs.TableNotExist(c.name, path)
	}
	if err != nil {
		return nil, c.fail(err, "Failed to get table %s from Hive metastore", path.FullName())
	}
	return t, nil
}

// GetTable returns a table or view.
func (c *Catalog) GetTable(ctx context.Context, path catalogs.ObjectPath) (catalogs.BaseTable, error) {
	t, err := c.hiveTable(ctx, path)
	if err != nil {
		return nil, err
	}
	bt, err := fromHiveTable(t)
	if err != nil {
		return nil, c.fail(err, "Failed to read table %s from Hive metastore", path.FullName())
	}
	return bt, nil
}

// TableExists reports whether a table or view exists.
func (c *Catalog) TableExists(ctx context.Context, path catalogs.ObjectPath) (bool, error) {
	_, err := c.hiveTable(ctx, path)
	if err == nil {
		return true, nil
	}
	if isKind(err, catalogs.ErrTableNotExist) {
		return false, nil
	}
	return false, err
}

// CreateTable stores a table or view in Flink's layout.
func (c *Catalog) CreateTable(ctx context.Context, path catalogs.ObjectPath, t catalogs.BaseTable, ignoreIfExists bool) error {
	if ok, err := c.DatabaseExists(ctx, path.Database); err != nil {
		return err
	} else if !ok {
		return catalogs.DatabaseNotExist(c.name, path.Database)
	}
	ht, err := toHiveTable(path, t)
	if err != nil {
		return catalogs.Errorf(catalogs.ErrUnsupported, "Failed to create table %s: %v", path.FullName(), err)
	}
	ht.CreateTime = int32(time.Now().Unix())
	if ht.Sd != nil && ht.Sd.Location == "" {
		db, err := c.hiveDatabase(ctx, path.Database)
		if err != nil {
			return err
		}
		ht.Sd.Location = strings.TrimSuffix(db.LocationUri, "/") + "/" + strings.ToLower(path.Object)
	}
	err = c.cl.call(ctx, func(ctx context.Context, h *hms.ThriftHiveMetastoreClient) error {
		return h.CreateTable(ctx, ht)
	})
	if isAlreadyExists(err) {
		if ignoreIfExists {
			return nil
		}
		return catalogs.TableAlreadyExist(c.name, path)
	}
	if err != nil {
		return c.fail(err, "Failed to create table %s", path.FullName())
	}
	return nil
}

// DropTable drops a table or view and, for managed Hive tables, its data.
func (c *Catalog) DropTable(ctx context.Context, path catalogs.ObjectPath, ignoreIfNotExists bool) error {
	err := c.cl.call(ctx, func(ctx context.Context, h *hms.ThriftHiveMetastoreClient) error {
		return h.DropTable(ctx, path.Database, path.Object, true)
	})
	if isNoSuchObject(err) {
		if ignoreIfNotExists {
			return nil
		}
		return catalogs.TableNotExist(c.name, path)
	}
	if err != nil {
		return c.fail(err, "Failed to drop table %s", path.FullName())
	}
	return nil
}

// AlterTable replaces a table or view, keeping its location.
func (c *Catalog) AlterTable(ctx context.Context, path catalogs.ObjectPath, t catalogs.BaseTable, ignoreIfNotExists bool) error {
	old, err := c.hiveTable(ctx, path)
	if err != nil {
		if ignoreIfNotExists && isKind(err, catalogs.ErrTableNotExist) {
			return nil
		}
		return err
	}
	if (old.TableType == tableTypeView) != (t.TableKind() == catalogs.KindView) {
		oldKind, newKind := "TABLE", t.TableKind().String()
		if old.TableType == tableTypeView {
			oldKind = "VIEW"
		}
		return catalogs.Errorf(catalogs.ErrUnsupported, "Table types don't match. Existing table is '%s' and new table is '%s'.", oldKind, newKind)
	}
	ht, err := toHiveTable(path, t)
	if err != nil {
		return catalogs.Errorf(catalogs.ErrUnsupported, "Failed to alter table %s: %v", path.FullName(), err)
	}
	if ht.Sd != nil && ht.Sd.Location == "" && old.Sd != nil {
		ht.Sd.Location = old.Sd.Location
	}
	if storedIsHiveTable(old) && isHiveTable(t.GetOptions()) && old.Sd != nil && !namesStorage(t.GetOptions()) {
		// A Hive table altered through Flink's options (ALTER TABLE SET)
		// keeps its storage: formats, SerDe and its parameters.
		ht.Sd.InputFormat, ht.Sd.OutputFormat, ht.Sd.SerdeInfo = old.Sd.InputFormat, old.Sd.OutputFormat, old.Sd.SerdeInfo
		if old.Parameters["EXTERNAL"] != "" {
			ht.Parameters["EXTERNAL"] = old.Parameters["EXTERNAL"]
		}
	}
	ht.CreateTime, ht.Owner, ht.TableType = old.CreateTime, old.Owner, keepType(old.TableType, ht.TableType)
	err = c.cl.call(ctx, func(ctx context.Context, h *hms.ThriftHiveMetastoreClient) error {
		return h.AlterTable(ctx, path.Database, path.Object, ht)
	})
	if err != nil {
		return c.fail(err, "Failed to alter table %s", path.FullName())
	}
	return nil
}

// namesStorage reports whether options set a Hive table's storage.
func namesStorage(options map[string]string) bool {
	for k := range options {
		if k == optFileFormat || k == optInputFormat || k == optSerdeLib || strings.HasPrefix(k, optSerdePropPref) {
			return true
		}
	}
	return false
}

func keepType(old, nw string) string {
	if old == tableTypeExternal && nw == tableTypeManaged {
		return old
	}
	return nw
}

// RenameTable renames a table or view within its database.
func (c *Catalog) RenameTable(ctx context.Context, path catalogs.ObjectPath, newName string, ignoreIfNotExists bool) error {
	old, err := c.hiveTable(ctx, path)
	if err != nil {
		if ignoreIfNotExists && isKind(err, catalogs.ErrTableNotExist) {
			return nil
		}
		return err
	}
	to := catalogs.ObjectPath{Database: path.Database, Object: newName}
	if ok, err := c.TableExists(ctx, to); err != nil {
		return err
	} else if ok {
		return catalogs.TableAlreadyExist(c.name, to)
	}
	old.TableName = strings.ToLower(newName)
	err = c.cl.call(ctx, func(ctx context.Context, h *hms.ThriftHiveMetastoreClient) error {
		return h.AlterTable(ctx, path.Database, path.Object, old)
	})
	if err != nil {
		return c.fail(err, "Failed to rename table %s", path.FullName())
	}
	return nil
}

// ---- functions ----

// ListFunctions returns the functions of a database.
func (c *Catalog) ListFunctions(ctx context.Context, database string) ([]string, error) {
	if ok, err := c.DatabaseExists(ctx, database); err != nil {
		return nil, err
	} else if !ok {
		return nil, catalogs.DatabaseNotExist(c.name, database)
	}
	var out []string
	err := c.cl.call(ctx, func(ctx context.Context, h *hms.ThriftHiveMetastoreClient) (err error) {
		out, err = h.GetFunctions(ctx, database, "*")
		return err
	})
	if err != nil {
		return nil, c.fail(err, "Failed to list functions in database %s", database)
	}
	sort.Strings(out)
	return out, nil
}

// GetFunction returns a function.
func (c *Catalog) GetFunction(ctx context.Context, path catalogs.ObjectPath) (*catalogs.CatalogFunction, error) {
	var f *hms.Function
	err := c.cl.call(ctx, func(ctx context.Context, h *hms.ThriftHiveMetastoreClient) (err error) {
		f, err = h.GetFunction(ctx, path.Database, strings.ToLower(path.Object))
		return err
	})
	if isNoSuchObject(err) || (err != nil && strings.Contains(err.Error(), "NoSuchObjectException")) {
		return nil, catalogs.FunctionNotExist(c.name, path)
	}
	if err != nil {
		return nil, c.fail(err, "Failed to get function %s", path.FullName())
	}
	return fromHiveFunction(f), nil
}

// FunctionExists reports whether a function exists.
func (c *Catalog) FunctionExists(ctx context.Context, path catalogs.ObjectPath) (bool, error) {
	_, err := c.GetFunction(ctx, path)
	if err == nil {
		return true, nil
	}
	if isKind(err, catalogs.ErrFunctionNotExist) {
		return false, nil
	}
	return false, err
}

// CreateFunction stores a function.
func (c *Catalog) CreateFunction(ctx context.Context, path catalogs.ObjectPath, fn *catalogs.CatalogFunction, ignoreIfExists bool) error {
	if ok, err := c.DatabaseExists(ctx, path.Database); err != nil {
		return err
	} else if !ok {
		return catalogs.DatabaseNotExist(c.name, path.Database)
	}
	if fn.Language == catalogs.LangSQL {
		return catalogs.Errorf(catalogs.ErrUnsupported, "HiveCatalog supports only creating JAVA/SCALA or PYTHON based function for now")
	}
	hf := toHiveFunction(path, fn, int32(time.Now().Unix()))
	err := c.cl.call(ctx, func(ctx context.Context, h *hms.ThriftHiveMetastoreClient) error {
		return h.CreateFunction(ctx, hf)
	})
	if isAlreadyExists(err) {
		if ignoreIfExists {
			return nil
		}
		return catalogs.FunctionAlreadyExist(c.name, path)
	}
	if err != nil {
		return c.fail(err, "Failed to create function %s", path.FullName())
	}
	return nil
}

// AlterFunction replaces a function.
func (c *Catalog) AlterFunction(ctx context.Context, path catalogs.ObjectPath, fn *catalogs.CatalogFunction, ignoreIfNotExists bool) error {
	ok, err := c.FunctionExists(ctx, path)
	if err != nil {
		return err
	}
	if !ok {
		if ignoreIfNotExists {
			return nil
		}
		return catalogs.FunctionNotExist(c.name, path)
	}
	hf := toHiveFunction(path, fn, int32(time.Now().Unix()))
	err = c.cl.call(ctx, func(ctx context.Context, h *hms.ThriftHiveMetastoreClient) error {
		return h.AlterFunction(ctx, path.Database, strings.ToLower(path.Object), hf)
	})
	if err != nil {
		return c.fail(err, "Failed to alter function %s", path.FullName())
	}
	return nil
}

// DropFunction drops a function.
func (c *Catalog) DropFunction(ctx context.Context, path catalogs.ObjectPath, ignoreIfNotExists bool) error {
	ok, err := c.FunctionExists(ctx, path)
	if err != nil {
		return err
	}
	if !ok {
		if ignoreIfNotExists {
			return nil
		}
		return catalogs.FunctionNotExist(c.name, path)
	}
	err = c.cl.call(ctx, func(ctx context.Context, h *hms.ThriftHiveMetastoreClient) error {
		return h.DropFunction(ctx, path.Database, strings.ToLower(path.Object))
	})
	if err != nil {
		return c.fail(err, "Failed to drop function %s", path.FullName())
	}
	return nil
}

// ---- partitions ----

func (c *Catalog) partitionedHiveTable(ctx context.Context, path catalogs.ObjectPath) (*hms.Table, []string, error) {
	t, err := c.hiveTable(ctx, path)
	if err != nil {
		return nil, nil, err
	}
	if len(t.PartitionKeys) == 0 {
		return nil, nil, catalogs.Errorf(catalogs.ErrUnsupported, "Table %s in catalog %s is not partitioned.", path.FullName(), c.name)
	}
	keys := make([]string, len(t.PartitionKeys))
	for i, f := range t.PartitionKeys {
		keys[i] = f.Name
	}
	return t, keys, nil
}

func (c *Catalog) values(path catalogs.ObjectPath, keys []string, spec catalogs.PartitionSpec) ([]string, error) {
	if len(spec) != len(keys) {
		return nil, catalogs.ClassErrorf(catalogs.ErrUnsupported, "PartitionSpecInvalidException", "PartitionSpec %s does not match partition keys [%s] of table %s in catalog %s.", specString(keys, spec), strings.Join(keys, ", "), path.FullName(), c.name)
	}
	vals := make([]string, len(keys))
	for i, k := range keys {
		v, ok := spec[k]
		if !ok {
			return nil, catalogs.ClassErrorf(catalogs.ErrUnsupported, "PartitionSpecInvalidException", "PartitionSpec %s does not match partition keys [%s] of table %s in catalog %s.", specString(keys, spec), strings.Join(keys, ", "), path.FullName(), c.name)
		}
		vals[i] = v
	}
	return vals, nil
}

// ListPartitions returns the partitions of a table matching filter (a
// partial spec; nil for all).
func (c *Catalog) ListPartitions(ctx context.Context, path catalogs.ObjectPath, filter catalogs.PartitionSpec) ([]catalogs.PartitionSpec, error) {
	_, keys, err := c.partitionedHiveTable(ctx, path)
	if err != nil {
		return nil, err
	}
	var names []string
	err = c.cl.call(ctx, func(ctx context.Context, h *hms.ThriftHiveMetastoreClient) (err error) {
		names, err = h.GetPartitionNames(ctx, path.Database, path.Object, -1)
		return err
	})
	if err != nil {
		return nil, c.fail(err, "Failed to list partitions of table %s", path.FullName())
	}
	var out []catalogs.PartitionSpec
	for _, n := range names {
		spec := parsePartitionName(n)
		match := true
		for k, v := range filter {
			if spec[k] != v {
				match = false
			}
		}
		if match {
			out = append(out, spec)
		}
	}
	sortedSpecs(out, keys)
	return out, nil
}

// PartitionExists reports whether a partition exists.
func (c *Catalog) PartitionExists(ctx context.Context, path catalogs.ObjectPath, spec catalogs.PartitionSpec) (bool, error) {
	_, keys, err := c.partitionedHiveTable(ctx, path)
	if err != nil {
		if isKind(err, catalogs.ErrTableNotExist) {
			return false, nil
		}
		return false, err
	}
	vals, err := c.values(path, keys, spec)
	if err != nil {
		return false, nil
	}
	err = c.cl.call(ctx, func(ctx context.Context, h *hms.ThriftHiveMetastoreClient) error {
		_, err := h.GetPartition(ctx, path.Database, path.Object, vals)
		return err
	})
	if isNoSuchObject(err) {
		return false, nil
	}
	if err != nil {
		return false, c.fail(err, "Failed to get partition %v of table %s", spec, path.FullName())
	}
	return true, nil
}

// CreatePartition adds a partition of a Hive table, stored under the
// table's location in Hive's k=v directories.
func (c *Catalog) CreatePartition(ctx context.Context, path catalogs.ObjectPath, spec catalogs.PartitionSpec, ignoreIfExists bool) error {
	t, keys, err := c.partitionedHiveTable(ctx, path)
	if err != nil {
		return err
	}
	if !storedIsHiveTable(t) {
		return catalogs.Errorf(catalogs.ErrUnsupported, "Currently only supports partition for hive tables")
	}
	vals, err := c.values(path, keys, spec)
	if err != nil {
		return err
	}
	err = c.addPartition(ctx, t, keys, vals)
	if isAlreadyExists(err) {
		if ignoreIfExists {
			return nil
		}
		return catalogs.ClassErrorf(catalogs.ErrUnsupported, "PartitionAlreadyExistsException", "Partition %s of table %s in catalog %s already exists.", specString(keys, spec), path.FullName(), c.name)
	}
	return err
}

// CreatePartitionAt adds a partition stored at location (Hive's ALTER
// TABLE ... ADD PARTITION ... LOCATION, for a caller that keeps partition
// properties).
func (c *Catalog) CreatePartitionAt(ctx context.Context, path catalogs.ObjectPath, spec catalogs.PartitionSpec, location string, ignoreIfExists bool) error {
	t, keys, err := c.partitionedHiveTable(ctx, path)
	if err != nil {
		return err
	}
	vals, err := c.values(path, keys, spec)
	if err != nil {
		return err
	}
	err = c.addPartitionAt(ctx, t, keys, vals, location)
	if isAlreadyExists(err) {
		if ignoreIfExists {
			return nil
		}
		return catalogs.ClassErrorf(catalogs.ErrUnsupported, "PartitionAlreadyExistsException", "Partition %s of table %s in catalog %s already exists.", specString(keys, spec), path.FullName(), c.name)
	}
	return err
}

func (c *Catalog) addPartition(ctx context.Context, t *hms.Table, keys, vals []string) error {
	return c.addPartitionAt(ctx, t, keys, vals, "")
}

func (c *Catalog) addPartitionAt(ctx context.Context, t *hms.Table, keys, vals []string, location string) error {
	sd := *t.Sd
	spec := catalogs.PartitionSpec{}
	for i, k := range keys {
		spec[k] = vals[i]
	}
	sd.Location = location
	if sd.Location == "" {
		sd.Location = strings.TrimSuffix(t.Sd.Location, "/") + "/" + partitionName(keys, spec)
	}
	now := int32(time.Now().Unix())
	p := &hms.Partition{Values: vals, DbName: t.DbName, TableName: t.TableName, Sd: &sd,
		Parameters: map[string]string{}, CreateTime: now, LastAccessTime: now}
	err := c.cl.call(ctx, func(ctx context.Context, h *hms.ThriftHiveMetastoreClient) error {
		_, err := h.AddPartition(ctx, p)
		return err
	})
	if err != nil && !isAlreadyExists(err) {
		return c.fail(err, "Failed to create partition %v of table %s.%s", spec, t.DbName, t.TableName)
	}
	return err
}

// DropPartition drops a partition and its files.
func (c *Catalog) DropPartition(ctx context.Context, path catalogs.ObjectPath, spec catalogs.PartitionSpec, ignoreIfNotExists bool) error {
	_, keys, err := c.partitionedHiveTable(ctx, path)
	if err != nil {
		return err
	}
	vals, err := c.values(path, keys, spec)
	if err != nil {
		return err
	}
	err = c.cl.call(ctx, func(ctx context.Context, h *hms.ThriftHiveMetastoreClient) error {
		_, err := h.DropPartition(ctx, path.Database, path.Object, vals, true)
		return err
	})
	if isNoSuchObject(err) {
		if ignoreIfNotExists {
			return nil
		}
		return catalogs.ClassErrorf(catalogs.ErrUnsupported, "PartitionNotExistException", "Partition %s of table %s in catalog %s does not exist.", specString(keys, spec), path.FullName(), c.name)
	}
	if err != nil {
		return c.fail(err, "Failed to drop partition %v of table %s", spec, path.FullName())
	}
	return nil
}

// specString prints a partition spec as Flink's CatalogPartitionSpec
// does, keys in the table's order.
func specString(keys []string, spec catalogs.PartitionSpec) string {
	var parts []string
	seen := map[string]bool{}
	for _, k := range keys {
		if v, ok := spec[k]; ok {
			parts = append(parts, k+"="+v)
			seen[k] = true
		}
	}
	var rest []string
	for k, v := range spec {
		if !seen[k] {
			rest = append(rest, k+"="+v)
		}
	}
	sort.Strings(rest)
	return "CatalogPartitionSpec{{" + strings.Join(append(parts, rest...), ", ") + "}}"
}

func isKind(err error, k *catalogs.Kind) bool {
	ce, ok := err.(*catalogs.Error)
	return ok && ce.Kind == k
}

// String names the catalog and its metastore.
func (c *Catalog) String() string { return fmt.Sprintf("hive catalog %s (%s)", c.name, c.cl.uri) }
