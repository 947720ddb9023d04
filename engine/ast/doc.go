// Package ast defines eddy's syntax tree for Flink SQL: one struct per
// grammar production, each recording its position, and a Printer through
// which every node formats itself back to canonical Flink SQL (upper-case
// keywords, backtick-quoted identifiers). String is the only stringifier.
//
// Format is pure: it needs no catalog and never fails. Parsing the text it
// prints yields the same tree (tested in engine/parser).
//
// It imports only engine/types.
package ast
