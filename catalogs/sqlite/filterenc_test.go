package sqlite

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"eddy/catalogs"
	"eddy/engine/types"
)

// TestFilterEncodedMatchesDecode: filtering a column block by block as it
// decodes keeps the rows that decoding it whole and filtering keeps, for
// integers in frame-of-reference form, doubles (plain, and decimals stored
// as scaled integers; FLOAT too), with and
// without NULLs, over several blocks and a partial one; integers stored as
// deltas are left to the whole decode.
func TestFilterEncodedMatchesDecode(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 3*filterBlock + 77
	f := func(col int, op catalogs.FilterOp, v any) catalogs.RowFilter {
		return catalogs.RowFilter{Column: col, Op: op, Value: v}
	}
	ops := []catalogs.FilterOp{catalogs.FilterEq, catalogs.FilterNe, catalogs.FilterLt,
		catalogs.FilterLe, catalogs.FilterGt, catalogs.FilterGe}
	cases := []struct {
		name    string
		t       *types.Type
		fill    func(cv *catalogs.ColumnValues, i int)
		blocked func(nulls bool) bool
		consts  []any
	}{
		{"random BIGINT", types.New(types.BigInt), func(cv *catalogs.ColumnValues, i int) { cv.Ints[i] = rng.Int64N(1000) - 300 }, always,
			[]any{int64(0), int64(500), int64(-300), 250.5}},
		{"wide BIGINT", types.New(types.BigInt), func(cv *catalogs.ColumnValues, i int) { cv.Ints[i] = int64(rng.Uint64()) }, always,
			[]any{int64(0), int64(-1 << 40)}},
		{"sequence BIGINT", types.New(types.BigInt), func(cv *catalogs.ColumnValues, i int) { cv.Ints[i] = int64(i) },
			// Stored as deltas, unless NULLs (stored as 0) break the run.
			func(nulls bool) bool { return nulls },
			[]any{int64(1500)}},
		{"DOUBLE", types.New(types.Double), func(cv *catalogs.ColumnValues, i int) { cv.Floats[i] = rng.Float64() * 1000 }, always,
			[]any{500.0, int64(100), 0.0}},
		{"decimal DOUBLE", types.New(types.Double), func(cv *catalogs.ColumnValues, i int) { cv.Floats[i] = float64(rng.IntN(100_000)-20_000) / 100 }, always,
			[]any{500.0, 250.25, int64(100), -1.5, 0.0, 123.455, -200.0, 1e300, math.NaN(), math.Inf(-1)}},
		{"FLOAT", types.New(types.Float), func(cv *catalogs.ColumnValues, i int) { cv.Floats[i] = float64(float32(rng.Float64())) + 0.1 }, always,
			[]any{float64(float32(0.6)), 0.6}},
	}
	for _, tc := range cases {
		for _, withNulls := range []bool{false, true} {
			cv := catalogs.ColumnValues{Ints: make([]int64, n), Floats: make([]float64, n)}
			for i := range n {
				tc.fill(&cv, i)
			}
			if withNulls {
				cv.Nulls = make([]uint64, (n+63)>>6)
				for i := 0; i < n; i += 1 + rng.IntN(9) {
					cv.Nulls[i>>6] |= 1 << (uint(i) & 63)
				}
			}
			if tc.t.Kind == types.Double || tc.t.Kind == types.Float {
				cv.Ints = nil
			} else {
				cv.Floats = nil
			}
			blob, _, err := encodeColumn(&cv, n, tc.t)
			must(t, err)
			if decimal := tc.name == "decimal DOUBLE"; decimal != (blob[0] == encDecFloats) {
				t.Fatalf("%s: stored with tag %d", tc.name, blob[0])
			}
			var filterSets [][]catalogs.RowFilter
			for _, c := range tc.consts {
				for _, op := range ops {
					filterSets = append(filterSets, []catalogs.RowFilter{f(0, op, c)})
				}
			}
			filterSets = append(filterSets,
				[]catalogs.RowFilter{f(0, catalogs.FilterIsNull, nil)},
				[]catalogs.RowFilter{f(0, catalogs.FilterIsNotNull, nil)},
				[]catalogs.RowFilter{f(0, catalogs.FilterGt, tc.consts[0]), f(0, catalogs.FilterLe, tc.consts[len(tc.consts)-1])})
			selective := 0
			for _, fs := range filterSets {
				what := fmt.Sprintf("%s, NULLs %v, %v", tc.name, withNulls, fs)
				var bound []*boundFilter
				for _, rf := range fs {
					b := bindFilter(rf, []*types.Type{tc.t})
					bound = append(bound, &b)
				}
				// The reference: the column decoded whole, then filtered.
				whole, _, err := decodeColumn(blob, tc.t, false)
				must(t, err)
				want := make([]uint8, n)
				for i := range want {
					want[i] = 1
				}
				for _, b := range bound {
					b.apply(&whole, want)
				}
				fb := &filterBufs{keep: make([]uint8, n)}
				for i := range fb.keep {
					fb.keep[i] = 1
				}
				done, err := filterEncoded(blob, tc.t, bound, fb)
				must(t, err)
				if done != tc.blocked(withNulls) {
					t.Fatalf("%s: filtered in blocks %v, want %v", what, done, !done)
				}
				if !done {
					continue
				}
				kept := 0
				for i := range want {
					if fb.keep[i] != want[i] {
						t.Fatalf("%s: row %d kept %d, want %d", what, i, fb.keep[i], want[i])
					}
					kept += int(want[i])
				}
				if kept > 0 && kept < n {
					selective++
				}
			}
			if tc.blocked(withNulls) && selective < len(filterSets)/3 {
				t.Fatalf("%s, NULLs %v: only %d of %d filter sets keep some rows and not all", tc.name, withNulls, selective, len(filterSets))
			}
		}
	}
}

