package exec

import (
	"eddy/engine/functions"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// The flat aggregation is the batch-mode hash aggregation of one grouping
// set whose aggregates all keep flat group state (functions.
// GroupAccumulator): a batch resolves the group id of every row through a
// table specialised for its key (one integer column, one string column,
// or the byte encoding of several), new groups append their key values to
// typed key columns, and each aggregate then folds the whole batch in by
// the array of group ids. No structure is kept per group.

// flatState is the group table of a flat aggregation pass.
type flatState struct {
	keys []*vector.Vec // per group column in the set: the groups' key values, by id
	ints *intTable     // one integer key
	// dense replaces ints while the integer keys span a small range:
	// dense[key-denseMin] is the key's group, or -1.
	dense    []int32
	denseMin int64
	strs     *strTable // one string key
	bytes    map[string]int32
	nullID   int32 // the NULL key's group (one-column keys), or -1
	ids      []int32
	masked   []int32
	hashes   []uint64
	buf      []byte
}

// flatEligible reports whether an aggregation can run flat.
func (o *aggOp) flatEligible() bool {
	if o.streaming || len(o.sets) != 1 {
		return false
	}
	for _, s := range o.specs {
		if !s.grouping && s.newGacc == nil {
			return false
		}
	}
	for i, g := range o.n.Group {
		if vector.ClassOf(g.Type()) != vector.ClassOf(o.outTypes[i]) {
			return false
		}
	}
	return true
}

func (o *aggOp) newFlatState() *flatState {
	f := &flatState{nullID: -1, keys: make([]*vector.Vec, len(o.n.Group))}
	for _, k := range o.sets[0] {
		f.keys[k] = vector.New(o.outTypes[k], 0)
	}
	return f
}

// consumeFlat folds one input batch into the flat state.
func (o *aggOp) consumeFlat(bt *vector.Batch, keyVecs []*vector.Vec, args [][]*vector.Vec, filters []*vector.Vec) error {
	// Without accumulators (GROUP BY alone) a retracting row makes no
	// group, as on the per-group path; with them it is refused.
	retracts := false
	if bt.Kinds != nil {
		for row := range bt.N {
			if !bt.Kind(row).IsAccumulate() {
				if o.hasGroupAcc() {
					return &UnsupportedError{What: "aggregation of an updating input in batch mode"}
				}
				retracts = true
			}
		}
	}
	retract := func(row int) bool { return retracts && !bt.Kind(row).IsAccumulate() }
	// whole: every row is in group 0 (a global aggregation of rows that
	// all accumulate).
	whole := false
	st := o.st
	f := st.flat
	if cap(f.ids) < bt.N {
		f.ids = make([]int32, bt.N)
	}
	ids := f.ids[:bt.N]
	cols := o.sets[0]
	canSpill := o.depth < maxAggDepth && len(o.n.Group) > 0 && spillable(o.inTypes)
	var spillRows, spillPart []int
	switch {
	case len(cols) == 0:
		if st.n == 0 {
			o.newFlatGroup(keyVecs, 0)
		}
		clear(ids)
		whole = !retracts
	case len(cols) == 1 && keyVecs[cols[0]].Class == vector.Int:
		kv := keyVecs[cols[0]]
		if f.dense == nil && f.ints == nil {
			o.fitIntKeys(kv, 0, bt.N)
		}
		nulls := kv.HasNulls()
		dense, denseMin := f.dense, f.denseMin
		keys := kv.Ints[:bt.N]
		for row := 0; row < len(keys); row++ {
			if dense != nil && !nulls {
				// The run of rows whose groups the dense array has, in a
				// loop of its own; the row it stops at is taken below.
				row += denseIDs(keys[row:], dense, denseMin, ids[row:])
				if row == len(keys) {
					break
				}
			}
			k := keys[row]
			var id int32
			switch {
			case nulls && kv.IsNull(row):
				id = f.nullID
			case dense != nil:
				d := uint64(k - denseMin)
				if d >= uint64(len(dense)) {
					// A key past the dense array: fit the table to the
					// rest of the batch (a larger array, or the hash table).
					o.fitIntKeys(kv, row, bt.N)
					dense, denseMin = f.dense, f.denseMin
					if dense == nil {
						id = f.ints.get(k)
						break
					}
					d = uint64(k - denseMin)
				}
				id = dense[d]
			default:
				id = f.ints.get(k)
			}
			if id < 0 && retract(row) {
				ids[row] = -1
				continue
			}
			if id < 0 {
				if canSpill && o.full() {
					spillRows = append(spillRows, row)
					spillPart = append(spillPart, int((uint64(intKeyOf(kv, row))*0x9E3779B97F4A7C15>>40>>(spillBits*o.depth))%spillPartitions))
					ids[row] = -1
					continue
				}
				id = o.newFlatGroup(keyVecs, row)
				switch {
				case nulls && kv.IsNull(row):
					f.nullID = id
				case dense != nil:
					dense[k-denseMin] = id
				default:
					f.ints.put(k, id)
				}
			}
			ids[row] = id
		}
	case len(cols) == 1 && keyVecs[cols[0]].Class == vector.String:
		kv := keyVecs[cols[0]]
		if f.strs == nil {
			f.strs = newStrTable()
		}
		if cap(f.hashes) < bt.N {
			f.hashes = make([]uint64, bt.N)
		}
		hashes := f.hashes[:bt.N]
		for row, s := range kv.Strs[:bt.N] {
			hashes[row] = f.strs.hash(s)
		}
		nulls := kv.HasNulls()
		keys := f.keys[cols[0]]
		for row, s := range kv.Strs[:bt.N] {
			var id int32
			if nulls && kv.IsNull(row) {
				id = f.nullID
			} else {
				id = f.strs.get(s, hashes[row], keys.Strs)
			}
			if id < 0 && retract(row) {
				ids[row] = -1
				continue
			}
			if id < 0 {
				if canSpill && o.full() {
					f.buf = vector.AppendKey(append(f.buf[:0], 0, 0), kv, row)
					spillRows = append(spillRows, row)
					spillPart = append(spillPart, int((hashBytes(f.buf)>>(spillBits*o.depth))%spillPartitions))
					ids[row] = -1
					continue
				}
				id = o.newFlatGroup(keyVecs, row)
				if nulls && kv.IsNull(row) {
					f.nullID = id
				} else {
					f.strs.put(hashes[row], id)
				}
			}
			ids[row] = id
		}
	case multiKeyable(keyVecs, cols):
		if f.strs == nil {
			f.strs = newStrTable()
		}
		if cap(f.hashes) < bt.N {
			f.hashes = make([]uint64, bt.N)
		}
		hashes := f.hashes[:bt.N]
		hashKeys(f.strs, keyVecs, cols, hashes)
		for row := range bt.N {
			id := f.strs.find(hashes[row], func(id int32) bool { return sameKey(keyVecs, row, f.keys, int(id), cols) })
			if id < 0 && retract(row) {
				ids[row] = -1
				continue
			}
			if id < 0 {
				if canSpill && o.full() {
					f.buf = append(f.buf[:0], 0, 0)
					for _, k := range cols {
						f.buf = vector.AppendKey(f.buf, keyVecs[k], row)
					}
					spillRows = append(spillRows, row)
					spillPart = append(spillPart, int((hashBytes(f.buf)>>(spillBits*o.depth))%spillPartitions))
					ids[row] = -1
					continue
				}
				id = o.newFlatGroup(keyVecs, row)
				f.strs.put(hashes[row], id)
			}
			ids[row] = id
		}
	default:
		if f.bytes == nil {
			f.bytes = map[string]int32{}
		}
		for row := range bt.N {
			f.buf = append(f.buf[:0], 0, 0)
			for _, k := range cols {
				f.buf = vector.AppendKey(f.buf, keyVecs[k], row)
			}
			id, ok := f.bytes[string(f.buf)]
			if !ok && retract(row) {
				ids[row] = -1
				continue
			}
			if !ok {
				if canSpill && o.full() {
					spillRows = append(spillRows, row)
					spillPart = append(spillPart, int((hashBytes(f.buf)>>(spillBits*o.depth))%spillPartitions))
					ids[row] = -1
					continue
				}
				id = o.newFlatGroup(keyVecs, row)
				f.bytes[string(f.buf)] = id
			}
			ids[row] = id
		}
	}
	for i := range o.specs {
		gacc := st.gaccs[i]
		if gacc == nil {
			continue
		}
		gacc.Grow(st.n)
		if one, ok := gacc.(functions.OneGroupAccumulator); ok && whole && filters[i] == nil {
			one.UpdateOne(bt.N, args[i])
			continue
		}
		setIDs := ids
		if fv := filters[i]; fv != nil {
			if cap(f.masked) < bt.N {
				f.masked = make([]int32, bt.N)
			}
			setIDs = f.masked[:bt.N]
			for row, g := range ids {
				setIDs[row] = g
				if fv.IsNull(row) || !fv.Bools[row] {
					setIDs[row] = -1
				}
			}
		}
		gacc.Update(setIDs, args[i])
	}
	if len(spillRows) > 0 {
		return o.spill(bt, spillRows, spillPart)
	}
	return nil
}

// denseIDs sets ids[row] to the group of keys[row] from the dense array
// (dense[key-min]) up to the first key without one there, and returns the
// number of rows it set. The keys hold no NULL.
func denseIDs(keys []int64, dense []int32, min int64, ids []int32) int {
	ids = ids[:len(keys)]
	for row, k := range keys {
		d := uint64(k - min)
		if d >= uint64(len(dense)) {
			return row
		}
		id := dense[d]
		if id < 0 {
			return row
		}
		ids[row] = id
	}
	return len(keys)
}

// newFlatGroup adds the group of row's key and returns its id.
func (o *aggOp) newFlatGroup(keyVecs []*vector.Vec, row int) int32 {
	st := o.st
	id := int32(st.n)
	st.n++
	st.bytes += o.groupBytes
	for _, k := range o.sets[0] {
		// Doubling, as the accumulators' arrays grow.
		st.flat.keys[k].Reserve(1)
		st.flat.keys[k].AppendFrom(keyVecs[k], row)
		st.bytes += vecBytes(keyVecs[k], row, row+1)
	}
	if o.firsts {
		st.firsts = append(st.firsts, o.ords.Ints[row])
	}
	return id
}

// flushFlat returns the result rows of the flat state's groups, in order
// of first appearance.
func (o *aggOp) flushFlat() *vector.Batch {
	st := o.st
	if st.n == 0 && len(o.n.Group) == 0 && o.n.GroupingSets == nil {
		// A global aggregate over no rows still gives one row.
		st.n = 1
	}
	n := st.n
	for _, g := range st.gaccs {
		if g != nil {
			g.Grow(n)
		}
	}
	out := &vector.Batch{N: n, Cols: make([]*vector.Vec, 0, len(o.outTypes))}
	for k := range o.n.Group {
		if v := st.flat.keys[k]; v != nil {
			out.Cols = append(out.Cols, v)
			continue
		}
		out.Cols = append(out.Cols, vector.Const(o.outTypes[k], nil, n))
	}
	for i, s := range o.specs {
		t := o.outTypes[len(o.n.Group)+i]
		switch {
		case s.groupID:
			out.Cols = append(out.Cols, vector.Const(t, groupIDValue(s, o.sets, 0), n))
		case s.grouping:
			out.Cols = append(out.Cols, vector.Const(t, groupingValue(s, o.sets[0]), n))
		default:
			out.Cols = append(out.Cols, groupResults(st.gaccs[i], t, n))
		}
	}
	if o.firsts {
		out.Cols = append(out.Cols, firstsVec(st.firsts))
	}
	return out
}

// groupResults is the column of a group accumulator's results.
func groupResults(g interface{ Result(int) any }, t *types.Type, n int) *vector.Vec {
	if rv, ok := g.(functions.GroupResultVector); ok {
		if v, ok := rv.ResultVec(t, n); ok {
			return v
		}
	}
	v := vector.New(t, n)
	for i := range n {
		v.Append(g.Result(i))
	}
	return v
}

// multiKeyable reports whether key columns can use the table of several
// columns: integers, strings and booleans, compared by value.
func multiKeyable(keyVecs []*vector.Vec, cols []int) bool {
	for _, k := range cols {
		switch keyVecs[k].Class {
		case vector.Int, vector.String, vector.Bool:
		default:
			return false
		}
	}
	return true
}

// hashKeys sets hashes[row] to the hash of the key columns' values at
// row, a column at a time.
func hashKeys(t *strTable, keyVecs []*vector.Vec, cols []int, hashes []uint64) {
	for row := range hashes {
		hashes[row] = 0
	}
	const nullHash = 0x5bd1e9955bd1e995
	for _, k := range cols {
		v := keyVecs[k]
		switch v.Class {
		case vector.Int:
			for row, x := range v.Ints[:len(hashes)] {
				hashes[row] = (hashes[row]*0x100000001b3 ^ uint64(x)) * 0x9E3779B97F4A7C15
			}
		case vector.String:
			for row, x := range v.Strs[:len(hashes)] {
				hashes[row] = hashes[row]*0x100000001b3 ^ t.hash(x)
			}
		case vector.Bool:
			for row, x := range v.Bools[:len(hashes)] {
				b := uint64(1)
				if x {
					b = 2
				}
				hashes[row] = (hashes[row]*0x100000001b3 ^ b) * 0x9E3779B97F4A7C15
			}
		}
		if v.HasNulls() {
			for row := range hashes {
				if v.IsNull(row) {
					hashes[row] = (hashes[row]*0x100000001b3 ^ nullHash) * 0x9E3779B97F4A7C15
				}
			}
		}
		for row := range hashes {
			h := hashes[row]
			hashes[row] = h ^ h>>29
		}
	}
}

// sameKey reports whether the key columns hold equal values (NULL equal
// to NULL) at row of keyVecs and at group id of the groups' key columns.
func sameKey(keyVecs []*vector.Vec, row int, groups []*vector.Vec, id int, cols []int) bool {
	for _, k := range cols {
		v, g := keyVecs[k], groups[k]
		vn, gn := v.IsNull(row), g.IsNull(id)
		if vn || gn {
			if vn != gn {
				return false
			}
			continue
		}
		switch v.Class {
		case vector.Int:
			if v.Ints[row] != g.Ints[id] {
				return false
			}
		case vector.String:
			if v.Strs[row] != g.Strs[id] {
				return false
			}
		case vector.Bool:
			if v.Bools[row] != g.Bools[id] {
				return false
			}
		}
	}
	return true
}

// fitIntKeys readies the integer group table for the non-NULL keys of
// rows from to n of a batch: the dense array while all keys seen span at
// most 2^18 slots or a few slots per group (extended as needed, 4 bytes a
// slot), else the hash table, which the dense array turns into once keys
// spread out. It is called for a table's first keys and for a key past
// the dense array.
func (o *aggOp) fitIntKeys(kv *vector.Vec, from, n int) {
	f := o.st.flat
	if f.ints != nil {
		return
	}
	lo, hi, seen := int64(0), int64(0), false
	nulls := kv.HasNulls()
	for row := from; row < n; row++ {
		k := kv.Ints[row]
		if nulls && kv.IsNull(row) {
			continue
		}
		if !seen {
			lo, hi, seen = k, k, true
			continue
		}
		lo, hi = min(lo, k), max(hi, k)
	}
	if !seen {
		return
	}
	if f.dense != nil {
		lo, hi = min(lo, f.denseMin), max(hi, f.denseMin+int64(len(f.dense))-1)
	}
	limit := uint64(max(1<<18, 4*(o.st.n+n)))
	if f.dense != nil {
		// A key past the array: leave room for the keys that follow
		// beyond the new ones, half the array's length on each side
		// (within the limit), so that keys spreading a batch at a time
		// do not copy the array each time.
		pad := int64(len(f.dense) / 2)
		if plo, phi := lo-pad, hi+pad; plo < lo && phi > hi && phi-plo >= 0 && uint64(phi-plo) < limit {
			lo, hi = plo, phi
		}
	}
	span := uint64(hi - lo)
	if hi-lo >= 0 && span < limit {
		if f.dense != nil && lo == f.denseMin && int(span) < len(f.dense) {
			return
		}
		dense := make([]int32, span+1)
		for i := range dense {
			dense[i] = -1
		}
		if f.dense != nil {
			copy(dense[f.denseMin-lo:], f.dense)
		}
		f.dense, f.denseMin = dense, lo
		return
	}
	f.ints = newIntTableFor(o.st.n)
	if f.dense != nil {
		for d, id := range f.dense {
			if id >= 0 {
				f.ints.put(f.denseMin+int64(d), id)
			}
		}
		f.dense = nil
	}
}
