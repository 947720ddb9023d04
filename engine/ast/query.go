package ast

import "strings"

// QueryStatement is a query standing as a statement: SELECT, WITH, VALUES,
// a set operation or a parenthesised query.
type QueryStatement struct {
	Query Query
}

var _ Statement = (*QueryStatement)(nil)

func (s *QueryStatement) Position() Pos     { return s.Query.Position() }
func (s *QueryStatement) Format(p *Printer) { s.Query.Format(p) }
func (*QueryStatement) stmtNode()           {}

// Hint is one item of a /*+ ... */ hint: a name with either key-value
// options (OPTIONS('k' = 'v')) or a list of names or strings.
type Hint struct {
	Pos     Pos
	Name    string
	Options []*Property // 'k' = 'v' pairs; or nil
	Names   []*Ident    // identifier options; or nil
	Strings []string    // string-literal options; or nil
}

func (h *Hint) Position() Pos { return h.Pos }
func (h *Hint) Format(p *Printer) {
	if isPlainWord(h.Name) && strings.ToUpper(h.Name) == h.Name {
		p.Keyword(h.Name)
	} else {
		p.Ident(h.Name)
	}
	if h.Options == nil && h.Names == nil && h.Strings == nil {
		return
	}
	p.Write("(")
	for i, o := range h.Options {
		if i > 0 {
			p.Write(", ")
		}
		o.Format(p)
	}
	for i, n := range h.Names {
		if i > 0 {
			p.Write(", ")
		}
		n.Format(p)
	}
	for i, s := range h.Strings {
		if i > 0 {
			p.Write(", ")
		}
		p.String(s)
	}
	p.Write(")")
}

func formatHints(p *Printer, hints []*Hint) {
	if len(hints) == 0 {
		return
	}
	p.Write("/*+ ")
	for i, h := range hints {
		if i > 0 {
			p.Write(", ")
		}
		h.Format(p)
	}
	p.Write(" */")
}

// SelectItem is one item of a select list: an expression with an optional
// alias, or a Star.
type SelectItem struct {
	Expr  Expr
	Alias *Ident // or nil
}

func (s *SelectItem) Position() Pos { return s.Expr.Position() }
func (s *SelectItem) Format(p *Printer) {
	s.Expr.Format(p)
	if s.Alias != nil {
		p.Keyword(" AS ")
		s.Alias.Format(p)
	}
}

// NamedWindow is one `name AS (spec)` of a WINDOW clause.
type NamedWindow struct {
	Name *Ident
	Spec *WindowSpec
}

func (w *NamedWindow) Position() Pos { return w.Name.Pos }
func (w *NamedWindow) Format(p *Printer) {
	w.Name.Format(p)
	p.Keyword(" AS ")
	w.Spec.Format(p)
}

// Select is one SELECT block.
type Select struct {
	Pos        Pos
	Hints      []*Hint // /*+ ... */ right after SELECT
	Quantifier string  // "", "DISTINCT" or "ALL"
	Items      []*SelectItem
	From       TableExpr // or nil
	Where      Expr      // or nil
	GroupBy    []Expr    // items, GroupingSets and empty RowCtors
	Having     Expr      // or nil
	Windows    []*NamedWindow
	Qualify    Expr // or nil: QUALIFY, a filter over window functions
}

var _ Query = (*Select)(nil)

func (s *Select) Position() Pos { return s.Pos }
func (*Select) queryNode()      {}
func (s *Select) Format(p *Printer) {
	p.Keyword("SELECT ")
	if len(s.Hints) > 0 {
		formatHints(p, s.Hints)
		p.Write(" ")
	}
	if s.Quantifier != "" {
		p.Keyword(s.Quantifier)
		p.Write(" ")
	}
	for i, it := range s.Items {
		if i > 0 {
			p.Write(", ")
		}
		it.Format(p)
	}
	if s.From != nil {
		p.Newline()
		p.Keyword("FROM ")
		s.From.Format(p)
	}
	if s.Where != nil {
		p.Newline()
		p.Keyword("WHERE ")
		s.Where.Format(p)
	}
	if len(s.GroupBy) > 0 {
		p.Newline()
		p.Keyword("GROUP BY ")
		exprList(p, s.GroupBy)
	}
	if s.Having != nil {
		p.Newline()
		p.Keyword("HAVING ")
		s.Having.Format(p)
	}
	if len(s.Windows) > 0 {
		p.Newline()
		p.Keyword("WINDOW ")
		for i, w := range s.Windows {
			if i > 0 {
				p.Write(", ")
			}
			w.Format(p)
		}
	}
	if s.Qualify != nil {
		p.Newline()
		p.Keyword("QUALIFY ")
		s.Qualify.Format(p)
	}
}

