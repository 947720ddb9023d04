package engine

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkGroupInsert runs piped-script INSERT ... VALUES statements in a
// write group over a store file, committing every 1000 statements as the
// shell does: the cost of one statement on the one INSERT path.
func BenchmarkGroupInsert(b *testing.B) {
	ctx := context.Background()
	s, _ := openStoreSessionTB(b)
	if _, err := s.Execute(ctx, "CREATE TABLE x (id BIGINT, name STRING, v DOUBLE)"); err != nil {
		b.Fatal(err)
	}
	stmts := make([]string, 1000)
	for i := range stmts {
		stmts[i] = fmt.Sprintf("INSERT INTO x VALUES (%d, 'name %d', %d.25)", i, i%1000, i)
	}
	g := s.BeginGroup()
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		if _, held, err := g.Execute(ctx, stmts[i%len(stmts)]); err != nil || !held {
			b.Fatal(held, err)
		}
		if i%1000 == 999 {
			if err := g.Commit(ctx); err != nil {
				b.Fatal(err)
			}
		}
	}
	if err := g.Commit(ctx); err != nil {
		b.Fatal(err)
	}
}
