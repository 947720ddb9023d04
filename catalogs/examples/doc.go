// Package examples implements the read-only examples catalog: one
// database, marketplace, whose tables (orders, customers, products,
// clicks) are datagen tables producing rows without end at a modest
// rate, each with an event-time column and a watermark, so that a new
// user has data to query the moment the shell starts.
//
// It imports only catalogs and engine/types; no engine package may import
// it (main registers it).
package examples
