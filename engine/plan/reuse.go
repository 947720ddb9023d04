package plan

import "strconv"

// MaxTreeLines is the number of lines up to which a plan prints as a
// tree with every shared sub-plan printed in full wherever it is read.
// A larger plan (a chain of views each reading the one before twice
// doubles at every level) prints each shared sub-plan once, marked
// reuse_id=[k], and every later read of it as Reused(reference_id=[k]),
// as Flink prints a reused sub-plan.
const MaxTreeLines = 10000

// Reuse numbers the shared sub-plans of a plan as a printer meets them.
// Its zero value prints every plan as a tree.
type Reuse struct {
	shared map[Node]bool
	ids    map[Node]int
}

// NewReuse returns the Reuse for printing root: empty when root prints
// as a tree of at most MaxTreeLines lines.
func NewReuse(root Node) *Reuse {
	size := map[Node]int{}
	var count func(n Node) int
	count = func(n Node) int {
		if s, ok := size[n]; ok {
			return s
		}
		s := 1
		for _, c := range n.Children() {
			s += count(c)
			if s > MaxTreeLines {
				s = MaxTreeLines + 1
			}
		}
		size[n] = s
		return s
	}
	if count(root) <= MaxTreeLines {
		return &Reuse{}
	}
	seen := map[Node]bool{}
	shared := map[Node]bool{}
	var mark func(n Node)
	mark = func(n Node) {
		if seen[n] {
			shared[n] = true
			return
		}
		seen[n] = true
		for _, c := range n.Children() {
			mark(c)
		}
	}
	mark(root)
	return &Reuse{shared: shared, ids: map[Node]int{}}
}

// Line returns the line that prints n and whether its children follow:
// describe's answer for a node printed in full (with reuse_id=[k] added
// for a shared one), Reused(reference_id=[k]) and false for a shared
// node printed before.
func (r *Reuse) Line(n Node, describe string) (string, bool) {
	if r == nil || !r.shared[n] {
		return describe, true
	}
	if id, ok := r.ids[n]; ok {
		return "Reused(reference_id=[" + strconv.Itoa(id) + "])", false
	}
	id := len(r.ids) + 1
	r.ids[n] = id
	attr := "reuse_id=[" + strconv.Itoa(id) + "]"
	if l := len(describe); l > 0 && describe[l-1] == ')' {
		if describe[l-2] == '(' {
			return describe[:l-1] + attr + ")", true
		}
		return describe[:l-1] + ", " + attr + ")", true
	}
	return describe + "(" + attr + ")", true
}

// WalkOnce is Walk visiting each distinct node once: a sub-plan several
// nodes read (a view or a common table expression read twice) is visited
// once, not once per path to it.
func WalkOnce(n Node, fn func(Node)) {
	seen := map[Node]bool{}
	var walk func(n Node)
	walk = func(n Node) {
		if n == nil || seen[n] {
			return
		}
		seen[n] = true
		fn(n)
		for _, e := range NodeExprs(n) {
			WalkExpr(e, func(x Expr) bool {
				if sq, ok := x.(*SubQuery); ok {
					walk(sq.Query)
				}
				return true
			})
		}
		for _, c := range n.Children() {
			walk(c)
		}
	}
	walk(n)
}
