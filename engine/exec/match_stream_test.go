package exec

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"eddy/engine/plan"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// endlessInput yields its batches, then waits for more until the
// context ends: an input that never ends.
type endlessInput struct {
	batches []*vector.Batch
	ended   bool
}

func (o *endlessInput) Next(ctx context.Context) (*vector.Batch, error) {
	if len(o.batches) > 0 {
		b := o.batches[0]
		o.batches = o.batches[1:]
		return b, nil
	}
	<-ctx.Done()
	o.ended = true
	return nil, ctx.Err()
}

func (o *endlessInput) Close() error { return nil }

// matchPairs is MATCH_RECOGNIZE (PARTITION BY k ORDER BY ts MEASURES
// A.id, B.id AFTER MATCH SKIP PAST LAST ROW PATTERN (A B)) over (id
// BIGINT, k STRING, ts TIMESTAMP(3) rowtime).
func matchPairs() (*plan.Match, []*types.Type) {
	ts := types.NewTimestamp(3).WithTimeAttr(types.Rowtime)
	big := types.New(types.BigInt)
	in := &plan.Values{Cols: plan.Schema{{Name: "id", Type: big}, {Name: "k", Type: strT}, {Name: "ts", Type: ts}}}
	s := in.Schema()
	m := &plan.Match{Input: in, Partition: []int{1}, Order: []plan.SortKey{{Expr: col(s, 2)}},
		Pattern: []plan.MatchVar{{Name: "A", Min: 1, Max: 1}, {Name: "B", Min: 1, Max: 1}},
		Defines: []plan.Expr{nil, nil},
		Slots: []plan.MatchSlot{
			{Kind: plan.SlotNav, Vars: []string{"A"}, Args: []plan.Expr{col(s, 0)}, T: big},
			{Kind: plan.SlotNav, Vars: []string{"B"}, Args: []plan.Expr{col(s, 0)}, T: big},
			{Kind: plan.SlotRowtime, T: types.NewTimestamp(3).WithNullable(false).WithTimeAttr(types.Rowtime)},
		},
		Measures: []plan.Expr{&plan.ColumnRef{Index: 0, T: big}, &plan.ColumnRef{Index: 1, T: big},
			&plan.ColumnRef{Index: 2, T: types.NewTimestamp(3)}},
		After: plan.SkipPastLastRow,
		Cols:  plan.Schema{{Name: "k", Type: strT}, {Name: "a", Type: big}, {Name: "b", Type: big}, {Name: "r", Type: types.NewTimestamp(3)}},
	}
	return m, in.Cols.Types()
}

// rowsAt builds a batch of (id, k, second) rows.
func rowsAt(ts []*types.Type, rows ...[]any) *vector.Batch {
	b := vector.NewBatch(ts, len(rows))
	for _, r := range rows {
		b.AppendRow(types.Insert, []any{r[0], r[1], time.Unix(int64(r[2].(int)), 0).UTC()})
	}
	return b
}

func batchLines(b *vector.Batch, ts []*types.Type) []string {
	var out []string
	for i := range b.N {
		parts := []string{b.Kind(i).String()}
		for c, v := range b.Cols {
			parts = append(parts, types.ValueString(v.Get(i), ts[c]))
		}
		out = append(out, strings.Join(parts, "|"))
	}
	return out
}

// streamOver builds the streaming operator of m over in, with the
// watermark of `WATERMARK FOR ts AS ts - delay`.
func streamOver(t *testing.T, m *plan.Match, in Operator, delay int64) *matchStream {
	t.Helper()
	op, err := NewBuilder(Options{Streaming: true}).Build(m)
	if err != nil {
		t.Fatal(err)
	}
	ms, ok := op.(*matchStream)
	if !ok {
		t.Fatalf("streaming MATCH_RECOGNIZE built %T", op)
	}
	ms.op.in.Close()
	ms.op.in = in
	ms.hasWM, ms.delay = true, delay
	return ms
}

