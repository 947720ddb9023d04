package parser

import (
	"strings"

	"eddy/engine/ast"
)

// parseExpr reads a scalar expression with Calcite's operator precedence
// (see ast.Precedence). Left-deep chains are built in a loop; recursion
// happens only for operands of tighter-binding operators, prefix operators
// and parentheses, each guarded by enter/leave.
func (p *Parser) parseExpr() ast.Expr { return p.parseExprPrec(0) }

func (p *Parser) parseExprPrec(min int) ast.Expr {
	p.enter()
	defer p.leave()
	left := p.parseUnary()
	for chain := 0; ; chain++ {
		// A chain is parsed without recursion, but it is a tree as deep as
		// it is long, which every later stage walks recursively.
		if chain > MaxChain {
			p.errorf(p.toks[p.i].Pos, "SQL is nested too deeply (an operator chain of more than %d terms)", MaxChain)
		}
		t := &p.toks[p.i]
		op, prec := infixOp(t)
		if op == "" {
			return left
		}
		if op == "NOT" {
			// NOT LIKE / ILIKE / SIMILAR / BETWEEN / IN.
			if n := p.peek(1); !(n.Kind == Ident && (n.Upper == "LIKE" || n.Upper == "ILIKE" ||
				n.Upper == "SIMILAR" || n.Upper == "BETWEEN" || n.Upper == "IN")) {
				return left
			}
		}
		if op == "IS" {
			at := p.i
			left = p.parseIs(left, min)
			if p.i == at {
				return left // precedence stopped it
			}
			continue
		}
		if prec < min {
			return left
		}
		if prec == ast.PrecLike {
			left = p.parseLikeFamily(left)
			continue
		}
		p.next()
		if op == "!=" {
			op = "<>"
		}
		if prec == ast.PrecCompare && p.isQuantifier() {
			left = p.parseQuantified(left, op)
			continue
		}
		left = p.newBinary(left.Position(), op, left, p.parseExprPrec(prec+1))
	}
}

// infixOp classifies the token after an operand: the operator and its
// precedence, or "" when the token continues no expression.
func infixOp(t *Token) (string, int) {
	switch t.Kind {
	case Ident:
		switch t.Upper {
		case "OR":
			return "OR", ast.PrecOr
		case "AND":
			return "AND", ast.PrecAnd
		case "IS":
			return "IS", ast.PrecIs
		case "NOT", "LIKE", "ILIKE", "SIMILAR", "BETWEEN", "IN":
			return t.Upper, ast.PrecLike
		}
	case Op:
		switch t.Text {
		case "=", "<>", "!=", "<", "<=", ">", ">=":
			return t.Text, ast.PrecCompare
		case "+", "-":
			return t.Text, ast.PrecAdd
		case "*", "/", "%", "||":
			return t.Text, ast.PrecMul
		}
	}
	return "", 0
}

// parseIs reads IS [NOT] NULL|TRUE|FALSE|UNKNOWN or IS [NOT] DISTINCT FROM;
// it returns left unchanged (without consuming) when precedence forbids.
func (p *Parser) parseIs(left ast.Expr, min int) ast.Expr {
	not := p.peek(1).Is("NOT")
	k := 1
	if not {
		k = 2
	}
	if p.peek(k).Is("DISTINCT") {
		if ast.PrecCompare < min {
			return left
		}
		p.next()
		if not {
			p.next()
		}
		p.next()
		p.expectKeyword("FROM")
		return &ast.IsDistinctFrom{Pos: left.Position(), L: left, Not: not, R: p.parseExprPrec(ast.PrecCompare + 1)}
	}
	if ast.PrecIs < min {
		return left
	}
	p.next()
	if not {
		p.next()
	} else {
		p.acceptKeyword("NOT")
	}
	for _, w := range []string{"NULL", "TRUE", "FALSE", "UNKNOWN"} {
		if p.acceptKeyword(w) {
			return &ast.IsExpr{Pos: left.Position(), X: left, Not: not, What: w}
		}
	}
	if p.acceptKeyword("JSON") {
		what := "JSON"
		for _, k := range []string{"VALUE", "SCALAR", "ARRAY", "OBJECT"} {
			if p.acceptKeyword(k) {
				what += " " + k
				break
			}
		}
		return &ast.IsExpr{Pos: left.Position(), X: left, Not: not, What: what}
	}
	p.expect(`"DISTINCT"`)
	p.fail()
	return nil
}

