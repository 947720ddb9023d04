package functions

// JSON functions (types-and-functions.md §5). The ON EMPTY / ON ERROR /
// RETURNING clauses are the parser's; these are the plain call forms.
func (r *Registry) addJSON() {
	r.scalar("JSON_EXISTS", fixed(boolean()), sig(Character, Character))
	r.scalar("JSON_STRING", fixed(str()), sig(Any))
	r.scalar("JSON_VALUE", alwaysNullable(str()), sig(Character, Character))
	r.scalar("JSON_QUERY", alwaysNullable(str()), sig(Character, Character))
	r.scalar("JSON_OBJECT", notNull(str()), varsig(0, Character, Any))
	r.scalar("JSON_ARRAY", notNull(str()), varsig(0, Any))
	r.scalar("IS_JSON", notNull(boolean()), sig(Character))
}
