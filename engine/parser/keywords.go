package parser

import (
	"slices"
	"sync"
)

// IsReserved reports whether an upper-cased word is a reserved keyword of
// Flink SQL, which must be back-quoted to be used as a name.
func IsReserved(upper string) bool {
	if upper == "" {
		return false
	}
	k, exact := keywords.lookup(upper)
	return k != nil && exact && k.reserved
}

// StatementStarts returns the keyword phrases a statement or client
// command can begin with, sorted: what Tab offers at the start of a line.
func StatementStarts() []string { return slices.Clone(statementStarts) }

// ClauseKeywords returns the keywords and keyword phrases Tab offers
// inside a statement, sorted.
func ClauseKeywords() []string { return slices.Clone(clauseKeywords) }

// statementStarts are the phrases StatementStarts returns; every word is a
// keyword the lexer knows (keywords).
var statementStarts = []string{
	"ADD JAR", "ALTER", "ANALYZE TABLE", "BEGIN STATEMENT SET", "CALL", "CLEAR", "COMPILE PLAN", "CREATE",
	"DELETE FROM", "DESCRIBE", "DROP", "END", "EXECUTE", "EXIT", "EXPLAIN", "HELP", "INSERT INTO",
	"INSERT OVERWRITE", "LOAD MODULE", "QUIT", "REMOVE JAR", "RESET", "SELECT", "SET", "SHOW",
	"STOP JOB", "TRUNCATE TABLE", "UNLOAD MODULE", "UPDATE", "USE", "VALUES", "WITH",
}

// clauseKeywords are the phrases ClauseKeywords returns; every word is a
// keyword the lexer knows (keywords).
var clauseKeywords = []string{
	"ALL", "AND", "ARRAY", "AS", "ASC", "BETWEEN", "BIGINT", "BOOLEAN", "BY", "BYTES", "CASE", "CAST",
	"CATALOG", "CATALOGS", "CHAR", "COLUMNS", "COMMENT", "CREATE", "CROSS JOIN", "CUMULATE", "CURRENT",
	"DATABASE", "DATABASES", "DATE", "DECIMAL", "DESC", "DESCRIPTOR", "DISTINCT", "DOUBLE", "ELSE", "END",
	"EXCEPT", "EXISTS", "FALSE", "FETCH", "FIRST", "FLOAT", "FOR SYSTEM_TIME AS OF", "FROM", "FULL JOIN",
	"FUNCTION", "FUNCTIONS", "GROUP BY", "HAVING", "HOP", "IF", "IF EXISTS", "IF NOT EXISTS", "IN",
	"INNER JOIN", "INT", "INTEGER", "INTERSECT", "INTERVAL", "INTO", "IS", "JARS", "JOBS", "JOIN", "KEY",
	"LAST", "LATERAL", "LEFT JOIN", "LIKE", "LIMIT", "MAP", "MODULES", "MULTISET", "NOT", "NOT NULL", "NULL",
	"NULLS", "OFFSET", "ON", "OR", "ORDER BY", "OVER", "OVERWRITE", "PARTITION BY", "PARTITIONED BY",
	"PARTITIONS", "PRIMARY KEY", "PROCEDURES", "RIGHT JOIN", "ROW", "ROWS", "SELECT", "SESSION", "SMALLINT",
	"STRING", "TABLE", "TABLES", "TEMPORARY", "THEN", "TIME", "TIMESTAMP", "TIMESTAMP_LTZ", "TINYINT", "TRUE",
	"TRY_CAST", "TUMBLE", "UNION", "UNION ALL", "UNNEST", "VALUES", "VARCHAR", "VARIANT", "VIEW", "VIEWS",
	"WATERMARK FOR", "WHEN", "WHERE", "WINDOW", "WITH",
}

type keywordInfo struct {
	text     string
	reserved bool
}

// keywordTable finds the interned upper-case text of a keyword from its
// word in any case without building the upper-case string: an
// open-addressing hash table over the keywords' words, hashed on the
// length and three letters of each word folded to one case.
type keywordTable struct {
	slots [1 << keywordBits]uint16 // 1 + index into words, 0 for empty
	words []keywordInfo
}

const keywordBits = 11