// parseLikeFamily reads [NOT] LIKE | ILIKE | SIMILAR TO | BETWEEN | IN after
// its left operand.
func (p *Parser) parseLikeFamily(left ast.Expr) ast.Expr {
	not := p.acceptKeyword("NOT")
	pos := left.Position()
	switch {
	case p.acceptKeyword("BETWEEN"):
		e := &ast.BetweenExpr{Pos: pos, X: left, Not: not}
		if p.acceptKeyword("SYMMETRIC") {
			e.Symmetric = true
		} else {
			p.acceptKeyword("ASYMMETRIC")
		}
		e.Lo = p.parseExprPrec(ast.PrecLike + 1)
		p.expectKeyword("AND")
		e.Hi = p.parseExprPrec(ast.PrecLike + 1)
		return e
	case p.acceptKeyword("IN"):
		e := &ast.InExpr{Pos: pos, X: left, Not: not}
		p.expectOp("(")
		switch {
		case p.isQueryStart(0):
			e.Query = p.parseQuery()
		case p.isOp("("):
			// IN ((SELECT ...) UNION (SELECT ...)) holds a query, IN ((a),
			// b) a list: try the query first.
			m := p.mark()
			if !p.try(func() {
				e.Query = p.parseQuery()
				if !p.isOp(")") {
					p.expectOp(")") // fails
				}
			}) {
				p.reset(m)
				e.Query = nil
				e.List = p.parseExprList()
			}
		default:
			e.List = p.parseExprList()
		}
		p.expectOp(")")
		return e
	}
	e := &ast.LikeExpr{Pos: pos, X: left, Not: not}
	switch {
	case p.acceptKeyword("LIKE"):
		e.Op = "LIKE"
	case p.acceptKeyword("ILIKE"):
		e.Op = "ILIKE"
	case p.acceptKeyword("SIMILAR"):
		p.expectKeyword("TO")
		e.Op = "SIMILAR TO"
	default:
		p.fail()
	}
	e.Pattern = p.parseExprPrec(ast.PrecLike + 1)
	if p.acceptKeyword("ESCAPE") {
		e.Escape = p.parseExprPrec(ast.PrecLike + 1)
	}
	return e
}

// parseExprList reads expr, expr, ... (at least one).
func (p *Parser) parseExprList() []ast.Expr {
	list := append(make([]ast.Expr, 0, 4), p.parseExpr())
	for p.acceptOp(",") {
		list = append(list, p.parseExpr())
	}
	return list
}

// parseUnary reads prefix operators NOT, + and -, then a primary.
func (p *Parser) parseUnary() ast.Expr {
	t := p.tok()
	switch {
	case t.Is("NOT"):
		p.next()
		return &ast.UnaryExpr{Pos: t.Pos, Op: "NOT", X: p.parseExprPrec(ast.PrecNot)}
	case t.IsOp("-") || t.IsOp("+"):
		p.next()
		return &ast.UnaryExpr{Pos: t.Pos, Op: t.Text, X: p.parseExprPrec(ast.PrecUnary)}
	}
	return p.parsePostfix(p.parsePrimary())
}

// parsePostfix reads [index] and .field after a primary.
func (p *Parser) parsePostfix(e ast.Expr) ast.Expr {
	for {
		switch {
		case p.isOp("["):
			t := p.next()
			idx := p.parseExpr()
			p.expectOp("]")
			e = &ast.Index{Pos: t.Pos, X: e, Index: idx}
		case p.isOp(".") && (p.peek(1).Kind == Ident || p.peek(1).Kind == QIdent):
			p.next()
			e = &ast.FieldAccess{Pos: e.Position(), X: e, Field: p.parseIdent()}
		default:
			return e
		}
	}
}

// niladic functions are called without parentheses.
var niladic = map[string]bool{
	"CURRENT_DATE": true, "CURRENT_TIME": true, "CURRENT_TIMESTAMP": true, "LOCALTIME": true,
	"LOCALTIMESTAMP": true, "CURRENT_USER": true, "SESSION_USER": true, "SYSTEM_USER": true, "USER": true,
	"CURRENT_ROLE": true, "CURRENT_CATALOG": true, "CURRENT_SCHEMA": true, "CURRENT_PATH": true,
	"CURRENT_ROW_TIMESTAMP": false,
}

// functionKeywords are reserved words that name built-in functions and may
// be called as name(...).
var functionKeywords = map[string]bool{
	"ABS": true, "AVG": true, "CARDINALITY": true, "CEIL": true, "CEILING": true, "CHAR_LENGTH": true,
	"CHARACTER_LENGTH": true, "COALESCE": true, "COLLECT": true, "CORR": true, "COUNT": true, "COVAR_POP": true,
	"COVAR_SAMP": true, "CUME_DIST": true, "DENSE_RANK": true, "ELEMENT": true, "EVERY": true, "EXP": true,
	"FIRST_VALUE": true, "FLOOR": true, "FUSION": true, "GROUPING": true, "HOUR": true, "INTERSECTION": true,
	"LAG": true, "LAST_VALUE": true, "LEAD": true, "LEFT": true, "LN": true, "LOWER": true, "MAX": true,
	"MIN": true, "MINUTE": true, "MOD": true, "MONTH": true, "NTH_VALUE": true, "NTILE": true, "NULLIF": true,
	"OCTET_LENGTH": true, "PERCENT_RANK": true, "PERCENTILE_CONT": true, "PERCENTILE_DISC": true, "POWER": true,
	"RANK": true, "REGR_COUNT": true, "REGR_SXX": true, "REGR_SYY": true, "RIGHT": true, "ROW_NUMBER": true,
	"SECOND": true, "SQRT": true, "STDDEV_POP": true, "STDDEV_SAMP": true, "SUM": true, "UPPER": true,
	"VAR_POP": true, "VAR_SAMP": true, "YEAR": true, "TRUNCATE": true, "CURRENT_DATE": true, "CURRENT_TIME": true,
	"CURRENT_TIMESTAMP": true, "LOCALTIME": true, "LOCALTIMESTAMP": true, "TRANSLATE": true, "CONVERT": true,
	"JSON_VALUE": true, "JSON_QUERY": true, "JSON_EXISTS": true, "JSON_OBJECT": true, "JSON_ARRAY": true,
	"JSON_OBJECTAGG": true, "JSON_ARRAYAGG": true, "CLASSIFIER": true, "MATCH_NUMBER": true, "PREV": true,
	"NEXT": true, "FIRST": true, "LAST": true, "WIDTH_BUCKET": true, "DAY": true, "WEEK": true, "QUARTER": true,
	"TIMESTAMP": true, "DATE": true, "TIME": true, "SOME": true, "ANY": true, "SUBSTRING": true, "TRIM": true,
	"POSITION": true, "OVERLAY": true, "UNNEST": false,
}

