package vector

import (
	"testing"
	"time"

	"eddy/engine/types"
)

func TestVectorRoundTrip(t *testing.T) {
	dec, _ := types.ParseDecimal("1.50")
	cases := []struct {
		t    *types.Type
		vals []any
	}{
		{types.New(types.Int), []any{int32(1), nil, int32(-3)}},
		{types.New(types.TinyInt), []any{int8(-128), nil}},
		{types.New(types.Float), []any{float32(0.1), nil}},
		{types.NewDecimal(5, 2), []any{dec, nil}},
		{types.NewString(), []any{"a", nil, ""}},
		{types.New(types.Date), []any{int32(18730), nil}},
		{types.NewTime(0), []any{time.Duration(3600e9), nil}},
		{types.NewTimestamp(3), []any{time.Date(2021, 1, 1, 0, 0, 0, 0, time.UTC), nil}},
		{types.NewArray(types.New(types.Int)), []any{[]any{int32(1)}, nil}},
	}
	for _, c := range cases {
		v := New(c.t, 0)
		for _, x := range c.vals {
			v.Append(x)
		}
		g := v.Gather([]int{1, 0}) // every case has NULL at 1
		for i, x := range c.vals {
			if got := v.Get(i); types.ValueString(got, c.t) != types.ValueString(x, c.t) || (got == nil) != (x == nil) {
				t.Errorf("%s: Get(%d) = %v, want %v", c.t, i, got, x)
			}
		}
		if g.Len != 2 || !g.IsNull(0) || g.IsNull(1) {
			t.Errorf("%s: Gather nulls wrong", c.t)
		}
	}
}

func TestKeysGroupLikeSQL(t *testing.T) {
	d := New(types.NewDecimal(5, 2), 0)
	a, _ := types.ParseDecimal("1.0")
	b, _ := types.ParseDecimal("1.00")
	d.Append(a)
	d.Append(b)
	d.AppendNull()
	if string(AppendKey(nil, d, 0)) != string(AppendKey(nil, d, 1)) {
		t.Error("1.0 and 1.00 group apart")
	}
	if string(AppendKey(nil, d, 2)) == string(AppendKey(nil, d, 0)) {
		t.Error("NULL groups with a value")
	}
	s := New(types.NewString(), 0)
	s.Append("ab")
	s.Append("a")
	s.Append("b")
	// "ab" then "" must not collide with "a" then "b".
	k1 := AppendKey(AppendKey(nil, s, 0), New(types.NewString(), 0).withValue(""), 0)
	k2 := AppendKey(AppendKey(nil, s, 1), s, 2)
	if string(k1) == string(k2) {
		t.Error("concatenated string keys collide")
	}
}

func (v *Vec) withValue(x any) *Vec {
	v.Append(x)
	return v
}

func TestConstAndSetFrom(t *testing.T) {
	c := Const(types.New(types.BigInt), int64(7), 3)
	if c.Len != 3 || c.Ints[2] != 7 || c.HasNulls() {
		t.Fatalf("Const = %+v", c)
	}
	n := Const(types.New(types.BigInt), nil, 70)
	if !n.IsNull(69) {
		t.Fatal("NULL constant is not NULL")
	}
	c.SetFrom(1, n, 5)
	if !c.IsNull(1) || c.IsNull(0) {
		t.Fatal("SetFrom did not copy NULL")
	}
	c.SetFrom(1, Const(types.New(types.BigInt), int64(9), 1), 0)
	if c.IsNull(1) || c.Ints[1] != 9 {
		t.Fatal("SetFrom did not clear NULL")
	}
}
