package render

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"eddy/engine/result"
	"eddy/engine/types"
)

// slowRows yields a row every few milliseconds until its context ends, as
// an unbounded query does.
type slowRows struct{ n int32 }

func (s *slowRows) Next(ctx context.Context) (result.Row, bool, error) {
	select {
	case <-ctx.Done():
		return result.Row{}, false, ctx.Err()
	case <-time.After(20 * time.Millisecond):
	}
	s.n++
	return result.Row{Kind: types.Insert, Values: []any{s.n}}, true, nil
}

func (s *slowRows) Close() error { return nil }

// TestTableModeRefreshesUnbounded: at a terminal, table mode redraws an
// unbounded query's table in place until the query is cancelled.
func TestTableModeRefreshesUnbounded(t *testing.T) {
	res := &result.Result{Kind: result.KindRows, IsQuery: true, Bounded: false,
		Columns: []result.Column{{Name: "n", Type: types.New(types.Int)}}, Rows: &slowRows{}}
	ctx, cancel := context.WithTimeout(context.Background(), 1300*time.Millisecond)
	defer cancel()
	var out bytes.Buffer
	if _, err := Result(ctx, &out, res, Options{ResultMode: ModeTable, Interactive: true}); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	if strings.Count(text, "\x1b[J") < 2 {
		t.Fatalf("the table was not redrawn in place:\n%q", text)
	}
	if !strings.Contains(text, "Query terminated, received a total of") {
		t.Fatalf("no termination line:\n%q", text)
	}

	// A bounded result is drawn once, with no cursor movement.
	bounded := &result.Result{Kind: result.KindRows, IsQuery: true, Bounded: true,
		Columns: res.Columns, Rows: result.SliceRows([]result.Row{{Values: []any{int32(1)}}})}
	out.Reset()
	if _, err := Result(context.Background(), &out, bounded, Options{ResultMode: ModeTable, Interactive: true}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "\x1b[") {
		t.Fatalf("a bounded result moved the cursor:\n%q", out.String())
	}
}
