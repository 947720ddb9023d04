package engine

import (
	"context"
	"encoding/binary"
	"reflect"

	"eddy/engine/ast"
	"eddy/engine/parser"
	"eddy/engine/plan"
	"eddy/engine/sink"
	"eddy/engine/types"
	"eddy/engine/validate"
)

// Statement shapes. A script piped into the shell writes thousands of
// `INSERT INTO t VALUES (...)` statements that differ only in their
// literals. Inside a write group nothing can change what such a statement
// binds to (every other statement ends the group first), so the group
// binds and optimizes each shape once and runs later statements of the
// same shape with their literals as parameters of that plan.
//
// A statement's shape is its tokens with each literal replaced by the
// literal's type (the validator's literal typing: 'ab' is CHAR(2), 1.25
// DECIMAL(3, 2)). Two statements of one shape parse to the same tree but
// for the literals' values, and the validator's and the optimizer's
// decisions depend on literals only through their types, so they bind to
// the same plan with other values in its literals. A shape is kept only
// when its plan shows that: the sink writes constant rows (Values, under
// at most a projection) whose cells are the statement's literals, in
// order, under casts only. Every other shape is remembered as one to bind
// in full each time. A literal whose value the validator refuses sends
// the statement down the full path, which gives the refusal its text.

// maxShapes bounds the shapes a group keeps; past it new shapes are bound
// in full without being kept.
const maxShapes = 1024

// shapes is a write group's statement shapes, with the buffers a lookup
// reuses.
type shapes struct {
	byKey map[string]*shape // nil value: a shape bound in full each time
	toks  []parser.Token
	key   []byte
	lits  []shapeLiteral
}

// shape is the plan of one statement shape: the optimized sink of the
// statement that made it, and a copy of it that each statement of the
// shape fills with its literals (the group runs one statement at a time,
// and nothing keeps a statement's plan once it ran).
type shape struct {
	sink *plan.Sink
	// slots are the copy's literals, one for each of the statement's in
	// their order: bind sets their values (a group runs one statement at
	// a time, and nothing keeps a plan after it ran).
	slots []*plan.Literal
}

// shapeLiteral is one literal of a statement as the parser would build it.
type shapeLiteral struct {
	lit ast.Literal
	t   types.Type
}

// literalKinds are the token kinds that are literals by themselves.
var literalKinds = [...]ast.LitKind{
	parser.Integer: ast.LitInteger, parser.Decimal: ast.LitDecimal, parser.Float: ast.LitFloat,
	parser.String: ast.LitString, parser.Binary: ast.LitBinary,
}

// keywordKind is the literal kind of a keyword literal, or 0.
func keywordKind(upper string) ast.LitKind {
	k, _ := parser.KeywordLiteral(upper)
	return k
}

// lex reads sql's shape into sh.key and its literals into sh.lits. ok is
// false for a statement that is not an INSERT, does not lex, or has a
// literal whose type the validator refuses (the full path reports it).
func (sh *shapes) lex(sql string) bool {
	toks, err := parser.AppendTokens(sh.toks[:0], sql)
	sh.toks = toks
	if err != nil || len(toks) == 0 || !toks[0].Is("INSERT") {
		return false
	}
	key, lits := sh.key[:0], sh.lits[:0]
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		kind := ast.LitKind(0)
		negative := false
		pos := t.Pos
		switch {
		case int(t.Kind) < len(literalKinds) && literalKinds[t.Kind] != 0:
			kind = literalKinds[t.Kind]
			if i+1 < len(toks) && toks[i+1].Kind == parser.String && t.Kind == parser.String {
				return false // adjacent strings are joined by the parser
			}
			// A '-' right after '(' or ',' is the literal's sign: the
			// validator types and plans it as a negative literal.
			if i >= 2 && kind != ast.LitString && kind != ast.LitBinary && toks[i-1].IsOp("-") &&
				(toks[i-2].IsOp("(") || toks[i-2].IsOp(",")) {
				negative = true
			}
		case t.Kind == parser.Ident && t.Reserved && keywordKind(t.Upper) != 0:
			// The keyword is part of the shape; its literal fills a
			// cell as the others do.
			key = append(key, byte(t.Kind))
			key = append(key, t.Raw...)
			kind = keywordKind(t.Upper)
		case t.Kind == parser.Ident && i+1 < len(toks) && toks[i+1].Kind == parser.String:
			k := parser.TypedLiteral(t.Upper)
			if k == 0 {
				break
			}
			key = append(key, byte(t.Kind))
			key = append(key, t.Raw...)
			kind, i = k, i+1
			t = toks[i]
		}
		if kind == 0 {
			key = append(key, byte(t.Kind))
			key = append(key, t.Raw...)
			key = append(key, 0)
			continue
		}
		value := t.Text
		if k, v := parser.KeywordLiteral(t.Upper); t.Kind == parser.Ident && k != 0 {
			value = v
		}
		lits = append(lits, shapeLiteral{lit: ast.Literal{Pos: pos, Kind: kind, Value: value}})
		l := &lits[len(lits)-1]
		if err := validate.LiteralType(&l.lit, negative, &l.t); err != nil {
			sh.key, sh.lits = key, lits
			return false
		}
		if negative {
			l.lit.Value = "-" + l.lit.Value
		}
		lt := &l.t
		key = append(key, 0xff, byte(lt.Kind))
		key = binary.AppendUvarint(key, uint64(lt.Length))
		key = binary.AppendUvarint(key, uint64(lt.Prec))
		key = binary.AppendUvarint(key, uint64(lt.Scale))
		if lt.NotNull {
			key = append(key, 1)
		} else {
			key = append(key, 0)
		}
	}
	sh.key, sh.lits = key, lits
	return true
}

