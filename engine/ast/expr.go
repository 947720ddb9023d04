package ast

import (
	"strings"

	"eddy/engine/types"
)

// Operator precedences, as Calcite's operator table defines them: a larger
// number binds tighter. Format adds parentheses from them.
const (
	PrecOver    = 20 // a window function call: Calcite's OVER is an operator
	PrecOr      = 22
	PrecAnd     = 24
	PrecNot     = 26
	PrecIs      = 28 // postfix IS [NOT] NULL / TRUE / FALSE / UNKNOWN
	PrecCompare = 30 // = <> < <= > >= IS [NOT] DISTINCT FROM
	PrecLike    = 32 // [NOT] LIKE / ILIKE / SIMILAR TO, BETWEEN, IN
	PrecAdd     = 40 // + -
	PrecMul     = 60 // * / % ||
	PrecUnary   = 80 // prefix + -
	PrecPrimary = 100
)

// Precedence returns how tightly an expression binds when printed.
func Precedence(e Expr) int {
	switch e := e.(type) {
	case *BinaryExpr:
		return BinaryPrec(e.Op)
	case *UnaryExpr:
		if e.Op == "NOT" {
			return PrecNot
		}
		return PrecUnary
	case *IsExpr:
		return PrecIs
	case *IsDistinctFrom, *QuantifiedExpr:
		return PrecCompare
	case *LikeExpr, *BetweenExpr, *InExpr:
		return PrecLike
	case *FuncCall:
		if e.Over != nil || e.OverName != nil {
			return PrecOver
		}
	}
	return PrecPrimary
}

// BinaryPrec returns the precedence of a binary operator.
func BinaryPrec(op string) int {
	switch op {
	case "OR":
		return PrecOr
	case "AND":
		return PrecAnd
	case "=", "<>", "<", "<=", ">", ">=":
		return PrecCompare
	case "+", "-":
		return PrecAdd
	case "*", "/", "%", "||":
		return PrecMul
	}
	return PrecPrimary
}

// operand prints e, in parentheses when it binds less tightly than min.
func operand(p *Printer, e Expr, min int) {
	if Precedence(e) < min {
		p.Write("(")
		e.Format(p)
		p.Write(")")
		return
	}
	e.Format(p)
}

func exprList(p *Printer, list []Expr) {
	for i, e := range list {
		if i > 0 {
			p.Write(", ")
		}
		e.Format(p)
	}
}

// LitKind classifies a literal.
type LitKind uint8

// Literal kinds.
const (
	LitInteger      LitKind = iota + 1 // 123
	LitDecimal                         // 1.5
	LitFloat                           // 1.5E3
	LitString                          // 'abc' (also U&'...' after unescaping)
	LitBinary                          // X'0AFF'; Value holds the hex digits
	LitBool                            // TRUE or FALSE; Value is the keyword
	LitNull                            // NULL
	LitUnknown                         // UNKNOWN
	LitDate                            // DATE '2020-01-01'
	LitTime                            // TIME '10:00:00'
	LitTimestamp                       // TIMESTAMP '2020-01-01 10:00:00'
	LitTimestampLTZ                    // TIMESTAMP_LTZ '2020-01-01 10:00:00'
)

// Literal is a constant. Value is the literal's text: digits as written for
// numbers, the unescaped string for strings and typed literals.
type Literal struct {
	Pos   Pos
	Kind  LitKind
	Value string
}

var _ Expr = (*Literal)(nil)

func (l *Literal) Position() Pos { return l.Pos }
func (*Literal) exprNode()       {}
func (l *Literal) Format(p *Printer) {
	switch l.Kind {
	case LitString:
		p.String(l.Value)
	case LitBinary:
		p.Write("X'")
		p.Write(l.Value)
		p.Write("'")
	case LitNull:
		p.Keyword("NULL")
	case LitUnknown:
		p.Keyword("UNKNOWN")
	case LitDate:
		p.Keyword("DATE ")
		p.String(l.Value)
	case LitTime:
		p.Keyword("TIME ")
		p.String(l.Value)
	case LitTimestamp:
		p.Keyword("TIMESTAMP ")
		p.String(l.Value)
	case LitTimestampLTZ:
		p.Keyword("TIMESTAMP_LTZ ")
		p.String(l.Value)
	default:
		p.Write(l.Value)
	}
}

