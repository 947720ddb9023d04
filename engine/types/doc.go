// Package types holds Flink's logical data types: their Go representation,
// their two printed forms (the summary string DESCRIBE shows and the
// serializable string SHOW CREATE prints), a parser for the serializable
// form, the changelog row kind, and the printing of values as the Flink SQL
// client prints them. VARIANT values (variant.go) are parsed JSON trees
// with the key dictionary Flink's encoding keeps: PARSE_JSON's reader,
// their JSON text, their equality, and their storage encoding live there.
//
// It is a leaf package: it imports nothing of eddy's.
package types
