package validate

import (
	"fmt"
	"strings"

	"eddy/engine/ast"
	"eddy/engine/plan"
	"eddy/engine/types"
)

// markTemporal records a table read FOR SYSTEM_TIME AS OF something other
// than a processing-time attribute: the join it is the right side of is
// an event-time temporal join when the period is an event-time attribute
// of the relations to its left, and Flink's planner refuses it otherwise.
func (s *state) markTemporal(t *ast.TableName, st *Typed, env *exprEnv) {
	var period plan.Expr
	if st.Type != nil && st.Type.TimeAttr == types.Rowtime {
		pe, err := env.toPlan(env.pre)
		if err != nil {
			s.noPlan(err)
		}
		if _, ok := pe.(*plan.ColumnRef); ok {
			period = pe
		}
	}
	if period == nil {
		s.noPlan(errorf(t.SystemTime.Position(), ErrTemporalJoin,
			"Temporal table join currently only supports 'FOR SYSTEM_TIME AS OF' left table's time attribute field"))
		return
	}
	if s.temporals == nil {
		s.temporals = map[*ast.TableName]*temporalRead{}
	}
	s.temporals[t] = &temporalRead{period: period.(*plan.ColumnRef)}
}

// temporalRead is a table read FOR SYSTEM_TIME AS OF an event-time
// attribute: the period, and whether a join made it a temporal join.
type temporalRead struct {
	period *plan.ColumnRef
	joined bool
}

// checkTemporalReads fails a query whose tables read FOR SYSTEM_TIME AS
// OF are not all the versioned side of a join, then checks its temporal
// joins' keys (checkTemporalJoins).
func (s *state) checkTemporalReads(root plan.Node) error {
	for t, r := range s.temporals {
		if !r.joined {
			return errorf(t.SystemTime.Position(), ErrTemporalJoin,
				"Temporal table can only be used in temporal join and only supports 'FOR SYSTEM_TIME AS OF' left table's time attribute field.")
		}
	}
	return checkTemporalJoins(root)
}

// ErrTemporalJoin is an event-time temporal join Flink's planner refuses
// (its ValidationException): the query fails when it is planned.
var ErrTemporalJoin = &Kind{"invalid temporal join", classFlink}

// errTemporalJoinType is a temporal join of a kind Flink's planner does
// not handle: it fails with an internal error.
var errTemporalJoinType = &Kind{"invalid temporal join type", "IllegalStateException"}

// isTemporal reports whether the right side of a join is a table read
// FOR SYSTEM_TIME AS OF an event-time attribute.
func (s *state) isTemporal(te ast.TableExpr) bool {
	t, ok := te.(*ast.TableName)
	return ok && s.temporals[t] != nil
}

// temporalJoin plans an event-time temporal join of the versioned table
// rp, with Flink's refusals: a table without an event-time attribute, a
// join other than INNER or LEFT, no ON equalities at all, a table without
// a primary key (a table's PRIMARY KEY, or the key of a deduplicating
// view); whether the key is read and covered by the ON equalities is
// checked on the query's whole plan (checkTemporalJoins).
func (s *state) temporalJoin(j *ast.Join, kind plan.JoinKind, lp, rp plan.Node, cond plan.Expr) plan.Node {
	t := j.Right.(*ast.TableName)
	pos := t.Name.Position()
	read := s.temporals[t]
	read.joined = true
	period := read.period
	lcols, rcols := lp.Schema(), rp.Schema()
	if period.Index >= len(lcols) {
		s.noPlan(errorf(pos, ErrTemporalJoin,
			"Temporal table join currently only supports 'FOR SYSTEM_TIME AS OF' left table's time attribute field"))
		return nil
	}
	rightTime := -1
	for i, c := range rcols {
		if c.Type.TimeAttr == types.Rowtime {
			rightTime = i
			break
		}
	}
	if rightTime < 0 {
		s.noPlan(errorf(pos, ErrTemporalJoin,
			"Event-Time Temporal Table Join requires both primary key and row time attribute in versioned table, but no row time attribute can be found."))
		return nil
	}
	if kind == plan.CrossJoin {
		kind = plan.InnerJoin // a comma join, without join keys
	}
	if kind != plan.InnerJoin && kind != plan.LeftJoin {
		// Flink's planner fails on the join type it does not expect.
		name := map[plan.JoinKind]string{plan.RightJoin: "RIGHT", plan.FullJoin: "FULL"}[kind]
		s.noPlan(errorf(pos, errTemporalJoinType, "Unknown join type %s", name))
		return nil
	}
	jn := plan.NewJoin(kind, lp, rp, cond)
	if len(jn.EquiKeys) == 0 {
		s.noPlan(errorf(pos, ErrTemporalJoin, "Currently the join key in Temporal Table Join can not be empty."))
		return nil
	}
	pk := upsertKey(rp)
	if pk == nil {
		s.noPlan(errorf(pos, ErrTemporalJoin,
			"Temporal Table Join requires primary key in versioned table, but no primary key can be found."))
		return nil
	}
	return &plan.TemporalJoin{Kind: kind, Left: lp, Right: rp, EquiKeys: jn.EquiKeys, Residual: jn.Residual,
		LeftTime: period.Index, RightTime: rightTime, VersionKey: pk}
}

