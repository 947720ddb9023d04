package iceberg

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	iceberg "github.com/apache/iceberg-go"
	icat "github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/table"

	"eddy/catalogs"
)

// Reserved table options (Iceberg's FlinkCreateTableOptions): 'location'
// sets the table's location and is not a property; 'connector' and
// 'src-catalog' mark the options GetTable returns, so that CREATE TABLE
// LIKE of an Iceberg table makes an Iceberg table.
const (
	optLocation   = "location"
	optConnector  = "connector"
	optSrcCatalog = "src-catalog"
	connectorName = "iceberg"
	// propComment is the table property holding the table's comment
	// (Iceberg's TableProperties.COMMENT).
	propComment = "comment"
)

// Catalog is an Iceberg catalog seen as a Flink catalog.
type Catalog struct {
	name string
	cfg  *config
	ic   icat.Catalog
}

var (
	_ catalogs.Catalog     = (*Catalog)(nil)
	_ catalogs.Typed       = (*Catalog)(nil)
	_ catalogs.ViewSupport = (*Catalog)(nil)
)

// Type returns "iceberg".
func (c *Catalog) Type() string { return Type }

// SupportsViews is false: Iceberg's Flink catalog lists no views and
// creates none.
func (c *Catalog) SupportsViews() bool { return false }

// DefaultDatabase returns the 'default-database' option ("default").
func (c *Catalog) DefaultDatabase() string { return c.cfg.defaultDB }

// Close releases the catalog's connections.
func (c *Catalog) Close() error {
	if cl, ok := c.ic.(interface{ Close() error }); ok {
		return cl.Close()
	}
	return nil
}

func (c *Catalog) namespace(db string) table.Identifier {
	return append(slices.Clone(c.cfg.baseNS), db)
}

func (c *Catalog) ident(p catalogs.ObjectPath) table.Identifier {
	return append(c.namespace(p.Database), p.Object)
}

// fail wraps an error of the Iceberg catalog.
func (c *Catalog) fail(err error, format string, args ...any) error {
	return catalogs.Errorf(catalogs.ErrStore, "%s: %v", fmt.Sprintf(format, args...), err)
}

// ListDatabases lists the namespaces under the base namespace.
func (c *Catalog) ListDatabases(ctx context.Context) ([]string, error) {
	var parent table.Identifier
	if len(c.cfg.baseNS) > 0 {
		parent = slices.Clone(c.cfg.baseNS)
	}
	nss, err := c.ic.ListNamespaces(ctx, parent)
	if err != nil {
		return nil, c.fail(err, "Failed to list databases of catalog %s", c.name)
	}
	out := make([]string, 0, len(nss))
	for _, ns := range nss {
		if len(ns) > 0 {
			out = append(out, ns[len(ns)-1])
		}
	}
	sort.Strings(out)
	return out, nil
}

// GetDatabase returns a namespace's properties; 'comment' is its comment.
func (c *Catalog) GetDatabase(ctx context.Context, name string) (*catalogs.CatalogDatabase, error) {
	props, err := c.ic.LoadNamespaceProperties(ctx, c.namespace(name))
	if err != nil {
		if errors.Is(err, icat.ErrNoSuchNamespace) {
			return nil, catalogs.DatabaseNotExist(c.name, name)
		}
		return nil, c.fail(err, "Failed to get database %s", name)
	}
	db := &catalogs.CatalogDatabase{Options: map[string]string{}}
	for k, v := range props {
		if k == propComment {
			db.Comment = v
			continue
		}
		db.Options[k] = v
	}
	return db, nil
}

// DatabaseExists reports whether the namespace exists.
func (c *Catalog) DatabaseExists(ctx context.Context, name string) (bool, error) {
	ok, err := c.ic.CheckNamespaceExists(ctx, c.namespace(name))
	if err != nil {
		return false, c.fail(err, "Failed to check database %s", name)
	}
	return ok, nil
}

// CreateDatabase creates a namespace with the database's properties and
// its comment as 'comment' (Iceberg's FlinkCatalog.mergeComment).
func (c *Catalog) CreateDatabase(ctx context.Context, name string, db *catalogs.CatalogDatabase, ignoreIfExists bool) error {
	props := iceberg.Properties{}
	if db != nil {
		if _, ok := db.Options[propComment]; ok {
			return catalogs.ClassErrorf(catalogs.ErrInvalidOption, "CatalogException", "Database properties should not contain key: 'comment'.")
		}
		maps.Copy(props, db.Options)
		if strings.TrimSpace(db.Comment) != "" {
			props[propComment] = db.Comment
		}
	}
	err := c.ic.CreateNamespace(ctx, c.namespace(name), props)
	if err != nil {
		if errors.Is(err, icat.ErrNamespaceAlreadyExists) {
			if ignoreIfExists {
				return nil
			}
			return catalogs.DatabaseAlreadyExist(c.name, name)
		}
		return c.fail(err, "Failed to create database %s", name)
	}
	return nil
}

