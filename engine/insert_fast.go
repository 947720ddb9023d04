package engine

import (
	"context"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"eddy/catalogs"
	"eddy/engine/ast"
	"eddy/engine/connectors"
	"eddy/engine/types"
)

// The fast path of `INSERT INTO t VALUES (literal, ...)` into a managed
// table of a store (the statement of piped scripts): the literals are
// typed and cast to the columns' types with the planner's own rules
// (validate's literal types, types.CastValue) and handed to the store,
// without a plan or operators. It takes only the cases where that is
// plainly the same as the planned INSERT — literals of numbers, strings
// and booleans into columns of those families, no column list,
// partition, hint or OVERWRITE — and leaves everything else, errors
// included, to the planner.

// fastTarget is what the fast path needs of the target table.
type fastTarget struct {
	id    catalogs.Identifier
	rs    connectors.RowStore
	gc    groupCatalog
	types []*types.Type
	name  string // the name as the statement wrote it (see rowGroup.targets)
}

// fastInsertRows returns the rows of ins as values of the target's
// physical column types, or ok false when the fast path does not apply.
func (s *Session) fastInsertRows(ctx context.Context, ins *ast.Insert) (tgt *fastTarget, rows [][]any, ok bool) {
	if ins.Upsert || ins.Overwrite || ins.Hints != nil || ins.Partition != nil || ins.Columns != nil || s.stmtSet != nil {
		return nil, nil, false
	}
	v, isValues := ins.Source.(*ast.Values)
	if !isValues || len(v.Rows) == 0 {
		return nil, nil, false
	}
	name := strings.Join(ins.Table.Names(), "\x00")
	if s.group != nil {
		tgt = s.group.targets[name]
	}
	if tgt == nil {
		if tgt = s.resolveFastTarget(ctx, ins); tgt == nil {
			return nil, nil, false
		}
		tgt.name = name
	}
	cols := tgt.types
	var first []litType // the literal types of the first row
	rows = make([][]any, len(v.Rows))
	for r, rc := range v.Rows {
		if len(rc.Elems) != len(cols) {
			return nil, nil, false
		}
		row := make([]any, len(cols))
		for i, e := range rc.Elems {
			lt, val, ok := fastLiteral(e, cols[i])
			if !ok {
				return nil, nil, false
			}
			if r == 0 {
				first = append(first, lt)
			} else if lt != first[i] {
				// The planner would cast each column to the rows'
				// common type first.
				return nil, nil, false
			}
			row[i] = val
		}
		rows[r] = row
	}
	return tgt, rows, true
}

// resolveFastTarget looks up the target of ins: nil unless it is a
// permanent managed table of physical columns only, in a catalog that
// stores rows and shares transactions.
func (s *Session) resolveFastTarget(ctx context.Context, ins *ast.Insert) *fastTarget {
	id, err := s.cat.Qualify(ins.Table.Names()...)
	if err != nil {
		return nil
	}
	entry, err := s.cat.GetTable(ctx, id)
	if err != nil || entry.Temporary {
		return nil
	}
	tbl, isTable := entry.Table.(*catalogs.CatalogTable)
	if !isTable {
		return nil
	}
	if !s.managedTable(ctx, id, tbl) {
		return nil
	}
	var cols []*types.Type
	for _, c := range tbl.Schema.Columns {
		if c.Kind == catalogs.Physical {
			cols = append(cols, c.Type)
		} else {
			return nil // computed and metadata columns: the planner
		}
	}
	cat, err := s.cat.Catalog(ctx, id.Catalog)
	if err != nil {
		return nil
	}
	rs, isRS := cat.(connectors.RowStore)
	gc, isGC := cat.(groupCatalog)
	if !isRS || !isGC {
		return nil
	}
	return &fastTarget{id: id, rs: rs, gc: gc, types: cols}
}

// litType is the type validate gives a literal, as a comparable value:
// the kind, and CHAR's length or DECIMAL's precision and scale.
type litType struct {
	kind        types.Kind
	prec, scale int
}

// typ returns the literal type as a type (NOT NULL, as validate types
// literals).
func (l litType) typ() *types.Type {
	switch l.kind {
	case types.Char:
		return types.NewChar(l.prec).WithNullable(false)
	case types.Decimal:
		return types.NewDecimal(l.prec, l.scale).WithNullable(false)
	}
	return types.New(l.kind).WithNullable(false)
}

