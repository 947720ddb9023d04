package catalogs

import "context"

// Catalog is a namespace of databases holding tables, views and functions,
// mirroring Flink's org.apache.flink.table.catalog.Catalog. Methods return
// the catalog error kinds of this package with Flink's messages
// (DatabaseNotExist, TableAlreadyExist, ...). Values passed in and returned
// are owned by the caller: implementations copy them.
type Catalog interface {
	// DefaultDatabase is the database USE CATALOG switches to; it exists
	// from the catalog's first use.
	DefaultDatabase() string
	// Close releases the catalog's resources (connections, files). The
	// Manager calls it once, when the catalog is dropped, replaced by ALTER
	// CATALOG or the session ends.
	Close() error

	ListDatabases(ctx context.Context) ([]string, error)
	GetDatabase(ctx context.Context, name string) (*CatalogDatabase, error)
	DatabaseExists(ctx context.Context, name string) (bool, error)
	CreateDatabase(ctx context.Context, name string, db *CatalogDatabase, ignoreIfExists bool) error
	// DropDatabase removes a database; without cascade a database holding
	// tables, views or functions is ErrDatabaseNotEmpty.
	DropDatabase(ctx context.Context, name string, ignoreIfNotExists, cascade bool) error
	AlterDatabase(ctx context.Context, name string, db *CatalogDatabase, ignoreIfNotExists bool) error

	// ListTables returns the names of the tables and views of a database.
	ListTables(ctx context.Context, database string) ([]string, error)
	// ListViews returns the names of the views of a database.
	ListViews(ctx context.Context, database string) ([]string, error)
	// GetTable returns a *CatalogTable or *CatalogView.
	GetTable(ctx context.Context, path ObjectPath) (BaseTable, error)
	TableExists(ctx context.Context, path ObjectPath) (bool, error)
	CreateTable(ctx context.Context, path ObjectPath, table BaseTable, ignoreIfExists bool) error
	DropTable(ctx context.Context, path ObjectPath, ignoreIfNotExists bool) error
	// AlterTable replaces a table or view; the kind must stay the same.
	AlterTable(ctx context.Context, path ObjectPath, table BaseTable, ignoreIfNotExists bool) error
	// RenameTable renames within the database of path.
	RenameTable(ctx context.Context, path ObjectPath, newName string, ignoreIfNotExists bool) error

	ListFunctions(ctx context.Context, database string) ([]string, error)
	GetFunction(ctx context.Context, path ObjectPath) (*CatalogFunction, error)
	FunctionExists(ctx context.Context, path ObjectPath) (bool, error)
	CreateFunction(ctx context.Context, path ObjectPath, fn *CatalogFunction, ignoreIfExists bool) error
	AlterFunction(ctx context.Context, path ObjectPath, fn *CatalogFunction, ignoreIfNotExists bool) error
	DropFunction(ctx context.Context, path ObjectPath, ignoreIfNotExists bool) error
}

// ReadOnly is implemented by catalogs that may refuse all DDL. When
// ReadOnly() is true the Manager rejects every change with ErrReadOnly
// before calling the catalog.
type ReadOnly interface {
	Catalog
	ReadOnly() bool
}

// ViewSupport is implemented by catalogs that may not support view DDL.
// A catalog that does not implement it supports views.
type ViewSupport interface {
	Catalog
	SupportsViews() bool
}

// ViewRefusal is implemented by catalogs without views that word the
// refusal of view DDL themselves; the Manager and the DDL executor use
// its message instead of "View DDL is not supported on <type> catalog
// '<name>'".
type ViewRefusal interface {
	ViewDDLRefusal(name string) string
}

// PartitionSpec maps partition keys to values.
type PartitionSpec map[string]string

// Partitioned is implemented by catalogs that store partitions of
// partitioned tables (SHOW PARTITIONS, ALTER TABLE ... ADD PARTITION).
type Partitioned interface {
	Catalog
	ListPartitions(ctx context.Context, path ObjectPath, filter PartitionSpec) ([]PartitionSpec, error)
	PartitionExists(ctx context.Context, path ObjectPath, spec PartitionSpec) (bool, error)
	CreatePartition(ctx context.Context, path ObjectPath, spec PartitionSpec, ignoreIfExists bool) error
	DropPartition(ctx context.Context, path ObjectPath, spec PartitionSpec, ignoreIfNotExists bool) error
}

// Typed is implemented by catalogs that know their factory type
// (generic_in_memory, sqlite, ...); the Manager uses it in messages such as
// "View DDL is not supported on <type> catalog '<name>'".
type Typed interface {
	Type() string
}

// Factory makes catalogs of one type from CREATE CATALOG options or a YAML
// `catalogs:` entry (Flink's CatalogFactory).
type Factory interface {
	// Type is the value of the 'type' option this factory serves.
	Type() string
	// Open makes a catalog and connects it to whatever holds its contents
	// (a file, a metastore, a REST service). options holds every option
	// except 'type'. A missing required option is ErrMissingOption; a bad
	// value ErrInvalidOption. Open must give up when ctx ends: the Manager
	// bounds every open (DefaultOpenTimeout unless WithOpenTimeout says
	// otherwise) and reports ErrCatalogOpen when the bound passes. The
	// catalog's Close releases what Open acquired.
	Open(ctx context.Context, name string, options map[string]string) (Catalog, error)
}

// Option keys every catalog type understands.
const (
	OptionType            = "type"
	OptionDefaultDatabase = "default-database"
)

// DefaultDatabaseName is the default database of a catalog whose options
// name none (Flink's CommonCatalogOptions.DEFAULT_DATABASE_KEY default).
const DefaultDatabaseName = "default"

// DefaultDatabaseOf returns options' default-database or "default".
func DefaultDatabaseOf(options map[string]string) string {
	if d, ok := options[OptionDefaultDatabase]; ok && d != "" {
		return d
	}
	return DefaultDatabaseName
}