// DropDatabase drops a namespace; with cascade its tables first.
func (c *Catalog) DropDatabase(ctx context.Context, name string, ignoreIfNotExists, cascade bool) error {
	ok, err := c.DatabaseExists(ctx, name)
	if err != nil {
		return err
	}
	if !ok {
		if ignoreIfNotExists {
			return nil
		}
		return catalogs.DatabaseNotExist(c.name, name)
	}
	tables, err := c.ListTables(ctx, name)
	if err != nil {
		return err
	}
	if len(tables) > 0 {
		if !cascade {
			return catalogs.DatabaseNotEmpty(c.name, name)
		}
		for _, t := range tables {
			if err := c.DropTable(ctx, catalogs.NewObjectPath(name, t), true); err != nil {
				return err
			}
		}
	}
	if err := c.ic.DropNamespace(ctx, c.namespace(name)); err != nil {
		switch {
		case errors.Is(err, icat.ErrNoSuchNamespace):
			if ignoreIfNotExists {
				return nil
			}
			return catalogs.DatabaseNotExist(c.name, name)
		case errors.Is(err, icat.ErrNamespaceNotEmpty):
			return catalogs.DatabaseNotEmpty(c.name, name)
		}
		return c.fail(err, "Failed to drop database %s", name)
	}
	return nil
}

// AlterDatabase sets and removes namespace properties so that they become
// the database's.
func (c *Catalog) AlterDatabase(ctx context.Context, name string, db *catalogs.CatalogDatabase, ignoreIfNotExists bool) error {
	old, err := c.GetDatabase(ctx, name)
	if err != nil {
		if errors.Is(err, catalogs.ErrDatabaseNotExist) && ignoreIfNotExists {
			return nil
		}
		return err
	}
	updates := iceberg.Properties{}
	var removals []string
	maps.Copy(updates, db.Options)
	if db.Comment != "" {
		updates[propComment] = db.Comment
	} else if old.Comment != "" {
		removals = append(removals, propComment)
	}
	for k := range old.Options {
		if _, ok := db.Options[k]; !ok {
			removals = append(removals, k)
		}
	}
	if _, err := c.ic.UpdateNamespaceProperties(ctx, c.namespace(name), removals, updates); err != nil {
		return c.fail(err, "Failed to alter database %s", name)
	}
	return nil
}

// ListTables lists the tables of a namespace.
func (c *Catalog) ListTables(ctx context.Context, database string) ([]string, error) {
	var out []string
	for id, err := range c.ic.ListTables(ctx, c.namespace(database)) {
		if err != nil {
			if errors.Is(err, icat.ErrNoSuchNamespace) {
				return nil, catalogs.DatabaseNotExist(c.name, database)
			}
			return nil, c.fail(err, "Failed to list tables of database %s", database)
		}
		if len(id) > 0 {
			out = append(out, id[len(id)-1])
		}
	}
	sort.Strings(out)
	return out, nil
}

// ListViews returns none.
func (c *Catalog) ListViews(ctx context.Context, database string) ([]string, error) {
	if ok, err := c.DatabaseExists(ctx, database); err != nil {
		return nil, err
	} else if !ok {
		return nil, catalogs.DatabaseNotExist(c.name, database)
	}
	return nil, nil
}

// loadTable loads an Iceberg table.
func (c *Catalog) loadTable(ctx context.Context, p catalogs.ObjectPath) (*table.Table, error) {
	t, err := c.ic.LoadTable(ctx, c.ident(p))
	if err != nil {
		if errors.Is(err, icat.ErrNoSuchTable) || errors.Is(err, icat.ErrNoSuchNamespace) {
			return nil, catalogs.TableNotExist(c.name, p)
		}
		return nil, c.fail(err, "Failed to load table %s", p)
	}
	return t, nil
}

// GetTable returns the table's schema, identity partition columns and
// properties, with the 'connector' and 'src-catalog' options Iceberg's
// FlinkCatalog adds for CREATE TABLE LIKE.
func (c *Catalog) GetTable(ctx context.Context, p catalogs.ObjectPath) (catalogs.BaseTable, error) {
	t, err := c.loadTable(ctx, p)
	if err != nil {
		return nil, err
	}
	return c.toCatalogTable(t, p)
}

