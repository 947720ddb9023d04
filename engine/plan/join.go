package plan

import (
	"fmt"
	"strings"

	"eddy/engine/types"
)

// JoinKind is the kind of a join.
type JoinKind uint8

// Join kinds. Semi and Anti output only the left columns: Semi keeps left
// rows with at least one match (EXISTS, IN), Anti those with none (NOT
// EXISTS).
const (
	InnerJoin JoinKind = iota + 1
	LeftJoin
	RightJoin
	FullJoin
	CrossJoin
	SemiJoin
	AntiJoin
)

var joinNames = [...]string{InnerJoin: "InnerJoin", LeftJoin: "LeftOuterJoin", RightJoin: "RightOuterJoin",
	FullJoin: "FullOuterJoin", CrossJoin: "CrossJoin", SemiJoin: "LeftSemiJoin", AntiJoin: "LeftAntiJoin"}

func (k JoinKind) String() string {
	if int(k) < len(joinNames) && joinNames[k] != "" {
		return joinNames[k]
	}
	return fmt.Sprintf("JoinKind(%d)", uint8(k))
}

// EquiKey is one equality of a join condition: Left over the left input's
// row, Right over the right input's row. NullSafe is IS NOT DISTINCT FROM
// (NULL matches NULL); plain = never matches NULL.
type EquiKey struct {
	Left     Expr
	Right    Expr
	NullSafe bool
}

// Join combines two inputs. A pair of rows matches when every EquiKey is
// equal and Residual (over the left columns followed by the right columns;
// nil means TRUE) is TRUE. Outer kinds add unmatched rows padded with
// NULLs. The executor hashes on EquiKeys; it uses a nested loop only when
// there are none.
type Join struct {
	Kind     JoinKind
	Left     Node
	Right    Node
	EquiKeys []EquiKey
	Residual Expr
	// Strategy is the streaming executor's algorithm, chosen by the
	// changelog pass of engine/opt; batch mode ignores it.
	Strategy JoinStrategy
}

// JoinStrategy is how a streaming join runs.
type JoinStrategy uint8

// Join strategies. JoinStream (and the zero value) keeps the state of
// both inputs and emits the join's changelog as rows arrive; JoinHash
// runs the batch hash join, for bounded insert-only inputs.
const (
	JoinStrategyUnset JoinStrategy = iota
	JoinStream
	JoinHash
)

// NewJoin builds a join from a full ON condition (nil for none), moving
// every top-level conjunct of the form left-expr = right-expr (or IS NOT
// DISTINCT FROM) into the equi-keys. cond refers to the left columns
// followed by the right columns.
func NewJoin(kind JoinKind, left, right Node, cond Expr) *Join {
	j := &Join{Kind: kind, Left: left, Right: right}
	nLeft := len(left.Schema())
	var rest []Expr
	for _, c := range Conjuncts(cond) {
		if k, ok := equiKey(c, nLeft); ok && kind != CrossJoin {
			j.EquiKeys = append(j.EquiKeys, k)
			continue
		}
		rest = append(rest, c)
	}
	j.Residual = And(rest...)
	return j
}

func equiKey(c Expr, nLeft int) (EquiKey, bool) {
	call, ok := c.(*Call)
	if !ok || call.Func != nil || len(call.Args) != 2 || (call.Name != OpEq && call.Name != OpNotDistinct) {
		return EquiKey{}, false
	}
	a, b := call.Args[0], call.Args[1]
	sa, sb := side(a, nLeft), side(b, nLeft)
	if sa == 2 && sb == 1 {
		a, b, sa, sb = b, a, sb, sa
	}
	if sa != 1 || sb != 2 {
		return EquiKey{}, false
	}
	return EquiKey{Left: a, Right: ShiftColumns(b, -nLeft), NullSafe: call.Name == OpNotDistinct}, true
}

// side returns 1 when e reads only left columns (and at least one), 2 when
// only right columns, 0 otherwise (both sides, none, or a sub-query).
func side(e Expr, nLeft int) int {
	s := 0
	ok := true
	WalkExpr(e, func(x Expr) bool {
		switch x := x.(type) {
		case *ColumnRef:
			this := 1
			if x.Index >= nLeft {
				this = 2
			}
			if s != 0 && s != this {
				ok = false
			}
			s = this
		case *SubQuery:
			ok = false
		}
		return ok
	})
	if !ok {
		return 0
	}
	return s
}

// Schema returns the left columns then the right ones (only the left ones
// for Semi and Anti); the columns of the side an outer join pads with
// NULLs become nullable.
func (n *Join) Schema() Schema {
	l := n.Left.Schema()
	if n.Kind == SemiJoin || n.Kind == AntiJoin {
		return l
	}
	r := n.Right.Schema()
	out := make(Schema, 0, len(l)+len(r))
	out = append(out, nullableIf(l, n.Kind == RightJoin || n.Kind == FullJoin)...)
	out = append(out, nullableIf(r, n.Kind == LeftJoin || n.Kind == FullJoin)...)
	return out
}

