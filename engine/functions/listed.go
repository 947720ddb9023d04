package functions

// ListedNames returns the built-in function names SHOW FUNCTIONS lists,
// sorted, as Flink 2.2 lists them: the names of its FunctionCatalog, where
// functions of Flink's own type inference keep their upper-case names
// (ARRAY_AGG), Calcite's operators their lower-case ones (char_length), a
// few of the Table API their camel-case ones (charLength), and internal
// ones are listed too (AGG_DECIMAL_PLUS, rowtime).
func (r *Registry) ListedNames() []string {
	return []string{
		"AGG_DECIMAL_MINUS", "AGG_DECIMAL_PLUS", "ARRAY_AGG", "ARRAY_APPEND", "ARRAY_CONCAT", "ARRAY_CONTAINS",
		"ARRAY_DISTINCT", "ARRAY_EXCEPT", "ARRAY_INTERSECT", "ARRAY_JOIN", "ARRAY_MAX", "ARRAY_MIN",
		"ARRAY_POSITION", "ARRAY_PREPEND", "ARRAY_REMOVE", "ARRAY_REVERSE", "ARRAY_SLICE", "ARRAY_SORT",
		"ARRAY_UNION", "ASSIGNMENT", "BTRIM", "COALESCE", "CURRENT_WATERMARK", "DEFAULT", "ELT", "ENDSWITH",
		"GREATEST", "HIVE_AGG_DECIMAL_PLUS", "IFNULL", "IS_JSON", "JSON", "JSON_ARRAY",
		"JSON_ARRAYAGG_ABSENT_ON_NULL", "JSON_ARRAYAGG_NULL_ON_NULL", "JSON_EXISTS", "JSON_OBJECT",
		"JSON_OBJECTAGG_ABSENT_ON_NULL", "JSON_OBJECTAGG_NULL_ON_NULL", "JSON_QUERY", "JSON_QUOTE", "JSON_STRING",
		"JSON_UNQUOTE", "JSON_VALUE", "LEAST", "LIKE", "MAP_ENTRIES", "MAP_FROM_ARRAYS", "MAP_KEYS", "MAP_UNION",
		"MAP_VALUES", "ML_PREDICT", "OBJECT_OF", "OBJECT_UPDATE", "PARSE_JSON", "PERCENTILE", "PRINTF",
		"REGEXP_COUNT", "REGEXP_EXTRACT_ALL", "REGEXP_INSTR", "REGEXP_SUBSTR", "SOURCE_WATERMARK", "SPLIT",
		"STARTSWITH", "TO_TIMESTAMP_LTZ", "TRANSLATE3", "TRY_CAST", "TRY_PARSE_JSON", "TYPEOF", "UNHEX",
		"URL_DECODE", "URL_ENCODE", "abs", "acos", "and", "array", "as", "asc", "ascii", "asin", "at", "atan",
		"atan2", "avg", "between", "bin", "cardinality", "cast", "ceil", "charLength", "chr", "collect", "concat",
		"concat_ws", "convertTz", "cos", "cosh", "cot", "count", "currentDatabase", "currentDate",
		"currentRowTimestamp", "currentTime", "currentTimestamp", "dateFormat", "decode", "degrees", "desc",
		"distinct", "divide", "e", "element", "encode", "end", "equals", "exp", "extract", "first_value", "flatten",
		"floor", "fromBase64", "fromUnixtime", "get", "greaterThan", "greaterThanOrEqual", "hex",
		"ifThenElse", "in", "initCap", "instr", "isFalse", "isNotFalse", "isNotNull", "isNotTrue", "isNull",
		"isTrue", "lag", "last_value", "lead", "left", "lessThan", "lessThanOrEqual", "listAgg", "ln", "localTime",
		"localTimestamp", "locate", "log", "log10", "log2", "lower", "lowerCase", "lpad", "ltrim", "map", "max",
		"md5", "min", "minus", "minusPrefix", "mod", "not", "notBetween", "notEquals", "now", "or", "over",
		"overlay", "parseUrl", "pi", "plus", "position", "power", "proctime", "radians", "rand", "randInteger",
		"rangeTo", "regexp", "regexpExtract", "regexpReplace", "reinterpretCast", "repeat", "replace", "reverse",
		"right", "round", "row", "rowtime", "rpad", "rtrim", "sha1", "sha2", "sha224", "sha256", "sha384", "sha512",
		"sign", "similar", "sin", "sinh", "splitIndex", "sqrt", "start", "stddevPop", "stddevSamp", "strToMap",
		"streamRecordTimestamp", "substr", "substring", "sum", "sum0", "tan", "tanh", "temporalOverlaps", "times",
		"timestampDiff", "toBase64", "toDate", "toTimestamp", "trim", "truncate", "unixTimestamp", "upper",
		"upperCase", "uuid", "varPop", "varSamp", "withColumns", "withoutColumns",
	}
}
