package examples

import (
	"context"
	"maps"
	"slices"
	"sync"

	"eddy/catalogs"
	"eddy/engine/connectors"
	"eddy/engine/types"
)

// Type is the catalog type named in messages ("View DDL is not supported
// on examples catalog 'examples'").
const Type = "examples"

// Name is the name the examples catalog is registered under.
const Name = "examples"

// Database is the examples catalog's only database.
const Database = "marketplace"

// Rate is the number of rows a second each examples table produces.
const Rate = "10"

// Catalog is the examples catalog. It is immutable and safe for
// concurrent use.
type Catalog struct {
	name string
	// tables are built on first use: most sessions never read them.
	tables func() map[string]*catalogs.CatalogTable
	// snapshot is the connector of the tables in batch mode.
	snapshot *connectors.Factory
}

// New returns the examples catalog registered under name.
func New(name string) *Catalog {
	return &Catalog{name: name, tables: sync.OnceValue(definitions), snapshot: snapshotFactory()}
}

var (
	_ catalogs.Catalog     = (*Catalog)(nil)
	_ catalogs.ReadOnly    = (*Catalog)(nil)
	_ catalogs.ViewSupport = (*Catalog)(nil)
	_ catalogs.Typed       = (*Catalog)(nil)
)

// column describes one generated column: its type and datagen options.
type column struct {
	name string
	t    *types.Type
	opts map[string]string
}

func str(name, length string) column {
	return column{name, types.NewString().WithNullable(false), map[string]string{"length": length}}
}

func integer(name, lo, hi string) column {
	return column{name, types.New(types.Int).WithNullable(false), map[string]string{"min": lo, "max": hi}}
}

// table builds a datagen table whose last column, event_time, is the
// rowtime: random times up to five seconds in the past, with a watermark
// five seconds behind, so no row is late.
func table(comment string, cols ...column) *catalogs.CatalogTable {
	cols = append(cols, column{"event_time", types.NewTimestampLTZ(3).WithNullable(false),
		map[string]string{"max-past": "5 s"}})
	t := &catalogs.CatalogTable{Comment: comment, Options: map[string]string{
		"connector": "datagen", "rows-per-second": Rate}}
	for _, c := range cols {
		t.Schema.Columns = append(t.Schema.Columns, catalogs.Column{Name: c.name, Kind: catalogs.Physical, Type: c.t})
		for k, v := range c.opts {
			t.Options["fields."+c.name+"."+k] = v
		}
	}
	t.Schema.Watermarks = []catalogs.WatermarkSpec{{RowtimeColumn: "event_time",
		Expr: "`event_time` - INTERVAL '5' SECOND"}}
	return t
}

func definitions() map[string]*catalogs.CatalogTable {
	return map[string]*catalogs.CatalogTable{
		"orders": table("Orders of the marketplace",
			str("order_id", "36"), integer("customer_id", "3000", "3250"), str("product_id", "5"),
			column{"price", types.New(types.Double).WithNullable(false), map[string]string{"min": "10", "max": "100"}}),
		"customers": table("Customers of the marketplace",
			integer("customer_id", "3000", "3250"), str("name", "12"), str("address", "24"), str("postcode", "5"),
			str("city", "10"), str("email", "20")),
		"products": table("Products sold on the marketplace",
			str("product_id", "5"), str("name", "12"), str("brand", "8"), str("vendor", "8"), str("department", "10")),
		"clicks": table("Clicks on the marketplace's pages",
			str("click_id", "36"), integer("user_id", "3000", "5000"), str("url", "30"), str("user_agent", "40"),
			integer("view_time", "10", "120")),
	}
}

// Type returns "examples".
func (c *Catalog) Type() string { return Type }

// ReadOnly returns false although the catalog refuses every change
// itself (with catalogs.ErrReadOnly): the Manager checks read-only
// catalogs before view support, and view DDL here must answer "View DDL
// is not supported on examples catalog 'examples'".
func (c *Catalog) ReadOnly() bool { return false }

// SupportsViews returns false: view DDL is refused.
func (c *Catalog) SupportsViews() bool { return false }

// DefaultDatabase returns marketplace.
func (c *Catalog) DefaultDatabase() string { return Database }

// Close does nothing.
func (c *Catalog) Close() error { return nil }