func (c *Catalog) toCatalogTable(t *table.Table, p catalogs.ObjectPath) (*catalogs.CatalogTable, error) {
	schema, err := fromIcebergSchema(t.Schema())
	if err != nil {
		return nil, c.fail(err, "Table %s has a schema eddy cannot read", p)
	}
	src, _ := json.Marshal(struct {
		Name  string `json:"catalog-name"`
		DB    string `json:"catalog-database"`
		Table string `json:"catalog-table"`
	}{c.name, p.Database, p.Object})
	opts := map[string]string{optConnector: connectorName, optSrcCatalog: string(src)}
	comment := ""
	for k, v := range t.Properties() {
		if k == propComment {
			comment = v
			continue
		}
		opts[k] = v
	}
	return &catalogs.CatalogTable{
		Schema:        schema,
		PartitionKeys: partitionKeys(t.Spec(), t.Schema()),
		Options:       opts,
		Comment:       comment,
	}, nil
}

// TableExists reports whether the table exists.
func (c *Catalog) TableExists(ctx context.Context, p catalogs.ObjectPath) (bool, error) {
	ok, err := c.ic.CheckTableExists(ctx, c.ident(p))
	if err != nil {
		if errors.Is(err, icat.ErrNoSuchNamespace) {
			return false, nil
		}
		return false, c.fail(err, "Failed to check table %s", p)
	}
	return ok, nil
}

// CreateTable creates an Iceberg table (Iceberg's
// FlinkCatalog.createIcebergTable): the physical columns, the primary key
// as identifier fields, an identity partition of each PARTITIONED BY
// column, the options as properties ('location' sets the location).
func (c *Catalog) CreateTable(ctx context.Context, p catalogs.ObjectPath, bt catalogs.BaseTable, ignoreIfExists bool) error {
	ct, ok := bt.(*catalogs.CatalogTable)
	if !ok {
		return catalogs.Errorf(catalogs.ErrUnsupported, "Iceberg catalog %s supports tables only", c.name)
	}
	if ct.Options[optConnector] == connectorName && ct.Options[optSrcCatalog] == "" {
		return catalogs.ClassErrorf(catalogs.ErrInvalidOption, "IllegalArgumentException",
			"Cannot create the table with 'connector'='iceberg' table property in an iceberg catalog, Please create table with 'connector'='iceberg' property in a non-iceberg catalog or create table without 'connector'='iceberg' related properties in an iceberg table.")
	}
	if len(ct.Schema.Watermarks) > 0 {
		return catalogs.ClassErrorf(catalogs.ErrUnsupported, "UnsupportedOperationException", "Creating table with watermark specs is not supported yet.")
	}
	for _, col := range ct.Schema.Columns {
		if col.Kind != catalogs.Physical {
			return catalogs.ClassErrorf(catalogs.ErrUnsupported, "UnsupportedOperationException", "Creating table with computed columns is not supported yet.")
		}
	}
	if ok, err := c.DatabaseExists(ctx, p.Database); err != nil {
		return err
	} else if !ok {
		return catalogs.DatabaseNotExist(c.name, p.Database)
	}
	schema, err := toIcebergSchema(ct.Schema)
	if err != nil {
		return catalogs.ClassErrorf(catalogs.ErrUnsupported, "UnsupportedOperationException", "%v", err)
	}
	spec, err := toPartitionSpec(ct.PartitionKeys, schema)
	if err != nil {
		return catalogs.Errorf(catalogs.ErrInvalidOption, "%v", err)
	}
	props := iceberg.Properties{}
	var opts []icat.CreateTableOpt
	for k, v := range ct.Options {
		switch strings.ToLower(k) {
		case optLocation:
			opts = append(opts, icat.WithLocation(v))
		case optConnector, optSrcCatalog:
		default:
			props[k] = v
		}
	}
	if ct.Comment != "" {
		props[propComment] = ct.Comment
	}
	opts = append(opts, icat.WithPartitionSpec(&spec), icat.WithProperties(props))
	if _, err := c.ic.CreateTable(ctx, c.ident(p), schema, opts...); err != nil {
		if errors.Is(err, icat.ErrTableAlreadyExists) {
			if ignoreIfExists {
				return nil
			}
			return catalogs.TableAlreadyExist(c.name, p)
		}
		if errors.Is(err, icat.ErrNoSuchNamespace) {
			return catalogs.DatabaseNotExist(c.name, p.Database)
		}
		return c.fail(err, "Failed to create table %s", p)
	}
	return nil
}

// DropTable drops the table (its files stay, as with Iceberg's
// FlinkCatalog, which does not purge).
func (c *Catalog) DropTable(ctx context.Context, p catalogs.ObjectPath, ignoreIfNotExists bool) error {
	if err := c.ic.DropTable(ctx, c.ident(p)); err != nil {
		if errors.Is(err, icat.ErrNoSuchTable) || errors.Is(err, icat.ErrNoSuchNamespace) {
			if ignoreIfNotExists {
				return nil
			}
			return catalogs.TableNotExist(c.name, p)
		}
		return c.fail(err, "Failed to drop table %s", p)
	}
	return nil
}

