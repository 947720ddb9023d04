// Package catalogs owns eddy's catalog layer: the Catalog interface that
// mirrors Flink's catalog API (databases, tables, views, functions) with
// optional capability interfaces found by type assertion (ModelCatalog for
// the catalogs that keep models); the values stored in catalogs
// (CatalogDatabase, CatalogTable, CatalogView, CatalogFunction,
// CatalogModel);
// object identifiers; the catalog error kinds, each reporting Flink's
// exception class and exact message; the CatalogStore of catalog
// definitions made with CREATE CATALOG; catalog factories, which open a
// catalog under a context bounded by the Manager's open timeout (a catalog
// lives from its factory's Open to its Close); and the Manager,
// one per session, holding the registered catalogs, the current catalog and
// database, temporary objects and name resolution (Flink's CatalogManager).
//
// It imports only engine/types and engine/like (the LIKE matcher of SHOW
// ... LIKE, shared with the LIKE operator). It must not import catalogs/memory,
// catalogs/sqlite or any other engine package; concrete catalogs and
// factories are handed to NewManager by main.
package catalogs