// SetOp is Left UNION | INTERSECT | EXCEPT [ALL] Right.
type SetOp struct {
	Pos         Pos
	Op          string // UNION, INTERSECT or EXCEPT
	All         bool
	Left, Right Query
}

var _ Query = (*SetOp)(nil)

func (s *SetOp) Position() Pos { return s.Pos }
func (*SetOp) queryNode()      {}
func (s *SetOp) Format(p *Printer) {
	setOperand(p, s.Left, s.Op, false)
	p.Newline()
	p.Keyword(s.Op)
	if s.All {
		p.Keyword(" ALL")
	}
	p.Newline()
	setOperand(p, s.Right, s.Op, true)
}

// setOperand prints an operand of a set operation, in parentheses where the
// grammar needs them: INTERSECT binds tighter than UNION and EXCEPT, all are
// left-associative, and ORDER BY / LIMIT or WITH inside need parentheses.
func setOperand(p *Printer, q Query, parent string, right bool) {
	need := false
	switch q := q.(type) {
	case *SetOp:
		tighter := q.Op == "INTERSECT" && parent != "INTERSECT"
		looser := q.Op != "INTERSECT" && parent == "INTERSECT"
		need = looser || right && !tighter
	case *OrderedQuery, *With:
		need = true
	}
	if need {
		p.Write("(")
		q.Format(p)
		p.Write(")")
		return
	}
	q.Format(p)
}

// Values is VALUES row, ... .
type Values struct {
	Pos  Pos
	Rows []*RowCtor
}

var _ Query = (*Values)(nil)

func (v *Values) Position() Pos { return v.Pos }
func (*Values) queryNode()      {}
func (v *Values) Format(p *Printer) {
	p.Keyword("VALUES ")
	for i, r := range v.Rows {
		if i > 0 {
			p.Write(",")
			p.Newline()
		}
		if sub, ok := singleSubquery(r); ok {
			// A row that is one scalar sub-query prints as the sub-query:
			// ((query)) would read back as a parenthesised query.
			sub.Format(p)
			continue
		}
		r.Format(p)
	}
}

// CTE is one `name [(cols)] AS (query)` of a WITH clause.
type CTE struct {
	Name    *Ident
	Columns []*Ident
	Query   Query
}

func (c *CTE) Position() Pos { return c.Name.Pos }
func (c *CTE) Format(p *Printer) {
	c.Name.Format(p)
	if len(c.Columns) > 0 {
		p.Write(" ")
		identList(p, c.Columns)
	}
	p.Keyword(" AS (")
	c.Query.Format(p)
	p.Write(")")
}

func identList(p *Printer, ids []*Ident) {
	p.Write("(")
	for i, id := range ids {
		if i > 0 {
			p.Write(", ")
		}
		id.Format(p)
	}
	p.Write(")")
}

// With is WITH [RECURSIVE] cte, ... body.
type With struct {
	Pos       Pos
	Recursive bool
	CTEs      []*CTE
	Body      Query
}

var _ Query = (*With)(nil)

func (w *With) Position() Pos { return w.Pos }
func (*With) queryNode()      {}
func (w *With) Format(p *Printer) {
	p.Keyword("WITH ")
	if w.Recursive {
		p.Keyword("RECURSIVE ")
	}
	for i, c := range w.CTEs {
		if i > 0 {
			p.Write(", ")
		}
		c.Format(p)
	}
	p.Newline()
	w.Body.Format(p)
}

