package render

import (
	"context"
	"fmt"
	"io"
	"testing"

	"eddy/engine/result"
	"eddy/engine/types"
)

// benchResult is a bounded query result of n rows over an INT, a STRING,
// a DOUBLE and a DECIMAL column, one value in ten NULL.
func benchResult(n int) *result.Result {
	cols := []result.Column{
		{Name: "id", Type: types.New(types.Int)},
		{Name: "customer", Type: types.NewString()},
		{Name: "score", Type: types.New(types.Double)},
		{Name: "note", Type: types.NewString()},
	}
	rows := make([]result.Row, n)
	for i := range rows {
		var note any = fmt.Sprintf("note with, a comma %d", i)
		if i%10 == 0 {
			note = nil
		}
		rows[i] = result.Row{Values: []any{int32(i), fmt.Sprintf("customer-%d", i%977), float64(i) / 7, note}}
	}
	return &result.Result{Kind: result.KindRows, IsQuery: true, Bounded: true, Columns: cols, Rows: result.SliceRows(rows)}
}

// BenchmarkRender prints a 10,000-row result in each output format; the
// rate is rows per second.
func BenchmarkRender(b *testing.B) {
	const n = 10_000
	for _, format := range Formats {
		b.Run(format, func(b *testing.B) {
			opt := Options{Format: format, ResultMode: ModeTableau}
			b.ReportAllocs()
			b.StopTimer()
			for i := 0; i < b.N; i++ {
				res := benchResult(n)
				b.StartTimer()
				tag, err := Result(context.Background(), io.Discard, res, opt)
				b.StopTimer()
				if err != nil || tag != TagOK {
					b.Fatalf("tag %v, error %v", tag, err)
				}
			}
			b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}

// BenchmarkRenderNames prints a SHOW TABLES answer of 20,000 names (a
// catalog of 10,000 tables and 10,000 views) as a tableau table.
func BenchmarkRenderNames(b *testing.B) {
	const n = 20_000
	names := make([][]any, n)
	for i := range names {
		names[i] = []any{fmt.Sprintf("t%d", i)}
	}
	b.ReportAllocs()
	for b.Loop() {
		res := result.StringTable([]string{"table name"}, names)
		if _, err := Result(context.Background(), io.Discard, res, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "rows/s")
}
