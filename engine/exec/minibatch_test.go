package exec

import (
	"testing"

	"eddy/engine/types"
)

// Flink 2.2 at parallelism 1 walks the keys of a bundle of STRING keys
// "0", "1", "2" as 1, 2, 0 and of INT keys 0, 1 as 1, 0 (the printed order
// of a mini-batched GROUP BY whose input fits one bundle).
func TestBundleMapOrderAsFlink(t *testing.T) {
	cases := []struct {
		t    *types.Type
		keys []any
		want []any
	}{
		{types.New(types.VarChar), []any{"0", "1", "2"}, []any{"1", "2", "0"}},
		{types.New(types.VarChar), []any{"2", "0", "1"}, []any{"1", "2", "0"}},
		{types.New(types.Int), []any{int32(0), int32(1)}, []any{int32(1), int32(0)}},
		{types.New(types.BigInt), []any{int64(0), int64(1)}, []any{int64(1), int64(0)}},
	}
	for _, c := range cases {
		hashes := make([]uint32, len(c.keys))
		for i, k := range c.keys {
			h, ok := keyHash([]any{k}, []*types.Type{c.t})
			if !ok {
				t.Fatalf("keyHash(%v) not modelled", k)
			}
			hashes[i] = h
		}
		var m bundleMap
		var got []any
		for _, i := range m.order(hashes, true) {
			got = append(got, c.keys[i])
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("order of %v = %v, want %v", c.keys, got, c.want)
				break
			}
		}
	}
}

// Unmodelled key types keep the order of first appearance.
func TestBundleMapOrderFallback(t *testing.T) {
	if _, ok := keyHash([]any{1.5}, []*types.Type{types.New(types.Double)}); ok {
		t.Fatal("a DOUBLE key has no modelled layout")
	}
	var m bundleMap
	got := m.order([]uint32{9, 3, 7}, false)
	for i, p := range got {
		if p != i {
			t.Fatalf("order = %v, want first appearance", got)
		}
	}
}

// The map grows as HashMap does (load factor 0.75) and keeps its size.
func TestBundleMapGrows(t *testing.T) {
	var m bundleMap
	m.order(make([]uint32, 12), true)
	if m.cap != 16 {
		t.Fatalf("12 keys: capacity %d, want 16", m.cap)
	}
	m.order(make([]uint32, 13), true)
	if m.cap != 32 {
		t.Fatalf("13 keys: capacity %d, want 32", m.cap)
	}
	m.order(make([]uint32, 1), true)
	if m.cap != 32 {
		t.Fatalf("after a smaller bundle: capacity %d, want 32", m.cap)
	}
}
