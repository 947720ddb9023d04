package jdbc_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"eddy/catalogs"
	"eddy/catalogs/memory"
	"eddy/conf"
	"eddy/engine"
	"eddy/engine/connectors/jdbc"
)

// catalogSession is a session whose catalog manager knows the jdbc
// catalog type and registers the catalogs of a YAML configuration, as
// the shell does.
func catalogSession(t *testing.T, yaml string) *engine.Session {
	t.Helper()
	ctx := context.Background()
	mgr := catalogs.NewManager(map[string]catalogs.Factory{memory.Type: memory.Factory{}, jdbc.CatalogType: jdbc.CatalogFactory{}}, nil)
	t.Cleanup(func() { mgr.Close() })
	desc := catalogs.CatalogDescriptor{Name: "default_catalog", Options: map[string]string{catalogs.OptionType: memory.Type}}
	if err := mgr.RegisterCatalog(ctx, desc, memory.New("default_catalog", "default_database"), catalogs.OriginBuiltIn); err != nil {
		t.Fatal(err)
	}
	if err := mgr.SetCurrentCatalog(ctx, "default_catalog"); err != nil {
		t.Fatal(err)
	}
	if yaml != "" {
		cfg, err := conf.Parse([]byte(yaml), "eddy.yaml")
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cfg.Catalogs {
			if err := mgr.RegisterCatalog(ctx, catalogs.CatalogDescriptor{Name: c.Name, Options: c.AllOptions()}, nil, catalogs.OriginConfig); err != nil {
				t.Fatal(err)
			}
		}
	}
	s, err := engine.NewSession(engine.SessionConfig{Catalogs: mgr,
		Options: map[string]string{"table.dml-sync": "true", "execution.runtime-mode": "batch", "table.local-time-zone": "UTC"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestCatalogFromYAML(t *testing.T) {
	url := pgURL(t)
	c := pg(t)
	base := url[:strings.LastIndex(url, "/")]
	pgExec(t, c, "CREATE SCHEMA IF NOT EXISTS shop")
	tbl := table(t, c, `CREATE TABLE shop.%s (id INT PRIMARY KEY, name VARCHAR(20) NOT NULL, price NUMERIC(8,2), tags TEXT[], doc JSONB, n NUMERIC)`)
	t.Cleanup(func() { c.Exec(context.Background(), "DROP TABLE IF EXISTS shop."+tbl) })
	pgExec(t, c, "INSERT INTO shop."+tbl+` VALUES (1, 'pen', 1.50, '{a,b}', '{"k": true}', 3.25), (2, 'ink', 12.00, NULL, NULL, NULL)`)
	plain := table(t, c, `CREATE TABLE %s (k BIGINT, v DOUBLE PRECISION)`)
	pgExec(t, c, "INSERT INTO "+plain+" VALUES (7, 0.5)")
	s := catalogSession(t, fmt.Sprintf(`catalogs:
  - name: pg
    type: jdbc
    default-database: eddy
    base-url: %s
    username: eddy
    password: eddy
`, base))
	if rows := mustQuery(t, s, "SHOW DATABASES IN pg"); !contains(rows, "+I eddy") {
		t.Errorf("databases: %v", rows)
	}
	exec1(t, s, "USE CATALOG pg")
	tables := mustQuery(t, s, "SHOW TABLES")
	if !contains(tables, "+I shop."+tbl) || !contains(tables, "+I public."+plain) {
		t.Errorf("tables: %v", tables)
	}
	wantRows(t, mustQuery(t, s, "DESCRIBE `shop."+tbl+"`"),
		"+I id INT FALSE PRI(id)  ",
		"+I name VARCHAR(20) FALSE   ",
		"+I price DECIMAL(8, 2) TRUE   ",
		"+I tags ARRAY<STRING> TRUE   ",
		"+I doc STRING TRUE   ",
		"+I n DECIMAL(38, 18) TRUE   ")
	show := strings.Join(mustQuery(t, s, "SHOW CREATE TABLE `shop."+tbl+"`"), "\n")
	for _, part := range []string{"'connector' = 'jdbc'", "'table-name' = 'shop." + tbl + "'", "'password' = '****'", "PRIMARY KEY"} {
		if !strings.Contains(show, part) {
			t.Errorf("SHOW CREATE TABLE lacks %s:\n%s", part, show)
		}
	}
	wantRows(t, mustQuery(t, s, "SELECT id, name, price, tags, doc, n FROM `shop."+tbl+"` WHERE price > 1 ORDER BY id"),
		`+I 1 pen 1.50 [a b] {"k": true} 3.250000000000000000`, "+I 2 ink 12.00 <nil> <nil> <nil>")
	// timestamptz maps to TIMESTAMP_LTZ, which Flink's row converter
	// cannot read.
	tz := table(t, c, `CREATE TABLE %s (id INT, at TIMESTAMPTZ(3))`)
	wantRows(t, mustQuery(t, s, "DESCRIBE `"+tz+"`"), "+I id INT TRUE   ", "+I at TIMESTAMP_LTZ(3) TRUE   ")
	if _, err := query(s, "SELECT id FROM `"+tz+"`", -1); err == nil || !strings.Contains(err.Error(), "Unsupported type:TIMESTAMP_LTZ(3)") {
		t.Errorf("timestamptz: %v", err)
	}
	// A table without a schema is in public.
	wantRows(t, mustQuery(t, s, "SELECT k, v FROM `"+plain+"`"), "+I 7 0.5")
	// Writes go to the database: checked with pgx.
	exec1(t, s, "INSERT INTO `shop."+tbl+"` (id, name, price) VALUES (1, 'pencil', 2.00), (3, 'pad', 4.50)")
	got := pgRows(t, c, "SELECT id, name, price FROM shop."+tbl+" ORDER BY id")
	if strings.Join(got, ",") != "1|pencil|2.00,2|ink|12.00,3|pad|4.50" {
		t.Errorf("after INSERT: %v", got)
	}
	// Lookups through the catalog's table.
	s2 := catalogSession(t, fmt.Sprintf("catalogs:\n  - name: pg\n    type: jdbc\n    default-database: eddy\n    base-url: %s\n    username: eddy\n    password: eddy\n", base))
	exec1(t, s2, "SET 'execution.runtime-mode' = 'streaming'")
	exec1(t, s2, "CREATE TEMPORARY VIEW o AS SELECT id, PROCTIME() AS pt FROM (VALUES (3), (1), (5)) AS v(id)")
	wantRows(t, mustQuery(t, s2, "SELECT o.id, d.name FROM o LEFT JOIN pg.eddy.`shop."+tbl+"` FOR SYSTEM_TIME AS OF o.pt AS d ON o.id = d.id"),
		"+I 3 pad", "+I 1 pencil", "+I 5 <nil>")
	// DDL the JdbcCatalog refuses.
	for _, sql := range []string{"CREATE DATABASE other", "DROP TABLE `public." + plain + "`", "CREATE TABLE x (a INT)"} {
		if _, err := query(s, sql, -1); err == nil {
			t.Errorf("%s was accepted", sql)
		} else if !strings.Contains(err.Error(), "UnsupportedOperationException") && !strings.Contains(classOf(err), "UnsupportedOperationException") {
			t.Errorf("%s: %v", sql, err)
		}
	}
	// Nothing changed in the database.
	if got := pgRows(t, c, "SELECT count(*) FROM "+plain); strings.Join(got, ",") != "1" {
		t.Errorf("the refused DROP changed the table: %v", got)
	}
}

func classOf(err error) string {
	if c, ok := err.(interface{ Class() string }); ok {
		return c.Class()
	}
	return fmt.Sprintf("%T", err)
}

func contains(rows []string, want string) bool {
	for _, r := range rows {
		if r == want {
			return true
		}
	}
	return false
}

func TestCatalogErrors(t *testing.T) {
	url := pgURL(t)
	base := url[:strings.LastIndex(url, "/")]
	s := catalogSession(t, "")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for sql, want := range map[string]string{
		"CREATE CATALOG c1 WITH ('type' = 'jdbc', 'base-url' = '" + base + "', 'default-database' = 'eddy', 'username' = 'eddy')":                                           "Missing required options are:\n\npassword",
		"CREATE CATALOG c2 WITH ('type' = 'jdbc', 'base-url' = '" + base + "', 'default-database' = 'eddy', 'username' = 'eddy', 'password' = 'not-it-9')":                  "password authentication failed",
		"CREATE CATALOG c3 WITH ('type' = 'jdbc', 'base-url' = 'jdbc:postgresql://127.0.0.1:1', 'default-database' = 'eddy', 'username' = 'eddy', 'password' = 'not-it-9')": "database 'eddy' at 127.0.0.1:1",
		"CREATE CATALOG c4 WITH ('type' = 'jdbc', 'base-url' = '" + url + "', 'default-database' = 'eddy', 'username' = 'eddy', 'password' = 'eddy')":                       "must not contain a database name",
	} {
		_, err := s.Execute(ctx, sql)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", sql, err, want)
		}
		if err != nil && strings.Contains(err.Error(), "not-it-9") {
			t.Errorf("the password is in the message: %v", err)
		}
	}
}
