package iceberg_test

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"eddy/catalogs/iceberg"
)

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