// AlterTable sets and removes table properties; other changes are
// refused as Iceberg's FlinkCatalog refuses them.
func (c *Catalog) AlterTable(ctx context.Context, p catalogs.ObjectPath, bt catalogs.BaseTable, ignoreIfNotExists bool) error {
	t, err := c.loadTable(ctx, p)
	if err != nil {
		if errors.Is(err, catalogs.ErrTableNotExist) && ignoreIfNotExists {
			return nil
		}
		return err
	}
	old, err := c.toCatalogTable(t, p)
	if err != nil {
		return err
	}
	ct, ok := bt.(*catalogs.CatalogTable)
	if !ok {
		return catalogs.Errorf(catalogs.ErrUnsupported, "Iceberg catalog %s supports tables only", c.name)
	}
	if !slices.Equal(old.PartitionKeys, ct.PartitionKeys) {
		return catalogs.ClassErrorf(catalogs.ErrUnsupported, "UnsupportedOperationException", "Altering partition keys is not supported yet.")
	}
	if !sameColumns(old.Schema, ct.Schema) {
		return catalogs.ClassErrorf(catalogs.ErrUnsupported, "UnsupportedOperationException",
			"Altering the columns of Iceberg table %s is not supported by eddy", p)
	}
	tx := t.NewTransaction()
	set := iceberg.Properties{}
	var remove []string
	for k, v := range ct.Options {
		if k == optConnector || k == optSrcCatalog || k == optLocation {
			continue
		}
		if old.Options[k] != v {
			set[k] = v
		}
	}
	for k := range old.Options {
		if _, ok := ct.Options[k]; !ok && k != optConnector && k != optSrcCatalog {
			remove = append(remove, k)
		}
	}
	if ct.Comment != old.Comment {
		if ct.Comment == "" {
			remove = append(remove, propComment)
		} else {
			set[propComment] = ct.Comment
		}
	}
	if len(set) > 0 {
		if err := tx.SetProperties(set); err != nil {
			return c.fail(err, "Failed to alter table %s", p)
		}
	}
	if len(remove) > 0 {
		if err := tx.RemoveProperties(remove); err != nil {
			return c.fail(err, "Failed to alter table %s", p)
		}
	}
	if _, err := tx.Commit(ctx); err != nil {
		return c.fail(err, "Failed to alter table %s", p)
	}
	return nil
}

func sameColumns(a, b catalogs.Schema) bool {
	if len(a.Columns) != len(b.Columns) {
		return false
	}
	for i := range a.Columns {
		x, y := a.Columns[i], b.Columns[i]
		if x.Name != y.Name || x.Type == nil || y.Type == nil || x.Type.String() != y.Type.String() {
			return false
		}
	}
	return true
}

// RenameTable renames a table within its namespace.
func (c *Catalog) RenameTable(ctx context.Context, p catalogs.ObjectPath, newName string, ignoreIfNotExists bool) error {
	to := catalogs.NewObjectPath(p.Database, newName)
	if _, err := c.ic.RenameTable(ctx, c.ident(p), c.ident(to)); err != nil {
		switch {
		case errors.Is(err, icat.ErrNoSuchTable):
			if ignoreIfNotExists {
				return nil
			}
			return catalogs.TableNotExist(c.name, p)
		case errors.Is(err, icat.ErrTableAlreadyExists):
			return catalogs.TableAlreadyExist(c.name, to)
		}
		return c.fail(err, "Failed to rename table %s", p)
	}
	return nil
}

// Functions: Iceberg's Flink catalog keeps none.

func (c *Catalog) ListFunctions(ctx context.Context, database string) ([]string, error) {
	return nil, nil
}

func (c *Catalog) GetFunction(ctx context.Context, p catalogs.ObjectPath) (*catalogs.CatalogFunction, error) {
	return nil, catalogs.FunctionNotExist(c.name, p)
}

func (c *Catalog) FunctionExists(ctx context.Context, p catalogs.ObjectPath) (bool, error) {
	return false, nil
}

func (c *Catalog) CreateFunction(ctx context.Context, p catalogs.ObjectPath, fn *catalogs.CatalogFunction, ignoreIfExists bool) error {
	return catalogs.ClassErrorf(catalogs.ErrUnsupported, "UnsupportedOperationException", "Iceberg catalog %s does not keep functions", c.name)
}

func (c *Catalog) AlterFunction(ctx context.Context, p catalogs.ObjectPath, fn *catalogs.CatalogFunction, ignoreIfNotExists bool) error {
	return catalogs.ClassErrorf(catalogs.ErrUnsupported, "UnsupportedOperationException", "Iceberg catalog %s does not keep functions", c.name)
}

func (c *Catalog) DropFunction(ctx context.Context, p catalogs.ObjectPath, ignoreIfNotExists bool) error {
	if ignoreIfNotExists {
		return nil
	}
	return catalogs.FunctionNotExist(c.name, p)
}