// TimeUnit is a unit of an interval qualifier, EXTRACT or FLOOR/CEIL.
type TimeUnit string

// IntervalQualifier is the unit part of an INTERVAL literal:
// Start[(StartPrec[, FracPrec])] [TO End[(FracPrec)]]. Precisions are -1
// when not written.
type IntervalQualifier struct {
	Start     TimeUnit
	StartPrec int
	End       TimeUnit // or ""
	FracPrec  int
}

func (q *IntervalQualifier) format(p *Printer) {
	p.Keyword(string(q.Start))
	if q.StartPrec >= 0 {
		if q.End == "" && q.FracPrec >= 0 {
			p.Writef("(%d, %d)", q.StartPrec, q.FracPrec)
		} else {
			p.Writef("(%d)", q.StartPrec)
		}
	}
	if q.End != "" {
		p.Keyword(" TO ")
		p.Keyword(string(q.End))
		if q.FracPrec >= 0 {
			p.Writef("(%d)", q.FracPrec)
		}
	}
}

// IntervalLit is INTERVAL [+|-]'value' qualifier.
type IntervalLit struct {
	Pos       Pos
	Negative  bool
	Value     string
	Qualifier IntervalQualifier
}

var _ Expr = (*IntervalLit)(nil)

func (l *IntervalLit) Position() Pos { return l.Pos }
func (*IntervalLit) exprNode()       {}
func (l *IntervalLit) Format(p *Printer) {
	p.Keyword("INTERVAL ")
	if l.Negative {
		p.Write("-")
	}
	p.String(l.Value)
	p.Write(" ")
	l.Qualifier.format(p)
}

// Param is a dynamic parameter '?'; Index counts from 0 in text order.
type Param struct {
	Pos   Pos
	Index int
}

var _ Expr = (*Param)(nil)

func (e *Param) Position() Pos   { return e.Pos }
func (*Param) exprNode()         {}
func (*Param) Format(p *Printer) { p.Write("?") }

// Identifier is a possibly qualified name in an expression: a column `a`,
// `t`.`a`, or a field path `t`.`row`.`f` (resolved by the validator).
type Identifier struct {
	Parts []*Ident
}

var _ Expr = (*Identifier)(nil)

func (e *Identifier) Position() Pos { return e.Parts[0].Pos }
func (*Identifier) exprNode()       {}
func (e *Identifier) Format(p *Printer) {
	for i, part := range e.Parts {
		if i > 0 {
			p.Write(".")
		}
		part.Format(p)
	}
}

// Star is `*` or `qualifier.*` in a select list or COUNT(*).
type Star struct {
	Pos       Pos
	Qualifier []*Ident // or nil
}

var _ Expr = (*Star)(nil)

func (e *Star) Position() Pos { return e.Pos }
func (*Star) exprNode()       {}
func (e *Star) Format(p *Printer) {
	for _, q := range e.Qualifier {
		q.Format(p)
		p.Write(".")
	}
	p.Write("*")
}

// UnaryExpr is a prefix operator: NOT, - or +.
type UnaryExpr struct {
	Pos Pos
	Op  string
	X   Expr
}

var _ Expr = (*UnaryExpr)(nil)

func (e *UnaryExpr) Position() Pos { return e.Pos }
func (*UnaryExpr) exprNode()       {}
func (e *UnaryExpr) Format(p *Printer) {
	if e.Op == "NOT" {
		p.Keyword("NOT ")
		operand(p, e.X, PrecNot)
		return
	}
	p.Write(e.Op)
	if u, ok := e.X.(*UnaryExpr); ok && u.Op != "NOT" {
		p.Write(" ") // "- -1", never the comment "--1"
	} else if Precedence(e.X) == PrecOver {
		p.Write(" ") // Calcite's "- (SUM(x) OVER w)"
	}
	operand(p, e.X, PrecUnary)
}

// BinaryExpr is a left-associative binary operator: OR, AND, comparisons,
// arithmetic and ||. Op is upper-case; != is kept as <>.
type BinaryExpr struct {
	Pos  Pos // of the left operand
	Op   string
	L, R Expr
}