// checkTemporalJoins applies the primary key rules Flink's planner
// applies to a temporal join once it has pruned the columns no one reads:
// a versioned table whose key columns are all pruned has no primary key,
// and one whose key is read must have it in the ON equalities. n is a
// query's whole plan, all of whose output columns are read.
func checkTemporalJoins(n plan.Node) error {
	need := make([]bool, len(n.Schema()))
	for i := range need {
		need[i] = true
	}
	return checkNeeded(n, need)
}

// checkNeeded walks n, of which the columns need are read, down to its
// temporal joins.
func checkNeeded(n plan.Node, need []bool) error {
	refs := func(dst []bool, shift int, es ...plan.Expr) {
		for _, e := range es {
			if e == nil {
				continue
			}
			plan.WalkExpr(e, func(x plan.Expr) bool {
				if r, ok := x.(*plan.ColumnRef); ok && r.Index-shift >= 0 && r.Index-shift < len(dst) {
					dst[r.Index-shift] = true
				}
				return true
			})
		}
	}
	switch x := n.(type) {
	case *plan.Project:
		in := make([]bool, len(x.Input.Schema()))
		for i, e := range x.Exprs {
			if i < len(need) && need[i] {
				refs(in, 0, e)
			}
		}
		return checkNeeded(x.Input, in)
	case *plan.Filter:
		in := append([]bool(nil), need...)
		refs(in, 0, x.Cond)
		return checkNeeded(x.Input, in)
	case *plan.TemporalJoin:
		nl := len(x.Left.Schema())
		l := make([]bool, nl)
		r := make([]bool, len(x.Right.Schema()))
		copy(l, need)
		if len(need) > nl {
			copy(r, need[nl:])
		}
		l[x.LeftTime], r[x.RightTime] = true, true
		refs(l, 0, x.Residual)
		refs(r, nl, x.Residual)
		keyed := map[int]bool{}
		var pairs []string
		lcols, rcols := x.Left.Schema(), x.Right.Schema()
		for _, k := range x.EquiKeys {
			refs(l, 0, k.Left)
			refs(r, 0, k.Right)
			if rc, ok := k.Right.(*plan.ColumnRef); ok && !k.NullSafe {
				keyed[rc.Index] = true
			}
			ln, lok := keyName(k.Left, lcols)
			rn, rok := keyName(k.Right, rcols)
			if lok && rok {
				pairs = append(pairs, ln+"="+rn)
			}
		}
		read := true
		for _, c := range x.VersionKey {
			read = read && r[c]
		}
		if !read {
			return errorf(ast.Pos{}, ErrTemporalJoin,
				"Temporal Table Join requires primary key in versioned table, but no primary key can be found.")
		}
		for _, c := range x.VersionKey {
			if !keyed[c] {
				names := uniqueJoinNames(lcols, rcols)
				keys := make([]string, len(x.VersionKey))
				for i, c := range x.VersionKey {
					keys[i] = names[nl+c]
				}
				return errorf(ast.Pos{}, ErrTemporalJoin,
					"Temporal table's primary key [%s] must be included in the equivalence condition of temporal join, but current temporal join condition is [%s].",
					strings.Join(keys, ","), strings.Join(pairs, ","))
			}
		}
		if err := checkNeeded(x.Left, l); err != nil {
			return err
		}
		return checkNeeded(x.Right, r)
	}
	for _, c := range n.Children() {
		all := make([]bool, len(c.Schema()))
		for i := range all {
			all[i] = true
		}
		if err := checkNeeded(c, all); err != nil {
			return err
		}
	}
	return nil
}

// keyName names a join key as Flink's planner names it: a column by its
// name, a column cast to the other side's type by the column Flink adds
// for the cast (the name with the first free numeric suffix).
func keyName(e plan.Expr, cols plan.Schema) (string, bool) {
	cast := false
	if c, ok := e.(*plan.Cast); ok {
		e, cast = c.X, true
	}
	r, ok := e.(*plan.ColumnRef)
	if !ok {
		return "", false
	}
	name := cols[r.Index].Name
	if !cast {
		return name, true
	}
	for i := 0; ; i++ {
		cand := fmt.Sprintf("%s%d", name, i)
		taken := false
		for _, c := range cols {
			taken = taken || c.Name == cand
		}
		if !taken {
			return cand, true
		}
	}
}

