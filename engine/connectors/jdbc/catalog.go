package jdbc

import (
	"context"
	"errors"
	"sort"
	"strings"
	"sync"

	"eddy/catalogs"
	"eddy/engine/connectors"
	"eddy/engine/types"
)

// CatalogType is the 'type' of a jdbc catalog (Flink's JdbcCatalogFactory).
const CatalogType = "jdbc"

// The options of a jdbc catalog.
const (
	optBaseURL = "base-url"
)

// CatalogFactory makes jdbc catalogs: Flink's PostgresCatalog over the
// databases of a PostgreSQL server, Flink's MySqlCatalog over those of a
// MySQL or MariaDB server.
type CatalogFactory struct{}

// Type implements catalogs.Factory.
func (CatalogFactory) Type() string { return CatalogType }

// Open implements catalogs.Factory: it checks the options as Flink's
// JdbcCatalogFactory does and connects once to the default database, so
// that a wrong URL or password fails the CREATE CATALOG.
func (CatalogFactory) Open(ctx context.Context, name string, options map[string]string) (catalogs.Catalog, error) {
	required := []string{optBaseURL, catalogs.OptionDefaultDatabase, optPassword, optUsername}
	var missing, unsupported []string
	for _, k := range required {
		if strings.TrimSpace(options[k]) == "" {
			missing = append(missing, k)
		}
	}
	for k := range options {
		if k != optCompatibleMode && k != "property-version" && !contains(required, k) {
			unsupported = append(unsupported, k)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return nil, catalogs.ClassErrorf(catalogs.ErrMissingOption, "ValidationException",
			"Unable to create catalog '%s'.\n\nMissing required options are:\n\n%s", name, strings.Join(missing, "\n"))
	}
	if len(unsupported) > 0 {
		sort.Strings(unsupported)
		supported := append(append([]string{}, required...), optCompatibleMode, "property-version")
		sort.Strings(supported)
		return nil, catalogs.ClassErrorf(catalogs.ErrInvalidOption, "ValidationException",
			"Unsupported options found for catalog '%s' of type '%s'.\n\nUnsupported options:\n\n%s\n\nSupported options:\n\n%s",
			name, CatalogType, strings.Join(unsupported, "\n"), strings.Join(supported, "\n"))
	}
	base := options[optBaseURL]
	if !strings.HasSuffix(base, "/") {
		base += "/"
	}
	u, err := parseURL(base + options[catalogs.OptionDefaultDatabase])
	if err != nil {
		return nil, catalogs.ClassErrorf(catalogs.ErrInvalidOption, "ValidationException", "%v", err)
	}
	if rest := strings.TrimPrefix(strings.TrimPrefix(options[optBaseURL], u.dialect.prefix()), "//"); strings.Contains(strings.TrimSuffix(rest, "/"), "/") {
		return nil, catalogs.ClassErrorf(catalogs.ErrInvalidOption, "ValidationException",
			"Catalog base url %s must not contain a database name.", options[optBaseURL])
	}
	cd, ok := u.dialect.(catalogDialect)
	if !ok {
		return nil, catalogs.ClassErrorf(catalogs.ErrInvalidOption, "ValidationException",
			"The %s dialect has no jdbc catalog.", u.dialect.name())
	}
	c := &Catalog{name: name, base: base, defaultDB: options[catalogs.OptionDefaultDatabase],
		user: options[optUsername], pass: options[optPassword], dialect: cd, conns: map[string]conn{}}
	conn, err := connectURL(ctx, u, c.user, c.pass, connectTimeout)
	if err != nil {
		return nil, catalogs.ClassErrorf(catalogs.ErrCatalogOpen, "ValidationException",
			"%s: %v", cd.openFailure(base+c.defaultDB), err)
	}
	c.conns[c.defaultDB] = conn
	if err := cd.opened(ctx, c); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// Catalog is a jdbc catalog: its databases are the server's databases,
// its tables their tables as the dialect names them (PostgreSQL:
// schema.table; MySQL: the table), their columns mapped to Flink types
// as Flink's type mappers do. It reads only: DDL is refused as Flink's
// AbstractJdbcCatalog refuses it.
type Catalog struct {
	name, base, defaultDB string
	user, pass            string
	dialect               catalogDialect
	version               string // the server's, when the dialect reads it

	mu    sync.Mutex
	conns map[string]conn // by database
}

// catalogDialect is what a jdbc catalog asks of the database: Flink's
// PostgresCatalog or MySqlCatalog.
type catalogDialect interface {
	dialect
	// openFailure is the message of a catalog that could not connect to
	// its default database at url.
	openFailure(url string) string
	// opened runs once the default database answered.
	opened(ctx context.Context, c *Catalog) error
	listDatabases(ctx context.Context, c *Catalog) ([]string, error)
	listTables(ctx context.Context, c *Catalog, db string) ([]string, error)
	tableExists(ctx context.Context, c *Catalog, path catalogs.ObjectPath) (bool, error)
	// describe returns the table's columns and primary key.
	describe(ctx context.Context, c *Catalog, path catalogs.ObjectPath) (catalogs.Schema, error)
	// tableName is the table-name option of the table's jdbc table.
	tableName(path catalogs.ObjectPath) string
}

var (
	_ catalogs.Catalog            = (*Catalog)(nil)
	_ catalogs.Typed              = (*Catalog)(nil)
	_ connectors.CatalogConnector = (*Catalog)(nil)
	_ catalogs.ViewSupport        = (*Catalog)(nil)
)

// Type implements catalogs.Typed.
func (c *Catalog) Type() string { return CatalogType }

// SupportsViews implements catalogs.ViewSupport: a jdbc catalog keeps no
// views.
func (c *Catalog) SupportsViews() bool { return false }

// Connector implements connectors.CatalogConnector (Flink's
// getFactory): the catalog's tables are jdbc tables.
func (c *Catalog) Connector(*connectors.Table) (*connectors.Factory, bool) { return Factory(), true }

// DefaultDatabase implements catalogs.Catalog.
func (c *Catalog) DefaultDatabase() string { return c.defaultDB }

// Close implements catalogs.Catalog.
func (c *Catalog) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for db, conn := range c.conns {
		_ = conn.close()
		delete(c.conns, db)
	}
	return nil
}

// conn returns a connection to a database, opened on first use. The
// caller holds mu.
func (c *Catalog) conn(ctx context.Context, db string) (conn, error) {
	if conn, ok := c.conns[db]; ok && !conn.closed() {
		return conn, nil
	} else if ok {
		_ = conn.close()
		delete(c.conns, db)
	}
	u, err := parseURL(c.base + db)
	if err != nil {
		return nil, err
	}
	conn, err := connectURL(ctx, u, c.user, c.pass, connectTimeout)
	if err != nil {
		return nil, catalogs.WrapStore(err, "Failed connecting to %s via JDBC", c.base+db)
	}
	c.conns[db] = conn
	return conn, nil
}

// rows runs a query on a database and returns its rows, every column
// read as text.
func (c *Catalog) rows(ctx context.Context, db, q string, args ...any) ([][]string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	conn, err := c.conn(ctx, db)
	if err != nil {
		return nil, err
	}
	fail := func(err error) error {
		return catalogs.WrapStore(err, "Failed querying database %s of catalog %s", db, c.name)
	}
	rs, err := conn.query(ctx, q, args)
	if err != nil {
		return nil, fail(err)
	}
	defer rs.close()
	var out [][]string
	var ts []*types.Type
	var vals []any
	for rs.next() {
		if ts == nil {
			ts = make([]*types.Type, rs.width())
			for i := range ts {
				ts[i] = types.NewString()
			}
			vals = make([]any, len(ts))
		}
		if _, err := rs.row(ts, vals); err != nil {
			return nil, fail(err)
		}
		row := make([]string, len(vals))
		for i, v := range vals {
			if v != nil {
				row[i] = v.(string)
			}
		}
		out = append(out, row)
	}
	if err := rs.err(); err != nil {
		return nil, fail(err)
	}
	return out, nil
}

// column returns the first column of rows.
func firstColumn(rows [][]string, err error) ([]string, error) {
	if err != nil {
		return nil, err
	}
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r[0]
	}
	return out, nil
}

