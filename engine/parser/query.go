package parser

import (
	"strings"

	"eddy/engine/ast"
)

// ParseQuery parses one query (SELECT, WITH, VALUES, set operations,
// parenthesised queries). A trailing ';' is allowed.
func ParseQuery(sql string) (ast.Query, error) {
	var q ast.Query
	err := run(sql, func(p *Parser) {
		q = p.parseQuery()
		p.acceptOp(";")
		p.expectEOF()
	})
	if err != nil {
		return nil, err
	}
	return q, nil
}

// parseQueryStatement reads a query standing as a statement; the statement
// dispatcher calls it for SELECT, WITH, VALUES and '('.
func (p *Parser) parseQueryStatement() ast.Statement {
	return &ast.QueryStatement{Query: p.parseQuery()}
}

// parseQuery reads a query expression (WITH, SELECT, VALUES, set operations,
// ORDER BY/LIMIT/OFFSET/FETCH, parentheses).
func (p *Parser) parseQuery() ast.Query {
	p.enter()
	defer p.leave()
	if p.isKeyword("WITH") {
		t := p.next()
		w := &ast.With{Pos: t.Pos}
		w.Recursive = p.acceptKeyword("RECURSIVE")
		for {
			c := &ast.CTE{Name: p.parseIdent()}
			if p.isOp("(") {
				c.Columns = p.parseParenIdents()
			}
			p.expectKeyword("AS")
			p.expectOp("(")
			c.Query = p.parseQuery()
			p.expectOp(")")
			w.CTEs = append(w.CTEs, c)
			if !p.acceptOp(",") {
				break
			}
		}
		w.Body = p.parseOrdered()
		return w
	}
	return p.parseOrdered()
}

// parseParenIdents reads (name, ...).
func (p *Parser) parseParenIdents() []*ast.Ident {
	p.expectOp("(")
	ids := []*ast.Ident{p.parseIdent()}
	for p.acceptOp(",") {
		ids = append(ids, p.parseIdent())
	}
	p.expectOp(")")
	return ids
}

// parseOrdered reads a set expression followed by ORDER BY, LIMIT, OFFSET
// and FETCH.
func (p *Parser) parseOrdered() ast.Query {
	q := p.parseSetExpr()
	o := &ast.OrderedQuery{Pos: q.Position(), Query: q}
	if p.acceptKeyword("ORDER") {
		p.expectKeyword("BY")
		o.OrderBy = p.parseOrderItems()
	}
	if p.acceptKeyword("LIMIT") {
		if !p.acceptKeyword("ALL") {
			o.Fetch = p.parseLimitValue()
		}
	}
	if p.acceptKeyword("OFFSET") {
		o.Offset = p.parseLimitValue()
		if !p.acceptKeyword("ROWS") {
			p.acceptKeyword("ROW")
		}
	}
	if o.Fetch == nil && p.acceptKeyword("FETCH") {
		if !p.acceptKeyword("FIRST") {
			p.expectKeyword("NEXT")
		}
		o.Fetch = p.parseLimitValue()
		o.FetchFirst = true
		if !p.acceptKeyword("ROWS") {
			p.expectKeyword("ROW")
		}
		p.expectKeyword("ONLY")
	}
	if o.OrderBy == nil && o.Offset == nil && o.Fetch == nil {
		return q
	}
	return o
}

// parseLimitValue reads the count of LIMIT, OFFSET or FETCH: an unsigned
// integer or a dynamic parameter.
func (p *Parser) parseLimitValue() ast.Expr {
	t := p.tok()
	switch t.Kind {
	case Integer:
		p.next()
		return p.newLiteral(t.Pos, ast.LitInteger, t.Text)
	case Param:
		p.next()
		p.params++
		return &ast.Param{Pos: t.Pos, Index: p.params - 1}
	}
	p.expect("<UNSIGNED_INTEGER_LITERAL>")
	p.expect(`"?"`)
	p.fail()
	return nil
}

// parseSetExpr reads UNION and EXCEPT chains (left-associative) of
// INTERSECT chains, which bind tighter.
func (p *Parser) parseSetExpr() ast.Query {
	left := p.parseIntersect()
	for p.isKeyword("UNION", "EXCEPT") {
		t := p.next()
		all := p.setQuantifier()
		left = &ast.SetOp{Pos: left.Position(), Op: t.Upper, All: all, Left: left, Right: p.parseIntersect()}
	}
	return left
}

func (p *Parser) parseIntersect() ast.Query {
	left := p.parseQueryPrimary()
	for p.isKeyword("INTERSECT") {
		p.next()
		all := p.setQuantifier()
		left = &ast.SetOp{Pos: left.Position(), Op: "INTERSECT", All: all, Left: left, Right: p.parseQueryPrimary()}
	}
	return left
}

