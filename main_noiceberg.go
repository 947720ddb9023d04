//go:build !iceberg

package main

import "eddy/catalogs"

// addIceberg leaves the catalog type 'iceberg' out of a shell built
// without the tag iceberg (see main_iceberg.go).
func addIceberg(map[string]catalogs.Factory) {}