// parsePrimary reads a literal, name, call, constructor, special form,
// parenthesised expression, row or scalar sub-query.
func (p *Parser) parsePrimary() ast.Expr {
	t := p.tok()
	switch t.Kind {
	case Integer:
		p.next()
		return p.newLiteral(t.Pos, ast.LitInteger, t.Text)
	case Decimal:
		p.next()
		return p.newLiteral(t.Pos, ast.LitDecimal, t.Text)
	case Float:
		p.next()
		return p.newLiteral(t.Pos, ast.LitFloat, t.Text)
	case String:
		p.next()
		return p.newLiteral(t.Pos, ast.LitString, t.Text)
	case UString:
		return p.newLiteral(t.Pos, ast.LitString, p.parseUnicodeString())
	case Binary:
		p.next()
		return p.newLiteral(t.Pos, ast.LitBinary, t.Text)
	case Param:
		p.next()
		p.params++
		return &ast.Param{Pos: t.Pos, Index: p.params - 1}
	case QIdent:
		return p.parseNameOrCall()
	case Op:
		if t.Text == "(" {
			return p.parseParen()
		}
	case Ident:
		// Only reserved words and three others start a keyword primary;
		// skipping the test for other words spares a switch and a lookup.
		if t.Reserved || t.Upper == "MAP" || t.Upper == "DESCRIPTOR" || t.Upper == "TRY_CAST" {
			if e := p.parseKeywordPrimary(t); e != nil {
				return e
			}
		}
		if !t.Reserved || functionKeywords[t.Upper] && p.peek(1).IsOp("(") {
			return p.parseNameOrCall()
		}
	}
	p.expectExpressionStart()
	p.fail()
	return nil
}

// expectExpressionStart records what may start an expression, for the
// "Was expecting one of" list.
func (p *Parser) expectExpressionStart() {
	for _, s := range []string{`"("`, `"+"`, `"-"`, `"NOT"`, `"CASE"`, `"CAST"`, `"EXISTS"`, `<IDENTIFIER>`,
		`<UNSIGNED_INTEGER_LITERAL>`, `<QUOTED_STRING>`} {
		p.expect(s)
	}
}

// parseUnicodeString reads U&'...' [UESCAPE 'c'] and resolves its escapes.
func (p *Parser) parseUnicodeString() string {
	t := p.next()
	esc := byte('\\')
	if p.acceptKeyword("UESCAPE") {
		e := p.tok()
		if e.Kind != String || len(e.Text) != 1 || strings.ContainsAny(e.Text, "0123456789abcdefABCDEF+'\" \t\n") {
			p.errorf(e.Pos, "UESCAPE %s must be exactly one character", describeToken(e))
		}
		p.next()
		esc = e.Text[0]
	}
	s, err := unescapeUnicode(t.Text, esc)
	if err != nil {
		p.errorf(t.Pos, "Unicode escape sequence is invalid")
	}
	return s
}

// KeywordLiteral returns the literal a keyword is (TRUE, FALSE, NULL,
// UNKNOWN; given upper-case) with its value, or kind 0 for other words.
func KeywordLiteral(upper string) (kind ast.LitKind, value string) {
	switch upper {
	case "TRUE", "FALSE":
		return ast.LitBool, upper
	case "NULL":
		return ast.LitNull, ""
	case "UNKNOWN":
		return ast.LitUnknown, ""
	}
	return 0, ""
}

// TypedLiteral returns the kind of literal a keyword makes of the string
// right after it (DATE '2024-01-01'; given upper-case), or 0 for other
// words.
func TypedLiteral(upper string) ast.LitKind {
	switch upper {
	case "DATE":
		return ast.LitDate
	case "TIME":
		return ast.LitTime
	case "TIMESTAMP":
		return ast.LitTimestamp
	case "TIMESTAMP_LTZ":
		return ast.LitTimestampLTZ
	}
	return 0
}

