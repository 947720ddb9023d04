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
	r.scalar("CONCAT", fixed(str()), varsig(1, Character), varsig(1, Binary))
	r.scalar("CONCAT_WS", fixed(str()), varsig(2, Character))
	r.scalar("POSITION", fixed(integer()), sig(Character, Character), sig(Character, Character, Integer))
	r.scalar("LOCATE", fixed(integer()), sig(Character, Character), sig(Character, Character, Integer))
	r.scalar("INSTR", fixed(integer()), sig(Character, Character))
	r.scalar("TRIM", argVarying(0), ch, sig(Character, Character))
	r.scalar("LTRIM", argVarying(0), ch, sig(Character, Character))
	r.scalar("RTRIM", argVarying(0), ch, sig(Character, Character))
	r.scalar("BTRIM", argVarying(0), ch, sig(Character, Character))
	r.scalar("REPEAT", fixed(str()), sig(Character, Integer))
	r.scalar("REPLACE", fixed(str()), sig(Character, Character, Character))
	r.scalar("OVERLAY", fixed(str()), sig(Character, Character, Integer), sig(Character, Character, Integer, Integer))
	r.scalar("SUBSTRING", argVarying(0), sig(Character, Integer), sig(Character, Integer, Integer),
		sig(Binary, Integer), sig(Binary, Integer, Integer))
	r.scalar("SUBSTR", argVarying(0), sig(Character, Integer), sig(Character, Integer, Integer))
	r.scalar("LEFT", argVarying(0), sig(Character, Integer))
	r.scalar("RIGHT", argVarying(0), sig(Character, Integer))
	r.scalar("LPAD", fixed(str()), sig(Character, Integer, Character))
	r.scalar("RPAD", fixed(str()), sig(Character, Integer, Character))
	r.scalar("REVERSE", argVarying(0), ch)
	r.scalar("REGEXP", fixed(boolean()), sig(Character, Character))
	r.scalar("REGEXP_REPLACE", fixed(str()), sig(Character, Character, Character))
	r.scalar("REGEXP_EXTRACT", alwaysNullable(str()), sig(Character, Character), sig(Character, Character, Integer))
	r.scalar("REGEXP_EXTRACT_ALL", alwaysNullable(types.NewArray(str())), sig(Character, Character), sig(Character, Character, Integer))
	r.scalar("REGEXP_COUNT", fixed(integer()), sig(Character, Character))
	r.scalar("REGEXP_INSTR", fixed(integer()), sig(Character, Character))
	r.scalar("REGEXP_SUBSTR", alwaysNullable(str()), sig(Character, Character))
	r.scalar("SPLIT_INDEX", alwaysNullable(str()), sig(Character, Character, Integer))
	r.scalar("SPLIT", fixed(types.NewArray(str())), sig(Character, Character))
	r.scalar("STR_TO_MAP", fixed(types.NewMap(str(), str())), ch, sig(Character, Character, Character))
	r.scalar("FROM_BASE64", fixed(str()), ch)
	r.scalar("TO_BASE64", fixed(str()), sig(String))
	r.scalar("ASCII", fixed(integer()), ch)
	r.scalar("CHR", fixed(types.NewChar(1)), sig(Integer))
	r.scalar("ENCODE", fixed(types.NewVarBinary(types.MaxLength)), sig(Character, Character))
	r.scalar("DECODE", fixed(str()), sig(Binary, Character))
	r.scalar("PARSE_URL", alwaysNullable(str()), sig(Character, Character), sig(Character, Character, Character))
	r.scalar("TRANSLATE", fixed(str()), sig(Character, Character, Character))
	r.scalar("ELT", alwaysNullable(str()), varsig(2, Integer, Character))
	r.scalar("PRINTF", fixed(str()), varsig(1, Character, Any))
	r.scalar("URL_DECODE", alwaysNullable(str()), ch)
	r.scalar("URL_ENCODE", alwaysNullable(str()), ch)
	r.scalar("IS_ALPHA", notNull(boolean()), ch)
	r.scalar("IS_DECIMAL", notNull(boolean()), ch)
	r.scalar("IS_DIGIT", notNull(boolean()), ch)

	// Hash functions return lower-case hex of a fixed length.
	for name, n := range map[string]int{"MD5": 32, "SHA1": 40, "SHA224": 56, "SHA256": 64, "SHA384": 96, "SHA512": 128} {
		r.scalar(name, fixed(types.NewChar(n)), sig(String))
	}
	r.scalar("SHA2", fixed(types.NewVarChar(128)), sig(String, Integer))
}
