//go:build iceberg

package main

import (
	"eddy/catalogs"
	"eddy/catalogs/iceberg"
)

// addIceberg registers the catalog type 'iceberg'. It is built with the
// tag iceberg: Apache Iceberg's Go library costs the shell about 55 MB of
// resident memory from its start (its substrait package allocates some
// 32 MB when initialized), which the shell does not pay without it.
func addIceberg(f map[string]catalogs.Factory) { f[iceberg.Type] = iceberg.Factory{} }
