package plan

import (
	"fmt"
	"strings"

	"eddy/engine/functions"
	"eddy/engine/types"
)

// AggCall is one aggregate function call.
type AggCall struct {
	Name     string          // upper-case function name (COUNT, SUM, LISTAGG, ...)
	Func     *functions.Func // the registry entry
	Args     []Expr          // over the input row; empty for COUNT(*)
	Distinct bool            // aggregate over distinct argument values
	// Filter is the FILTER (WHERE ...) condition over the input row, or
	// nil: only rows where it is TRUE are aggregated.
	Filter Expr
	// OrderBy is the WITHIN GROUP (ORDER BY ...) of LISTAGG / ARRAY_AGG, or nil.
	OrderBy []SortKey
	Alias   string // the output column name
	T       *types.Type
}

func (a AggCall) String() string {
	var b strings.Builder
	b.WriteString(a.Name + "(")
	if a.Distinct {
		b.WriteString("DISTINCT ")
	}
	if len(a.Args) == 0 && a.Name == "COUNT" {
		b.WriteString("*")
	}
	b.WriteString(exprList(a.Args) + ")")
	if a.Filter != nil {
		b.WriteString(" FILTER " + a.Filter.String())
	}
	if len(a.OrderBy) > 0 {
		b.WriteString(" WITHIN GROUP " + sortKeys(a.OrderBy))
	}
	return b.String() + " AS " + a.Alias
}

// Aggregate groups its input by Group and computes Aggs per group. Output:
// one column per Group expression (named by GroupNames) then one per
// AggCall. With GroupingSets (GROUPING SETS, ROLLUP, CUBE) each set lists
// the positions in Group it groups by; the group columns outside a set are
// NULL in that set's rows, and sets are emitted in the order given. A nil
// GroupingSets is the single set of all Group expressions. With no Group
// and no GroupingSets the aggregate is global: exactly one output row,
// even for an empty input.
//
// GROUPING(e...) and GROUPING_ID(e...) appear as AggCalls whose Args are
// expressions over the input row, each equal (same printed form) to one
// of Group; the executor computes them from the current grouping set.
type Aggregate struct {
	Input        Node
	Group        []Expr
	GroupNames   []string
	GroupingSets [][]int
	Aggs         []AggCall
	// InputUpdates is set by the changelog pass of engine/opt, in
	// streaming mode, when the input's rows carry updates or deletions:
	// every aggregate function must then retract.
	InputUpdates bool
}

// Schema returns the group columns then the aggregate columns. Group
// columns that some grouping set leaves out become nullable.
func (n *Aggregate) Schema() Schema {
	out := make(Schema, 0, len(n.Group)+len(n.Aggs))
	for i, g := range n.Group {
		t := g.Type()
		if n.GroupingSets != nil && !inEverySet(n.GroupingSets, i) {
			t = t.WithNullable(true)
		}
		out = append(out, Column{Name: n.GroupNames[i], Type: t})
	}
	for _, a := range n.Aggs {
		out = append(out, Column{Name: a.Alias, Type: a.T})
	}
	return out
}

func inEverySet(sets [][]int, i int) bool {
	for _, s := range sets {
		found := false
		for _, x := range s {
			found = found || x == i
		}
		if !found {
			return false
		}
	}
	return true
}

// Children returns the input.
func (n *Aggregate) Children() []Node { return []Node{n.Input} }

// WithChildren replaces the input.
func (n *Aggregate) WithChildren(c ...Node) (Node, error) {
	if err := checkChildren("Aggregate", 1, c); err != nil {
		return nil, err
	}
	cp := *n
	cp.Input = c[0]
	return &cp, nil
}

// Describe prints Aggregate(groupBy=[...], select=[...]).
func (n *Aggregate) Describe() string {
	var b strings.Builder
	b.WriteString("Aggregate(")
	if len(n.Group) > 0 {
		g := make([]string, len(n.Group))
		for i, e := range n.Group {
			g[i] = e.String()
			if ref, ok := e.(*ColumnRef); !ok || ref.Name != n.GroupNames[i] {
				g[i] += " AS " + n.GroupNames[i]
			}
		}
		fmt.Fprintf(&b, "groupBy=[%s], ", strings.Join(g, ", "))
	}
	if n.GroupingSets != nil {
		sets := make([]string, len(n.GroupingSets))
		for i, s := range n.GroupingSets {
			sets[i] = "{" + intList(s) + "}"
		}
		fmt.Fprintf(&b, "groupingSets=[%s], ", strings.Join(sets, ", "))
	}
	aggs := make([]string, len(n.Aggs))
	for i, a := range n.Aggs {
		aggs[i] = a.String()
	}
	fmt.Fprintf(&b, "select=[%s]", strings.Join(aggs, ", "))
	if n.InputUpdates {
		b.WriteString(", inputUpdates=[true]")
	}
	b.WriteString(")")
	return b.String()
}

