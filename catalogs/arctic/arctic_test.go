package arctic_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"eddy/catalogs"
	"eddy/catalogs/arctic"
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
		_, err := arctic.Factory{}.Open(context.Background(), "lake", c.opts)
		if err == nil || !errors.Is(err, c.kind) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want a %v holding %q", c.name, err, c.kind, c.want)
		}
	}
}

// TestArcticInYAML: a YAML entry of type arctic with a malformed
// metastore.url is refused with the option it concerns, and a failed
// registration leaves no catalog behind.
func TestArcticInYAML(t *testing.T) {
	cfg, err := conf.Parse([]byte("catalogs:\n  - name: lake\n    type: arctic\n    metastore.url: thrift://ams:1260\n"), "eddy.yaml")
	if err != nil {
		t.Fatal(err)
	}
	mgr := catalogs.NewManager(map[string]catalogs.Factory{arctic.Type: arctic.Factory{}}, nil)
	defer mgr.Close()
	c := cfg.Catalogs[0]
	err = mgr.RegisterCatalog(context.Background(), catalogs.CatalogDescriptor{Name: c.Name, Options: c.AllOptions()}, nil, catalogs.OriginConfig)
	if err == nil || !strings.Contains(err.Error(), "name of one catalog of the metastore") {
		t.Errorf("YAML arctic catalog with a malformed metastore.url: %v", err)
	}
	names, err := mgr.ListCatalogs(context.Background(), nil)
	if err == nil && slices.Contains(names, "lake") {
		t.Errorf("a catalog that could not be made is listed: %v", names)
	}
}