// lookup returns the shape of the statement last lexed: known reports
// whether the group has seen the shape, sp is nil for one bound in full.
func (sh *shapes) lookup() (sp *shape, known bool) {
	sp, known = sh.byKey[string(sh.key)]
	return sp, known
}

// remember keeps the shape of the statement last lexed, which bound to
// sk: as a shape when sk's plan is the statement's literals as parameters,
// else as one to bind in full.
func (sh *shapes) remember(sk *plan.Sink) {
	if len(sh.byKey) >= maxShapes {
		return
	}
	if sh.byKey == nil {
		sh.byKey = map[string]*shape{}
	}
	sh.byKey[string(sh.key)] = shapeOf(sk, sh.lits)
}

// shapeOf returns the shape of sk, whose statement has the literals lits,
// or nil when sk's constant rows are not lits in order under casts.
func shapeOf(sk *plan.Sink, lits []shapeLiteral) *shape {
	if !sk.Direct {
		return nil
	}
	var values *plan.Values
	out := *sk
	switch in := sk.Input.(type) {
	case *plan.Values:
		values = in
	case *plan.Project:
		v, ok := in.Input.(*plan.Values)
		if !ok || !constantProjection(in) {
			return nil
		}
		values = v
	default:
		return nil
	}
	// The copy: its own Values, cells and casts; the projection and the
	// sink's other fields are shared with sk, which nothing changes.
	vals := &plan.Values{Cols: values.Cols, Rows: make([][]plan.Expr, len(values.Rows))}
	if p, ok := sk.Input.(*plan.Project); ok {
		cp := *p
		cp.Input = vals
		out.Input = &cp
	} else {
		out.Input = vals
	}
	sp := &shape{sink: &out}
	next := 0
	for i, row := range values.Rows {
		vals.Rows[i] = make([]plan.Expr, len(row))
		for c, e := range row {
			if !sp.copyCell(&vals.Rows[i][c], e, lits, &next) {
				return nil
			}
		}
	}
	if next != len(lits) {
		return nil
	}
	return sp
}

// copyCell copies the cell e into *dst, recording the slot of its
// literal, when e is the literal lits[*next] (the value the validator
// plans for it) under casts only.
func (sp *shape) copyCell(dst *plan.Expr, e plan.Expr, lits []shapeLiteral, next *int) bool {
	switch e := e.(type) {
	case *plan.Cast:
		c := *e
		*dst = &c
		return sp.copyCell(&c.X, e.X, lits, next)
	case *plan.Literal:
		if *next >= len(lits) {
			return false
		}
		l := &lits[*next]
		*next++
		want, err := validate.LiteralValue(&l.lit, &l.t)
		if err != nil {
			return false
		}
		w, ok := want.(*plan.Literal)
		if !ok || !w.T.Equal(e.T) || !reflect.DeepEqual(w.Value, e.Value) {
			return false
		}
		c := *e
		*dst = &c
		sp.slots = append(sp.slots, &c)
		return true
	}
	return false
}

// constantProjection reports whether a projection over Values reads only
// its columns, NULL and casts of them: none of its expressions holds a
// literal of the statement (those are all in the Values).
func constantProjection(p *plan.Project) bool {
	var ok func(e plan.Expr) bool
	ok = func(e plan.Expr) bool {
		switch e := e.(type) {
		case *plan.ColumnRef:
			return true
		case *plan.Literal:
			return e.Value == nil
		case *plan.Cast:
			return ok(e.X)
		}
		return false
	}
	for _, e := range p.Exprs {
		if !ok(e) {
			return false
		}
	}
	return true
}

// bind returns the shape's sink with the literals lits in its slots. ok
// is false when the validator refuses a literal's value: the statement
// then goes the full path, which reports it.
func (sp *shape) bind(lits []shapeLiteral) (sk *plan.Sink, ok bool) {
	for i, slot := range sp.slots {
		l := &lits[i]
		x, err := validate.LiteralDatum(&l.lit, slot.T)
		if err != nil {
			return nil, false
		}
		slot.Value = x
	}
	return sp.sink, true
}

// insertShaped runs sql, a statement inside the open group g, through
// the plan of its shape when the group has one. ok is false when it did
// not run: the caller runs it in full, and then calls remembered.
func (s *Session) insertShaped(ctx context.Context, sql string, g *Group) (res *Result, held bool, err error, ok bool) {
	sh := &g.shapes
	g.learn = false
	resuming := !g.open()
	if resuming && (g.kept == nil || g.kept.epoch != s.epoch) {
		g.kept = nil
		return nil, false, nil, false
	}
	if !sh.lex(sql) {
		return nil, false, nil, false
	}
	var sp *shape
	known := false
	if resuming {
		// The first statement of a transaction: its shape is one the
		// last transaction kept, if they are still valid.
		if sp = g.kept.byKey[string(sh.key)]; sp == nil {
			return nil, false, nil, false
		}
		rs := sink.Groupable(s.conns.Registry, sp.sink, s.sinkTable(sp.sink))
		if rs == nil {
			g.kept = nil
			return nil, false, nil, false
		}
		valid, err := g.resume(ctx, rs)
		if err != nil {
			return nil, false, err, true
		}
		if !valid {
			return nil, false, nil, false
		}
	} else {
		sp, known = sh.lookup()
	}
	if sp == nil {
		g.learn = !known
		return nil, false, nil, false
	}
	sk, bound := sp.bind(sh.lits)
	if !bound {
		return nil, false, nil, false
	}
	res, held, err = s.runInsert(ctx, sk, g)
	return res, held, err, true
}
