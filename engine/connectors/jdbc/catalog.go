package jdbc

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"

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
// databases of a PostgreSQL server.
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
	c := &Catalog{name: name, base: base, defaultDB: options[catalogs.OptionDefaultDatabase],
		user: options[optUsername], pass: options[optPassword], dialect: u.dialect, conns: map[string]*pgx.Conn{}}
	conn, err := connectURL(ctx, u, c.user, c.pass, connectTimeout)
	if err != nil {
		return nil, catalogs.ClassErrorf(catalogs.ErrCatalogOpen, "ValidationException",
			"Failed connecting to %s via JDBC: %v", base+c.defaultDB, err)
	}
	c.conns[c.defaultDB] = conn
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
// its tables the base tables of their schemas named schema.table (a name
// without a schema is in 'public'), their columns mapped to Flink types
// as Flink's PostgresTypeMapper does. It reads only: DDL is refused as
// Flink's AbstractJdbcCatalog refuses it.
type Catalog struct {
	name, base, defaultDB string
	user, pass            string
	dialect               dialect

	mu    sync.Mutex
	conns map[string]*pgx.Conn // by database
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
		_ = conn.Close(context.Background())
		delete(c.conns, db)
	}
	return nil
}

// conn returns a connection to a database, opened on first use.
func (c *Catalog) conn(ctx context.Context, db string) (*pgx.Conn, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if conn, ok := c.conns[db]; ok && !conn.IsClosed() {
		return conn, nil
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

func (c *Catalog) queryStrings(ctx context.Context, db, q string, args ...any) ([]string, error) {
	conn, err := c.conn(ctx, db)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	rows, err := conn.Query(ctx, q, args...)
	if err != nil {
		return nil, catalogs.WrapStore(err, "Failed querying database %s of catalog %s", db, c.name)
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, catalogs.WrapStore(err, "Failed querying database %s of catalog %s", db, c.name)
	}
	return out, nil
}

// ListDatabases implements catalogs.Catalog: every database but the
// templates.
func (c *Catalog) ListDatabases(ctx context.Context) ([]string, error) {
	return c.queryStrings(ctx, c.defaultDB,
		"SELECT datname FROM pg_database WHERE datname NOT IN ('template0', 'template1') ORDER BY datname")
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

// builtinSchemas are the schemas whose tables are not listed.
var builtinSchemas = []string{"pg_toast", "pg_temp_1", "pg_toast_temp_1", "pg_catalog", "information_schema"}

// ListTables implements catalogs.Catalog: schema.table of every base
// table of the database's schemas.
func (c *Catalog) ListTables(ctx context.Context, database string) ([]string, error) {
	ok, err := c.DatabaseExists(ctx, database)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, catalogs.DatabaseNotExist(c.name, database)
	}
	return c.queryStrings(ctx, database, `SELECT table_schema || '.' || table_name FROM information_schema.tables
		WHERE table_type = 'BASE TABLE' AND NOT (table_schema = ANY($1)) ORDER BY table_schema, table_name`, builtinSchemas)
}

// ListViews implements catalogs.Catalog: none.
func (c *Catalog) ListViews(context.Context, string) ([]string, error) { return []string{}, nil }

// tablePath is Flink's PostgresTablePath: schema.table, 'public' when
// the name has no schema.
func tablePath(object string) (schema, table string) {
	if i := strings.IndexByte(object, '.'); i >= 0 {
		return object[:i], object[i+1:]
	}
	return "public", object
}

// TableExists implements catalogs.Catalog.
func (c *Catalog) TableExists(ctx context.Context, path catalogs.ObjectPath) (bool, error) {
	ok, err := c.DatabaseExists(ctx, path.Database)
	if err != nil || !ok {
		return false, err
	}
	schema, table := tablePath(path.Object)
	n, err := c.queryStrings(ctx, path.Database, `SELECT table_name FROM information_schema.tables
		WHERE table_type = 'BASE TABLE' AND table_schema = $1 AND table_name = $2 AND NOT (table_schema = ANY($3))`, schema, table, builtinSchemas)
	return len(n) > 0, err
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
	schema, table := tablePath(path.Object)
	conn, err := c.conn(ctx, path.Database)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	fail := func(err error) error {
		return catalogs.WrapStore(err, "Failed getting table %s", path.FullName())
	}
	rows, err := conn.Query(ctx, `SELECT a.attname, t.typname, a.atttypmod, a.attnotnull
		FROM pg_attribute a JOIN pg_class c ON a.attrelid = c.oid JOIN pg_namespace n ON c.relnamespace = n.oid
		JOIN pg_type t ON a.atttypid = t.oid
		WHERE n.nspname = $1 AND c.relname = $2 AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`, schema, table)
	if err != nil {
		return nil, fail(err)
	}
	out := &catalogs.CatalogTable{Options: map[string]string{
		"connector": "jdbc", optURL: c.base + path.Database, optUsername: c.user, optPassword: c.pass,
		optTableName: schema + "." + table,
	}}
	for rows.Next() {
		var name, typ string
		var mod int32
		var notNull bool
		if err := rows.Scan(&name, &typ, &mod, &notNull); err != nil {
			rows.Close()
			return nil, fail(err)
		}
		t, err := pgType(typ, mod)
		if err != nil {
			rows.Close()
			return nil, fail(err)
		}
		if notNull {
			t = t.WithNullable(false)
		}
		out.Schema.Columns = append(out.Schema.Columns, catalogs.Column{Name: name, Kind: catalogs.Physical, Type: t})
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fail(err)
	}
	rows, err = conn.Query(ctx, `SELECT con.conname, a.attname FROM pg_constraint con
		JOIN pg_class c ON c.oid = con.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
		CROSS JOIN LATERAL unnest(con.conkey) WITH ORDINALITY AS k(attnum, ord)
		JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum
		WHERE con.contype = 'p' AND n.nspname = $1 AND c.relname = $2 ORDER BY k.ord`, schema, table)
	if err != nil {
		return nil, fail(err)
	}
	for rows.Next() {
		var pk, col string
		if err := rows.Scan(&pk, &col); err != nil {
			rows.Close()
			return nil, fail(err)
		}
		if out.Schema.PrimaryKey == nil {
			out.Schema.PrimaryKey = &catalogs.PrimaryKey{Name: pk}
		}
		out.Schema.PrimaryKey.Columns = append(out.Schema.PrimaryKey.Columns, col)
	}
	rows.Close()
	return out, rows.Err()
}

// pgType maps a PostgreSQL type name and type modifier to a Flink type,
// as Flink's PostgresTypeMapper maps what the JDBC driver reports;
// json and jsonb read as STRING.
func pgType(name string, mod int32) (*types.Type, error) {
	if strings.HasPrefix(name, "_") {
		elem, err := pgType(name[1:], mod)
		if err != nil {
			return nil, err
		}
		return types.NewArray(elem), nil
	}
	fraction := 6
	if mod >= 0 {
		fraction = int(mod)
	}
	switch name {
	case "bool":
		return types.New(types.Boolean), nil
	case "bytea":
		return types.NewVarBinary(types.MaxLength), nil
	case "int2":
		return types.New(types.SmallInt), nil
	case "int4":
		return types.New(types.Int), nil
	case "int8":
		return types.New(types.BigInt), nil
	case "float4":
		return types.New(types.Float), nil
	case "float8":
		return types.New(types.Double), nil
	case "numeric":
		if mod >= 4 {
			p, s := int((mod-4)>>16&0xffff), int((mod-4)&0xffff)
			if p > 0 {
				return types.NewDecimal(p, s), nil
			}
		}
		return types.NewDecimal(types.MaxDecimalPrecision, 18), nil
	case "bpchar", "character":
		n := 1
		if mod >= 4 {
			n = int(mod - 4)
		}
		return types.NewChar(n), nil
	case "varchar":
		if mod >= 4 {
			return types.NewVarChar(int(mod - 4)), nil
		}
		return types.NewString(), nil
	case "uuid":
		return types.NewVarChar(36), nil
	case "text", "json", "jsonb":
		return types.NewString(), nil
	case "timestamp":
		return types.NewTimestamp(fraction), nil
	case "timestamptz":
		return types.NewTimestampLTZ(fraction), nil
	case "time":
		return types.NewTime(fraction), nil
	case "date":
		return types.New(types.Date), nil
	}
	return nil, fmt.Errorf("Doesn't support Postgres type '%s' yet", name)
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
