package exec

// intTable maps int64 keys to int32 values with open addressing and
// linear probing over flat arrays: the group table of aggregations on one
// integer key, where Go maps cost several cache misses per lookup.
type intTable struct {
	keys  []int64
	vals  []int32 // -1: empty slot
	mask  uint64
	shift uint
	n     int
}

func newIntTable() *intTable {
	t := &intTable{}
	t.init(1024)
	return t
}

func (t *intTable) init(size int) {
	t.keys = make([]int64, size)
	t.vals = make([]int32, size)
	for i := range t.vals {
		t.vals[i] = -1
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
	for i := t.slot(k); ; i = (i + 1) & t.mask {
		v := t.vals[i]
		if v < 0 || t.keys[i] == k {
			return v
		}
	}
}

// put sets the value of k (not present yet).
func (t *intTable) put(k int64, v int32) {
	if (t.n+1)*2 > len(t.vals) {
		oldK, oldV := t.keys, t.vals
		t.init(len(t.vals) * 2)
		for i, ov := range oldV {
			if ov >= 0 {
				t.put(oldK[i], ov)
			}
		}
	}
	i := t.slot(k)
	for t.vals[i] >= 0 {
		i = (i + 1) & t.mask
	}
	t.keys[i], t.vals[i] = k, v
	t.n++
}

// set inserts k or replaces its value.
func (t *intTable) set(k int64, v int32) {
	for i := t.slot(k); ; i = (i + 1) & t.mask {
		if t.vals[i] < 0 {
			break
		}
		if t.keys[i] == k {
			t.vals[i] = v
			return
		}
	}
	t.put(k, v)
}
