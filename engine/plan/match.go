package plan

import (
	"strconv"
	"strings"

	"eddy/engine/types"
)

// MatchVar is one variable of a row pattern with its quantifier: at least
// Min and at most Max rows (Max -1: no bound). Greedy loops keep taking
// rows while their condition holds (Flink's CEP greedy()); the others
// explore every way to continue.
type MatchVar struct {
	Name     string
	Min, Max int
	Greedy   bool
}

// String prints the variable with its quantifier.
func (v MatchVar) String() string {
	s := v.Name
	switch {
	case v.Min == 1 && v.Max == 1:
		return s
	case v.Min == 0 && v.Max == -1:
		s += "*"
	case v.Min == 1 && v.Max == -1:
		s += "+"
	case v.Min == 0 && v.Max == 1:
		s += "?"
	case v.Max == -1:
		s += "{" + strconv.Itoa(v.Min) + ",}"
	case v.Min == v.Max:
		s += "{" + strconv.Itoa(v.Min) + "}"
	default:
		s += "{" + strconv.Itoa(v.Min) + "," + strconv.Itoa(v.Max) + "}"
	}
	if !v.Greedy && !(v.Min == 0 && v.Max == 1) && v.Min != v.Max {
		s += "?"
	}
	return s
}

// MatchSlotKind tells what a slot of a match expression reads.
type MatchSlotKind uint8

// Slot kinds.
const (
	// SlotNav is the value of Args[0] on one row of the rows mapped to
	// Vars (all rows when Vars is nil): the Offset-th from the end (LAST,
	// and a plain reference) or from the start (First).
	SlotNav MatchSlotKind = iota + 1
	// SlotAgg is the aggregate Agg over Args on the rows mapped to Vars.
	SlotAgg
	// SlotClassifier is the variable the last row is mapped to.
	SlotClassifier
	// SlotMatchNumber is the number of the match in its partition, from 1.
	SlotMatchNumber
	// SlotRowtime is the event time (the first order key, in
	// milliseconds) of the last row: MATCH_ROWTIME().
	SlotRowtime
	// SlotProctime is the processing time: MATCH_PROCTIME().
	SlotProctime
)

// MatchSlot is one input of the expressions of a Match: DEFINE and
// MEASURES expressions read their navigation operations, aggregates,
// CLASSIFIER() and MATCH_NUMBER() as ColumnRefs to slots.
type MatchSlot struct {
	Kind   MatchSlotKind
	Vars   []string // the variables whose rows are read; nil: every row
	First  bool     // SlotNav: count from the first row
	Offset int      // SlotNav: the row's distance from the last (or first)
	Agg    string   // SlotAgg: the aggregate function
	Args   []Expr   // over the input row
	T      *types.Type
}

func (s MatchSlot) String() string {
	vars := "*"
	if s.Vars != nil {
		vars = strings.Join(s.Vars, "|")
	}
	switch s.Kind {
	case SlotNav:
		f := "LAST"
		if s.First {
			f = "FIRST"
		}
		return f + "(" + vars + "." + s.Args[0].String() + ", " + strconv.Itoa(s.Offset) + ")"
	case SlotAgg:
		return s.Agg + "(" + vars + ": " + exprList(s.Args) + ")"
	case SlotClassifier:
		return "CLASSIFIER()"
	case SlotRowtime:
		return "MATCH_ROWTIME()"
	case SlotProctime:
		return "MATCH_PROCTIME()"
	}
	return "MATCH_NUMBER()"
}

// After-match strategies.
const (
	SkipPastLastRow = "SKIP PAST LAST ROW"
	SkipToNextRow   = "SKIP TO NEXT ROW"
	SkipToFirst     = "SKIP TO FIRST"
	SkipToLast      = "SKIP TO LAST"
)

// Match is MATCH_RECOGNIZE with ONE ROW PER MATCH: it partitions its
// input, orders each partition, finds the matches of a sequence of
// quantified variables, and emits one row per match: the partition
// columns, then the measures.
type Match struct {
	Input     Node
	Partition []int     // input columns
	Order     []SortKey // over the input row; the first is the time order
	Pattern   []MatchVar
	// Defines holds each pattern variable's condition (nil: TRUE), over
	// Slots, evaluated as if the current row were mapped to the variable.
	Defines  []Expr
	Measures []Expr // over Slots, on the final match
	Slots    []MatchSlot
	After    string // one of the Skip constants
	AfterVar string // SkipToFirst, SkipToLast
	// WithinMillis bounds the time between a match's first and last row
	// (0: no bound); the time is the first order key's.
	WithinMillis int64
	// Proctime tells that the order is processing time: rows match in
	// arrival order.
	Proctime bool
	Cols     Schema
}

// Schema returns the partition columns and the measures.
func (n *Match) Schema() Schema { return n.Cols }

// Children returns the input.
func (n *Match) Children() []Node { return []Node{n.Input} }

// WithChildren replaces the input.
func (n *Match) WithChildren(c ...Node) (Node, error) {
	if err := checkChildren("Match", 1, c); err != nil {
		return nil, err
	}
	cp := *n
	cp.Input = c[0]
	return &cp, nil
}

// Describe prints Match(partitionBy=[...], orderBy=[...], pattern=[...], ...).
func (n *Match) Describe() string {
	in := n.Input.Schema()
	parts := make([]string, len(n.Partition))
	for i, p := range n.Partition {
		parts[i] = in[p].Name
	}
	pat := make([]string, len(n.Pattern))
	for i, v := range n.Pattern {
		pat[i] = v.String()
	}
	var b strings.Builder
	b.WriteString("Match(partitionBy=[" + strings.Join(parts, ", ") + "], orderBy=[" + sortKeys(n.Order) + "]")
	b.WriteString(", pattern=[" + strings.Join(pat, " ") + "]")
	after := n.After
	if n.AfterVar != "" {
		after += " " + n.AfterVar
	}
	b.WriteString(", after=[" + after + "]")
	if n.WithinMillis > 0 {
		b.WriteString(", within=[" + strconv.FormatInt(n.WithinMillis, 10) + "ms]")
	}
	var defs []string
	for i, d := range n.Defines {
		if d != nil {
			defs = append(defs, n.Pattern[i].Name+"="+d.String())
		}
	}
	b.WriteString(", define=[" + strings.Join(defs, ", ") + "]")
	ms := make([]string, len(n.Measures))
	out := n.Cols[len(n.Partition):]
	for i, m := range n.Measures {
		ms[i] = m.String() + " AS " + out[i].Name
	}
	b.WriteString(", measures=[" + strings.Join(ms, ", ") + "]")
	slots := make([]string, len(n.Slots))
	for i, s := range n.Slots {
		slots[i] = "$" + strconv.Itoa(i) + "=" + s.String()
	}
	b.WriteString(", slots=[" + strings.Join(slots, ", ") + "])")
	return b.String()
}
