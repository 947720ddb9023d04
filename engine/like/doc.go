// Package like matches strings against SQL LIKE patterns: '%' matches any
// run of characters, '_' exactly one, and an escape character makes the
// next character literal. It is the one implementation behind the LIKE
// and ILIKE operators of queries and the LIKE / ILIKE clauses of SHOW
// statements, which differ only in their escape character.
//
// It imports nothing of eddy, so the catalog layer and the function
// library may both use it.
package like