func (p *Parser) setQuantifier() bool {
	if p.acceptKeyword("ALL") {
		return true
	}
	p.acceptKeyword("DISTINCT")
	return false
}

// parseQueryPrimary reads SELECT, VALUES or a parenthesised query.
func (p *Parser) parseQueryPrimary() ast.Query {
	p.enter()
	defer p.leave()
	t := p.tok()
	switch {
	case t.Is("SELECT"):
		return p.parseSelect()
	case t.Is("VALUES"):
		return p.parseValues()
	case t.Is("TABLE") && !p.peek(1).IsOp("("):
		// TABLE name: an explicit table, SELECT * FROM name.
		p.next()
		return &ast.ExplicitTable{Pos: t.Pos, Name: p.parseObjectName()}
	case t.IsOp("("):
		p.next()
		q := p.parseQuery()
		p.expectOp(")")
		return &ast.ParenQuery{Pos: t.Pos, Query: q}
	}
	p.expect(`"SELECT"`)
	p.expect(`"TABLE"`)
	p.expect(`"VALUES"`)
	p.expect(`"WITH"`)
	p.expect(`"("`)
	p.fail()
	return nil
}

// parseValues reads VALUES row, ...; a row is (e, ...), ROW(e, ...) or a
// single expression.
func (p *Parser) parseValues() ast.Query {
	t := p.next()
	v := &ast.Values{Pos: t.Pos}
	for {
		e := p.parseExpr()
		row, ok := e.(*ast.RowCtor)
		if !ok {
			row = &ast.RowCtor{Pos: e.Position(), Elems: []ast.Expr{e}}
		}
		v.Rows = append(v.Rows, row)
		if !p.acceptOp(",") {
			return v
		}
	}
}

// parseSelect reads one SELECT block.
func (p *Parser) parseSelect() ast.Query {
	t := p.next()
	s := p.newSelect(t.Pos)
	for p.tok().Kind == Hint {
		s.Hints = append(s.Hints, p.parseHints()...)
	}
	switch {
	case p.acceptKeyword("DISTINCT"):
		s.Quantifier = "DISTINCT"
	case p.acceptKeyword("ALL"):
		s.Quantifier = "ALL"
	}
	for {
		s.Items = append(s.Items, p.parseSelectItem())
		if !p.acceptOp(",") {
			break
		}
	}
	if p.acceptKeyword("FROM") {
		s.From = p.parseFrom()
	}
	if p.acceptKeyword("WHERE") {
		s.Where = p.parseExpr()
	}
	if p.acceptKeyword("GROUP") {
		p.expectKeyword("BY")
		s.GroupBy = p.parseGroupItems()
	}
	if p.acceptKeyword("HAVING") {
		s.Having = p.parseExpr()
	}
	if p.acceptKeyword("WINDOW") {
		for {
			w := &ast.NamedWindow{Name: p.parseIdent()}
			p.expectKeyword("AS")
			w.Spec = p.parseWindowSpec()
			s.Windows = append(s.Windows, w)
			if !p.acceptOp(",") {
				break
			}
		}
	}
	if p.acceptKeyword("QUALIFY") {
		s.Qualify = p.parseExpr()
	}
	return s
}

func (p *Parser) parseSelectItem() *ast.SelectItem {
	if p.isOp("*") {
		t := p.next()
		return &ast.SelectItem{Expr: &ast.Star{Pos: t.Pos}}
	}
	e := p.parseExpr()
	it := p.nodes.items.get()
	it.Expr = e
	if _, star := it.Expr.(*ast.Star); star {
		return it
	}
	if p.acceptKeyword("AS") {
		it.Alias = p.parseIdent()
	} else if p.isIdent() {
		it.Alias = p.parseIdent()
	}
	return it
}

// parseGroupItems reads GROUP BY items.
func (p *Parser) parseGroupItems() []ast.Expr {
	items := append(make([]ast.Expr, 0, 2), p.parseGroupItem())
	for p.acceptOp(",") {
		items = append(items, p.parseGroupItem())
	}
	return items
}

func (p *Parser) parseGroupItem() ast.Expr {
	p.enter()
	defer p.leave()
	t := p.tok()
	switch {
	case t.Is("GROUPING") && p.peek(1).Is("SETS"):
		p.next()
		p.next()
		p.expectOp("(")
		g := &ast.GroupingSet{Pos: t.Pos, Kind: "GROUPING SETS", Items: p.parseGroupItems()}
		p.expectOp(")")
		return g
	case t.Is("ROLLUP") || t.Is("CUBE"):
		p.next()
		p.expectOp("(")
		g := &ast.GroupingSet{Pos: t.Pos, Kind: t.Upper, Items: p.parseGroupItems()}
		p.expectOp(")")
		return g
	case t.IsOp("(") && p.peek(1).IsOp(")"):
		p.next()
		p.next()
		return &ast.RowCtor{Pos: t.Pos}
	}
	return p.parseExpr()
}

