// Package examples implements the read-only examples catalog: one
// database, marketplace, whose tables (orders, customers, products,
// clicks) are datagen tables producing rows without end at a modest
// rate, each with an event-time column and a watermark, so that a new
// user has data to query the moment the shell starts. In batch mode the
// catalog supplies its tables' connector (connectors.CatalogConnector):
// a bounded, deterministic snapshot of each (snapshot.go).
//
// It imports catalogs, engine/types, engine/connectors and engine/vector;
// no engine package may import it (main registers it).
package examples