// OrderedQuery is a query with ORDER BY, LIMIT, OFFSET or FETCH.
type OrderedQuery struct {
	Pos     Pos
	Query   Query
	OrderBy []*OrderItem
	Offset  Expr // or nil
	Fetch   Expr // or nil (LIMIT ALL is no limit)
	// FetchFirst tells that the limit was written FETCH FIRST|NEXT n ROWS
	// ONLY rather than LIMIT n.
	FetchFirst bool
}

var _ Query = (*OrderedQuery)(nil)

func (o *OrderedQuery) Position() Pos { return o.Pos }
func (*OrderedQuery) queryNode()      {}
func (o *OrderedQuery) Format(p *Printer) {
	switch o.Query.(type) {
	case *OrderedQuery:
		p.Write("(")
		o.Query.Format(p)
		p.Write(")")
	default:
		o.Query.Format(p)
	}
	if len(o.OrderBy) > 0 {
		p.Newline()
		p.Keyword("ORDER BY ")
		orderList(p, o.OrderBy)
	}
	if o.Fetch != nil && !o.FetchFirst {
		p.Newline()
		p.Keyword("LIMIT ")
		o.Fetch.Format(p)
	}
	if o.Offset != nil {
		p.Newline()
		p.Keyword("OFFSET ")
		o.Offset.Format(p)
		p.Keyword(" ROWS")
	}
	if o.Fetch != nil && o.FetchFirst {
		p.Newline()
		p.Keyword("FETCH NEXT ")
		o.Fetch.Format(p)
		p.Keyword(" ROWS ONLY")
	}
}

// ParenQuery is a query in parentheses, kept so that printing gives back
// the same grouping.
type ParenQuery struct {
	Pos   Pos
	Query Query
}

var _ Query = (*ParenQuery)(nil)

func (q *ParenQuery) Position() Pos { return q.Pos }
func (*ParenQuery) queryNode()      {}
func (q *ParenQuery) Format(p *Printer) {
	p.Write("(")
	q.Query.Format(p)
	p.Write(")")
}

// TableExpr is an item of a FROM clause.
type TableExpr interface {
	Node
	tableNode()
}

// Alias is `[AS] name [(col, ...)]` after a table expression.
type Alias struct {
	Name    *Ident
	Columns []*Ident
}

func formatAlias(p *Printer, a *Alias) {
	if a == nil {
		return
	}
	p.Keyword(" AS ")
	a.Name.Format(p)
	if len(a.Columns) > 0 {
		p.Write(" ")
		identList(p, a.Columns)
	}
}

// TableName is a named table or view: name [/*+ hints */]
// [FOR SYSTEM_TIME AS OF expr] [[AS] alias [(cols)]].
type TableName struct {
	Name       *ObjectName
	Hints      []*Hint
	SystemTime Expr // or nil
	Alias      *Alias
}

var _ TableExpr = (*TableName)(nil)

func (t *TableName) Position() Pos { return t.Name.Position() }
func (*TableName) tableNode()      {}
func (t *TableName) Format(p *Printer) {
	t.Name.Format(p)
	if len(t.Hints) > 0 {
		p.Write(" ")
		formatHints(p, t.Hints)
	}
	if t.SystemTime != nil {
		p.Keyword(" FOR SYSTEM_TIME AS OF ")
		t.SystemTime.Format(p)
	}
	formatAlias(p, t.Alias)
}

// DerivedTable is [LATERAL] (query) [[AS] alias [(cols)]].
type DerivedTable struct {
	Pos     Pos
	Lateral bool
	Query   Query
	Alias   *Alias
}

var _ TableExpr = (*DerivedTable)(nil)

func (t *DerivedTable) Position() Pos { return t.Pos }
func (*DerivedTable) tableNode()      {}
func (t *DerivedTable) Format(p *Printer) {
	if t.Lateral {
		p.Keyword("LATERAL ")
	}
	p.Write("(")
	t.Query.Format(p)
	p.Write(")")
	formatAlias(p, t.Alias)
}