var _ Expr = (*BinaryExpr)(nil)

func (e *BinaryExpr) Position() Pos { return e.Pos }
func (*BinaryExpr) exprNode()       {}
func (e *BinaryExpr) Format(p *Printer) {
	prec := BinaryPrec(e.Op)
	operand(p, e.L, prec)
	p.Write(" ")
	p.Keyword(e.Op)
	p.Write(" ")
	operand(p, e.R, prec+1)
}

// IsExpr is X IS [NOT] NULL | TRUE | FALSE | UNKNOWN.
type IsExpr struct {
	Pos  Pos
	X    Expr
	Not  bool
	What string // NULL, TRUE, FALSE or UNKNOWN
}

var _ Expr = (*IsExpr)(nil)

func (e *IsExpr) Position() Pos { return e.Pos }
func (*IsExpr) exprNode()       {}
func (e *IsExpr) Format(p *Printer) {
	operand(p, e.X, PrecIs)
	p.Keyword(" IS ")
	if e.Not {
		p.Keyword("NOT ")
	}
	p.Keyword(e.What)
}

// IsDistinctFrom is L IS [NOT] DISTINCT FROM R.
type IsDistinctFrom struct {
	Pos  Pos
	L, R Expr
	Not  bool
}

var _ Expr = (*IsDistinctFrom)(nil)

func (e *IsDistinctFrom) Position() Pos { return e.Pos }
func (*IsDistinctFrom) exprNode()       {}
func (e *IsDistinctFrom) Format(p *Printer) {
	operand(p, e.L, PrecCompare)
	p.Keyword(" IS ")
	if e.Not {
		p.Keyword("NOT ")
	}
	p.Keyword("DISTINCT FROM ")
	operand(p, e.R, PrecCompare+1)
}

// BetweenExpr is X [NOT] BETWEEN [ASYMMETRIC | SYMMETRIC] Lo AND Hi.
type BetweenExpr struct {
	Pos       Pos
	X         Expr
	Not       bool
	Symmetric bool
	Lo, Hi    Expr
}

var _ Expr = (*BetweenExpr)(nil)

func (e *BetweenExpr) Position() Pos { return e.Pos }
func (*BetweenExpr) exprNode()       {}
func (e *BetweenExpr) Format(p *Printer) {
	operand(p, e.X, PrecLike)
	if e.Not {
		p.Keyword(" NOT")
	}
	p.Keyword(" BETWEEN ")
	if e.Symmetric {
		p.Keyword("SYMMETRIC ")
	} else {
		p.Keyword("ASYMMETRIC ")
	}
	operand(p, e.Lo, PrecLike+1)
	p.Keyword(" AND ")
	operand(p, e.Hi, PrecLike+1)
}

// InExpr is X [NOT] IN (list) or X [NOT] IN (query).
type InExpr struct {
	Pos   Pos
	X     Expr
	Not   bool
	List  []Expr
	Query Query // or nil
}

var _ Expr = (*InExpr)(nil)

func (e *InExpr) Position() Pos { return e.Pos }
func (*InExpr) exprNode()       {}
func (e *InExpr) Format(p *Printer) {
	operand(p, e.X, PrecLike)
	if e.Not {
		p.Keyword(" NOT")
	}
	p.Keyword(" IN (")
	if e.Query != nil {
		e.Query.Format(p)
	} else {
		exprList(p, e.List)
	}
	p.Write(")")
}

// LikeExpr is X [NOT] LIKE | ILIKE | SIMILAR TO pattern [ESCAPE e].
type LikeExpr struct {
	Pos     Pos
	X       Expr
	Not     bool
	Op      string // LIKE, ILIKE or SIMILAR TO
	Pattern Expr
	Escape  Expr // or nil
}

var _ Expr = (*LikeExpr)(nil)

func (e *LikeExpr) Position() Pos { return e.Pos }
func (*LikeExpr) exprNode()       {}
func (e *LikeExpr) Format(p *Printer) {
	operand(p, e.X, PrecLike)
	if e.Not {
		p.Keyword(" NOT")
	}
	p.Write(" ")
	p.Keyword(e.Op)
	p.Write(" ")
	operand(p, e.Pattern, PrecLike+1)
	if e.Escape != nil {
		p.Keyword(" ESCAPE ")
		operand(p, e.Escape, PrecLike+1)
	}
}

