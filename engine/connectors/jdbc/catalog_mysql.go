package jdbc

import (
	"context"
	"fmt"
	"runtime/debug"
	"strconv"
	"strings"

	"eddy/catalogs"
	"eddy/engine/types"
)

// The MySQL side of a jdbc catalog: Flink's MySqlCatalog. A database is
// a MySQL database (schema), a table is named by its name alone.

// openFailure is MySqlCatalog's text when it cannot read the driver's
// version, its first use of the default database.
func (mysql) openFailure(url string) string {
	return "Failed in getting MySQL driver version by " + url + "."
}

// opened reads the server's version, which the type mapper's errors name.
func (mysql) opened(ctx context.Context, c *Catalog) error {
	v, err := firstColumn(c.rows(ctx, c.defaultDB, "SELECT VERSION()"))
	if err != nil {
		return catalogs.ClassErrorf(catalogs.ErrCatalogOpen, "CatalogException", "Failed in getting MySQL version by %s: %v", c.base+c.defaultDB, err)
	}
	if len(v) > 0 {
		c.version = v[0]
	}
	return nil
}

// mysqlBuiltinDatabases are the databases a catalog does not list.
var mysqlBuiltinDatabases = []string{"information_schema", "mysql", "performance_schema", "sys"}

func (mysql) listDatabases(ctx context.Context, c *Catalog) ([]string, error) {
	all, err := firstColumn(c.rows(ctx, c.defaultDB, "SELECT `SCHEMA_NAME` FROM `INFORMATION_SCHEMA`.`SCHEMATA` ORDER BY `SCHEMA_NAME`"))
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(all))
	for _, db := range all {
		if !contains(mysqlBuiltinDatabases, db) {
			out = append(out, db)
		}
	}
	return out, nil
}

func (mysql) listTables(ctx context.Context, c *Catalog, db string) ([]string, error) {
	return firstColumn(c.rows(ctx, c.defaultDB,
		"SELECT TABLE_NAME FROM information_schema.`TABLES` WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME", db))
}

func (mysql) tableExists(ctx context.Context, c *Catalog, path catalogs.ObjectPath) (bool, error) {
	n, err := c.rows(ctx, c.defaultDB,
		"SELECT TABLE_NAME FROM information_schema.`TABLES` WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?", path.Database, path.Object)
	return len(n) > 0, err
}

func (mysql) tableName(path catalogs.ObjectPath) string { return path.Object }

// describe reads the table's columns and primary key from
// information_schema, the text columns' lengths in characters of their
// character set (what the JDBC driver reports as their precision).
func (d mysql) describe(ctx context.Context, c *Catalog, path catalogs.ObjectPath) (catalogs.Schema, error) {
	var out catalogs.Schema
	cols, err := c.rows(ctx, c.defaultDB, "SELECT c.COLUMN_NAME, c.DATA_TYPE, c.COLUMN_TYPE, "+
		"IFNULL(c.CHARACTER_MAXIMUM_LENGTH, 0), IFNULL(c.CHARACTER_OCTET_LENGTH, 0), IFNULL(cs.MAXLEN, 1), "+
		"IFNULL(c.NUMERIC_PRECISION, 0), IFNULL(c.NUMERIC_SCALE, 0), IFNULL(c.DATETIME_PRECISION, 0), c.IS_NULLABLE "+
		"FROM information_schema.`COLUMNS` c LEFT JOIN information_schema.CHARACTER_SETS cs ON cs.CHARACTER_SET_NAME = c.CHARACTER_SET_NAME "+
		"WHERE c.TABLE_SCHEMA = ? AND c.TABLE_NAME = ? ORDER BY c.ORDINAL_POSITION", path.Database, path.Object)
	if err != nil {
		return out, err
	}
	for _, r := range cols {
		n := make([]int64, 5)
		for i := range n {
			if n[i], err = strconv.ParseInt(r[3+i], 10, 64); err != nil {
				return out, err
			}
		}
		col := mysqlColumn{name: r[0], dataType: strings.ToLower(r[1]), columnType: strings.ToLower(r[2]),
			chars: n[0], octets: n[1], maxLen: max(n[2], 1), precision: int(n[3]), scale: int(n[4])}
		col.fraction, _ = strconv.Atoi(r[8])
		t, err := d.columnType(c, path, col)
		if err != nil {
			return out, err
		}
		if r[9] == "NO" {
			t = t.WithNullable(false)
		}
		out.Columns = append(out.Columns, catalogs.Column{Name: r[0], Kind: catalogs.Physical, Type: t})
	}
	pk, err := firstColumn(c.rows(ctx, c.defaultDB, "SELECT COLUMN_NAME FROM information_schema.KEY_COLUMN_USAGE "+
		"WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND CONSTRAINT_NAME = 'PRIMARY' ORDER BY ORDINAL_POSITION", path.Database, path.Object))
	if err != nil {
		return out, err
	}
	if len(pk) > 0 {
		out.PrimaryKey = &catalogs.PrimaryKey{Name: "PRIMARY", Columns: pk}
	}
	return out, nil
}

