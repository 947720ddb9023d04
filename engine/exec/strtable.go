package exec

import "hash/maphash"

// strTable maps strings to dense int32 ids with open addressing over one
// flat array of (hash, id) slots; the strings themselves live in the
// caller's key column (keys[id]), so that a group's key is stored once.
type strTable struct {
	slots []strSlot
	mask  uint64
	n     int
	seed  maphash.Seed
}

type strSlot struct {
	hash uint64
	id   int32 // -1: empty slot
}

func newStrTable() *strTable {
	t := &strTable{seed: maphash.MakeSeed()}
	t.init(1024)
	return t
}

func (t *strTable) init(size int) {
	t.slots = make([]strSlot, size)
	for i := range t.slots {
		t.slots[i].id = -1
	}
	t.mask = uint64(size - 1)
}

func (t *strTable) hash(s string) uint64 { return maphash.String(t.seed, s) }

// get returns the id of s (whose hash is h) among keys, or -1.
func (t *strTable) get(s string, h uint64, keys []string) int32 {
	slots := t.slots
	for i := h & t.mask; ; i = (i + 1) & t.mask {
		sl := &slots[i]
		if sl.id < 0 || sl.hash == h && keys[sl.id] == s {
			return sl.id
		}
	}
}

// put adds id under hash h (its key not present yet).
func (t *strTable) put(h uint64, id int32) {
	if (t.n+1)*2 > len(t.slots) {
		old := t.slots
		t.init(len(old) * 2)
		t.n = 0
		for _, sl := range old {
			if sl.id >= 0 {
				t.put(sl.hash, sl.id)
			}
		}
	}
	i := h & t.mask
	for t.slots[i].id >= 0 {
		i = (i + 1) & t.mask
	}
	t.slots[i] = strSlot{hash: h, id: id}
	t.n++
}

// find returns the id under hash h for which eq holds, or -1: the table
// of keys of several columns, whose equality the caller decides.
func (t *strTable) find(h uint64, eq func(id int32) bool) int32 {
	slots := t.slots
	for i := h & t.mask; ; i = (i + 1) & t.mask {
		sl := &slots[i]
		if sl.id < 0 || sl.hash == h && eq(sl.id) {
			return sl.id
		}
	}
}
