package vector

import (
	"fmt"
	"testing"

	"eddy/engine/types"
)

// TestReserve: a reserved batch takes the rows without reallocating, keeps
// the values it had, and grows to twice its capacity when it must grow.
func TestReserve(t *testing.T) {
	b := NewBatch([]*types.Type{types.New(types.BigInt), types.NewString()}, 4)
	b.AppendRow(types.Insert, []any{int64(1), "a"})
	b.Reserve(3)
	ints, strs := &b.Cols[0].Ints[:1][0], &b.Cols[1].Strs[:1][0]
	for i := range 3 {
		b.AppendRow(types.Insert, []any{int64(i + 2), nil})
	}
	if &b.Cols[0].Ints[0] != ints || &b.Cols[1].Strs[0] != strs {
		t.Fatal("rows that fit the reserved room reallocated the columns")
	}
	b.Reserve(1)
	if c := cap(b.Cols[0].Ints); c < 8 {
		t.Fatalf("capacity %d after growing from 4, want at least 8", c)
	}
	b.Reserve(100)
	if c := cap(b.Cols[1].Strs); c < 104 {
		t.Fatalf("capacity %d for 104 values", c)
	}
	if got := fmt.Sprint(b.Row(0), b.Row(3)); got != "[1 a] [4 <nil>]" {
		t.Fatalf("rows after growing: %s", got)
	}
}
