package plan

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"eddy/engine/functions"
	"eddy/engine/types"
)

// Expr is a typed scalar expression of a plan.
type Expr interface {
	// Type is the expression's Flink type, nullability included.
	Type() *types.Type
	// String prints the expression for plan dumps and EXPLAIN.
	String() string
	planExpr()
}

// Operator names used in Call.Name when Call.Func is nil. Arithmetic and
// comparison operators take two operands, the unary ones one.
const (
	OpAdd         = "+"
	OpSub         = "-"
	OpMul         = "*"
	OpDiv         = "/"
	OpMod         = "%"
	OpNeg         = "u-" // unary minus
	OpConcat      = "||"
	OpEq          = "="
	OpNe          = "<>"
	OpLt          = "<"
	OpLe          = "<="
	OpGt          = ">"
	OpGe          = ">="
	OpAnd         = "AND" // two or more operands
	OpOr          = "OR"  // two or more operands
	OpNot         = "NOT"
	OpIsNull      = "IS NULL"
	OpIsNotNull   = "IS NOT NULL"
	OpIsTrue      = "IS TRUE"
	OpIsNotTrue   = "IS NOT TRUE"
	OpIsFalse     = "IS FALSE"
	OpIsNotFalse  = "IS NOT FALSE"
	OpIsDistinct  = "IS DISTINCT FROM"
	OpNotDistinct = "IS NOT DISTINCT FROM"
	OpIn          = "IN"         // first operand is the value, the rest the list
	OpLike        = "LIKE"       // value, pattern [, escape]
	OpSimilar     = "SIMILAR TO" // value, pattern [, escape]
	OpItem        = "ITEM"       // array[index] (1-based) or map[key]
	OpRow         = "ROW"        // ROW(a, b) constructor
	OpArray       = "ARRAY"      // ARRAY[a, b] constructor
	OpMap         = "MAP"        // MAP[k1, v1, k2, v2] constructor
	// OpFoldFloat is a constant FLOAT expression as Flink's planner folds
	// it into a literal: its value rounded to 7 significant digits, an
	// infinite or NaN value an error.
	OpFoldFloat = "$FOLD_FLOAT"
)

// ColumnRef reads column Index of the node's input row.
type ColumnRef struct {
	Index int
	Name  string // the column's name, for printing only
	T     *types.Type
}

// CorrelRef reads column Index of the current row of the outer input bound
// by the SubQuery or Correlate whose ID is ID.
type CorrelRef struct {
	ID    int
	Index int
	Name  string // for printing only
	T     *types.Type
}

// Literal is a constant. Value holds the engine value of type T (nil is
// NULL, of any type, including types.Null).
type Literal struct {
	Value any
	T     *types.Type
}

// Call applies a built-in function or an operator to its arguments.
type Call struct {
	Name string          // the function's upper-case name, or an Op* constant
	Func *functions.Func // the registry entry; nil for operators
	Args []Expr
	T    *types.Type // the result type as the validator inferred it
}

// Cast converts X to T. Try is TRY_CAST: a failed conversion gives NULL
// instead of an error.
type Cast struct {
	X   Expr
	T   *types.Type
	Try bool
}

// When is one WHEN ... THEN ... branch of a Case.
type When struct {
	Cond   Expr // BOOLEAN
	Result Expr
}

// Case is a searched CASE: the Result of the first When whose Cond is TRUE,
// else Else (nil means NULL).
type Case struct {
	Whens []When
	Else  Expr
	T     *types.Type
}

// FieldAccess reads field Index of a ROW-typed expression (r.f).
type FieldAccess struct {
	X     Expr
	Index int
	Name  string
	T     *types.Type
}

// SubQueryKind is the form of a sub-query expression.
type SubQueryKind uint8

// Sub-query forms.
const (
	SubScalar SubQueryKind = iota + 1 // (SELECT x ...): its single value, NULL when empty, error when more than one row
	SubExists                         // EXISTS (SELECT ...)
	SubIn                             // (a, b) IN (SELECT x, y ...), three-valued
	SubSome                           // a <op> SOME (SELECT x ...)
	SubAll                            // a <op> ALL (SELECT x ...)
)

var subQueryNames = [...]string{SubScalar: "$SCALAR_QUERY", SubExists: "EXISTS", SubIn: "IN", SubSome: "SOME", SubAll: "ALL"}

func (k SubQueryKind) String() string {
	if int(k) < len(subQueryNames) && subQueryNames[k] != "" {
		return subQueryNames[k]
	}
	return fmt.Sprintf("SubQueryKind(%d)", uint8(k))
}

// SubQuery is a sub-query used as an expression. Inside Query, CorrelRefs
// with this ID read the current row of the input of the node holding the
// expression.
type SubQuery struct {
	Kind  SubQueryKind
	ID    int    // correlation id; 0 when the sub-query is not correlated
	Query Node   // the sub-query's plan
	Left  []Expr // SubIn, SubSome, SubAll: the compared values, one per Query column
	Op    string // SubSome, SubAll: the comparison operator (OpEq, OpLt, ...)
	T     *types.Type
}