// parseFrom reads the FROM list: table references joined by commas and
// JOIN clauses, left-deep.
func (p *Parser) parseFrom() ast.TableExpr {
	p.enter()
	defer p.leave()
	left := p.parseTableRef()
	for {
		// The Join is made only once a join follows: most FROM clauses
		// name one table.
		t := p.tok()
		switch {
		case t.IsOp(","):
			p.next()
			left = &ast.Join{Pos: left.Position(), Kind: ast.JoinComma, Left: left, Right: p.parseTableRef()}
			continue
		case t.Is("CROSS"):
			p.next()
			p.expectKeyword("JOIN")
			left = &ast.Join{Pos: left.Position(), Kind: ast.JoinCross, Left: left, Right: p.parseTableRef()}
			continue
		}
		natural := p.acceptKeyword("NATURAL")
		var kind ast.JoinKind
		switch {
		case p.acceptKeyword("JOIN"):
			kind = ast.JoinInner
		case p.acceptKeyword("INNER"):
			p.expectKeyword("JOIN")
			kind = ast.JoinInner
		case p.acceptKeyword("LEFT"):
			kind = ast.JoinLeft
			p.acceptKeyword("OUTER")
			p.expectKeyword("JOIN")
		case p.acceptKeyword("RIGHT"):
			kind = ast.JoinRight
			p.acceptKeyword("OUTER")
			p.expectKeyword("JOIN")
		case p.acceptKeyword("FULL"):
			kind = ast.JoinFull
			p.acceptKeyword("OUTER")
			p.expectKeyword("JOIN")
		default:
			if natural {
				p.fail()
			}
			return left
		}
		j := &ast.Join{Pos: left.Position(), Kind: kind, Natural: natural, Left: left, Right: p.parseTableRef()}
		if p.acceptKeyword("ON") {
			j.On = p.parseExpr()
		} else if p.acceptKeyword("USING") {
			j.Using = p.parseParenIdents()
		}
		left = j
	}
}

// parseTableRef reads one table reference with its alias.
func (p *Parser) parseTableRef() ast.TableExpr {
	p.enter()
	defer p.leave()
	t := p.tok()
	switch {
	case t.Is("LATERAL"):
		p.next()
		if p.isKeyword("TABLE") {
			f := p.parseTableFunc()
			f.Lateral = true
			f.Pos = t.Pos
			return f
		}
		p.expectOp("(")
		q := p.parseQuery()
		p.expectOp(")")
		return &ast.DerivedTable{Pos: t.Pos, Lateral: true, Query: q, Alias: p.parseAlias()}
	case t.Is("TABLE") && p.peek(1).IsOp("(") && (p.peek(2).Is("ML_PREDICT") || p.peek(2).Is("ML_EVALUATE")) && p.peek(3).IsOp("("):
		// TABLE(ML_PREDICT(...)): the model call, wrapped.
		p.next()
		p.next()
		m := p.parseModelCall().(*ast.ModelCall)
		p.expectOp(")")
		m.Pos = t.Pos
		m.Alias = p.parseAlias()
		return m
	case t.Is("TABLE") && p.peek(1).IsOp("("):
		return p.parseTableFunc()
	case (t.Is("ML_PREDICT") || t.Is("ML_EVALUATE")) && p.peek(1).IsOp("("):
		return p.parseModelCall()
	case t.Is("UNNEST"):
		p.next()
		p.expectOp("(")
		u := &ast.Unnest{Pos: t.Pos, Args: p.parseExprList()}
		p.expectOp(")")
		u.WithOrdinality = p.acceptKeyword("WITH", "ORDINALITY")
		u.Alias = p.parseAlias()
		return u
	case t.IsOp("("):
		if p.isQueryStart(1) {
			p.next()
			q := p.parseQuery()
			p.expectOp(")")
			d := &ast.DerivedTable{Pos: t.Pos, Query: q}
			if p.isKeyword("MATCH_RECOGNIZE") {
				return p.parseMatchRecognize(d)
			}
			d.Alias = p.parseAlias()
			return d
		}
		if p.peek(1).IsOp("(") {
			m := p.mark()
			var q ast.Query
			if p.try(func() {
				p.next()
				q = p.parseQuery()
				p.expectOp(")")
			}) {
				return &ast.DerivedTable{Pos: t.Pos, Query: q, Alias: p.parseAlias()}
			}
			p.reset(m)
		}
		p.next()
		inner := p.parseFrom()
		p.expectOp(")")
		return &ast.ParenTable{Pos: t.Pos, Table: inner, Alias: p.parseAlias()}
	}
	tn := p.nodes.tables.get()
	tn.Name = p.parseObjectName()
	for p.tok().Kind == Hint {
		tn.Hints = append(tn.Hints, p.parseHints()...)
	}
	if p.acceptKeyword("FOR") {
		p.expectKeyword("SYSTEM_TIME")
		p.expectKeyword("AS")
		p.expectKeyword("OF")
		tn.SystemTime = p.parseExpr()
	}
	if p.isKeyword("MATCH_RECOGNIZE") {
		return p.parseMatchRecognize(tn)
	}
	tn.Alias = p.parseAlias()
	return tn
}