// parseKeywordPrimary handles primaries introduced by a keyword; it returns
// nil when the word does not start one. parsePrimary calls it only for
// reserved words and the non-reserved words it names: a case for another
// non-reserved word must be named there too.
func (p *Parser) parseKeywordPrimary(t Token) ast.Expr {
	next := p.peek(1)
	if kind, value := KeywordLiteral(t.Upper); kind != 0 {
		p.next()
		return p.newLiteral(t.Pos, kind, value)
	}
	if kind := TypedLiteral(t.Upper); kind != 0 && next.Kind == String {
		p.next()
		p.next()
		return p.newLiteral(t.Pos, kind, next.Text)
	}
	switch t.Upper {
	case "INTERVAL":
		return p.parseInterval()
	case "CAST", "TRY_CAST":
		if !next.IsOp("(") {
			return nil
		}
		p.next()
		p.next()
		x := p.parseExpr()
		p.expectKeyword("AS")
		first, at := p.tok(), p.i
		typ := p.parseDataType()
		c := &ast.Cast{Pos: t.Pos, Try: t.Upper == "TRY_CAST", X: x, Type: typ}
		if p.i == at+1 && (first.Upper == "STRING" || first.Upper == "BYTES") {
			c.Spelled = first.Upper
		}
		p.expectOp(")")
		return c
	case "CASE":
		return p.parseCase()
	case "JSON_EXISTS", "JSON_VALUE", "JSON_QUERY", "JSON_OBJECT", "JSON_OBJECTAGG", "JSON_ARRAY", "JSON_ARRAYAGG":
		if next.IsOp("(") {
			return p.parseJSONCall()
		}
	case "EXISTS":
		p.next()
		p.expectOp("(")
		q := p.parseQuery()
		p.expectOp(")")
		return &ast.Exists{Pos: t.Pos, Query: q}
	case "ARRAY":
		if next.IsOp("[") {
			p.next()
			p.next()
			e := &ast.ArrayCtor{Pos: t.Pos}
			if !p.isOp("]") {
				e.Elems = p.parseExprList()
			}
			p.expectOp("]")
			return e
		}
	case "MAP":
		if next.IsOp("[") {
			p.next()
			p.next()
			e := &ast.MapCtor{Pos: t.Pos}
			if !p.isOp("]") {
				e.Elems = p.parseExprList()
			}
			p.expectOp("]")
			return e
		}
	case "ROW":
		if next.IsOp("(") {
			p.next()
			p.next()
			e := &ast.RowCtor{Pos: t.Pos, Explicit: true}
			if !p.isOp(")") {
				e.Elems = p.parseExprList()
			}
			p.expectOp(")")
			return e
		}
	case "DESCRIPTOR":
		if next.IsOp("(") {
			p.next()
			p.next()
			e := &ast.Descriptor{Pos: t.Pos, Cols: []*ast.Ident{p.parseIdent()}}
			for p.acceptOp(",") {
				e.Cols = append(e.Cols, p.parseIdent())
			}
			p.expectOp(")")
			return e
		}
	case "EXTRACT":
		if next.IsOp("(") {
			p.next()
			p.next()
			unit := p.parseTimeUnit()
			p.expectKeyword("FROM")
			x := p.parseExpr()
			p.expectOp(")")
			return &ast.Extract{Pos: t.Pos, Unit: unit, X: x}
		}
	case "POSITION":
		if next.IsOp("(") {
			p.next()
			p.next()
			e := &ast.PositionExpr{Pos: t.Pos}
			// The first operand stops before IN (which is not an operator here).
			e.Sub = p.parseExprPrec(ast.PrecLike + 1)
			p.expectKeyword("IN")
			e.Str = p.parseExpr()
			if p.acceptKeyword("FROM") {
				e.From = p.parseExpr()
			}
			p.expectOp(")")
			return e
		}
	case "TRIM":
		if next.IsOp("(") {
			return p.parseTrim()
		}
	case "OVERLAY":
		if next.IsOp("(") {
			p.next()
			p.next()
			e := &ast.Overlay{Pos: t.Pos, X: p.parseExpr()}
			p.expectKeyword("PLACING")
			e.Placing = p.parseExpr()
			p.expectKeyword("FROM")
			e.From = p.parseExpr()
			if p.acceptKeyword("FOR") {
				e.For = p.parseExpr()
			}
			p.expectOp(")")
			return e
		}
	case "SUBSTRING":
		if next.IsOp("(") {
			m := p.mark()
			p.next()
			p.next()
			x := p.parseExpr()
			if p.acceptKeyword("FROM") {
				e := &ast.Substring{Pos: t.Pos, X: x, From: p.parseExpr()}
				if p.acceptKeyword("FOR") {
					e.For = p.parseExpr()
				}
				p.expectOp(")")
				return e
			}
			p.reset(m)
			return p.parseNameOrCall()
		}
	case "FLOOR", "CEIL", "CEILING":
		if next.IsOp("(") {
			m := p.mark()
			p.next()
			p.next()
			x := p.parseExpr()
			if p.acceptKeyword("TO") {
				e := &ast.FloorCeil{Pos: t.Pos, Ceil: t.Upper != "FLOOR", X: x, Unit: p.parseTimeUnit()}
				p.expectOp(")")
				return e
			}
			p.reset(m)
			return p.parseNameOrCall()
		}
	}
	if niladic[t.Upper] && !next.IsOp("(") {
		p.next()
		return &ast.FuncCall{Pos: t.Pos, Name: &ast.ObjectName{Parts: []*ast.Ident{{Pos: t.Pos, Name: t.Upper}}}, Niladic: true}
	}
	return nil
}