// Exists is EXISTS (query).
type Exists struct {
	Pos   Pos
	Query Query
}

var _ Expr = (*Exists)(nil)

func (e *Exists) Position() Pos { return e.Pos }
func (*Exists) exprNode()       {}
func (e *Exists) Format(p *Printer) {
	p.Keyword("EXISTS (")
	e.Query.Format(p)
	p.Write(")")
}

// Subquery is a scalar sub-query (query) in an expression.
type Subquery struct {
	Pos   Pos
	Query Query
}

var _ Expr = (*Subquery)(nil)

func (e *Subquery) Position() Pos { return e.Pos }
func (*Subquery) exprNode()       {}
func (e *Subquery) Format(p *Printer) {
	p.Write("(")
	e.Query.Format(p)
	p.Write(")")
}

// Cast is CAST(X AS Type) or TRY_CAST(X AS Type).
type Cast struct {
	Pos  Pos
	Try  bool
	X    Expr
	Type *types.Type
	// Spelled is STRING or BYTES when the type was written so: Flink
	// prints the type as written, and these two differ from their
	// serializable form (VARCHAR(2147483647), VARBINARY(2147483647)).
	Spelled string
}

var _ Expr = (*Cast)(nil)

func (e *Cast) Position() Pos { return e.Pos }
func (*Cast) exprNode()       {}
func (e *Cast) Format(p *Printer) {
	if e.Try {
		p.Keyword("TRY_CAST(")
	} else {
		p.Keyword("CAST(")
	}
	e.X.Format(p)
	p.Keyword(" AS ")
	if e.Spelled != "" {
		p.Keyword(e.Spelled)
	} else {
		p.Write(e.Type.SerializableString())
	}
	p.Write(")")
}

// When is one WHEN ... THEN ... branch of a CASE.
type When struct {
	Pos  Pos
	Cond Expr
	Then Expr
}

// Case is CASE [Operand] WHEN ... THEN ... [ELSE ...] END.
type Case struct {
	Pos     Pos
	Operand Expr // or nil for a searched CASE
	Whens   []*When
	Else    Expr // or nil
}

var _ Expr = (*Case)(nil)

func (e *Case) Position() Pos { return e.Pos }
func (*Case) exprNode()       {}
func (e *Case) Format(p *Printer) {
	p.Keyword("CASE")
	if e.Operand != nil {
		p.Write(" ")
		e.Operand.Format(p)
	}
	for _, w := range e.Whens {
		p.Keyword(" WHEN ")
		w.Cond.Format(p)
		p.Keyword(" THEN ")
		w.Then.Format(p)
	}
	if e.Else != nil {
		p.Keyword(" ELSE ")
		e.Else.Format(p)
	}
	p.Keyword(" END")
}

// ArrayCtor is ARRAY[e, ...].
type ArrayCtor struct {
	Pos   Pos
	Elems []Expr
}

var _ Expr = (*ArrayCtor)(nil)

func (e *ArrayCtor) Position() Pos { return e.Pos }
func (*ArrayCtor) exprNode()       {}
func (e *ArrayCtor) Format(p *Printer) {
	p.Keyword("ARRAY[")
	exprList(p, e.Elems)
	p.Write("]")
}

// MapCtor is MAP[k1, v1, k2, v2, ...].
type MapCtor struct {
	Pos   Pos
	Elems []Expr // keys and values alternating
}

var _ Expr = (*MapCtor)(nil)

func (e *MapCtor) Position() Pos { return e.Pos }
func (*MapCtor) exprNode()       {}
func (e *MapCtor) Format(p *Printer) {
	p.Keyword("MAP[")
	exprList(p, e.Elems)
	p.Write("]")
}

// RowCtor is ROW(e, ...) or a parenthesised list (a, b, ...) of two or more
// expressions; in GROUP BY, () is an empty RowCtor.
type RowCtor struct {
	Pos      Pos
	Explicit bool // written with the ROW keyword
	Elems    []Expr
}

