package exec

// intTable maps int64 keys to int32 values with open addressing and
// linear probing over one flat array of slots, each holding its key and
// value side by side so that a lookup touches one cache line: the group
// table of aggregations on one integer key and the build table of joins
// on one, where Go maps cost several cache misses per lookup.
type intTable struct {
	slots []intSlot
	mask  uint64
	shift uint
	n     int
}

type intSlot struct {
	key int64
	val int32 // -1: empty slot
}

func newIntTable() *intTable {
	t := &intTable{}
	t.init(1024)
	return t
}

// newIntTableFor returns a table sized for n keys.
func newIntTableFor(n int) *intTable {
	size := 1024
	for size < 2*n {
		size <<= 1
	}
	t := &intTable{}
	t.init(size)
	return t
}

func (t *intTable) init(size int) {
	t.slots = make([]intSlot, size)
	for i := range t.slots {
		t.slots[i].val = -1
	}
	t.mask = uint64(size - 1)
	t.shift = 64
	for s := size; s > 1; s >>= 1 {
		t.shift--
	}
	t.n = 0
}

func (t *intTable) slot(k int64) uint64 {
	return (uint64(k) * 0x9E3779B97F4A7C15) >> t.shift
}

// get returns the value of k, or -1.
func (t *intTable) get(k int64) int32 {
	slots := t.slots
	for i := t.slot(k); ; i = (i + 1) & t.mask {
		s := &slots[i]
		if s.val < 0 || s.key == k {
			return s.val
		}
	}
}

// put sets the value of k (not present yet).
func (t *intTable) put(k int64, v int32) {
	if (t.n+1)*2 > len(t.slots) {
		old := t.slots
		t.init(len(old) * 2)
		for _, s := range old {
			if s.val >= 0 {
				t.put(s.key, s.val)
			}
		}
	}
	i := t.slot(k)
	for t.slots[i].val >= 0 {
		i = (i + 1) & t.mask
	}
	t.slots[i] = intSlot{key: k, val: v}
	t.n++
}

// set inserts k or replaces its value.
func (t *intTable) set(k int64, v int32) {
	for i := t.slot(k); ; i = (i + 1) & t.mask {
		s := &t.slots[i]
		if s.val < 0 {
			break
		}
		if s.key == k {
			s.val = v
			return
		}
	}
	t.put(k, v)
}
