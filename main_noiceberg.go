//go:build !iceberg

package main

import (
	"context"

	"eddy/catalogs"
)

// addIceberg registers, in a shell built without the tag iceberg (see
// main_iceberg.go), a catalog type 'iceberg' that says how to get one.
func addIceberg(f map[string]catalogs.Factory) { f[icebergType] = icebergLeftOut{} }

// icebergType is the catalog type of Apache Iceberg catalogs.
const icebergType = "iceberg"

// icebergLeftOut is the 'iceberg' catalog type of a shell built without
// Apache Iceberg's library.
type icebergLeftOut struct{}

func (icebergLeftOut) Type() string { return icebergType }

func (icebergLeftOut) Open(context.Context, string, map[string]string) (catalogs.Catalog, error) {
	return nil, catalogs.Errorf(catalogs.ErrInvalidOption,
		"Catalog type 'iceberg' is not in this eddy: it is built with the tag iceberg (go build -tags iceberg .), which adds Apache Iceberg's library and about 55 MB of resident memory.")
}