// ListDatabases returns [marketplace].
func (c *Catalog) ListDatabases(context.Context) ([]string, error) { return []string{Database}, nil }

// GetDatabase returns marketplace's definition.
func (c *Catalog) GetDatabase(_ context.Context, name string) (*catalogs.CatalogDatabase, error) {
	if name != Database {
		return nil, catalogs.DatabaseNotExist(c.name, name)
	}
	return &catalogs.CatalogDatabase{Comment: "Generated data of an online marketplace", Options: map[string]string{}}, nil
}

// DatabaseExists reports whether name is marketplace.
func (c *Catalog) DatabaseExists(_ context.Context, name string) (bool, error) {
	return name == Database, nil
}

func (c *Catalog) readOnly() error {
	return catalogs.Errorf(catalogs.ErrReadOnly, "Catalog %s is read-only: it does not support DDL statements.", c.name)
}

// CreateDatabase is refused.
func (c *Catalog) CreateDatabase(context.Context, string, *catalogs.CatalogDatabase, bool) error {
	return c.readOnly()
}

// DropDatabase is refused.
func (c *Catalog) DropDatabase(context.Context, string, bool, bool) error { return c.readOnly() }

// AlterDatabase is refused.
func (c *Catalog) AlterDatabase(context.Context, string, *catalogs.CatalogDatabase, bool) error {
	return c.readOnly()
}

// ListTables returns the four tables, sorted.
func (c *Catalog) ListTables(_ context.Context, database string) ([]string, error) {
	if database != Database {
		return nil, catalogs.DatabaseNotExist(c.name, database)
	}
	return slices.Sorted(maps.Keys(c.tables())), nil
}

// ListViews returns no views.
func (c *Catalog) ListViews(_ context.Context, database string) ([]string, error) {
	if database != Database {
		return nil, catalogs.DatabaseNotExist(c.name, database)
	}
	return nil, nil
}

// GetTable returns a copy of a table's definition.
func (c *Catalog) GetTable(_ context.Context, path catalogs.ObjectPath) (catalogs.BaseTable, error) {
	if t, ok := c.tables()[path.Object]; ok && path.Database == Database {
		return t.Copy(), nil
	}
	return nil, catalogs.TableNotExist(c.name, path)
}

// TableExists reports whether a table exists.
func (c *Catalog) TableExists(_ context.Context, path catalogs.ObjectPath) (bool, error) {
	_, ok := c.tables()[path.Object]
	return ok && path.Database == Database, nil
}

// CreateTable is refused.
func (c *Catalog) CreateTable(context.Context, catalogs.ObjectPath, catalogs.BaseTable, bool) error {
	return c.readOnly()
}

// DropTable is refused.
func (c *Catalog) DropTable(context.Context, catalogs.ObjectPath, bool) error { return c.readOnly() }

// AlterTable is refused.
func (c *Catalog) AlterTable(context.Context, catalogs.ObjectPath, catalogs.BaseTable, bool) error {
	return c.readOnly()
}

// RenameTable is refused.
func (c *Catalog) RenameTable(context.Context, catalogs.ObjectPath, string, bool) error {
	return c.readOnly()
}

// ListFunctions returns no functions.
func (c *Catalog) ListFunctions(_ context.Context, database string) ([]string, error) {
	if database != Database {
		return nil, catalogs.DatabaseNotExist(c.name, database)
	}
	return nil, nil
}

// GetFunction finds no function.
func (c *Catalog) GetFunction(_ context.Context, path catalogs.ObjectPath) (*catalogs.CatalogFunction, error) {
	return nil, catalogs.FunctionNotExist(c.name, path)
}

// FunctionExists returns false.
func (c *Catalog) FunctionExists(context.Context, catalogs.ObjectPath) (bool, error) {
	return false, nil
}

// CreateFunction is refused.
func (c *Catalog) CreateFunction(context.Context, catalogs.ObjectPath, *catalogs.CatalogFunction, bool) error {
	return c.readOnly()
}

// AlterFunction is refused.
func (c *Catalog) AlterFunction(context.Context, catalogs.ObjectPath, *catalogs.CatalogFunction, bool) error {
	return c.readOnly()
}

// DropFunction is refused.
func (c *Catalog) DropFunction(context.Context, catalogs.ObjectPath, bool) error { return c.readOnly() }
