package functions

import (
	"eddy/engine/types"
)

// String functions (types-and-functions.md §5). Lengths follow Flink's
// operator table: functions that keep their input's size return
// VARCHAR(n), the rest STRING.
func (r *Registry) addString() {
	ch := sig(Character)
	r.scalar("CHAR_LENGTH", fixed(integer()), ch).Synonyms = []string{"CHARACTER_LENGTH"}
	r.scalar("UPPER", argType(0), ch).Synonyms = []string{"UCASE"}
	r.scalar("LOWER", argType(0), ch).Synonyms = []string{"LCASE"}
	r.scalar("INITCAP", argType(0), ch)
	r.scalar("CONCAT", fixed(str()), varsig(1, String))
	r.scalar("CONCAT_WS", fixed(str()), varsig(1, String))
	r.scalar("POSITION", fixed(integer()), sig(Character, Character), sig(Character, Character, Integer))
	r.scalar("LOCATE", fixed(integer()), sig(String, String), sig(String, String, Integer))
	r.scalar("INSTR", fixed(integer()), sig(String, String), sig(String, String, Integer),
		sig(String, String, Integer, Integer))
	r.scalar("TRIM", argVarying(0), ch, sig(Character, Character))
	r.scalar("LTRIM", argVarying(0), sig(String), sig(String, String))
	r.scalar("RTRIM", argVarying(0), sig(String), sig(String, String))
	r.scalar("BTRIM", argVarying(0), sig(String), sig(String, String))
	r.scalar("REPEAT", fixed(str()), sig(String, Integer))
	r.scalar("REPLACE", fixed(str()), sig(String, String, String))
	r.scalar("OVERLAY", fixed(str()), sig(Character, Character, Integer), sig(Character, Character, Integer, Integer))
	// SUBSTRING, SUBSTR, LEFT and RIGHT keep the input's length as VARCHAR
	// and are always nullable (Flink's ARG0_VARCHAR_FORCE_NULLABLE).
	r.scalar("SUBSTRING", argVaryingNullable(0), sig(Character, Integer), sig(Character, Integer, Integer))
	r.scalar("SUBSTR", argVaryingNullable(0), sig(Character, Integer), sig(Character, Integer, Integer))
	r.scalar("LEFT", argVaryingNullable(0), sig(String, Integer))
	r.scalar("RIGHT", argVaryingNullable(0), sig(String, Integer))
	r.scalar("LPAD", fixed(str()), sig(String, Integer, String))
	r.scalar("RPAD", fixed(str()), sig(String, Integer, String))
	r.scalar("REVERSE", alwaysNullable(str()), sig(String))
	// REGEXP is nullable only with a nullable operand (Flink's
	// nullableIfArgs): an empty or invalid pattern gives FALSE
	// (SqlFunctionUtils.regExp).
	r.scalar("REGEXP", fixed(boolean()), sig(String, String))
	r.scalar("REGEXP_REPLACE", fixed(str()), sig(String, String, String))
	r.scalar("REGEXP_EXTRACT", alwaysNullable(str()), sig(String, String), sig(String, String, Integer))
	r.scalar("REGEXP_EXTRACT_ALL", alwaysNullable(types.NewArray(str())), sig(Character, Character), sig(Character, Character, Integer))
	r.scalar("REGEXP_COUNT", fixed(integer()), sig(Character, Character))
	r.scalar("REGEXP_INSTR", fixed(integer()), sig(Character, Character))
	r.scalar("REGEXP_SUBSTR", alwaysNullable(str()), sig(Character, Character))
	r.scalar("SPLIT_INDEX", alwaysNullable(str()), sig(String, Integer, Integer), sig(String, String, Integer))
	r.scalar("SPLIT", fixed(types.NewArray(str())), sig(Character, Character))
	r.scalar("STR_TO_MAP", fixed(types.NewMap(str(), str())), sig(String), sig(String, String, String))
	r.scalar("FROM_BASE64", fixed(str()), sig(String))
	r.scalar("TO_BASE64", fixed(str()), sig(String))
	r.scalar("ASCII", fixed(integer()), ch)
	r.scalar("CHR", alwaysNullable(str()), sig(Integer))
	r.scalar("ENCODE", alwaysNullable(types.NewVarBinary(types.MaxLength)), sig(String, String))
	r.scalar("DECODE", alwaysNullable(str()), sig(Binary, String))
	r.scalar("PARSE_URL", alwaysNullable(str()), sig(String, String), sig(String, String, String))
	r.scalar("TRANSLATE", fixed(str()), sig(Character, Character, Character))
	r.scalar("ELT", alwaysNullable(str()), varsig(2, Integer, Character))
	r.scalar("PRINTF", fixed(str()), varsig(1, Character, Any))
	r.scalar("URL_DECODE", alwaysNullable(str()), ch)
	r.scalar("URL_ENCODE", alwaysNullable(str()), ch)
	r.scalar("IS_ALPHA", notNull(boolean()), ch, sig(Numeric))
	r.scalar("IS_DECIMAL", notNull(boolean()), ch, sig(Numeric))
	r.scalar("IS_DIGIT", notNull(boolean()), ch, sig(Numeric))
	// UNHEX gives NULL for a character that is not a hex digit.
	r.scalar("UNHEX", alwaysNullable(types.NewVarBinary(types.MaxLength)), ch)
	// STARTSWITH and ENDSWITH take two strings or two binary strings;
	// Flink's input strategy rejects anything else without naming a type.
	r.scalar("STARTSWITH", sameStringFamily, sig(Any, Any))
	r.scalar("ENDSWITH", sameStringFamily, sig(Any, Any))

	// Hash functions return lower-case hex of a fixed length.
	for name, n := range map[string]int{"MD5": 32, "SHA1": 40, "SHA224": 56, "SHA256": 64, "SHA384": 96, "SHA512": 128} {
		r.scalar(name, fixed(types.NewChar(n)), sig(String))
	}
	r.scalar("SHA2", fixed(types.NewVarChar(128)), sig(String, Integer))
}

// sameStringFamily types STARTSWITH and ENDSWITH: BOOLEAN over two
// character strings or two binary strings.
func sameStringFamily(_ string, ops []Operand) (*types.Type, error) {
	a, b := ops[0].Type.Kind, ops[1].Type.Kind
	binary := func(k types.Kind) bool { return k == types.Binary || k == types.VarBinary || k == types.Null }
	char := func(k types.Kind) bool { return k.IsCharacterString() || k == types.Null }
	if !(char(a) && char(b) || binary(a) && binary(b)) {
		return nil, &InputArgumentsError{}
	}
	return boolean().WithNullable(opsNullable(ops)), nil
}