// ListDatabases implements catalogs.Catalog.
func (c *Catalog) ListDatabases(ctx context.Context) ([]string, error) {
	return c.dialect.listDatabases(ctx, c)
}

// DatabaseExists implements catalogs.Catalog.
func (c *Catalog) DatabaseExists(ctx context.Context, name string) (bool, error) {
	dbs, err := c.ListDatabases(ctx)
	return contains(dbs, name), err
}

// GetDatabase implements catalogs.Catalog.
func (c *Catalog) GetDatabase(ctx context.Context, name string) (*catalogs.CatalogDatabase, error) {
	ok, err := c.DatabaseExists(ctx, name)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, catalogs.DatabaseNotExist(c.name, name)
	}
	return &catalogs.CatalogDatabase{Options: map[string]string{}}, nil
}

// unsupported is Flink's UnsupportedOperationException of the DDL a
// jdbc catalog refuses (it carries no message).
func unsupported() error {
	return catalogs.ClassErrorf(catalogs.ErrUnsupported, "UnsupportedOperationException", "")
}

// CreateDatabase implements catalogs.Catalog: refused.
func (c *Catalog) CreateDatabase(context.Context, string, *catalogs.CatalogDatabase, bool) error {
	return unsupported()
}

// DropDatabase implements catalogs.Catalog: refused.
func (c *Catalog) DropDatabase(context.Context, string, bool, bool) error { return unsupported() }