// FrameMode is ROWS or RANGE.
type FrameMode uint8

// Frame modes.
const (
	FrameRows FrameMode = iota + 1
	FrameRange
)

// BoundKind is one end of a window frame.
type BoundKind uint8

// Frame bounds.
const (
	UnboundedPreceding BoundKind = iota + 1
	Preceding                    // Offset PRECEDING
	CurrentRow
	Following // Offset FOLLOWING
	UnboundedFollowing
)

// Bound is a frame bound; Offset is a constant (a row count for ROWS, a
// value or interval for RANGE) for Preceding and Following, else nil.
type Bound struct {
	Kind   BoundKind
	Offset Expr
}

func (b Bound) String() string {
	switch b.Kind {
	case UnboundedPreceding:
		return "UNBOUNDED PRECEDING"
	case Preceding:
		return b.Offset.String() + " PRECEDING"
	case CurrentRow:
		return "CURRENT ROW"
	case Following:
		return b.Offset.String() + " FOLLOWING"
	case UnboundedFollowing:
		return "UNBOUNDED FOLLOWING"
	}
	return "?"
}

// Frame is a window frame. With an ORDER BY and no explicit frame the
// validator sets Flink's default RANGE BETWEEN UNBOUNDED PRECEDING AND
// CURRENT ROW; without ORDER BY, ROWS BETWEEN UNBOUNDED PRECEDING AND
// UNBOUNDED FOLLOWING.
type Frame struct {
	Mode  FrameMode
	Start Bound
	End   Bound
}

func (f Frame) String() string {
	m := "ROWS"
	if f.Mode == FrameRange {
		m = "RANGE"
	}
	return m + " BETWEEN " + f.Start.String() + " AND " + f.End.String()
}

// WindowCall is one function OVER a window: a ranking or offset function
// (ROW_NUMBER, RANK, DENSE_RANK, PERCENT_RANK, CUME_DIST, NTILE, LAG, LEAD,
// FIRST_VALUE, LAST_VALUE) or an aggregate.
type WindowCall struct {
	Name      string
	Func      *functions.Func
	Args      []Expr // over the input row
	Distinct  bool
	Partition []Expr    // PARTITION BY, over the input row
	Order     []SortKey // ORDER BY
	Frame     Frame     // ignored by ranking functions
	Alias     string
	T         *types.Type
}

func (w WindowCall) String() string {
	var parts []string
	if len(w.Partition) > 0 {
		parts = append(parts, "PARTITION BY "+exprList(w.Partition))
	}
	if len(w.Order) > 0 {
		parts = append(parts, "ORDER BY "+sortKeys(w.Order))
	}
	if w.Frame.Mode != 0 {
		parts = append(parts, w.Frame.String())
	}
	d := ""
	if w.Distinct {
		d = "DISTINCT "
	}
	return fmt.Sprintf("%s(%s%s) OVER (%s) AS %s", w.Name, d, exprList(w.Args), strings.Join(parts, " "), w.Alias)
}

// Over computes window functions. Output: every input column, then one
// column per call. Row order of the output is unspecified (a Sort above
// orders it).
type Over struct {
	Input Node
	Calls []WindowCall
}

// Schema returns the input columns then the call columns.
func (n *Over) Schema() Schema {
	out := append(Schema{}, n.Input.Schema()...)
	for _, c := range n.Calls {
		out = append(out, Column{Name: c.Alias, Type: c.T})
	}
	return out
}

// Children returns the input.
func (n *Over) Children() []Node { return []Node{n.Input} }

// WithChildren replaces the input.
func (n *Over) WithChildren(c ...Node) (Node, error) {
	if err := checkChildren("Over", 1, c); err != nil {
		return nil, err
	}
	cp := *n
	cp.Input = c[0]
	return &cp, nil
}