// TestMatchStreamEmitsBeforeTheEnd feeds an input that never ends: the
// matches whose rows the watermark has passed come out while the input
// goes on, a late row is dropped, and a partition's rows run in time
// order whatever their arrival order.
func TestMatchStreamEmitsBeforeTheEnd(t *testing.T) {
	m, ts := matchPairs()
	in := &endlessInput{batches: []*vector.Batch{
		// Watermark: the largest time seen minus 2 s.
		rowsAt(ts, []any{int64(1), "x", 1}, []any{int64(2), "y", 2}, []any{int64(3), "x", 4},
			[]any{int64(4), "x", 3}, []any{int64(5), "x", 6}),
		// id 6 (3 s) is behind the watermark (4 s): late.
		rowsAt(ts, []any{int64(6), "x", 3}, []any{int64(7), "y", 8}, []any{int64(8), "x", 9}, []any{int64(9), "x", 10}),
	}}
	ms := streamOver(t, m, in, 2000)
	defer ms.Close()
	// A guard against a hang: the test fails, rather than waits, if the
	// operator wanted the end of its input.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var got []string
	for len(got) < 3 {
		b, err := ms.Next(ctx)
		if err != nil {
			t.Fatalf("after %v: %v", got, err)
		}
		got = append(got, batchLines(b, m.Cols.Types())...)
	}
	if in.ended {
		t.Fatal("the input ended")
	}
	// x runs 1 s, then 3 s (id 4, which came after id 3 at 4 s), then
	// 4 s: (1, 4) matches when the watermark reaches 4 s, (3, 5) at 6 s;
	// y's (2, 7) at 8 s. x's rows at 9 s and 10 s wait.
	want := []string{
		"+I|x|1|4|1970-01-01 00:00:03.000",
		"+I|x|3|5|1970-01-01 00:00:06.000",
		"+I|y|2|7|1970-01-01 00:00:08.000",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestMatchStreamKeepsOnlyOpenRows runs many rows through one partition,
// with a watermark that follows the rows closely and one that lags 1,500
// rows: the rows of finished matches and the rows that have run leave
// the buffers as it goes, and every match is still right.
func TestMatchStreamKeepsOnlyOpenRows(t *testing.T) {
	for _, delay := range []int64{0, 1500 * 1000} {
		t.Run(fmt.Sprint(delay), func(t *testing.T) { keepsOnlyOpenRows(t, delay) })
	}
}

func keepsOnlyOpenRows(t *testing.T, delay int64) {
	m, ts := matchPairs()
	const n = 5000
	var batches []*vector.Batch
	for start := 1; start <= n; start += 700 {
		var rows [][]any
		for id := start; id < start+700 && id <= n; id++ {
			rows = append(rows, []any{int64(id), "x", id})
		}
		batches = append(batches, rowsAt(ts, rows...))
	}
	ms := streamOver(t, m, &sliceInput{batches: batches}, delay)
	defer ms.Close()
	var got []string
	for {
		b, err := ms.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if b == nil {
			break
		}
		got = append(got, batchLines(b, m.Cols.Types())...)
		p := ms.parts[string(vector.AppendKey(nil, b.Cols[0], 0))]
		if r := p.ranRows.all.N; r > 2*vector.BatchSize {
			t.Fatalf("the partition keeps %d rows that have run", r)
		}
		if w := p.wait.all.N; w > 2*len(p.waiting)+vector.BatchSize {
			t.Fatalf("the partition buffers %d rows for %d waiting", w, len(p.waiting))
		}
	}
	if len(got) != n/2 {
		t.Fatalf("%d matches, want %d", len(got), n/2)
	}
	for i, line := range got {
		a := 2*i + 1
		if want := fmt.Sprintf("+I|x|%d|%d|", a, a+1); !strings.HasPrefix(line, want) {
			t.Fatalf("match %d: %s, want %s...", i, line, want)
		}
	}
}

// sliceInput yields its batches, then ends.
type sliceInput struct{ batches []*vector.Batch }

func (o *sliceInput) Next(context.Context) (*vector.Batch, error) {
	if len(o.batches) == 0 {
		return nil, nil
	}
	b := o.batches[0]
	o.batches = o.batches[1:]
	return b, nil
}

func (o *sliceInput) Close() error { return nil }

// BenchmarkMatchStream runs 100,000 rows of 16 partitions through (A B)
// with a watermark 1,000 rows behind.
func BenchmarkMatchStream(b *testing.B) {
	m, ts := matchPairs()
	keys := make([]string, 16)
	for i := range keys {
		keys[i] = fmt.Sprintf("k%d", i)
	}
	var batches []*vector.Batch
	for start := 0; start < 100000; start += vector.BatchSize {
		var rows [][]any
		for id := start; id < start+vector.BatchSize && id < 100000; id++ {
			rows = append(rows, []any{int64(id), keys[id%16], id})
		}
		batches = append(batches, rowsAt(ts, rows...))
	}
	b.ReportAllocs()
	for b.Loop() {
		op, err := NewBuilder(Options{Streaming: true}).Build(m)
		if err != nil {
			b.Fatal(err)
		}
		ms := op.(*matchStream)
		ms.op.in = &sliceInput{batches: batches}
		ms.hasWM, ms.delay = true, 1000*1000
		n := 0
		for {
			bt, err := ms.Next(context.Background())
			if err != nil {
				b.Fatal(err)
			}
			if bt == nil {
				break
			}
			n += bt.N
		}
		if n != 50000 {
			b.Fatalf("%d matches", n)
		}
	}
}