func always(bool) bool { return true }

// TestKeepAllAndCount: keepAll sets every byte of keep, however long, and
// countKept counts the bytes set, at every length around a word's.
func TestKeepAllAndCount(t *testing.T) {
	for n := range 70 {
		keep := make([]uint8, n)
		keepAll(keep)
		for i, b := range keep {
			if b != 1 {
				t.Fatalf("length %d: byte %d = %d after keepAll", n, i, b)
			}
		}
		if got := countKept(keep); got != n {
			t.Fatalf("length %d, all kept: count %d", n, got)
		}
		want := 0
		for i := range keep {
			if i%3 == 0 || i%7 == 5 {
				keep[i] = 0
			} else {
				want++
			}
		}
		if got := countKept(keep); got != want {
			t.Fatalf("length %d: count %d, want %d", n, got, want)
		}
	}
}

// TestScaledBounds: for constants on and between decimals, negative and
// positive, at several powers of ten, lo is the least integer n whose
// double n / 10^e is at least the constant and hi the greatest whose
// double is at most it, as a walk over the integers around it finds;
// NaN and constants past the integers' range have none.
func TestScaledBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 13))
	for range 3000 {
		e := rng.IntN(maxScale + 1)
		p := pow10[e]
		var c float64
		switch rng.IntN(3) {
		case 0: // a decimal of e places
			c = float64(rng.Int64N(1_000_000)-500_000) / p
		case 1: // between them
			c = (float64(rng.Int64N(1_000_000)-500_000) + rng.Float64()) / p
		default: // anything of the scale's range
			c = (rng.Float64() - 0.5) * math.Pow(2, float64(rng.IntN(50))) / p
		}
		lo, hi, ok := scaledBounds(c, e)
		if !ok {
			t.Fatalf("10^%d, %v: no bounds", e, c)
		}
		q := func(n int64) float64 { return float64(n) / p }
		if !(q(lo) >= c && q(lo-1) < c && q(hi) <= c && q(hi+1) > c) {
			t.Fatalf("10^%d, %v: lo %d (%v, before %v), hi %d (%v, after %v)", e, c, lo, q(lo), q(lo-1), hi, q(hi), q(hi+1))
		}
		if (lo <= hi) != (q(lo) == c) {
			t.Fatalf("10^%d, %v: lo %d, hi %d, yet %v", e, c, lo, hi, q(lo))
		}
	}
	for _, c := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), 1e300, -1e17} {
		if _, _, ok := scaledBounds(c, 2); ok {
			t.Errorf("%v: bounds given", c)
		}
	}
}
