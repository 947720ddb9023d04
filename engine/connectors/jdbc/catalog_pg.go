package jdbc

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"eddy/catalogs"
	"eddy/engine/types"
)

// The PostgreSQL side of a jdbc catalog: Flink's PostgresCatalog.

func (postgres) openFailure(url string) string { return "Failed connecting to " + url + " via JDBC" }

func (postgres) opened(context.Context, *Catalog) error { return nil }

// listDatabases is every database but the templates.
func (postgres) listDatabases(ctx context.Context, c *Catalog) ([]string, error) {
	return firstColumn(c.rows(ctx, c.defaultDB,
		"SELECT datname FROM pg_database WHERE datname NOT IN ('template0', 'template1') ORDER BY datname"))
}

// builtinSchemas are the schemas whose tables are not listed.
var builtinSchemas = []string{"pg_toast", "pg_temp_1", "pg_toast_temp_1", "pg_catalog", "information_schema"}

// listTables is schema.table of every base table of the database's
// schemas.
func (postgres) listTables(ctx context.Context, c *Catalog, db string) ([]string, error) {
	return firstColumn(c.rows(ctx, db, `SELECT table_schema || '.' || table_name FROM information_schema.tables
		WHERE table_type = 'BASE TABLE' AND NOT (table_schema = ANY($1)) ORDER BY table_schema, table_name`, builtinSchemas))
}

// tablePath is Flink's PostgresTablePath: schema.table, 'public' when
// the name has no schema.
func tablePath(object string) (schema, table string) {
	if i := strings.IndexByte(object, '.'); i >= 0 {
		return object[:i], object[i+1:]
	}
	return "public", object
}

func (postgres) tableName(path catalogs.ObjectPath) string {
	schema, table := tablePath(path.Object)
	return schema + "." + table
}

func (postgres) tableExists(ctx context.Context, c *Catalog, path catalogs.ObjectPath) (bool, error) {
	schema, table := tablePath(path.Object)
	n, err := c.rows(ctx, path.Database, `SELECT table_name FROM information_schema.tables
		WHERE table_type = 'BASE TABLE' AND table_schema = $1 AND table_name = $2 AND NOT (table_schema = ANY($3))`, schema, table, builtinSchemas)
	return len(n) > 0, err
}

// describe reads the table's columns and primary key from pg_catalog.
func (postgres) describe(ctx context.Context, c *Catalog, path catalogs.ObjectPath) (catalogs.Schema, error) {
	var out catalogs.Schema
	schema, table := tablePath(path.Object)
	cols, err := c.rows(ctx, path.Database, `SELECT a.attname, t.typname, a.atttypmod, a.attnotnull
		FROM pg_attribute a JOIN pg_class c ON a.attrelid = c.oid JOIN pg_namespace n ON c.relnamespace = n.oid
		JOIN pg_type t ON a.atttypid = t.oid
		WHERE n.nspname = $1 AND c.relname = $2 AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`, schema, table)
	if err != nil {
		return out, err
	}
	for _, r := range cols {
		mod, err := strconv.ParseInt(r[2], 10, 32)
		if err != nil {
			return out, err
		}
		t, err := pgType(r[1], int32(mod))
		if err != nil {
			return out, err
		}
		if r[3] == "true" {
			t = t.WithNullable(false)
		}
		out.Columns = append(out.Columns, catalogs.Column{Name: r[0], Kind: catalogs.Physical, Type: t})
	}
	pk, err := c.rows(ctx, path.Database, `SELECT con.conname, a.attname FROM pg_constraint con
		JOIN pg_class c ON c.oid = con.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
		CROSS JOIN LATERAL unnest(con.conkey) WITH ORDINALITY AS k(attnum, ord)
		JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum
		WHERE con.contype = 'p' AND n.nspname = $1 AND c.relname = $2 ORDER BY k.ord`, schema, table)
	if err != nil {
		return out, err
	}
	for _, r := range pk {
		if out.PrimaryKey == nil {
			out.PrimaryKey = &catalogs.PrimaryKey{Name: r[0]}
		}
		out.PrimaryKey.Columns = append(out.PrimaryKey.Columns, r[1])
	}
	return out, nil
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
