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
	id, err := s.cat.Qualify(ins.Table.Names()...)
	if err != nil {
		return nil, nil, false
	}
	entry, err := s.cat.GetTable(ctx, id)
	if err != nil || entry.Temporary {
		return nil, nil, false
	}
	tbl, isTable := entry.Table.(*catalogs.CatalogTable)
	if !isTable {
		return nil, nil, false
	}
	if _, ok := tbl.Options["connector"]; ok {
		return nil, nil, false
	}
	var cols []*types.Type
	for _, c := range tbl.Schema.Columns {
		if c.Kind == catalogs.Physical {
			cols = append(cols, c.Type)
		} else {
			return nil, nil, false // computed and metadata columns: the planner
		}
	}
	cat, err := s.cat.Catalog(ctx, id.Catalog)
	if err != nil {
		return nil, nil, false
	}
	rs, isRS := cat.(connectors.RowStore)
	gc, isGC := cat.(groupCatalog)
	if !isRS || !isGC {
		return nil, nil, false
	}
	var first []*types.Type // the literal types of the first row
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
			} else if !lt.Equal(first[i]) {
				// The planner would cast each column to the rows'
				// common type first.
				return nil, nil, false
			}
			row[i] = val
		}
		rows[r] = row
	}
	return &fastTarget{id: id, rs: rs, gc: gc, types: cols}, rows, true
}

// fastLiteral returns the type validate gives literal e and its value
// cast to the column type t, or ok false when e is not such a literal or
// the pair is left to the planner.
func fastLiteral(e ast.Expr, t *types.Type) (lt *types.Type, v any, ok bool) {
	neg := false
	if u, isUnary := e.(*ast.UnaryExpr); isUnary && u.Op == "-" {
		neg, e = true, u.X
	}
	l, isLit := e.(*ast.Literal)
	if !isLit {
		return nil, nil, false
	}
	switch l.Kind {
	case ast.LitString:
		if neg || t.Kind != types.VarChar {
			return nil, nil, false
		}
		n := utf8.RuneCountInString(l.Value)
		if n > t.Length {
			return nil, nil, false
		}
		return types.NewChar(n).WithNullable(false), l.Value, true
	case ast.LitBool:
		if neg || t.Kind != types.Boolean {
			return nil, nil, false
		}
		return types.New(types.Boolean).WithNullable(false), strings.EqualFold(l.Value, "TRUE"), true
	case ast.LitInteger:
		switch t.Kind {
		case types.Int, types.BigInt, types.Float, types.Double, types.Decimal:
		default:
			return nil, nil, false
		}
		if len(l.Value) > 18 {
			return nil, nil, false // BIGINT's edge and DECIMAL literals: the planner
		}
		n, err := strconv.ParseInt(l.Value, 10, 64)
		if err != nil {
			return nil, nil, false
		}
		if neg {
			n = -n
		}
		// validate's literal type: INT when it fits 32 bits.
		lt = types.New(types.Int)
		if n < math.MinInt32 || n > math.MaxInt32 {
			lt = types.New(types.BigInt)
			if t.Kind == types.Int {
				return nil, nil, false
			}
		}
	case ast.LitDecimal:
		switch t.Kind {
		case types.Float, types.Double, types.Decimal:
		default:
			return nil, nil, false
		}
		s := l.Value
		dot := strings.IndexByte(s, '.')
		if dot < 0 || dot == len(s)-1 || len(s)-1 > types.MaxDecimalPrecision {
			return nil, nil, false
		}
		lt = types.NewDecimal(len(s)-1, len(s)-dot-1)
	default:
		return nil, nil, false
	}
	lt = lt.WithNullable(false)
	text := l.Value
	if neg {
		text = "-" + text
	}
	// The common pairs directly, with CastValue's results: an integer
	// literal parses exactly; a decimal literal's DOUBLE is the nearest
	// double of its digits (apd's Float64 parses its text too).
	switch {
	case l.Kind == ast.LitInteger && (t.Kind == types.BigInt || t.Kind == types.Double):
		n, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			return nil, nil, false
		}
		if t.Kind == types.Double {
			return lt, float64(n), true
		}
		return lt, types.IntegerValue(types.BigInt, n), true
	case l.Kind == ast.LitDecimal && t.Kind == types.Double:
		f, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return nil, nil, false
		}
		return lt, f, true
	}
	lv, err := types.CastValue(text, types.NewString(), lt)
	if err != nil {
		return nil, nil, false
	}
	if lt.WithNullable(true).Equal(t.WithNullable(true)) {
		return lt, lv, true
	}
	v, err = types.CastValue(lv, lt, t)
	if err != nil || v == nil {
		return nil, nil, false
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