// keywords interns the upper-case text of the reserved words and the
// common non-reserved keywords (with whether each is reserved); the lexer
// finds them through it, allocating nothing. The words go in in the same
// order on every run, so the table is the same on every run.
var keywords = func() *keywordTable {
	kt := &keywordTable{words: make([]keywordInfo, 0, len(reservedWords)+len(commonWords))}
	add := func(w string, reserved bool) {
		h := keywordHash(w)
		for kt.slots[h] != 0 {
			if kt.words[kt.slots[h]-1].text == w {
				return
			}
			h = (h + 1) & (1<<keywordBits - 1)
		}
		kt.words = append(kt.words, keywordInfo{w, reserved})
		kt.slots[h] = uint16(len(kt.words))
	}
	for _, w := range reservedWords {
		add(w, true)
	}
	for _, w := range commonWords {
		add(w, false)
	}
	return kt
}()

// keywordHash hashes an ASCII word (non-empty) ignoring case.
func keywordHash(w string) uint32 {
	n := len(w)
	h := uint32(n)<<24 ^ uint32(w[0]|0x20)<<16 ^ uint32(w[n/2]|0x20)<<8 ^ uint32(w[n-1]|0x20)
	return (h * 0x9E3779B1) >> (32 - keywordBits)
}

// lookup returns the keyword an ASCII word spells in any case, and
// whether the word spells it in upper case.
func (kt *keywordTable) lookup(w string) (info *keywordInfo, exact bool) {
	for h := keywordHash(w); ; h = (h + 1) & (1<<keywordBits - 1) {
		s := kt.slots[h]
		if s == 0 {
			return nil, false
		}
		k := &kt.words[s-1]
		if len(k.text) != len(w) {
			continue
		}
		if exact, ok := matchUpperASCII(w, k.text); ok {
			return k, exact
		}
	}
}

// matchUpperASCII reports whether the ASCII word w upper-cases to upper
// (of the same length), and whether w is upper itself.
func matchUpperASCII(w, upper string) (exact, ok bool) {
	exact = true
	for i := 0; i < len(w); i++ {
		c, u := w[i], upper[i]
		if c == u {
			continue
		}
		if c-'a' < 26 && c-('a'-'A') == u {
			exact = false
			continue
		}
		return false, false
	}
	return exact, true
}

// quotedText interns the double-quoted form of keywords and symbols, as
// "Was expecting one of:" lists them; it is made when a parse first
// records what it expected.
var quotedText = sync.OnceValue(func() map[string]string {
	m := make(map[string]string, len(keywords.words)+32)
	for _, k := range keywords.words {
		m[k.text] = `"` + k.text + `"`
	}
	for _, op := range []string{"(", ")", "[", "]", ",", ";", ".", "=", "+", "-", "*", "/", "<", ">", "=>", "?"} {
		m[op] = `"` + op + `"`
	}
	return m
})

// commonWords are frequent non-reserved keywords.
var commonWords = []string{
	"ASC", "DESC", "NULLS", "FIRST", "LAST", "TEMPORARY", "VIEW", "DATABASE", "CATALOG", "IF", "OPTIONS",
	"MAP", "DESCRIPTOR", "TUMBLE", "HOP", "SESSION", "CUMULATE", "KEY", "ENFORCED", "METADATA", "VIRTUAL",
	"PARTITIONED", "OVERWRITE", "UNBOUNDED", "PRECEDING", "FOLLOWING", "ORDINALITY", "ZONE", "JSON",
	"CATALOGS", "DATABASES", "TABLES", "VIEWS", "FUNCTIONS", "MODULES", "COLUMNS", "JAR", "JARS", "LOAD",
	"UNLOAD", "ADD", "REMOVE", "RENAME", "MODIFY", "AFTER", "COMMENT", "WATERMARK", "STRING", "BYTES", "VARIANT",
	"TIMESTAMP_LTZ", "EXTENDED", "PLACING", "SECONDS", "MINUTES", "HOURS", "DAYS", "MONTHS", "YEARS",
	"QUARTER", "WEEK", "INCLUDING", "EXCLUDING", "OVERWRITING", "CASCADE", "RESTRICT", "TRY_CAST",
	"ILIKE", "IGNORE", "RESPECT", "DISTRIBUTED", "BUCKETS", "HELP", "QUIT", "EXIT", "CLEAR", "STATEMENT",
	"ANALYZE", "CENTURY", "CHANGELOG_MODE", "COMPACT", "COMPILE", "COMPUTE", "CONSTRAINTS", "DAYOFWEEK",
	"DAYOFYEAR", "DECADE", "DOW", "DOY", "DRAIN", "EPOCH", "ESTIMATED_COST", "GENERATED", "ISODOW", "ISOYEAR",
	"JAVA", "JOB", "JOBS", "JSON_EXECUTION_PLAN", "MICROSECOND", "MILLENNIUM", "MILLISECOND", "NANOSECOND",
	"PARTITIONS", "PLAN", "PLAN_ADVICE", "PYTHON", "REPLACE", "SETS", "STATISTICS", "STOP", "SCALA",
	"MODULE", "SYSTEM", "FUNCTION", "DATA", "SIZE", "SLIDE", "TIMECOL", "OFFSET", "STEP", "GAP",
	"ABSENT", "WRAPPER", "CONDITIONAL", "UNCONDITIONAL", "SCALAR", "OBJECT", "RETURNING", "ERROR", "EMPTY",
}

