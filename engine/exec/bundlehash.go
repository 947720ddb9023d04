package exec

import (
	"encoding/binary"
	"math/bits"
	"sort"

	"eddy/engine/types"
)

// Flink keeps the records of a bundle in a java.util.HashMap keyed by the
// binary row of the grouping key, and a bundle's end walks that map: its
// results come out in the map's order, and in two phases the order of the
// local results decides which of them a global bundle ends after. eddy
// orders a bundle's keys the same way for keys of integers, booleans and
// strings (first appearance otherwise): by the key row's hash (Flink's
// BinaryRowData layout hashed by MurmurHashUtil.hashBytesByWords), spread
// and masked by the map's capacity as HashMap does, equal buckets in
// insertion order.

// bundleMap is the capacity of one of Flink's bundle maps: it grows with
// the keys of a bundle and keeps its size when the bundle ends.
type bundleMap struct{ cap int }

// order returns the positions of keys (in first-appearance order, hashes
// as keyHash returned them) in the order the map walks them.
func (m *bundleMap) order(hashes []uint32, ok bool) []int {
	if m.cap == 0 {
		m.cap = 16
	}
	for len(hashes) > m.cap*3/4 {
		m.cap *= 2
	}
	pos := make([]int, len(hashes))
	for i := range pos {
		pos[i] = i
	}
	if !ok {
		return pos
	}
	mask := uint32(m.cap - 1)
	bucket := func(h uint32) uint32 { return (h ^ h>>16) & mask }
	sort.SliceStable(pos, func(a, b int) bool { return bucket(hashes[pos[a]]) < bucket(hashes[pos[b]]) })
	return pos
}

// keyHash is the hash of Flink's binary row of a key's values; false when
// a type's layout is not modelled.
func keyHash(vals []any, ts []*types.Type) (uint32, bool) {
	n := len(vals)
	header := ((n + 63 + 8) / 64) * 8
	row := make([]byte, header+8*n)
	for i, v := range vals {
		slot := row[header+8*i : header+8*i+8]
		if v == nil {
			bit := i + 8
			row[bit/8] |= 1 << (bit % 8)
			continue
		}
		switch ts[i].Kind {
		case types.TinyInt, types.SmallInt, types.Int, types.BigInt:
			x, ok := types.AsInt64(v)
			if !ok {
				return 0, false
			}
			switch ts[i].Kind {
			case types.TinyInt:
				slot[0] = byte(x)
			case types.SmallInt:
				binary.LittleEndian.PutUint16(slot, uint16(x))
			case types.Int:
				binary.LittleEndian.PutUint32(slot, uint32(x))
			default:
				binary.LittleEndian.PutUint64(slot, uint64(x))
			}
		case types.Boolean:
			if b, _ := v.(bool); b {
				slot[0] = 1
			}
		case types.Char, types.VarChar:
			s, ok := v.(string)
			if !ok {
				return 0, false
			}
			if len(s) <= 7 {
				copy(slot, s)
				slot[7] = 0x80 | byte(len(s))
				continue
			}
			off := len(row)
			binary.LittleEndian.PutUint64(slot, uint64(off)<<32|uint64(len(s)))
			row = append(row, s...)
			for len(row)%8 != 0 {
				row = append(row, 0)
			}
		default:
			return 0, false
		}
	}
	return murmurWords(row), true
}

// murmurWords is Flink's MurmurHashUtil.hashBytesByWords (seed 42) over
// little-endian words.
func murmurWords(b []byte) uint32 {
	h := uint32(42)
	for i := 0; i+4 <= len(b); i += 4 {
		k := binary.LittleEndian.Uint32(b[i:])
		k *= 0xcc9e2d51
		k = bits.RotateLeft32(k, 15)
		k *= 0x1b873593
		h ^= k
		h = bits.RotateLeft32(h, 13)
		h = h*5 + 0xe6546b64
	}
	h ^= uint32(len(b))
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	return h
}