// uniqueJoinNames returns the field names of a join's row as Calcite
// makes them unique: a name already taken gets the smallest numeric
// suffix, from 0, that is free.
func uniqueJoinNames(l, r plan.Schema) []string {
	taken := map[string]bool{}
	var out []string
	for _, c := range append(append(plan.Schema{}, l...), r...) {
		name := c.Name
		for i := 0; taken[name]; i++ {
			name = fmt.Sprintf("%s%d", c.Name, i)
		}
		taken[name] = true
		out = append(out, name)
	}
	return out
}

// upsertKey returns the columns of n's output that identify its rows as
// Flink's planner derives an upsert key (the smallest): a table's PRIMARY
// KEY, carried through projections that keep all its columns and through
// filters, or the partition columns of a deduplication (ROW_NUMBER()
// OVER (PARTITION BY ... ORDER BY ...) = 1); nil when there is none.
func upsertKey(n plan.Node) []int {
	switch x := n.(type) {
	case *plan.Scan:
		if len(x.PrimaryKey) == 0 {
			return nil
		}
		if x.Projection == nil {
			return append([]int(nil), x.PrimaryKey...)
		}
		return mapKey(x.PrimaryKey, func(c int) int {
			for i, p := range x.Projection {
				if p == c {
					return i
				}
			}
			return -1
		})
	case *plan.ChangelogNormalize:
		return append([]int(nil), x.Key...)
	case *plan.Project:
		in := upsertKey(x.Input)
		if in == nil {
			return nil
		}
		return mapKey(in, func(c int) int {
			for i, e := range x.Exprs {
				if cast, ok := e.(*plan.Cast); ok {
					e = cast.X
				}
				if r, ok := e.(*plan.ColumnRef); ok && r.Index == c {
					return i
				}
			}
			return -1
		})
	case *plan.Filter:
		if k := dedupKey(x); k != nil {
			return k
		}
		return upsertKey(x.Input)
	case *plan.TopN:
		if x.Func != "" && x.Start == 1 && x.End == 1 {
			return columnsOf(x.Partition)
		}
	}
	return nil
}

// mapKey maps key columns through at; nil when one is not kept.
func mapKey(key []int, at func(int) int) []int {
	out := make([]int, len(key))
	for i, c := range key {
		if out[i] = at(c); out[i] < 0 {
			return nil
		}
	}
	return out
}

// columnsOf returns the columns of plain column references, nil when an
// expression is something else (or there are none).
func columnsOf(es []plan.Expr) []int {
	var out []int
	for _, e := range es {
		r, ok := e.(*plan.ColumnRef)
		if !ok {
			return nil
		}
		out = append(out, r.Index)
	}
	return out
}

// dedupKey recognises a deduplication, a filter keeping the first row
// number of a ROW_NUMBER() window (over the window or a projection of
// it), and returns its partition columns.
func dedupKey(f *plan.Filter) []int {
	in := f.Input
	var proj *plan.Project
	if p, ok := in.(*plan.Project); ok {
		proj, in = p, p.Input
	}
	over, ok := in.(*plan.Over)
	if !ok || len(over.Calls) != 1 || over.Calls[0].Name != "ROW_NUMBER" || len(over.Calls[0].Order) == 0 {
		return nil
	}
	rankCol := len(over.Input.Schema())
	part := columnsOf(over.Calls[0].Partition)
	if part == nil {
		return nil
	}
	if proj != nil {
		at := func(c int) int {
			for i, e := range proj.Exprs {
				if r, ok := e.(*plan.ColumnRef); ok && r.Index == c {
					return i
				}
			}
			return -1
		}
		if rankCol = at(rankCol); rankCol < 0 {
			return nil
		}
		if part = mapKey(part, at); part == nil {
			return nil
		}
	}
	for _, c := range plan.Conjuncts(f.Cond) {
		if firstRank(c, rankCol) {
			return part
		}
	}
	return nil
}

// firstRank reports whether c is rank = 1, rank <= 1 or rank < 2.
func firstRank(c plan.Expr, rankCol int) bool {
	call, ok := c.(*plan.Call)
	if !ok || call.Func != nil || len(call.Args) != 2 {
		return false
	}
	r, ok := call.Args[0].(*plan.ColumnRef)
	lit, lok := call.Args[1].(*plan.Literal)
	if !ok || !lok || r.Index != rankCol {
		return false
	}
	v, ok := types.AsInt64(lit.Value)
	if !ok {
		return false
	}
	switch call.Name {
	case plan.OpEq, plan.OpLe:
		return v == 1
	case plan.OpLt:
		return v == 2
	}
	return false
}