var _ Expr = (*RowCtor)(nil)

func (e *RowCtor) Position() Pos { return e.Pos }
func (*RowCtor) exprNode()       {}
func (e *RowCtor) Format(p *Printer) {
	if e.Explicit {
		p.Keyword("ROW")
	}
	p.Write("(")
	exprList(p, e.Elems)
	p.Write(")")
}

// Index is X[i]: an array element or a map value.
type Index struct {
	Pos   Pos
	X     Expr
	Index Expr
}

var _ Expr = (*Index)(nil)

func (e *Index) Position() Pos { return e.Pos }
func (*Index) exprNode()       {}
func (e *Index) Format(p *Printer) {
	operand(p, e.X, PrecPrimary)
	p.Write("[")
	e.Index.Format(p)
	p.Write("]")
}

// FieldAccess is X.field where X is not a plain name (a call, an index or a
// parenthesised expression); dotted names are Identifiers.
type FieldAccess struct {
	Pos   Pos
	X     Expr
	Field *Ident
}

var _ Expr = (*FieldAccess)(nil)

func (e *FieldAccess) Position() Pos { return e.Pos }
func (*FieldAccess) exprNode()       {}
func (e *FieldAccess) Format(p *Printer) {
	switch e.X.(type) {
	case *FieldAccess, *Index, *FuncCall, *Subquery:
		// (An Identifier needs the parentheses: `a`.`b` would read back as
		// one dotted name. A Subquery has its own.)
		e.X.Format(p)
	default:
		p.Write("(")
		e.X.Format(p)
		p.Write(")")
	}
	p.Write(".")
	e.Field.Format(p)
}

// FuncCall is a function call: name(args), with an optional quantifier
// (DISTINCT or ALL), COUNT(*), WITHIN GROUP, FILTER and OVER. A niladic call
// such as CURRENT_TIMESTAMP has Niladic set and no parentheses.
type FuncCall struct {
	Pos         Pos
	Name        *ObjectName
	Quantifier  string // "", "DISTINCT" or "ALL"
	Args        []Expr
	Niladic     bool
	NullTreat   string       // "", "IGNORE NULLS" or "RESPECT NULLS"
	WithinGroup []*OrderItem // or nil
	Filter      Expr         // or nil
	Over        *WindowSpec  // or nil
	OverName    *Ident       // OVER w; or nil
}

var _ Expr = (*FuncCall)(nil)

func (e *FuncCall) Position() Pos { return e.Pos }
func (*FuncCall) exprNode()       {}
func (e *FuncCall) Format(p *Printer) {
	formatFuncName(p, e.Name)
	if e.Niladic {
		return
	}
	p.Write("(")
	if e.Quantifier != "" {
		p.Keyword(e.Quantifier)
		p.Write(" ")
	}
	exprList(p, e.Args)
	p.Write(")")
	if e.NullTreat != "" {
		p.Write(" ")
		p.Keyword(e.NullTreat)
	}
	if e.WithinGroup != nil {
		p.Keyword(" WITHIN GROUP (ORDER BY ")
		orderList(p, e.WithinGroup)
		p.Write(")")
	}
	if e.Filter != nil {
		p.Keyword(" FILTER (WHERE ")
		e.Filter.Format(p)
		p.Write(")")
	}
	if e.OverName != nil {
		p.Keyword(" OVER ")
		e.OverName.Format(p)
	} else if e.Over != nil {
		p.Keyword(" OVER ")
		e.Over.Format(p)
	}
}

// formatFuncName prints a function name: a one-part name that is a plain
// word prints upper-case and unquoted, as Calcite prints built-in function
// names; other names print as identifiers.
func formatFuncName(p *Printer, n *ObjectName) {
	if len(n.Parts) == 1 && !n.Parts[0].Quoted && isPlainWord(n.Parts[0].Name) {
		p.Write(strings.ToUpper(n.Parts[0].Name))
		return
	}
	n.Format(p)
}