// Describe prints OverAggregate(select=[...]).
func (n *Over) Describe() string {
	s := make([]string, len(n.Calls))
	for i, c := range n.Calls {
		s[i] = c.String()
	}
	return "OverAggregate(select=[" + strings.Join(s, ", ") + "])"
}

// WindowKind is a windowing table-valued function.
type WindowKind uint8

// Window TVFs.
const (
	Tumble WindowKind = iota + 1
	Hop
	Cumulate
	Session
)

var windowNames = [...]string{Tumble: "TUMBLE", Hop: "HOP", Cumulate: "CUMULATE", Session: "SESSION"}

func (k WindowKind) String() string {
	if int(k) < len(windowNames) && windowNames[k] != "" {
		return windowNames[k]
	}
	return fmt.Sprintf("WindowKind(%d)", uint8(k))
}

// WindowTVF assigns rows to windows (TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts),
// INTERVAL ...))). Output: the input columns, then window_start and
// window_end (TIMESTAMP(3), or TIMESTAMP_LTZ(3) over an LTZ time column)
// and window_time (the time attribute type). A row belongs to one window
// (Tumble) or several (Hop, Cumulate); Session windows are per Partition
// and gap.
type WindowTVF struct {
	Input     Node
	Kind      WindowKind
	TimeCol   int   // input position of the DESCRIPTOR column
	Size      int64 // milliseconds: TUMBLE/HOP size, CUMULATE max size, SESSION gap
	Slide     int64 // milliseconds: HOP slide, CUMULATE step; 0 otherwise
	Offset    int64 // milliseconds: window offset; 0 for none
	Partition []int // SESSION ... PARTITION BY columns
	Cols      Schema
	// Legacy: the window is a legacy group window's (GROUP BY
	// SESSION(ts, gap) and the like), whose refusals Flink words apart.
	Legacy bool
}

// Schema returns Cols.
func (n *WindowTVF) Schema() Schema { return n.Cols }

// Children returns the input.
func (n *WindowTVF) Children() []Node { return []Node{n.Input} }

// WithChildren replaces the input.
func (n *WindowTVF) WithChildren(c ...Node) (Node, error) {
	if err := checkChildren("WindowTableFunction", 1, c); err != nil {
		return nil, err
	}
	cp := *n
	cp.Input = c[0]
	return &cp, nil
}

// Describe prints WindowTableFunction(window=[TUMBLE(time_col=[ts], size=[5000 ms])]).
func (n *WindowTVF) Describe() string {
	in := n.Input.Schema()
	s := fmt.Sprintf("WindowTableFunction(window=[%s(time_col=[%s], size=[%d ms]", n.Kind, in[n.TimeCol].Name, n.Size)
	if n.Slide != 0 {
		s += fmt.Sprintf(", step=[%d ms]", n.Slide)
	}
	if n.Offset != 0 {
		s += fmt.Sprintf(", offset=[%d ms]", n.Offset)
	}
	return s + ")])"
}

var (
	_ Node = (*Aggregate)(nil)
	_ Node = (*Over)(nil)
	_ Node = (*WindowTVF)(nil)
)

// GroupsByWindow says whether the aggregate, over the window table
// function w, groups by both window_start and window_end (a window
// aggregate in streaming mode).
func (n *Aggregate) GroupsByWindow(w *WindowTVF) bool {
	in0 := len(w.Input.Schema())
	hasStart, hasEnd := false, false
	for _, g := range n.Group {
		if r, ok := g.(*ColumnRef); ok {
			hasStart = hasStart || r.Index == in0
			hasEnd = hasEnd || r.Index == in0+1
		}
	}
	if !hasStart || !hasEnd {
		return false
	}
	if w.Kind != Session {
		return true
	}
	// A session window aggregates as a window only when its other keys
	// are the window's partition keys (Flink otherwise runs the session
	// table function, then a group aggregation of its rows).
	part := map[int]bool{}
	for _, p := range w.Partition {
		part[p] = true
	}
	keys := map[int]bool{}
	for _, g := range n.Group {
		r, ok := g.(*ColumnRef)
		if !ok {
			return false
		}
		if r.Index < in0 {
			if !part[r.Index] {
				return false
			}
			keys[r.Index] = true
		}
	}
	return len(keys) == len(part)
}