// mysqlColumn is a column as information_schema describes it.
type mysqlColumn struct {
	name, dataType, columnType string
	chars, octets, maxLen      int64
	precision, scale, fraction int
}

// columnType is Flink's MySqlTypeMapper over the type names MySQL's JDBC
// driver reports: TINYINT(1) is BIT (a BOOLEAN), ENUM and SET are CHAR,
// unsigned integers widen to the next type.
func (mysql) columnType(c *Catalog, path catalogs.ObjectPath, col mysqlColumn) (*types.Type, error) {
	unsigned := strings.Contains(col.columnType, "unsigned")
	textLength := func() int { return int(col.octets / col.maxLen) }
	switch col.dataType {
	case "bit":
		return types.New(types.Boolean), nil
	case "tinyint":
		switch {
		case strings.HasPrefix(col.columnType, "tinyint(1)") && !unsigned:
			return types.New(types.Boolean), nil
		case unsigned:
			return types.New(types.SmallInt), nil
		}
		return types.New(types.TinyInt), nil
	case "smallint":
		if unsigned {
			return types.New(types.Int), nil
		}
		return types.New(types.SmallInt), nil
	case "mediumint":
		return types.New(types.Int), nil
	case "int", "integer":
		if unsigned {
			return types.New(types.BigInt), nil
		}
		return types.New(types.Int), nil
	case "bigint":
		if unsigned {
			return types.NewDecimal(20, 0), nil
		}
		return types.New(types.BigInt), nil
	case "decimal", "numeric":
		p := col.precision
		if unsigned {
			if p >= types.MaxDecimalPrecision {
				return nil, catalogs.ClassErrorf(catalogs.ErrStore, "CatalogException",
					"Precision %d of table %s column name %s in type %s exceeds DecimalType.MAX_PRECISION %d.",
					p, path.FullName(), col.name, "DECIMAL UNSIGNED", types.MaxDecimalPrecision)
			}
			p++
		}
		if p < 1 || p > types.MaxDecimalPrecision {
			return nil, fmt.Errorf("Decimal precision must be between 1 and %d (both inclusive).", types.MaxDecimalPrecision)
		}
		return types.NewDecimal(p, col.scale), nil
	case "float":
		return types.New(types.Float), nil
	case "double", "real":
		return types.New(types.Double), nil
	case "char", "enum", "set":
		return types.NewChar(int(col.chars)), nil
	case "varchar":
		return types.NewVarChar(int(col.chars)), nil
	case "tinytext", "text", "mediumtext":
		return types.NewVarChar(textLength()), nil
	case "longtext", "json":
		return types.NewString(), nil
	case "date":
		return types.New(types.Date), nil
	case "time":
		return types.NewTime(col.fraction), nil
	case "datetime", "timestamp":
		return types.NewTimestamp(min(col.fraction, 6)), nil
	case "tinyblob", "mediumblob", "blob", "longblob", "binary", "varbinary":
		return types.NewVarBinary(types.MaxLength), nil
	}
	return nil, catalogs.ClassErrorf(catalogs.ErrUnsupported, "UnsupportedOperationException",
		"Doesn't support MySQL type '%s' on column '%s' in MySQL version %s, driver version %s yet.",
		strings.ToUpper(col.dataType), col.name, c.version, mysqlDriverVersion())
}

// mysqlDriverVersion is the version of the Go MySQL driver built in.
func mysqlDriverVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, m := range bi.Deps {
			if m.Path == "github.com/go-sql-driver/mysql" {
				return strings.TrimPrefix(m.Version, "v")
			}
		}
	}
	return "unknown"
}