// AlterDatabase implements catalogs.Catalog: refused.
func (c *Catalog) AlterDatabase(context.Context, string, *catalogs.CatalogDatabase, bool) error {
	return unsupported()
}

// ListTables implements catalogs.Catalog.
func (c *Catalog) ListTables(ctx context.Context, database string) ([]string, error) {
	ok, err := c.DatabaseExists(ctx, database)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, catalogs.DatabaseNotExist(c.name, database)
	}
	return c.dialect.listTables(ctx, c, database)
}

// ListViews implements catalogs.Catalog: none.
func (c *Catalog) ListViews(context.Context, string) ([]string, error) { return []string{}, nil }

// TableExists implements catalogs.Catalog.
func (c *Catalog) TableExists(ctx context.Context, path catalogs.ObjectPath) (bool, error) {
	ok, err := c.DatabaseExists(ctx, path.Database)
	if err != nil || !ok {
		return false, err
	}
	return c.dialect.tableExists(ctx, c, path)
}

// GetTable implements catalogs.Catalog: the table's columns with their
// mapped types, its primary key and the options of a jdbc table.
func (c *Catalog) GetTable(ctx context.Context, path catalogs.ObjectPath) (catalogs.BaseTable, error) {
	ok, err := c.TableExists(ctx, path)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, catalogs.TableNotExist(c.name, path)
	}
	schema, err := c.dialect.describe(ctx, c, path)
	if err != nil {
		var ce *catalogs.Error
		if errors.As(err, &ce) {
			return nil, err
		}
		return nil, catalogs.WrapStore(err, "Failed getting table %s", path.FullName())
	}
	return &catalogs.CatalogTable{Schema: schema, Options: map[string]string{
		"connector": "jdbc", optURL: c.base + path.Database, optUsername: c.user, optPassword: c.pass,
		optTableName: c.dialect.tableName(path),
	}}, nil
}

// CreateTable implements catalogs.Catalog: refused.
func (c *Catalog) CreateTable(context.Context, catalogs.ObjectPath, catalogs.BaseTable, bool) error {
	return unsupported()
}

// DropTable implements catalogs.Catalog: refused.
func (c *Catalog) DropTable(context.Context, catalogs.ObjectPath, bool) error { return unsupported() }

// AlterTable implements catalogs.Catalog: refused.
func (c *Catalog) AlterTable(context.Context, catalogs.ObjectPath, catalogs.BaseTable, bool) error {
	return unsupported()
}

// RenameTable implements catalogs.Catalog: refused.
func (c *Catalog) RenameTable(context.Context, catalogs.ObjectPath, string, bool) error {
	return unsupported()
}

// ListFunctions implements catalogs.Catalog: none.
func (c *Catalog) ListFunctions(context.Context, string) ([]string, error) { return []string{}, nil }

// GetFunction implements catalogs.Catalog: none exists.
func (c *Catalog) GetFunction(_ context.Context, path catalogs.ObjectPath) (*catalogs.CatalogFunction, error) {
	return nil, catalogs.FunctionNotExist(c.name, path)
}

// FunctionExists implements catalogs.Catalog.
func (c *Catalog) FunctionExists(context.Context, catalogs.ObjectPath) (bool, error) {
	return false, nil
}

// CreateFunction implements catalogs.Catalog: refused.
func (c *Catalog) CreateFunction(context.Context, catalogs.ObjectPath, *catalogs.CatalogFunction, bool) error {
	return unsupported()
}

// AlterFunction implements catalogs.Catalog: refused.
func (c *Catalog) AlterFunction(context.Context, catalogs.ObjectPath, *catalogs.CatalogFunction, bool) error {
	return unsupported()
}

// DropFunction implements catalogs.Catalog: refused.
func (c *Catalog) DropFunction(context.Context, catalogs.ObjectPath, bool) error {
	return unsupported()
}
