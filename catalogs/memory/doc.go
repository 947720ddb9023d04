// Package memory implements the generic_in_memory catalog type: databases,
// tables, views and functions kept in mutex-protected maps for the life of
// the process (Flink's GenericInMemoryCatalog), and an in-memory
// CatalogStore for sessions that keep no store file.
//
// It imports only catalogs and engine/types; no engine package may import
// it (main wires it).
package memory
