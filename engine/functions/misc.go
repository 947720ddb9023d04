package functions

import (
	"eddy/engine/types"
)

// Type conversion, catalog and grouping functions. CAST and TRY_CAST are
// typed by the validator with CanCast.
func (r *Registry) addMisc() {
	r.scalar("TYPEOF", notNull(str()), sig(Any), sig(Any, Boolean))
	r.add(&Func{Name: "CURRENT_DATABASE", Kind: Scalar, Return: notNull(str()), Overloads: []Overload{sig()}})
	r.add(&Func{Name: "CURRENT_CATALOG", Kind: Scalar, Return: notNull(str()), Overloads: []Overload{sig()}})
	// Grouping functions need a GROUP BY; the query validator checks where
	// they stand.
	group := func(name string, o Overload) {
		r.add(&Func{Name: name, Kind: Aggregate, Deterministic: true, Return: notNull(types.New(types.BigInt)),
			Overloads: []Overload{o}})
	}
	group("GROUP_ID", sig())
	group("GROUPING", varsig(1, Any))
	group("GROUPING_ID", varsig(1, Any))
}
