package functions

// JSON functions (types-and-functions.md §5). The ON EMPTY / ON ERROR /
// RETURNING clauses are the parser's; these are the plain call forms.
func (r *Registry) addJSON() {
	r.scalar("JSON_EXISTS", alwaysNullable(boolean()), sig(Character, Character))
	r.scalar("JSON_STRING", fixed(str()), sig(Any))
	r.scalar("JSON_VALUE", alwaysNullable(str()), sig(Character, Character))
	r.scalar("JSON_QUERY", alwaysNullable(str()), sig(Character, Character))
	r.scalar("JSON_OBJECT", notNull(str()), varsig(0, Character, Any))
	r.scalar("JSON_ARRAY", notNull(str()), varsig(0, Any))
	r.scalar("IS_JSON", fixed(boolean()), sig(Character))
	// JSON(s) marks JSON text that JSON_OBJECT and JSON_ARRAY insert as JSON
	// rather than as a string.
	r.scalar("JSON", alwaysNullable(str()), sig(Character))
}
