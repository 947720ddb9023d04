package parser

// IsReserved reports whether an upper-cased word is a reserved keyword of
// Flink SQL, which must be back-quoted to be used as a name.
func IsReserved(upper string) bool {
	_, ok := reserved[upper]
	return ok
}

// reserved is Calcite's reserved word list as Flink's parser configures it
// (Parser.tdd: Calcite's reserved words minus nonReservedKeywords).
var reserved = map[string]struct{}{}

func init() {
	for _, w := range reservedWords {
		reserved[w] = struct{}{}
	}
}

var reservedWords = []string{
	"ALL", "ALTER", "AND", "ANY", "ARRAY", "AS", "ASYMMETRIC", "AT", "BETWEEN", "BIGINT", "BINARY",
	"BOOLEAN", "BOTH", "BY", "CALL", "CASE", "CAST", "CHAR", "CHARACTER", "CREATE", "CROSS", "CUBE",
	"CURRENT", "CURRENT_DATE", "CURRENT_TIME", "CURRENT_TIMESTAMP", "DATE", "DAY", "DECIMAL", "DEFAULT",
	"DELETE", "DESCRIBE", "DISTINCT", "DOUBLE", "DROP", "ELSE", "END", "ESCAPE", "EXCEPT", "EXISTS",
	"EXTRACT", "FALSE", "FETCH", "FILTER", "FLOAT", "FOR", "FROM", "FULL", "FUNCTION", "GROUP",
	"GROUPING", "HAVING", "HOUR", "IN", "INNER", "INSERT", "INT", "INTEGER", "INTERSECT", "INTERVAL",
	"INTO", "IS", "JOIN", "LATERAL", "LEFT", "LIKE", "LIMIT", "LOCALTIME", "LOCALTIMESTAMP", "MATCH_RECOGNIZE",
	"MINUTE", "MOD", "MONTH", "MULTISET", "NATURAL", "NOT", "NULL", "OFFSET", "ON", "OR", "ORDER",
	"OUTER", "OVER", "PARTITION", "RANGE", "RIGHT", "ROLLUP", "ROW", "ROWS", "SECOND", "SELECT",
	"SET", "SMALLINT", "SOME", "SYMMETRIC", "SYSTEM", "SYSTEM_TIME", "TABLE", "THEN", "TIME", "TIMESTAMP",
	"TINYINT", "TO", "TRUE", "UNION", "UNKNOWN", "UPDATE", "USER", "USING", "VALUE", "VALUES",
	"VARCHAR", "WHEN", "WHERE", "WINDOW", "WITH", "YEAR",
}
