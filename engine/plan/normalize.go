package plan

import (
	"fmt"
	"strings"
)

// ChangelogNormalize turns the upsert stream of a source (inserts and
// update-afters that replace the row of their key, deletes by key) into a
// full changelog: the first row of a key is +I, a later one -U with the
// row it replaces and +U, a delete -D with the full row it removes; a
// delete of a key never seen, and a row equal to the one it replaces,
// produce nothing. The optimizer (engine/opt) puts one above every scan
// of a source that declares it produces upserts, keyed by the table's
// PRIMARY KEY, as Flink's planner does.
type ChangelogNormalize struct {
	Input Node
	// Key are the positions of the key columns in the input row.
	Key []int
}

// Schema returns the input's columns.
func (n *ChangelogNormalize) Schema() Schema { return n.Input.Schema() }

// Children returns the input.
func (n *ChangelogNormalize) Children() []Node { return []Node{n.Input} }

// WithChildren replaces the input.
func (n *ChangelogNormalize) WithChildren(c ...Node) (Node, error) {
	if err := checkChildren("ChangelogNormalize", 1, c); err != nil {
		return nil, err
	}
	cp := *n
	cp.Input = c[0]
	return &cp, nil
}

// Describe prints ChangelogNormalize(key=[id]) as Flink's plans do.
func (n *ChangelogNormalize) Describe() string {
	names := n.Input.Schema().Names()
	key := make([]string, len(n.Key))
	for i, k := range n.Key {
		key[i] = names[k]
	}
	return fmt.Sprintf("ChangelogNormalize(key=[%s])", strings.Join(key, ", "))
}