func nullableIf(s Schema, yes bool) Schema {
	if !yes {
		return s
	}
	out := make(Schema, len(s))
	for i, c := range s {
		out[i] = Column{Name: c.Name, Type: c.Type.WithNullable(true)}
	}
	return out
}

// Children returns the left and right inputs.
func (n *Join) Children() []Node { return []Node{n.Left, n.Right} }

// WithChildren replaces the inputs.
func (n *Join) WithChildren(c ...Node) (Node, error) {
	if err := checkChildren("Join", 2, c); err != nil {
		return nil, err
	}
	cp := *n
	cp.Left, cp.Right = c[0], c[1]
	return &cp, nil
}

// Describe prints Join(joinType=[InnerJoin], where=[...]).
func (n *Join) Describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Join(joinType=[%s]", n.Kind)
	if len(n.EquiKeys) > 0 {
		keys := make([]string, len(n.EquiKeys))
		for i, k := range n.EquiKeys {
			op := "="
			if k.NullSafe {
				op = "IS NOT DISTINCT FROM"
			}
			keys[i] = k.Left.String() + " " + op + " " + k.Right.String()
		}
		fmt.Fprintf(&b, ", equi=[%s]", strings.Join(keys, ", "))
	}
	if n.Residual != nil {
		fmt.Fprintf(&b, ", where=[%s]", n.Residual)
	}
	switch n.Strategy {
	case JoinStream:
		b.WriteString(", strategy=[stream]")
	case JoinHash:
		b.WriteString(", strategy=[hash]")
	}
	b.WriteString(")")
	return b.String()
}

// Correlate evaluates Right once per row of Left, with CorrelRefs of ID ID
// reading that row (LATERAL, CROSS JOIN UNNEST, table functions). Output:
// the left columns then the right ones. Kind is InnerJoin (rows without a
// right row are dropped) or LeftJoin (they are kept, padded with NULLs).
type Correlate struct {
	Kind  JoinKind
	ID    int
	Left  Node
	Right Node
}

// Schema returns the left columns then the right ones.
func (n *Correlate) Schema() Schema {
	return append(append(Schema{}, n.Left.Schema()...), nullableIf(n.Right.Schema(), n.Kind == LeftJoin)...)
}

// Children returns the left and right inputs.
func (n *Correlate) Children() []Node { return []Node{n.Left, n.Right} }

// WithChildren replaces the inputs.
func (n *Correlate) WithChildren(c ...Node) (Node, error) {
	if err := checkChildren("Correlate", 2, c); err != nil {
		return nil, err
	}
	cp := *n
	cp.Left, cp.Right = c[0], c[1]
	return &cp, nil
}

// Describe prints Correlate(correlation=[$cor1], joinType=[InnerJoin]).
func (n *Correlate) Describe() string {
	return fmt.Sprintf("Correlate(correlation=[$cor%d], joinType=[%s])", n.ID, n.Kind)
}

// Unnest expands collections into rows: for ARRAY and MULTISET one row per
// element (a ROW element spreads into its fields), for MAP one row per
// entry (key, value). Several expressions are zipped. Exprs usually read
// the outer row through CorrelRefs (the right side of a Correlate); an
// uncorrelated Unnest has no input row. WithOrdinality adds a 1-based INT
// position column last.
type Unnest struct {
	Exprs          []Expr
	WithOrdinality bool
	Cols           Schema
}

// Schema returns Cols.
func (n *Unnest) Schema() Schema { return n.Cols }

// Children returns nil.
func (n *Unnest) Children() []Node { return nil }

// WithChildren accepts no children.
func (n *Unnest) WithChildren(c ...Node) (Node, error) {
	if err := checkChildren("Unnest", 0, c); err != nil {
		return nil, err
	}
	return n, nil
}

// Describe prints Unnest(exprs=[...]).
func (n *Unnest) Describe() string {
	s := "Unnest(exprs=[" + exprList(n.Exprs) + "]"
	if n.WithOrdinality {
		s += ", ordinality=[true]"
	}
	return s + ")"
}

// Conjuncts splits a condition at its top-level ANDs; nil gives nil.
func Conjuncts(e Expr) []Expr {
	if e == nil {
		return nil
	}
	if c, ok := e.(*Call); ok && c.Func == nil && c.Name == OpAnd {
		var out []Expr
		for _, a := range c.Args {
			out = append(out, Conjuncts(a)...)
		}
		return out
	}
	return []Expr{e}
}

// And joins conditions with AND: nil for none, the condition itself for
// one.
func And(es ...Expr) Expr {
	switch len(es) {
	case 0:
		return nil
	case 1:
		return es[0]
	}
	nullable := false
	for _, e := range es {
		nullable = nullable || e.Type().Nullable()
	}
	return &Call{Name: OpAnd, Args: es, T: types.New(types.Boolean).WithNullable(nullable)}
}

var (
	_ Node = (*Join)(nil)
	_ Node = (*Correlate)(nil)
	_ Node = (*Unnest)(nil)
)
