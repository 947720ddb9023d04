package exec

import (
	"context"
	"fmt"
	"sort"
	"testing"

	"eddy/engine/types"
	"eddy/engine/vector"
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

// A mini-batched changelog normalization applies only each key's last
// record of a bundle (ProcTimeMiniBatchDeduplicateKeepLastRowFunction on a
// changelog): a key updated twice in a bundle emits one -U/+U, a key
// inserted and deleted in one bundle emits nothing, and a repeated row
// emits nothing.
func TestChangelogNormalizeMiniBatch(t *testing.T) {
	ts := []*types.Type{types.New(types.BigInt), types.New(types.VarChar)}
	in := vector.NewBatch(ts, 8)
	for _, r := range []struct {
		kind types.RowKind
		k    int64
		v    string
	}{
		{types.Insert, 1, "a"}, {types.UpdateAfter, 1, "b"}, {types.Insert, 2, "x"}, // bundle 1
		{types.Delete, 2, "x"}, {types.UpdateAfter, 1, "b"}, {types.UpdateAfter, 3, "c"}, // bundle 2
		{types.UpdateAfter, 1, "c"}, {types.UpdateAfter, 1, "d"}, {types.Insert, 4, "y"}, // bundle 3
		{types.Delete, 4, "y"}, // bundle 4, at the end of the input
	} {
		in.AppendRow(r.kind, []any{r.k, r.v})
	}
	run := func(size int) []string {
		o := &changelogNormalizeOp{in: &sliceOp{b: in}, key: []int{0}, ts: ts, rows: map[string]normalizedRow{}}
		if size > 0 {
			o.bundle = &normalizeBundle{mb: MiniBatch{Enabled: true, Size: size}, hashed: true, last: map[string]bundledRecord{}}
		}
		var got []string
		for {
			bt, err := o.Next(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if bt == nil {
				return got
			}
			for i := range bt.N {
				got = append(got, fmt.Sprint(bt.Kind(i), bt.Row(i)))
			}
		}
	}
	want := []string{"+I [1 b]", "+I [2 x]", "-D [2 x]", "+I [3 c]", "-U [1 b]", "+U [1 d]", "+I [4 y]", "-D [4 y]"}
	got := run(3)
	sort.Strings(got[:2])
	sort.Strings(got[2:4])
	sort.Strings(got[4:7])
	sort.Strings(want[:2])
	sort.Strings(want[2:4])
	sort.Strings(want[4:7])
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("bundles of 3:\n got %v\nwant %v", got, want)
	}
	// Without mini-batching every record applies (the repeated +U[1, b]
	// alone emits nothing).
	if all := run(0); len(all) != 12 {
		t.Errorf("without mini-batching: %v", all)
	}
}
