package iceberg_test

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"eddy/catalogs"
	"eddy/catalogs/iceberg"
	"eddy/conf"
)

// TestArcticOptions checks seed 004's arctic options: each bad
// configuration is refused with the option it concerns, and a valid one
// names the Amoro service and the iceberg declaration that reaches it.
func TestArcticOptions(t *testing.T) {
	valid := "thrift://10.0.0.1:1260/local_catalog"
	cases := []struct {
		name string
		opts map[string]string
		kind error
		want string
	}{
		{"missing url", map[string]string{}, catalogs.ErrMissingOption, "metastore.url"},
		{"empty url", map[string]string{"metastore.url": " "}, catalogs.ErrMissingOption, "metastore.url"},
		{"no port", map[string]string{"metastore.url": "thrift://x"}, catalogs.ErrInvalidOption, "thrift://<host>:<port>/<catalog_name_in_metastore>"},
		{"http scheme", map[string]string{"metastore.url": "http://h:1260/c"}, catalogs.ErrInvalidOption, "the scheme must be thrift://"},
		{"no catalog", map[string]string{"metastore.url": "thrift://h:1260"}, catalogs.ErrInvalidOption, "name of one catalog"},
		{"bad port", map[string]string{"metastore.url": "thrift://h:99999/c"}, catalogs.ErrInvalidOption, "port"},
		{"unknown option", map[string]string{"metastore.url": valid, "metastore.uri": "x"}, catalogs.ErrInvalidOption, "Unsupported options found for catalog 'lake' of type 'arctic'"},
		{"property-version", map[string]string{"metastore.url": valid, "property-version": "one"}, catalogs.ErrInvalidOption, "property-version"},
		{"load-from-ams", map[string]string{"metastore.url": valid, "properties.auth.load-from-ams": "yes"}, catalogs.ErrInvalidOption, "properties.auth.load-from-ams"},
		{"auth type", map[string]string{"metastore.url": valid, "properties.auth.type": "ldap"}, catalogs.ErrInvalidOption, "valid values: simple, kerberos"},
		{"simple without user", map[string]string{"metastore.url": valid, "properties.auth.type": "simple"}, catalogs.ErrMissingOption, "properties.auth.simple.hadoop_username"},
		{"kerberos without files", map[string]string{"metastore.url": valid, "properties.auth.type": "kerberos", "properties.auth.kerberos.principal": "p@R"}, catalogs.ErrMissingOption,
			"'properties.auth.kerberos.krb.path', 'properties.auth.kerberos.keytab.path'"},
		{"kerberos relative path", map[string]string{"metastore.url": valid, "properties.auth.type": "kerberos", "properties.auth.kerberos.principal": "p@R",
			"properties.auth.kerberos.krb.path": "krb5.conf", "properties.auth.kerberos.keytab.path": "/k.keytab"}, catalogs.ErrInvalidOption, "not an absolute path"},
		{"user without type", map[string]string{"metastore.url": valid, "properties.auth.simple.hadoop_username": "u"}, catalogs.ErrInvalidOption, "needs 'properties.auth.type'"},
		{"valid", map[string]string{"metastore.url": valid, "default-database": "db", "property-version": "1", "properties.auth.load-from-ams": "False",
			"properties.auth.type": "simple", "properties.auth.simple.hadoop_username": "hadoop"}, catalogs.ErrCatalogOpen,
			"needs the Amoro Management Service at thrift://10.0.0.1:1260 (catalog 'local_catalog')"},
		{"valid kerberos", map[string]string{"metastore.url": valid, "properties.auth.type": "kerberos", "properties.auth.kerberos.principal": "p@R",
			"properties.auth.kerberos.krb.path": "/etc/krb5.conf", "properties.auth.kerberos.keytab.path": "/k.keytab"}, catalogs.ErrCatalogOpen,
			"'type' = 'iceberg', 'catalog-type' = 'rest', 'uri' = 'http://10.0.0.1:<AMS HTTP port, 1630 by default>/api/iceberg/rest', 'warehouse' = 'local_catalog'"},
	}
	for _, c := range cases {
		_, err := iceberg.ArcticFactory{}.Open(context.Background(), "lake", c.opts)
		if err == nil || !errors.Is(err, c.kind) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want a %v holding %q", c.name, err, c.kind, c.want)
		}
	}
}

