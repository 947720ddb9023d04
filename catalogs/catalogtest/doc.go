// Package catalogtest is the conformance suite every catalogs.Catalog
// implementation runs in its tests: one table of scenarios, the same
// expectations for the in-memory and the SQLite catalog.
//
// It imports catalogs, engine/types and the standard library's testing
// package; only test code imports it.
package catalogtest