func (p *Parser) parseTrim() ast.Expr {
	t := p.next()
	p.next()
	e := &ast.Trim{Pos: t.Pos, Mode: "BOTH"}
	explicit := false
	for _, m := range []string{"BOTH", "LEADING", "TRAILING"} {
		if p.acceptKeyword(m) {
			e.Mode, explicit = m, true
			break
		}
	}
	if p.acceptKeyword("FROM") {
		e.X = p.parseExpr()
		p.expectOp(")")
		return e
	}
	first := p.parseExpr()
	if p.acceptKeyword("FROM") {
		e.Chars = first
		e.X = p.parseExpr()
	} else {
		if explicit {
			p.expectKeyword("FROM")
		}
		e.X = first
	}
	p.expectOp(")")
	return e
}

func (p *Parser) parseCase() ast.Expr {
	t := p.next()
	e := &ast.Case{Pos: t.Pos}
	if !p.isKeyword("WHEN") {
		e.Operand = p.parseExpr()
	}
	for {
		w := p.expectKeyword("WHEN")
		cond := p.parseExpr()
		p.expectKeyword("THEN")
		e.Whens = append(e.Whens, &ast.When{Pos: w.Pos, Cond: cond, Then: p.parseExpr()})
		if !p.isKeyword("WHEN") {
			break
		}
	}
	if p.acceptKeyword("ELSE") {
		e.Else = p.parseExpr()
	}
	p.expectKeyword("END")
	return e
}

// timeUnits maps the words of an interval qualifier, EXTRACT and FLOOR/CEIL
// to their unit; plural forms are Flink's synonyms.
var timeUnits = map[string]ast.TimeUnit{
	"YEAR": "YEAR", "YEARS": "YEAR", "QUARTER": "QUARTER", "MONTH": "MONTH", "MONTHS": "MONTH",
	"WEEK": "WEEK", "DAY": "DAY", "DAYS": "DAY", "HOUR": "HOUR", "HOURS": "HOUR", "MINUTE": "MINUTE",
	"MINUTES": "MINUTE", "SECOND": "SECOND", "SECONDS": "SECOND", "MILLISECOND": "MILLISECOND",
	"MICROSECOND": "MICROSECOND", "NANOSECOND": "NANOSECOND", "EPOCH": "EPOCH", "DOW": "DOW", "DOY": "DOY",
	"ISODOW": "ISODOW", "ISOYEAR": "ISOYEAR", "DECADE": "DECADE", "CENTURY": "CENTURY",
	"MILLENNIUM": "MILLENNIUM", "DAYOFWEEK": "DAYOFWEEK", "DAYOFYEAR": "DAYOFYEAR",
}

func (p *Parser) parseTimeUnit() ast.TimeUnit {
	t := p.tok()
	if u, ok := timeUnits[t.Upper]; ok && t.Kind == Ident {
		p.next()
		return u
	}
	for _, u := range []string{"YEAR", "QUARTER", "MONTH", "WEEK", "DAY", "HOUR", "MINUTE", "SECOND"} {
		p.expect(`"` + u + `"`)
	}
	p.fail()
	return ""
}

// intervalUnits are the units an interval qualifier may start or end with.
var intervalUnits = map[ast.TimeUnit]int{"YEAR": 1, "MONTH": 2, "DAY": 3, "HOUR": 4, "MINUTE": 5, "SECOND": 6}

// parseInterval reads INTERVAL [+|-]'value' qualifier.
func (p *Parser) parseInterval() ast.Expr {
	t := p.next()
	e := &ast.IntervalLit{Pos: t.Pos}
	if p.acceptOp("-") {
		e.Negative = true
	} else {
		p.acceptOp("+")
	}
	s := p.tok()
	if s.Kind != String {
		p.expect("<QUOTED_STRING>")
		p.fail()
	}
	p.next()
	e.Value = s.Text
	e.Qualifier = p.parseIntervalQualifier()
	return e
}

func (p *Parser) parseIntervalQualifier() ast.IntervalQualifier {
	q := ast.IntervalQualifier{StartPrec: -1, FracPrec: -1}
	ut := p.tok()
	q.Start = p.parseTimeUnit()
	if _, ok := intervalUnits[q.Start]; !ok {
		p.errorf(ut.Pos, "Encountered %s at line %d, column %d.", describeToken(ut), ut.Pos.Line, ut.Pos.Col)
	}
	if p.acceptOp("(") {
		q.StartPrec = p.parseSmallInt()
		if q.Start == "SECOND" && p.acceptOp(",") {
			q.FracPrec = p.parseSmallInt()
		}
		p.expectOp(")")
	}
	if p.isKeyword("TO") {
		p.next()
		et := p.tok()
		q.End = p.parseTimeUnit()
		ok := false
		switch q.Start {
		case "YEAR":
			ok = q.End == "MONTH"
		case "DAY":
			ok = q.End == "HOUR" || q.End == "MINUTE" || q.End == "SECOND"
		case "HOUR":
			ok = q.End == "MINUTE" || q.End == "SECOND"
		case "MINUTE":
			ok = q.End == "SECOND"
		}
		if !ok || q.FracPrec >= 0 {
			p.errorf(et.Pos, "Encountered %s at line %d, column %d.", describeToken(et), et.Pos.Line, et.Pos.Col)
		}
		if q.End == "SECOND" && p.acceptOp("(") {
			q.FracPrec = p.parseSmallInt()
			p.expectOp(")")
		}
	}
	return q
}