// fastLiteral returns the type validate gives literal e and its value
// cast to the column type t, or ok false when e is not such a literal or
// the pair is left to the planner.
func fastLiteral(e ast.Expr, t *types.Type) (lt litType, v any, ok bool) {
	neg := false
	if u, isUnary := e.(*ast.UnaryExpr); isUnary && u.Op == "-" {
		neg, e = true, u.X
	}
	l, isLit := e.(*ast.Literal)
	if !isLit {
		return lt, nil, false
	}
	switch l.Kind {
	case ast.LitString:
		if neg || t.Kind != types.VarChar {
			return lt, nil, false
		}
		n := utf8.RuneCountInString(l.Value)
		if n > t.Length {
			return lt, nil, false
		}
		// CHAR(n) into a VARCHAR of n or more: the same text.
		return litType{kind: types.Char, prec: n}, l.Value, true
	case ast.LitBool:
		if neg || t.Kind != types.Boolean {
			return lt, nil, false
		}
		return litType{kind: types.Boolean}, strings.EqualFold(l.Value, "TRUE"), true
	case ast.LitInteger:
		switch t.Kind {
		case types.Int, types.BigInt, types.Float, types.Double, types.Decimal:
		default:
			return lt, nil, false
		}
		if len(l.Value) > 18 {
			return lt, nil, false // BIGINT's edge and DECIMAL literals: the planner
		}
		n, err := strconv.ParseInt(l.Value, 10, 64)
		if err != nil {
			return lt, nil, false
		}
		if neg {
			n = -n
		}
		// validate's literal type: INT when it fits 32 bits.
		lt = litType{kind: types.Int}
		if n < math.MinInt32 || n > math.MaxInt32 {
			lt = litType{kind: types.BigInt}
			if t.Kind == types.Int {
				return lt, nil, false
			}
		}
		// The common pairs directly, with CastValue's results.
		switch t.Kind {
		case types.Int:
			return lt, types.IntegerValue(types.Int, n), true
		case types.BigInt:
			return lt, types.IntegerValue(types.BigInt, n), true
		case types.Double:
			return lt, float64(n), true
		}
	case ast.LitDecimal:
		switch t.Kind {
		case types.Float, types.Double, types.Decimal:
		default:
			return lt, nil, false
		}
		s := l.Value
		dot := strings.IndexByte(s, '.')
		if dot < 0 || dot == len(s)-1 || len(s)-1 > types.MaxDecimalPrecision {
			return lt, nil, false
		}
		lt = litType{kind: types.Decimal, prec: len(s) - 1, scale: len(s) - dot - 1}
		if t.Kind == types.Double {
			// A decimal's DOUBLE is the nearest double of its digits
			// (apd's Float64 parses its text too).
			f, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return lt, nil, false
			}
			if neg {
				f = -f
			}
			return lt, f, true
		}
	default:
		return lt, nil, false
	}
	text := l.Value
	if neg {
		text = "-" + text
	}
	from := lt.typ()
	lv, err := types.CastValue(text, types.NewString(), from)
	if err != nil {
		return lt, nil, false
	}
	if from.WithNullable(true).Equal(t.WithNullable(true)) {
		return lt, lv, true
	}
	v, err = types.CastValue(lv, from, t)
	if err != nil || v == nil {
		return lt, nil, false
	}
	return lt, v, true
}

// runFastInsert writes rows into the target (ctx joins the shared
// transaction when there is one) and answers as the planned INSERT does.
func (s *Session) runFastInsert(ctx context.Context, tgt *fastTarget, rows [][]any) (*Result, error) {
	write := func() error {
		return tgt.rs.WriteRows(ctx, tgt.id.Path(), tgt.types, false, func(emit func(row []any) error) error {
			for _, r := range rows {
				if err := emit(r); err != nil {
					return err
				}
			}
			return nil
		})
	}
	if s.dmlSync() {
		if err := write(); err != nil {
			return nil, err
		}
		return Info(msgFinishStatement), nil
	}
	j := s.jobs.add(s.jobName([]string{tgt.id.Catalog + "." + tgt.id.Database + "." + tgt.id.Object}), true, nil)
	err := write()
	s.jobs.finish(j, err)
	if err != nil {
		return nil, err
	}
	return submitted(j.info.ID), nil
}
