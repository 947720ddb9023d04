package render

import "strings"

// liveTable is the table result mode's materialised table: a change that
// adds a row appends it, one that retracts a row removes the last equal
// row (Flink's MaterializedCollectStreamResult). Removed rows leave a hole
// that is swept when holes outnumber rows, so a retraction costs no scan.
type liveTable struct {
	all  [][]string       // rows in arrival order; nil is a removed row
	at   map[string][]int // a row's text -> its indexes in all
	live int              // rows not removed
	max  int              // the most rows kept, the oldest go first; 0 means no cap
	head int              // all[:head] holds no row
}

func newLiveTable(max int) *liveTable {
	return &liveTable{at: map[string][]int{}, max: max}
}

func rowKey(cells []string) string { return strings.Join(cells, "\x00") }

func (t *liveTable) insert(cells []string) {
	k := rowKey(cells)
	t.at[k] = append(t.at[k], len(t.all))
	t.all = append(t.all, cells)
	t.live++
	for t.max > 0 && t.live > t.max {
		for t.all[t.head] == nil {
			t.head++
		}
		t.remove(rowKey(t.all[t.head]), true)
	}
}

func (t *liveTable) retract(cells []string) { t.remove(rowKey(cells), false) }

// remove drops the last (or, for oldest, the first) row with text k.
func (t *liveTable) remove(k string, oldest bool) {
	idx := t.at[k]
	if len(idx) == 0 {
		return
	}
	var i int
	if oldest {
		i, idx = idx[0], idx[1:]
	} else {
		i, idx = idx[len(idx)-1], idx[:len(idx)-1]
	}
	if len(idx) == 0 {
		delete(t.at, k)
	} else {
		t.at[k] = idx
	}
	t.all[i] = nil
	t.live--
	if len(t.all) > 64 && len(t.all) > 2*t.live {
		t.sweep()
	}
}

// sweep closes the holes.
func (t *liveTable) sweep() {
	rows := t.rows()
	t.all, t.head = rows, 0
	clear(t.at)
	for i, r := range rows {
		k := rowKey(r)
		t.at[k] = append(t.at[k], i)
	}
}

// rows returns the rows in order.
func (t *liveTable) rows() [][]string {
	out := make([][]string, 0, t.live)
	for _, r := range t.all[t.head:] {
		if r != nil {
			out = append(out, r)
		}
	}
	return out
}