// parseSmallInt reads an unsigned integer literal that fits an int32.
func (p *Parser) parseSmallInt() int {
	t := p.tok()
	if t.Kind != Integer {
		p.expect("<UNSIGNED_INTEGER_LITERAL>")
		p.fail()
	}
	n := 0
	for i := 0; i < len(t.Text); i++ {
		n = n*10 + int(t.Text[i]-'0')
		if n > 2147483647 {
			p.errorf(t.Pos, "Numeric literal '%s' out of range", t.Text)
		}
	}
	p.next()
	return n
}

// parseNameOrCall reads a dotted name, `name.*`, or a function call.
func (p *Parser) parseNameOrCall() ast.Expr {
	first := p.tok()
	// One slab entry holds the identifier and its parts slice: names are
	// the most frequent expressions.
	a := p.newIdentAlloc()
	a.parts[0] = p.parseAnyWord()
	parts := a.parts[:1]
	for p.isOp(".") {
		nt := p.peek(1)
		if nt.IsOp("*") {
			p.next()
			p.next()
			return &ast.Star{Pos: first.Pos, Qualifier: parts}
		}
		if nt.Kind != Ident && nt.Kind != QIdent {
			break
		}
		p.next()
		parts = append(parts, p.parseIdentOrFuncWord())
	}
	if p.isOp("(") {
		return p.parseFuncCall(parts)
	}
	a.id.Parts = parts
	return &a.id
}

// identAlloc is an Identifier with room for three parts.
type identAlloc struct {
	id    ast.Identifier
	parts [3]*ast.Ident
}

// newIdentAlloc hands out an identAlloc from a slab (see newIdent).
func (p *Parser) newIdentAlloc() *identAlloc {
	return p.nodes.names.get()
}

// parseAnyWord reads the first word of a name, which may be a function
// keyword when a call follows.
func (p *Parser) parseAnyWord() *ast.Ident {
	t := p.tok()
	if t.Kind == Ident && t.Reserved && functionKeywords[t.Upper] && p.peek(1).IsOp("(") {
		p.next()
		return p.newIdentAt(&t)
	}
	return p.parseIdent()
}

func (p *Parser) parseIdentOrFuncWord() *ast.Ident {
	t := p.tok()
	if t.Kind == Ident && t.Reserved && p.peek(1).IsOp("(") {
		p.next()
		return p.newIdentAt(&t)
	}
	return p.parseIdent()
}

// parseFuncCall reads (args) and what may follow a call.
func (p *Parser) parseFuncCall(parts []*ast.Ident) ast.Expr {
	e, spare := p.newFuncCall(parts)
	name := e.Name
	p.enter()
	defer p.leave()
	if len(name.Parts) == 1 && !name.Parts[0].Quoted {
		// Function names resolve case-insensitively; a plain one-part name
		// is kept upper-case, as Calcite prints it.
		name.Parts[0].Name = strings.ToUpper(name.Parts[0].Name)
	}
	e.Pos = name.Position()
	p.expectOp("(")
	if u, ok := p.timestampUnit(name); ok {
		t := p.next()
		e.Args = append(spare, &ast.TimeUnitArg{Pos: t.Pos, Unit: u})
		for p.acceptOp(",") {
			e.Args = append(e.Args, p.parseArg())
		}
		p.expectOp(")")
		return e
	}
	switch {
	case p.acceptKeyword("DISTINCT"):
		e.Quantifier = "DISTINCT"
	case p.acceptKeyword("ALL"):
		e.Quantifier = "ALL"
	}
	if p.isOp("*") && p.peek(1).IsOp(")") {
		t := p.next()
		e.Args = []ast.Expr{&ast.Star{Pos: t.Pos}}
	} else if !p.isOp(")") {
		e.Args = spare
		for {
			e.Args = append(e.Args, p.parseArg())
			if !p.acceptOp(",") {
				break
			}
		}
	}
	p.expectOp(")")
	if p.isKeyword("IGNORE", "RESPECT") && p.peek(1).Is("NULLS") {
		e.NullTreat = p.next().Upper + " NULLS"
		p.next()
	}
	if p.acceptKeyword("WITHIN", "GROUP") {
		p.expectOp("(")
		p.expectKeyword("ORDER", "BY")
		e.WithinGroup = p.parseOrderItems()
		p.expectOp(")")
	}
	if p.acceptKeyword("FILTER") {
		p.expectOp("(")
		p.expectKeyword("WHERE")
		e.Filter = p.parseExpr()
		p.expectOp(")")
	}
	if p.acceptKeyword("OVER") {
		if p.isOp("(") {
			e.Over = p.parseWindowSpec()
		} else {
			e.OverName = p.parseIdent()
		}
	}
	return e
}

// parseArg reads one call argument: name => value, TABLE t [PARTITION BY
// ...] [ORDER BY ...], or an expression.
func (p *Parser) parseArg() ast.Expr {
	if (p.tok().Kind == Ident || p.tok().Kind == QIdent) && p.peek(1).IsOp("=>") {
		name := p.parseIdentOrFuncWord()
		p.next()
		return &ast.NamedArg{Name: name, Value: p.parseArgValue()}
	}
	return p.parseArgValue()
}

