package exec

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"eddy/engine/plan"
	"eddy/engine/vector"
)

// recycledSrc hands out batches of one INT column whose Recycle counts
// the releases of each.
type recycledSrc struct {
	keys     [][]int64
	next     int
	released []int
}

func (s *recycledSrc) Next(context.Context) (*vector.Batch, error) {
	if s.next == len(s.keys) {
		return nil, nil
	}
	i := s.next
	s.next++
	v := vector.New(intT, len(s.keys[i]))
	v.Ints, v.Len = append(v.Ints, s.keys[i]...), len(s.keys[i])
	b := &vector.Batch{Cols: []*vector.Vec{v}, N: v.Len}
	b.Recycle = func() { s.released[i]++ }
	return b, nil
}

func (s *recycledSrc) Close() error { return nil }

// TestJoinReleasesAndRecycles: an inner join releases a probe batch once
// its output holds copies (some probe rows unmatched), and passes the
// release on when its output holds the probe's vector (every row matched
// once); the build column it gathers is gathered into the vectors of
// outputs released before. The rows are the join's either way.
func TestJoinReleasesAndRecycles(t *testing.T) {
	right := &plan.Values{Cols: plan.Schema{{Name: "rk", Type: intT}, {Name: "w", Type: intT}}}
	for i := range 50 {
		right.Rows = append(right.Rows, []plan.Expr{lit(int32(i), intT), lit(int32(i*10), intT)})
	}
	left := &plan.Values{Cols: plan.Schema{{Name: "k", Type: intT}}}
	cond := call("=", boolT, col(left.Schema(), 0), &plan.ColumnRef{Index: 1, T: intT})
	for _, tc := range []struct {
		name    string
		span    int64 // probe keys are 0..span-1 in every batch
		inherit bool  // the output holds the probe's vector
	}{{"some unmatched", 100, false}, {"all matched once", 50, true}} {
		src := &recycledSrc{released: make([]int, 6)}
		var want []string
		for range 6 {
			var ks []int64
			for k := range tc.span {
				ks = append(ks, k)
				if k < 50 {
					want = append(want, fmt.Sprintf("%d|%d|%d", k, k, k*10))
				}
			}
			src.keys = append(src.keys, ks)
		}
		op, err := NewBuilder(Options{}).Build(plan.NewJoin(plan.InnerJoin, left, right, cond))
		if err != nil {
			t.Fatal(err)
		}
		jo := op.(*joinOp)
		jo.left = src
		var got []string
		seen := map[*vector.Vec]int{}
		for {
			b, err := op.Next(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if b == nil {
				break
			}
			if i := src.next - 1; (src.released[i] == 1) == tc.inherit {
				t.Fatalf("%s: probe batch %d released %d times before its output was", tc.name, i, src.released[i])
			}
			for r := range b.N {
				got = append(got, fmt.Sprintf("%v|%v|%v", b.Cols[0].Get(r), b.Cols[1].Get(r), b.Cols[2].Get(r)))
			}
			seen[b.Cols[2]]++
			b.Release()
			b.Release()
		}
		op.Close()
		if !slices.Equal(got, want) {
			t.Fatalf("%s: rows\n%v\nwant\n%v", tc.name, got, want)
		}
		for i, n := range src.released {
			if n != 1 {
				t.Fatalf("%s: probe batch %d released %d times, want once", tc.name, i, n)
			}
		}
		if len(seen) != 1 {
			t.Fatalf("%s: the gathered column used %d vectors over 6 released outputs, want 1", tc.name, len(seen))
		}
	}
}

// TestFlatAggregateReleases: a flat aggregation releases each input batch
// once it folded it in, and its groups are those of the keys it copied.
func TestFlatAggregateReleases(t *testing.T) {
	in := &plan.Values{Cols: plan.Schema{{Name: "k", Type: intT}}}
	s := in.Schema()
	agg := &plan.Aggregate{Input: in, Group: []plan.Expr{col(s, 0)}, GroupNames: []string{"k"},
		Aggs: []plan.AggCall{aggCall("COUNT", bigT, false), aggCall("SUM", intT, false, col(s, 0))}}
	op, err := NewBuilder(Options{}).Build(agg)
	if err != nil {
		t.Fatal(err)
	}
	defer op.Close()
	o := op.(*aggOp)
	if !o.flat {
		t.Fatal("not run flat")
	}
	src := &recycledSrc{released: make([]int, 4)}
	for b := range 4 {
		var ks []int64
		for i := range 300 {
			ks = append(ks, int64((b*300+i)%7))
		}
		src.keys = append(src.keys, ks)
	}
	o.in = src
	got := drainLines(t, o, agg.Schema().Types())
	want := []string{"0|172|0", "1|172|172", "2|172|344", "3|171|513", "4|171|684", "5|171|855", "6|171|1026"}
	if !slices.Equal(got, want) {
		t.Fatalf("groups %v, want %v", got, want)
	}
	for i, n := range src.released {
		if n != 1 {
			t.Fatalf("input batch %d released %d times, want once", i, n)
		}
	}
}

// TestSortReleases: a sort and a Top-N release each input batch once they
// copied its rows (a Top-N also the batches whose rows cannot beat its
// cut), and order the rows they copied.
func TestSortReleases(t *testing.T) {
	in := &plan.Values{Cols: plan.Schema{{Name: "k", Type: intT}}}
	s := in.Schema()
	for _, fetch := range []int64{-1, 5} {
		var n plan.Node = &plan.Sort{Input: in, Keys: []plan.SortKey{{Expr: col(s, 0), Desc: true}}}
		if fetch > 0 {
			n = &plan.Limit{Input: n, Fetch: fetch}
		}
		op, err := NewBuilder(Options{}).Build(n)
		if err != nil {
			t.Fatal(err)
		}
		src := &recycledSrc{released: make([]int, 8)}
		for b := range 8 {
			var ks []int64
			for i := range 700 {
				k := int64((b*700 + i) * 7919 % 5003)
				ks = append(ks, k)
			}
			src.keys = append(src.keys, ks)
		}
		var so *sortOp
		switch o := op.(type) {
		case *sortOp:
			so = o
		case *limitOp:
			so, _ = o.in.(*sortOp)
		}
		if so == nil {
			t.Fatalf("fetch %d: %T is not a sort", fetch, op)
		}
		so.in = src
		got := drainLines(t, op, n.Schema().Types())
		var ints []int
		for _, g := range got {
			var k int
			fmt.Sscan(g, &k)
			ints = append(ints, k)
		}
		if !slices.IsSortedFunc(ints, func(a, b int) int { return b - a }) || fetch > 0 && len(ints) != int(fetch) || fetch < 0 && len(ints) != 5600 {
			t.Fatalf("fetch %d: %d rows, not in descending order: %v", fetch, len(ints), ints[:min(10, len(ints))])
		}
		for i, r := range src.released {
			if r != 1 {
				t.Fatalf("fetch %d: input batch %d released %d times, want once", fetch, i, r)
			}
		}
	}
}