// TableFunc is [LATERAL] TABLE(call) [[AS] alias [(cols)]]: a table
// function or a window table-valued function such as TUMBLE.
type TableFunc struct {
	Pos     Pos
	Lateral bool
	Call    Expr
	Alias   *Alias
}

var _ TableExpr = (*TableFunc)(nil)

func (t *TableFunc) Position() Pos { return t.Pos }
func (*TableFunc) tableNode()      {}
func (t *TableFunc) Format(p *Printer) {
	if t.Lateral {
		p.Keyword("LATERAL ")
	}
	p.Keyword("TABLE(")
	t.Call.Format(p)
	p.Write(")")
	formatAlias(p, t.Alias)
}

// Unnest is UNNEST(expr, ...) [WITH ORDINALITY] [[AS] alias [(cols)]].
type Unnest struct {
	Pos            Pos
	Args           []Expr
	WithOrdinality bool
	Alias          *Alias
}

var _ TableExpr = (*Unnest)(nil)

func (t *Unnest) Position() Pos { return t.Pos }
func (*Unnest) tableNode()      {}
func (t *Unnest) Format(p *Printer) {
	p.Keyword("UNNEST(")
	exprList(p, t.Args)
	p.Write(")")
	if t.WithOrdinality {
		p.Keyword(" WITH ORDINALITY")
	}
	formatAlias(p, t.Alias)
}

// ParenTable is a parenthesised join: (a JOIN b ON ...) [[AS] alias].
type ParenTable struct {
	Pos   Pos
	Table TableExpr
	Alias *Alias
}

var _ TableExpr = (*ParenTable)(nil)

func (t *ParenTable) Position() Pos { return t.Pos }
func (*ParenTable) tableNode()      {}
func (t *ParenTable) Format(p *Printer) {
	p.Write("(")
	t.Table.Format(p)
	p.Write(")")
	formatAlias(p, t.Alias)
}

// JoinKind is the kind of a join.
type JoinKind uint8

// Join kinds. JoinComma is the comma of `FROM a, b`.
const (
	JoinComma JoinKind = iota + 1
	JoinInner
	JoinLeft
	JoinRight
	JoinFull
	JoinCross
)

var joinKeywords = [...]string{
	JoinComma: ",", JoinInner: "INNER JOIN", JoinLeft: "LEFT JOIN", JoinRight: "RIGHT JOIN",
	JoinFull: "FULL JOIN", JoinCross: "CROSS JOIN",
}

func (k JoinKind) String() string {
	if int(k) < len(joinKeywords) {
		return joinKeywords[k]
	}
	return "JOIN"
}

// Join is Left [NATURAL] kind JOIN Right [ON cond | USING (cols)]. Joins are
// left-deep: `a JOIN b JOIN c` is Join{Join{a, b}, c}.
type Join struct {
	Pos     Pos
	Kind    JoinKind
	Natural bool
	Left    TableExpr
	Right   TableExpr
	On      Expr     // or nil
	Using   []*Ident // or nil
}

var _ TableExpr = (*Join)(nil)

func (j *Join) Position() Pos { return j.Pos }
func (*Join) tableNode()      {}
func (j *Join) Format(p *Printer) {
	j.Left.Format(p)
	if j.Kind == JoinComma {
		p.Write(",")
		p.Newline()
	} else {
		p.Newline()
		if j.Natural {
			p.Keyword("NATURAL ")
		}
		p.Keyword(j.Kind.String())
		p.Write(" ")
	}
	if _, ok := j.Right.(*Join); ok {
		p.Write("(")
		j.Right.Format(p)
		p.Write(")")
	} else {
		j.Right.Format(p)
	}
	if j.On != nil {
		p.Keyword(" ON ")
		j.On.Format(p)
	}
	if j.Using != nil {
		p.Keyword(" USING ")
		identList(p, j.Using)
	}
}

func singleSubquery(r *RowCtor) (*Subquery, bool) {
	if r.Explicit || len(r.Elems) != 1 {
		return nil, false
	}
	sub, ok := r.Elems[0].(*Subquery)
	return sub, ok
}