// TestArcticInDDLAndYAML: the arctic type's errors reach CREATE CATALOG
// and a YAML entry, and the failed statement leaves no catalog behind.
func TestArcticInDDLAndYAML(t *testing.T) {
	s := session(t, "")
	expectError(t, s, "CREATE CATALOG arctic_catalog WITH ('type' = 'arctic')", "metastore.url")
	expectError(t, s, "CREATE CATALOG arctic_catalog WITH ('type' = 'arctic', 'metastore.url' = 'thrift://127.0.0.1:1260/local_catalog')",
		"Amoro Management Service")
	if rows := query(t, s, "SHOW CATALOGS"); strings.Contains(strings.Join(rows, ","), "arctic_catalog") {
		t.Errorf("a failed CREATE CATALOG left a catalog: %v", rows)
	}
	cfg, err := conf.Parse([]byte("catalogs:\n  - name: lake\n    type: arctic\n    metastore.url: thrift://ams:1260\n"), "eddy.yaml")
	if err != nil {
		t.Fatal(err)
	}
	mgr := catalogs.NewManager(map[string]catalogs.Factory{iceberg.ArcticType: iceberg.ArcticFactory{}}, nil)
	defer mgr.Close()
	c := cfg.Catalogs[0]
	err = mgr.RegisterCatalog(context.Background(), catalogs.CatalogDescriptor{Name: c.Name, Options: c.AllOptions()}, nil, catalogs.OriginConfig)
	if err == nil || !strings.Contains(err.Error(), "name of one catalog of the metastore") {
		t.Errorf("YAML arctic catalog with a malformed metastore.url: %v", err)
	}
}

// TestIcebergOptions checks the options as Iceberg's Flink catalog
// factory does, before any connection.
func TestIcebergOptions(t *testing.T) {
	cases := []struct {
		opts map[string]string
		want string
	}{
		{map[string]string{}, "'catalog-type' = 'hive'"},
		{map[string]string{"catalog-type": "glue"}, "Unknown catalog-type: glue (Must be 'hive', 'hadoop' or 'rest')"},
		{map[string]string{"catalog-type": "rest", "catalog-impl": "x.Y"}, "both catalog-type and catalog-impl are set"},
		{map[string]string{"catalog-impl": "x.Y"}, "names a Java class"},
		{map[string]string{"catalog-type": "rest"}, "Invalid uri for http client: null"},
		{map[string]string{"catalog-type": "rest", "uri": "thrift://h:1"}, "Invalid uri for http client"},
		{map[string]string{"catalog-type": "hadoop"}, "warehousePath must not be null or empty"},
		{map[string]string{"catalog-type": "hadoop", "warehouse": "/tmp/w", "cache.expiration-interval-ms": "0"}, "cache.expiration-interval-ms is not allowed to be 0."},
		{map[string]string{"catalog-type": "hadoop", "warehouse": "/tmp/w", "io-impl": "com.example.IO"}, "Cannot initialize FileIO implementation com.example.IO"},
	}
	for _, c := range cases {
		_, err := iceberg.Factory{}.Open(context.Background(), "ice", c.opts)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: got %v, want an error holding %q", c.opts, err, c.want)
		}
	}
}

// TestUnreachableREST: a REST catalog nobody serves is an error naming its
// URI within a bounded time.
func TestUnreachableREST(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err = iceberg.Factory{}.Open(ctx, "ice", map[string]string{"catalog-type": "rest", "uri": "http://" + addr, "credential": "id:secret"})
	if err == nil || !strings.Contains(err.Error(), "http://"+addr) || strings.Contains(err.Error(), "secret") {
		t.Fatalf("got %v, want an error naming http://%s and no secret", err, addr)
	}
}

// TestHadoopCatalog: 'catalog-type' = 'hadoop' keeps tables in a local
// warehouse directory.
func TestHadoopCatalog(t *testing.T) {
	dir := t.TempDir()
	s := session(t, "")
	query(t, s, "CREATE CATALOG h WITH ('type' = 'iceberg', 'catalog-type' = 'hadoop', 'warehouse' = 'file://"+dir+"')",
		"CREATE DATABASE h.db", "CREATE TABLE h.db.t (a INT, b STRING)", "INSERT INTO h.db.t VALUES (1, 'x'), (2, 'y')")
	wantRows(t, "hadoop catalog", sorted(query(t, s, "SELECT * FROM h.db.t")), "1\tx", "2\ty")
}