func (*ColumnRef) planExpr()   {}
func (*CorrelRef) planExpr()   {}
func (*Literal) planExpr()     {}
func (*Call) planExpr()        {}
func (*Cast) planExpr()        {}
func (*Case) planExpr()        {}
func (*FieldAccess) planExpr() {}
func (*SubQuery) planExpr()    {}

var (
	_ Expr = (*ColumnRef)(nil)
	_ Expr = (*CorrelRef)(nil)
	_ Expr = (*Literal)(nil)
	_ Expr = (*Call)(nil)
	_ Expr = (*Cast)(nil)
	_ Expr = (*Case)(nil)
	_ Expr = (*FieldAccess)(nil)
	_ Expr = (*SubQuery)(nil)
)

// Type returns the column's type.
func (e *ColumnRef) Type() *types.Type { return e.T }

// Type returns the outer column's type.
func (e *CorrelRef) Type() *types.Type { return e.T }

// Type returns the literal's type.
func (e *Literal) Type() *types.Type { return e.T }

// Type returns the call's result type.
func (e *Call) Type() *types.Type { return e.T }

// Type returns the target type.
func (e *Cast) Type() *types.Type { return e.T }

// Type returns the CASE's result type.
func (e *Case) Type() *types.Type { return e.T }

// Type returns the field's type.
func (e *FieldAccess) Type() *types.Type { return e.T }

// Type returns the sub-query expression's type.
func (e *SubQuery) Type() *types.Type { return e.T }

func (e *ColumnRef) String() string {
	if e.Name != "" {
		return e.Name
	}
	return "$" + strconv.Itoa(e.Index)
}

func (e *CorrelRef) String() string {
	return fmt.Sprintf("$cor%d.%s", e.ID, nameOr(e.Name, e.Index))
}

func nameOr(name string, i int) string {
	if name != "" {
		return name
	}
	return "$" + strconv.Itoa(i)
}

func (e *Literal) String() string { return FormatLiteral(e.Value, e.T) }

// FormatLiteral prints a literal value as SQL-ish text for plan dumps:
// strings quoted, NULL as NULL, other values in their printed form.
func FormatLiteral(v any, t *types.Type) string {
	switch x := v.(type) {
	case nil:
		return "null:" + t.String()
	case string:
		return "'" + strings.ReplaceAll(x, "'", "''") + "'"
	case bool:
		if x {
			return "true"
		}
		return "false"
	case []byte:
		return fmt.Sprintf("X'%x'", x)
	case *decimal.Decimal:
		return types.DecimalText(x)
	case fmt.Stringer:
		return x.String()
	}
	return fmt.Sprint(v)
}

func (e *Call) String() string {
	args := make([]string, len(e.Args))
	for i, a := range e.Args {
		args[i] = a.String()
	}
	return e.Name + "(" + strings.Join(args, ", ") + ")"
}

func (e *Cast) String() string {
	name := "CAST"
	if e.Try {
		name = "TRY_CAST"
	}
	return name + "(" + e.X.String() + " AS " + e.T.String() + ")"
}

func (e *Case) String() string {
	var b strings.Builder
	b.WriteString("CASE(")
	for i, w := range e.Whens {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(w.Cond.String() + ", " + w.Result.String())
	}
	b.WriteString(", ")
	if e.Else != nil {
		b.WriteString(e.Else.String())
	} else {
		b.WriteString("null")
	}
	b.WriteString(")")
	return b.String()
}

func (e *FieldAccess) String() string { return e.X.String() + "." + nameOr(e.Name, e.Index) }

func (e *SubQuery) String() string {
	var b strings.Builder
	if len(e.Left) > 0 {
		left := make([]string, len(e.Left))
		for i, l := range e.Left {
			left[i] = l.String()
		}
		b.WriteString("(" + strings.Join(left, ", ") + ") ")
		if e.Op != "" {
			b.WriteString(e.Op + " ")
		}
	}
	b.WriteString(e.Kind.String())
	if e.ID != 0 {
		fmt.Fprintf(&b, "[$cor%d]", e.ID)
	}
	b.WriteString("({\n" + Format(e.Query) + "})")
	return b.String()
}

// Column is one column of a node's output.
type Column struct {
	Name string
	Type *types.Type
}

// Schema is the ordered list of a node's output columns.
type Schema []Column

// Names returns the column names.
func (s Schema) Names() []string {
	out := make([]string, len(s))
	for i, c := range s {
		out[i] = c.Name
	}
	return out
}

// Types returns the column types.
func (s Schema) Types() []*types.Type {
	out := make([]*types.Type, len(s))
	for i, c := range s {
		out[i] = c.Type
	}
	return out
}

// Ref returns a ColumnRef to column i.
func (s Schema) Ref(i int) *ColumnRef { return &ColumnRef{Index: i, Name: s[i].Name, T: s[i].Type} }