// reservedWords are the reserved words of Flink's parser: Calcite's reserved
// words (the SQL:2016 reserved list plus Calcite's own) and the keywords
// Flink adds in Parser.tdd, minus Parser.tdd's nonReservedKeywords (so MAP,
// DESCRIPTOR, TUMBLE, HOP, SESSION, TEMPORARY, VIEW, DATABASE, CATALOG stay
// usable as names, while STRING, BYTES, WATERMARK, COMMENT do not).
var reservedWords = [...]string{
	"ABS", "ALL", "ALLOCATE", "ALTER", "AND", "ANY", "ARE", "ARRAY", "ARRAY_MAX_CARDINALITY", "AS",
	"ASENSITIVE", "ASYMMETRIC", "AT", "ATOMIC", "AUTHORIZATION", "AVG", "BEGIN", "BEGIN_FRAME",
	"BEGIN_PARTITION", "BETWEEN", "BIGINT", "BINARY", "BLOB", "BOOLEAN", "BOTH", "BUCKETS", "BY",
	"BYTES", "CALL", "CALLED", "CARDINALITY", "CASCADED", "CASE", "CAST", "CATALOGS", "CEIL",
	"CEILING", "CHAR", "CHARACTER", "CHARACTER_LENGTH", "CHAR_LENGTH", "CHECK", "CLASSIFIER", "CLOB",
	"CLOSE", "COALESCE", "COLLATE", "COLLECT", "COLUMN", "COMMENT", "COMMIT", "CONDITION", "CONNECT",
	"CONNECTIONS", "CONSTRAINT", "CONTAINS", "CONTINUOUS", "CONVERT", "CORR", "CORRESPONDING",
	"COUNT", "COVAR_POP", "COVAR_SAMP", "CREATE", "CROSS", "CUBE", "CUME_DIST", "CURRENT",
	"CURRENT_CATALOG", "CURRENT_DATE", "CURRENT_DEFAULT_TRANSFORM_GROUP", "CURRENT_PATH",
	"CURRENT_ROLE", "CURRENT_ROW", "CURRENT_SCHEMA", "CURRENT_TIME", "CURRENT_TIMESTAMP",
	"CURRENT_TRANSFORM_GROUP_FOR_TYPE", "CURRENT_USER", "CURSOR", "CYCLE", "DATABASES", "DATE", "DAY",
	"DEALLOCATE", "DEC", "DECIMAL", "DECLARE", "DEFAULT", "DEFINE", "DELETE", "DENSE_RANK", "DEREF",
	"DESCRIBE", "DETERMINISTIC", "DISALLOW", "DISCONNECT", "DISTINCT", "DISTRIBUTED", "DISTRIBUTION",
	"DOUBLE", "DROP", "DYNAMIC", "EACH", "ELEMENT", "ELSE", "EMPTY", "END", "END_FRAME",
	"END_PARTITION", "EQUALS", "ESCAPE", "EVERY", "EXCEPT", "EXEC", "EXECUTE", "EXISTS", "EXP",
	"EXPLAIN", "EXTEND", "EXTENDED", "EXTERNAL", "EXTRACT", "FALSE", "FETCH", "FILTER", "FIRST_VALUE",
	"FLOAT", "FLOOR", "FOR", "FOREIGN", "FRAME_ROW", "FREE", "FRESHNESS", "FROM", "FULL", "FUNCTION",
	"FUNCTIONS", "FUSION", "GET", "GLOBAL", "GRANT", "GROUP", "GROUPING", "GROUPS", "HASH", "HAVING",
	"HOLD", "HOUR", "IDENTITY", "IMPORT", "IN", "INDICATOR", "INITIAL", "INNER", "INOUT",
	"INSENSITIVE", "INSERT", "INT", "INTEGER", "INTERSECT", "INTERSECTION", "INTERVAL", "INTO", "IS",
	"JOIN", "JSON_ARRAY", "JSON_ARRAYAGG", "JSON_EXISTS", "JSON_OBJECT", "JSON_OBJECTAGG",
	"JSON_QUERY", "JSON_VALUE", "LAG", "LANGUAGE", "LARGE", "LAST_VALUE", "LATERAL", "LEAD",
	"LEADING", "LEFT", "LIKE", "LIKE_REGEX", "LIMIT", "LN", "LOCAL", "LOCALTIME", "LOCALTIMESTAMP",
	"LOWER", "MATCH", "MATCHES", "MATCH_NUMBER", "MATCH_RECOGNIZE", "MATERIALIZED", "MAX", "MEASURES",
	"MEMBER", "MERGE", "METHOD", "MIN", "MINUS", "MINUTE", "MOD", "MODELS", "MODIFIES", "MODIFY",
	"MODULE", "MODULES", "MONTH", "MULTISET", "NATIONAL", "NATURAL", "NCHAR", "NCLOB", "NEW", "NEXT",
	"NO", "NONE", "NORMALIZE", "NOT", "NTH_VALUE", "NTILE", "NULL", "NULLIF", "NUMERIC",
	"OCCURRENCES_REGEX", "OCTET_LENGTH", "OF", "OFFSET", "OLD", "OMIT", "ON", "ONE", "ONLY", "OPEN",
	"OR", "ORDER", "OUT", "OUTER", "OVER", "OVERLAPS", "OVERLAY", "PARAMETER", "PARTITION", "PATTERN",
	"PER", "PERCENT", "PERCENTILE_CONT", "PERCENTILE_DISC", "PERCENT_RANK", "PERIOD", "PERMUTE",
	"PORTION", "POSITION", "POSITION_REGEX", "POWER", "PRECEDES", "PRECISION", "PREPARE", "PREV",
	"PRIMARY", "PROCEDURE", "PROCEDURES", "QUALIFY", "RANGE", "RANK", "RAW", "READS", "REAL",
	"RECURSIVE", "REF", "REFERENCES", "REFERENCING", "REFRESH", "REFRESH_MODE", "REGR_AVGX",
	"REGR_AVGY", "REGR_COUNT", "REGR_INTERCEPT", "REGR_R2", "REGR_SLOPE", "REGR_SXX", "REGR_SXY",
	"REGR_SYY", "RELEASE", "RENAME", "RESET", "RESULT", "RESUME", "RETURN", "RETURNS", "REVOKE",
	"RIGHT", "ROLLBACK", "ROLLUP", "ROW", "ROWS", "ROW_NUMBER", "RUNNING", "SAVEPOINT", "SCALA",
	"SCOPE", "SCROLL", "SEARCH", "SECOND", "SEEK", "SELECT", "SENSITIVE", "SESSION_USER", "SET",
	"SHOW", "SIMILAR", "SKIP", "SMALLINT", "SOME", "SPECIFIC", "SPECIFICTYPE", "SQL", "SQLEXCEPTION",
	"SQLSTATE", "SQLWARNING", "SQRT", "START", "STATIC", "STDDEV_POP", "STDDEV_SAMP", "STREAM",
	"STRING", "STRUCTURED", "SUBMULTISET", "SUBSET", "SUBSTRING", "SUBSTRING_REGEX", "SUCCEEDS",
	"SUM", "SUSPEND", "SYMMETRIC", "SYSTEM", "SYSTEM_TIME", "SYSTEM_USER", "TABLE", "TABLES",
	"TABLESAMPLE", "THEN", "TIME", "TIMESTAMP", "TIMESTAMP_LTZ", "TIMEZONE_HOUR", "TIMEZONE_MINUTE",
	"TINYINT", "TO", "TRAILING", "TRANSLATE", "TRANSLATE_REGEX", "TRANSLATION", "TREAT", "TRIGGER",
	"TRIM", "TRIM_ARRAY", "TRUE", "TRUNCATE", "UESCAPE", "UNION", "UNIQUE", "UNKNOWN", "UNNEST",
	"UPDATE", "UPPER", "UPSERT", "USE", "USER", "USING", "VALUE", "VALUES", "VALUE_OF", "VARBINARY",
	"VARCHAR", "VARYING", "VAR_POP", "VAR_SAMP", "VERSIONING", "VIEWS", "WATERMARK", "WATERMARKS",
	"WHEN", "WHENEVER", "WHERE", "WIDTH_BUCKET", "WINDOW", "WITH", "WITHIN", "WITHOUT", "YEAR",
}