func isPlainWord(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// NamedArg is name => value in a call's argument list.
type NamedArg struct {
	Name  *Ident
	Value Expr
}

var _ Expr = (*NamedArg)(nil)

func (e *NamedArg) Position() Pos { return e.Name.Pos }
func (*NamedArg) exprNode()       {}
func (e *NamedArg) Format(p *Printer) {
	e.Name.Format(p)
	p.Write(" => ")
	e.Value.Format(p)
}

// TableArg is TABLE name [PARTITION BY ...] [ORDER BY ...], an argument of
// a table-valued function such as TUMBLE or SESSION.
type TableArg struct {
	Pos         Pos
	Name        *ObjectName
	PartitionBy []Expr
	OrderBy     []*OrderItem
}

var _ Expr = (*TableArg)(nil)

func (e *TableArg) Position() Pos { return e.Pos }
func (*TableArg) exprNode()       {}
func (e *TableArg) Format(p *Printer) {
	p.Keyword("TABLE ")
	e.Name.Format(p)
	if len(e.PartitionBy) == 1 {
		p.Keyword(" PARTITION BY ")
		exprList(p, e.PartitionBy)
	} else if len(e.PartitionBy) > 1 {
		p.Keyword(" PARTITION BY (")
		exprList(p, e.PartitionBy)
		p.Writef(")")
	}
	if len(e.OrderBy) > 0 {
		p.Keyword(" ORDER BY ")
		orderList(p, e.OrderBy)
	}
}

// Descriptor is DESCRIPTOR(col, ...), naming columns for a table function.
type Descriptor struct {
	Pos  Pos
	Cols []*Ident
}

var _ Expr = (*Descriptor)(nil)

func (e *Descriptor) Position() Pos { return e.Pos }
func (*Descriptor) exprNode()       {}
func (e *Descriptor) Format(p *Printer) {
	p.Keyword("DESCRIPTOR(")
	for i, c := range e.Cols {
		if i > 0 {
			p.Write(", ")
		}
		c.Format(p)
	}
	p.Write(")")
}

// Extract is EXTRACT(unit FROM X).
type Extract struct {
	Pos  Pos
	Unit TimeUnit
	X    Expr
}

var _ Expr = (*Extract)(nil)

func (e *Extract) Position() Pos { return e.Pos }
func (*Extract) exprNode()       {}
func (e *Extract) Format(p *Printer) {
	p.Keyword("EXTRACT(")
	p.Keyword(string(e.Unit))
	p.Keyword(" FROM ")
	e.X.Format(p)
	p.Write(")")
}

// FloorCeil is FLOOR(X TO unit) or CEIL(X TO unit); plain FLOOR(x) is a
// FuncCall.
type FloorCeil struct {
	Pos  Pos
	Ceil bool
	X    Expr
	Unit TimeUnit
}

var _ Expr = (*FloorCeil)(nil)

func (e *FloorCeil) Position() Pos { return e.Pos }
func (*FloorCeil) exprNode()       {}
func (e *FloorCeil) Format(p *Printer) {
	if e.Ceil {
		p.Keyword("CEIL(")
	} else {
		p.Keyword("FLOOR(")
	}
	e.X.Format(p)
	p.Keyword(" TO ")
	p.Keyword(string(e.Unit))
	p.Write(")")
}

// PositionExpr is POSITION(Sub IN Str [FROM From]).
type PositionExpr struct {
	Pos  Pos
	Sub  Expr
	Str  Expr
	From Expr // or nil
}

var _ Expr = (*PositionExpr)(nil)

func (e *PositionExpr) Position() Pos { return e.Pos }
func (*PositionExpr) exprNode()       {}
func (e *PositionExpr) Format(p *Printer) {
	p.Keyword("POSITION(")
	e.Sub.Format(p)
	p.Keyword(" IN ")
	e.Str.Format(p)
	if e.From != nil {
		p.Keyword(" FROM ")
		e.From.Format(p)
	}
	p.Write(")")
}

// Trim is TRIM([BOTH | LEADING | TRAILING] [Chars] FROM X) or TRIM(X).
type Trim struct {
	Pos   Pos
	Mode  string // BOTH, LEADING or TRAILING (BOTH when not written)
	Chars Expr   // or nil
	X     Expr
}

var _ Expr = (*Trim)(nil)

func (e *Trim) Position() Pos { return e.Pos }
func (*Trim) exprNode()       {}
func (e *Trim) Format(p *Printer) {
	p.Keyword("TRIM(")
	p.Keyword(e.Mode)
	p.Write(" ")
	if e.Chars != nil {
		e.Chars.Format(p)
		p.Write(" ")
	}
	p.Keyword("FROM ")
	e.X.Format(p)
	p.Write(")")
}

// Overlay is OVERLAY(X PLACING Y FROM From [FOR For]).
type Overlay struct {
	Pos     Pos
	X       Expr
	Placing Expr
	From    Expr
	For     Expr // or nil
}

var _ Expr = (*Overlay)(nil)

func (e *Overlay) Position() Pos { return e.Pos }
func (*Overlay) exprNode()       {}
func (e *Overlay) Format(p *Printer) {
	p.Keyword("OVERLAY(")
	e.X.Format(p)
	p.Keyword(" PLACING ")
	e.Placing.Format(p)
	p.Keyword(" FROM ")
	e.From.Format(p)
	if e.For != nil {
		p.Keyword(" FOR ")
		e.For.Format(p)
	}
	p.Write(")")
}

// Substring is SUBSTRING(X FROM From [FOR For]); the comma form is a
// FuncCall.
type Substring struct {
	Pos  Pos
	X    Expr
	From Expr
	For  Expr // or nil
}

var _ Expr = (*Substring)(nil)

func (e *Substring) Position() Pos { return e.Pos }
func (*Substring) exprNode()       {}
func (e *Substring) Format(p *Printer) {
	p.Keyword("SUBSTRING(")
	e.X.Format(p)
	p.Keyword(" FROM ")
	e.From.Format(p)
	if e.For != nil {
		p.Keyword(" FOR ")
		e.For.Format(p)
	}
	p.Write(")")
}

// GroupingSet is GROUPING SETS (...), ROLLUP (...) or CUBE (...) in GROUP BY.
type GroupingSet struct {
	Pos   Pos
	Kind  string // GROUPING SETS, ROLLUP or CUBE
	Items []Expr
}

var _ Expr = (*GroupingSet)(nil)

func (e *GroupingSet) Position() Pos { return e.Pos }
func (*GroupingSet) exprNode()       {}
func (e *GroupingSet) Format(p *Printer) {
	p.Keyword(e.Kind)
	p.Write("(")
	exprList(p, e.Items)
	p.Write(")")
}

// OrderItem is one ORDER BY item.
type OrderItem struct {
	Pos   Pos
	Expr  Expr
	Desc  bool
	Nulls string // "", "FIRST" or "LAST"
}

func (o *OrderItem) Position() Pos { return o.Pos }
func (o *OrderItem) Format(p *Printer) {
	o.Expr.Format(p)
	if o.Desc {
		p.Keyword(" DESC")
	}
	if o.Nulls != "" {
		p.Keyword(" NULLS ")
		p.Keyword(o.Nulls)
	}
}

func orderList(p *Printer, items []*OrderItem) {
	for i, o := range items {
		if i > 0 {
			p.Write(", ")
		}
		o.Format(p)
	}
}

// FrameBound is one end of a window frame: UNBOUNDED PRECEDING, CURRENT
// ROW, UNBOUNDED FOLLOWING, or Offset PRECEDING / FOLLOWING.
type FrameBound struct {
	Pos    Pos
	Kind   string // UNBOUNDED PRECEDING, CURRENT ROW, UNBOUNDED FOLLOWING, PRECEDING, FOLLOWING
	Offset Expr   // for PRECEDING and FOLLOWING
}

func (b *FrameBound) Position() Pos { return b.Pos }
func (b *FrameBound) Format(p *Printer) {
	if b.Offset != nil {
		b.Offset.Format(p)
		p.Write(" ")
	}
	p.Keyword(b.Kind)
}

// Frame is ROWS | RANGE [BETWEEN Start AND End | Start].
type Frame struct {
	Pos   Pos
	Rows  bool
	Start *FrameBound
	End   *FrameBound // or nil when BETWEEN was not used
}

func (f *Frame) Position() Pos { return f.Pos }
func (f *Frame) Format(p *Printer) {
	if f.Rows {
		p.Keyword("ROWS ")
	} else {
		p.Keyword("RANGE ")
	}
	if f.End == nil {
		f.Start.Format(p)
		return
	}
	p.Keyword("BETWEEN ")
	f.Start.Format(p)
	p.Keyword(" AND ")
	f.End.Format(p)
}

// WindowSpec is the parenthesised window of OVER (...) or WINDOW w AS (...).
type WindowSpec struct {
	Pos         Pos
	Ref         *Ident // an existing window it extends; or nil
	PartitionBy []Expr
	OrderBy     []*OrderItem
	Frame       *Frame // or nil
}

func (w *WindowSpec) Position() Pos { return w.Pos }
func (w *WindowSpec) Format(p *Printer) {
	p.Write("(")
	sep := ""
	if w.Ref != nil {
		w.Ref.Format(p)
		sep = " "
	}
	if len(w.PartitionBy) > 0 {
		p.Write(sep)
		p.Keyword("PARTITION BY ")
		exprList(p, w.PartitionBy)
		sep = " "
	}
	if len(w.OrderBy) > 0 {
		p.Write(sep)
		p.Keyword("ORDER BY ")
		orderList(p, w.OrderBy)
		sep = " "
	}
	if w.Frame != nil {
		p.Write(sep)
		w.Frame.Format(p)
	}
	p.Write(")")
}

// JSONCall is one of the SQL/JSON functions with their own syntax:
// JSON_EXISTS, JSON_VALUE, JSON_QUERY, JSON_OBJECT, JSON_OBJECTAGG,
// JSON_ARRAY and JSON_ARRAYAGG.
type JSONCall struct {
	Pos  Pos
	Name string // upper-case function name
	// Args are the positional arguments: the JSON value and path, or the
	// array elements.
	Args []Expr
	// Keys and Values are the KEY k VALUE v pairs of JSON_OBJECT(AGG).
	Keys, Values []Expr
	Returning    *types.Type // or nil
	Wrapper      string      // JSON_QUERY: WITHOUT ARRAY, WITH CONDITIONAL ARRAY, WITH UNCONDITIONAL ARRAY; or ""
	OnEmpty      string      // NULL, ERROR, DEFAULT, EMPTY ARRAY, EMPTY OBJECT; or ""
	EmptyDefault Expr        // for DEFAULT ... ON EMPTY
	OnError      string      // NULL, ERROR, DEFAULT, EMPTY ARRAY, EMPTY OBJECT, TRUE, FALSE, UNKNOWN; or ""
	ErrorDefault Expr        // for DEFAULT ... ON ERROR
	OnNull       string      // NULL or ABSENT; or ""
}

var _ Expr = (*JSONCall)(nil)

func (e *JSONCall) Position() Pos { return e.Pos }
func (*JSONCall) exprNode()       {}
func (e *JSONCall) Format(p *Printer) {
	p.Keyword(e.Name)
	p.Write("(")
	exprList(p, e.Args)
	for i := range e.Keys {
		if i > 0 || len(e.Args) > 0 {
			p.Write(", ")
		}
		p.Keyword("KEY ")
		e.Keys[i].Format(p)
		p.Keyword(" VALUE ")
		e.Values[i].Format(p)
	}
	if e.Returning != nil {
		p.Keyword(" RETURNING ")
		p.Write(e.Returning.SerializableString())
	}
	if e.Wrapper != "" {
		p.Write(" ")
		p.Keyword(e.Wrapper)
		p.Keyword(" WRAPPER")
	}
	jsonBehavior(p, e.OnEmpty, e.EmptyDefault, "EMPTY")
	jsonBehavior(p, e.OnError, e.ErrorDefault, "ERROR")
	if e.OnNull != "" {
		p.Write(" ")
		p.Keyword(e.OnNull)
		p.Keyword(" ON NULL")
	}
	p.Write(")")
}

func jsonBehavior(p *Printer, what string, def Expr, on string) {
	if what == "" {
		return
	}
	p.Write(" ")
	p.Keyword(what)
	if def != nil {
		p.Write(" ")
		def.Format(p)
	}
	p.Keyword(" ON ")
	p.Keyword(on)
}