// parseArgValue reads TABLE t [PARTITION BY ...] [ORDER BY ...] or an
// expression.
func (p *Parser) parseArgValue() ast.Expr {
	if p.isKeyword("TABLE") && !p.peek(1).IsOp("(") {
		t := p.next()
		a := &ast.TableArg{Pos: t.Pos, Name: p.parseObjectName()}
		if p.acceptKeyword("PARTITION", "BY") {
			// One key, or a parenthesised list of them, as in Flink's
			// grammar: what follows a comma is the call's next argument.
			if p.acceptOp("(") {
				a.PartitionBy = p.parseExprList()
				p.expectOp(")")
			} else {
				a.PartitionBy = []ast.Expr{p.parseExpr()}
			}
		}
		if p.acceptKeyword("ORDER", "BY") {
			a.OrderBy = p.parseOrderItems()
		}
		return a
	}
	return p.parseExpr()
}

// parseParen reads what starts with '(': a scalar sub-query, a row
// constructor (a, b) or a parenthesised expression.
func (p *Parser) parseParen() ast.Expr {
	p.enter()
	defer p.leave()
	t := p.tok()
	if p.isQueryStart(1) {
		p.next()
		q := p.parseQuery()
		p.expectOp(")")
		return &ast.Subquery{Pos: t.Pos, Query: q}
	}
	if p.peek(1).IsOp("(") {
		// ((SELECT ...) UNION ...) is a query, ((a + b) * c) is not: try the
		// query first.
		m := p.mark()
		var q ast.Query
		if p.try(func() {
			p.next()
			q = p.parseQuery()
			p.expectOp(")")
		}) {
			return &ast.Subquery{Pos: t.Pos, Query: q}
		}
		p.reset(m)
	}
	p.next()
	first := p.parseExpr()
	if p.acceptOp(",") {
		row := &ast.RowCtor{Pos: t.Pos, Elems: []ast.Expr{first}}
		row.Elems = append(row.Elems, p.parseExprList()...)
		p.expectOp(")")
		return row
	}
	p.expectOp(")")
	return first
}

// isQueryStart reports whether the token k places ahead starts a query.
func (p *Parser) isQueryStart(k int) bool {
	t := p.peek(k)
	return t.Is("SELECT") || t.Is("WITH") || t.Is("VALUES") || t.Is("TABLE") && !p.peek(k+1).IsOp("(")
}

// try runs f; if f fails with a syntax error, try reports false, having
// restored the depth, parameter count and expectations (callers reset the
// token position).
func (p *Parser) try(f func()) (ok bool) {
	depth, params := p.depth, p.params
	// A failed attempt must not leave its expectations behind: they
	// describe tokens the other reading may never reach.
	expectedAt := p.expectedAt
	var expected []string
	if p.track {
		expected = append(expected, p.expected...)
	}
	defer func() {
		if r := recover(); r != nil {
			if _, isBail := r.(bailout); !isBail {
				panic(r)
			}
			p.depth, p.params = depth, params
			if p.track {
				p.expectedAt, p.expected = expectedAt, append(p.expected[:0], expected...)
			}
			ok = false
		}
	}()
	f()
	return true
}

// parseOrderItems reads ORDER BY items (after ORDER BY).
func (p *Parser) parseOrderItems() []*ast.OrderItem {
	var items []*ast.OrderItem
	for {
		e := p.parseExpr()
		o := p.nodes.orders.get()
		o.Pos, o.Expr = e.Position(), e // field by field, see newIdentAt
		if p.acceptKeyword("DESC") {
			o.Desc = true
		} else {
			p.acceptKeyword("ASC")
		}
		if p.acceptKeyword("NULLS") {
			if p.acceptKeyword("FIRST") {
				o.Nulls = "FIRST"
			} else {
				p.expectKeyword("LAST")
				o.Nulls = "LAST"
			}
		}
		items = append(items, o)
		if !p.acceptOp(",") {
			return items
		}
	}
}

// parseWindowSpec reads ( [ref] [PARTITION BY ...] [ORDER BY ...] [frame] ).
func (p *Parser) parseWindowSpec() *ast.WindowSpec {
	t := p.expectOp("(")
	w := &ast.WindowSpec{Pos: t.Pos}
	if p.isIdent() {
		w.Ref = p.parseIdent()
	}
	if p.acceptKeyword("PARTITION", "BY") {
		w.PartitionBy = p.parseExprList()
	}
	if p.acceptKeyword("ORDER", "BY") {
		w.OrderBy = p.parseOrderItems()
	}
	if p.isKeyword("ROWS", "RANGE") {
		ft := p.next()
		f := &ast.Frame{Pos: ft.Pos, Rows: ft.Upper == "ROWS"}
		if p.acceptKeyword("BETWEEN") {
			f.Start = p.parseFrameBound()
			p.expectKeyword("AND")
			f.End = p.parseFrameBound()
		} else {
			f.Start = p.parseFrameBound()
		}
		w.Frame = f
	}
	p.expectOp(")")
	return w
}