// parseTableFunc reads TABLE(call).
func (p *Parser) parseTableFunc() *ast.TableFunc {
	t := p.expectKeyword("TABLE")
	p.expectOp("(")
	f := &ast.TableFunc{Pos: t.Pos}
	e := p.parseNameOrCall()
	if _, ok := e.(*ast.FuncCall); !ok {
		p.expectOp("(")
	}
	f.Call = e
	p.expectOp(")")
	f.Alias = p.parseAlias()
	return f
}

// parseAlias reads [AS] name [(col, ...)] if present.
func (p *Parser) parseAlias() *ast.Alias {
	if !p.acceptKeyword("AS") && !p.isIdent() {
		return nil
	}
	a := &ast.Alias{Name: p.parseIdent()}
	if p.isOp("(") {
		a.Columns = p.parseParenIdents()
	}
	return a
}

// parseHints reads the items of one /*+ ... */ token: name [(options)], ...
// where options are 'k' = 'v' pairs, names or string literals.
func (p *Parser) parseHints() []*ast.Hint {
	t := p.next()
	buf := tokenBuffers.Get().(*[]Token)
	toks, err := tokenizeInto((*buf)[:0], t.Text)
	sub := &Parser{src: t.Text, toks: toks, expectedAt: -1, depth: p.depth, track: p.track, buf: buf}
	// The hint's nodes come from this parser's slabs, which take back
	// what the hint leaves over.
	sub.identSlab, sub.nodes = p.identSlab, p.nodes
	defer func() {
		p.identSlab, p.nodes = sub.identSlab, sub.nodes
		sub.release()
	}()
	if err != nil {
		p.errorf(t.Pos, "%s", err.Error())
	}
	// Positions inside the hint are shifted to the hint's place in the text,
	// so that errors and nodes point into the statement.
	for i := range toks {
		toks[i].Pos = shiftPos(t.Pos, 3, toks[i].Pos)
	}
	var hints []*ast.Hint
	for {
		hints = append(hints, sub.parseHint())
		if !sub.acceptOp(",") {
			break
		}
	}
	sub.expectEOF()
	return hints
}

// shiftPos maps a position inside a hint's text (which starts skip bytes
// after the hint token) to the statement.
func shiftPos(base ast.Pos, skip int, in ast.Pos) ast.Pos {
	out := ast.Pos{Offset: base.Offset + skip + in.Offset, Line: base.Line + in.Line - 1}
	if in.Line == 1 {
		out.Col = base.Col + skip + in.Col - 1
	} else {
		out.Col = in.Col
	}
	return out
}

func (p *Parser) parseHint() *ast.Hint {
	t := p.tok()
	name := p.parseIdentOrFuncWord()
	h := &ast.Hint{Pos: t.Pos, Name: name.Name}
	if !name.Quoted {
		h.Name = strings.ToUpper(name.Name)
	}
	if !p.acceptOp("(") {
		return h
	}
	switch {
	case p.tok().Kind == String && p.peek(1).IsOp("="),
		(p.tok().Kind == Ident || p.tok().Kind == QIdent) && p.peek(1).IsOp("="):
		for {
			k := p.tok()
			p.next()
			p.expectOp("=")
			v := p.tok()
			if v.Kind != String {
				p.expect("<QUOTED_STRING>")
				p.fail()
			}
			p.next()
			h.Options = append(h.Options, &ast.Property{Pos: k.Pos, Key: k.Text, Value: v.Text})
			if !p.acceptOp(",") {
				break
			}
		}
	case p.tok().Kind == String:
		for {
			s := p.tok()
			if s.Kind != String {
				p.expect("<QUOTED_STRING>")
				p.fail()
			}
			p.next()
			h.Strings = append(h.Strings, s.Text)
			if !p.acceptOp(",") {
				break
			}
		}
	case p.isOp(")"):
		h.Names = []*ast.Ident{}
	default:
		for {
			h.Names = append(h.Names, p.parseIdentOrFuncWord())
			if !p.acceptOp(",") {
				break
			}
		}
	}
	p.expectOp(")")
	return h
}