func (p *Parser) parseFrameBound() *ast.FrameBound {
	t := p.tok()
	b := &ast.FrameBound{Pos: t.Pos}
	switch {
	case p.acceptKeyword("UNBOUNDED"):
		if p.acceptKeyword("PRECEDING") {
			b.Kind = "UNBOUNDED PRECEDING"
		} else {
			p.expectKeyword("FOLLOWING")
			b.Kind = "UNBOUNDED FOLLOWING"
		}
	case p.acceptKeyword("CURRENT"):
		p.expectKeyword("ROW")
		b.Kind = "CURRENT ROW"
	default:
		b.Offset = p.parseExprPrec(ast.PrecAdd)
		if p.acceptKeyword("PRECEDING") {
			b.Kind = "PRECEDING"
		} else {
			p.expectKeyword("FOLLOWING")
			b.Kind = "FOLLOWING"
		}
	}
	return b
}

// parseJSONCall reads the SQL/JSON functions with their own clauses.
func (p *Parser) parseJSONCall() ast.Expr {
	p.enter()
	defer p.leave()
	t := p.next()
	p.next()
	e := &ast.JSONCall{Pos: t.Pos, Name: t.Upper}
	switch e.Name {
	case "JSON_OBJECT", "JSON_OBJECTAGG":
		for !p.isOp(")") && !p.isNullClause() {
			p.acceptKeyword("KEY")
			e.Keys = append(e.Keys, p.parseExprPrec(ast.PrecLike+1))
			p.expectKeyword("VALUE")
			e.Values = append(e.Values, p.parseExpr())
			if !p.acceptOp(",") {
				break
			}
		}
	case "JSON_ARRAY", "JSON_ARRAYAGG":
		for !p.isOp(")") && !p.isNullClause() {
			e.Args = append(e.Args, p.parseExpr())
			if !p.acceptOp(",") {
				break
			}
		}
	default:
		e.Args = []ast.Expr{p.parseExpr()}
		p.expectOp(",")
		e.Args = append(e.Args, p.parseExpr())
		if e.Name != "JSON_EXISTS" && p.acceptKeyword("RETURNING") {
			e.Returning = p.parseDataType()
			// In `RETURNING INT NULL ON EMPTY` the NULL opens the ON EMPTY
			// behaviour; it is not the type's nullability.
			if m := p.mark(); p.isKeyword("ON") && m > 1 && p.toks[m-1].Is("NULL") && !p.toks[m-2].Is("NOT") {
				p.reset(m - 1)
			}
		}
		if e.Name == "JSON_QUERY" {
			switch {
			case p.acceptKeyword("WITHOUT"):
				p.acceptKeyword("ARRAY")
				p.expectKeyword("WRAPPER")
				e.Wrapper = "WITHOUT ARRAY"
			case p.acceptKeyword("WITH"):
				mode := "UNCONDITIONAL"
				if p.acceptKeyword("CONDITIONAL") {
					mode = "CONDITIONAL"
				} else {
					p.acceptKeyword("UNCONDITIONAL")
				}
				p.acceptKeyword("ARRAY")
				p.expectKeyword("WRAPPER")
				e.Wrapper = "WITH " + mode + " ARRAY"
			}
		}
		for i := 0; i < 2; i++ {
			what, def := p.parseJSONBehavior(e.Name)
			if what == "" {
				break
			}
			p.expectKeyword("ON")
			if e.OnEmpty == "" && e.OnError == "" && e.Name != "JSON_EXISTS" && p.acceptKeyword("EMPTY") {
				e.OnEmpty, e.EmptyDefault = what, def
				continue
			}
			p.expectKeyword("ERROR")
			e.OnError, e.ErrorDefault = what, def
			break
		}
	}
	if p.isNullClause() {
		e.OnNull = p.next().Upper
		p.next()
		p.next()
	}
	p.expectOp(")")
	return e
}

// isNullClause reports whether NULL ON NULL or ABSENT ON NULL follows.
func (p *Parser) isNullClause() bool {
	return (p.isKeyword("NULL") || p.isKeyword("ABSENT")) && p.peek(1).Is("ON") && p.peek(2).Is("NULL")
}

// parseJSONBehavior reads NULL | ERROR | DEFAULT expr | EMPTY ARRAY |
// EMPTY OBJECT | TRUE | FALSE | UNKNOWN before ON EMPTY / ON ERROR, or
// returns "" when none follows.
func (p *Parser) parseJSONBehavior(name string) (string, ast.Expr) {
	switch {
	case p.isKeyword("NULL", "ERROR") && p.peek(1).Is("ON"):
		return p.next().Upper, nil
	case name == "JSON_EXISTS" && p.isKeyword("TRUE", "FALSE", "UNKNOWN") && p.peek(1).Is("ON"):
		return p.next().Upper, nil
	case name == "JSON_VALUE" && p.acceptKeyword("DEFAULT"):
		return "DEFAULT", p.parseExprPrec(ast.PrecLike + 1)
	case name == "JSON_QUERY" && p.isKeyword("EMPTY") && (p.peek(1).Is("ARRAY") || p.peek(1).Is("OBJECT")):
		p.next()
		return "EMPTY " + p.next().Upper, nil
	}
	return "", nil
}
