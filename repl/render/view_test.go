package render

import (
	"bytes"
	"context"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"eddy/engine/result"
	"eddy/engine/types"
)

// scriptedScreen is a terminal of a fixed size whose keys are typed from
// a script, one entry a wait, after the view has drawn at least once
// since the last one.
type scriptedScreen struct {
	width, height int
	keys          []string
	out           *bytes.Buffer
	seen          int // length of out when the last key was typed
	opened        int
	restored      int
	paged         []string
}

func (s *scriptedScreen) Size() (int, int) { return s.width, s.height }

func (s *scriptedScreen) Open() (func(), error) {
	s.opened++
	return func() { s.restored++ }, nil
}

func (s *scriptedScreen) ReadKeys(timeout time.Duration) ([]byte, error) {
	if len(s.keys) == 0 || s.out.Len() == s.seen {
		time.Sleep(timeout)
		return nil, nil
	}
	k := s.keys[0]
	s.keys = s.keys[1:]
	s.seen = s.out.Len()
	return []byte(k), nil
}

func (s *scriptedScreen) Page(text string) error {
	s.paged = append(s.paged, text)
	return nil
}

// openRows yields rows and then waits for its context, as an unbounded
// query that has nothing more to say.
type openRows struct {
	rows []result.Row
}

func (o *openRows) Next(ctx context.Context) (result.Row, bool, error) {
	if len(o.rows) > 0 {
		r := o.rows[0]
		o.rows = o.rows[1:]
		return r, true, nil
	}
	<-ctx.Done()
	return result.Row{}, false, ctx.Err()
}

func (o *openRows) Close() error { return nil }

func intRow(kind types.RowKind, n int32) result.Row {
	return result.Row{Kind: kind, Values: []any{n}}
}

// TestTableViewPages: 12 rows in a view with 5 lines for rows make three
// pages; P, G, N and L move between them; Q ends the view with one line
// that counts the rows in the table and the changes received (an update
// is two changes).
func TestTableViewPages(t *testing.T) {
	var rows []result.Row
	for i := int32(1); i <= 12; i++ {
		rows = append(rows, intRow(types.Insert, i))
	}
	rows = append(rows, intRow(types.UpdateBefore, 3), intRow(types.UpdateAfter, 30))
	res := &result.Result{Kind: result.KindRows, IsQuery: true, Bounded: false,
		Columns: []result.Column{{Name: "n", Type: types.New(types.Int)}}, Rows: &openRows{rows: rows}}
	var out bytes.Buffer
	scr := &scriptedScreen{width: 80, height: 12, out: &out, keys: []string{"", "P", "G", "N", "L", "Q"}}
	if _, err := Result(context.Background(), &out, res, Options{ResultMode: ModeTable, Interactive: true, Screen: scr}); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	var pages []string
	for _, m := range regexp.MustCompile(`Page: (\w+) of 3`).FindAllStringSubmatch(text, -1) {
		if len(pages) == 0 || pages[len(pages)-1] != m[1] {
			pages = append(pages, m[1])
		}
	}
	if want := []string{"Last", "2", "1", "2", "Last"}; !reflect.DeepEqual(pages, want) {
		t.Errorf("pages %v, want %v", pages, want)
	}
	if !strings.HasSuffix(text, leaveAltScreen+"12 rows in the table, 14 changes received\n") {
		t.Errorf("the view did not end with the count line: %q", text[max(len(text)-200, 0):])
	}
	if scr.opened != 1 || scr.restored != 1 {
		t.Errorf("screen opened %d and restored %d times", scr.opened, scr.restored)
	}
	if !strings.Contains(text, "SQL Query Result (Table)") || !strings.Contains(text, " 12 rows in the table, 14 changes received") {
		t.Errorf("no title or footer in the view")
	}
}

// TestChangelogViewShowsKinds: the changelog view lists each change with
// its kind.
func TestChangelogViewShowsKinds(t *testing.T) {
	res := &result.Result{Kind: result.KindRows, IsQuery: true, Bounded: false, Changelog: true,
		Columns: []result.Column{{Name: "n", Type: types.New(types.Int)}},
		Rows:    &openRows{rows: []result.Row{intRow(types.Insert, 1), intRow(types.UpdateBefore, 1), intRow(types.UpdateAfter, 2)}}}
	var out bytes.Buffer
	scr := &scriptedScreen{width: 80, height: 12, out: &out, keys: []string{"", "", "q"}}
	if _, err := Result(context.Background(), &out, res, Options{ResultMode: ModeChangelog, Interactive: true, Screen: scr}); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{"SQL Query Result (Changelog)", " +I           1", " -U           1", " +U           2", "3 changes received\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in the changelog view: %q", want, text)
		}
	}
}

// TestPagerForTallResults: a bounded result taller than the screen goes
// to the pager, a short one and any result with the pager off do not.
func TestPagerForTallResults(t *testing.T) {
	cols := []result.Column{{Name: "n", Type: types.New(types.Int)}}
	rows := func(n int) *result.Result {
		var rs []result.Row
		for i := range n {
			rs = append(rs, intRow(types.Insert, int32(i)))
		}
		return &result.Result{Kind: result.KindRows, IsQuery: true, Bounded: true, Columns: cols, Rows: result.SliceRows(rs)}
	}
	for _, c := range []struct {
		mode  string
		rows  int
		pager bool
		paged bool
	}{
		{ModeTableau, 100, true, true},
		{ModeTable, 100, true, true},
		{ModeTableau, 5, true, false},
		{ModeTableau, 100, false, false},
	} {
		var out bytes.Buffer
		scr := &scriptedScreen{width: 80, height: 24, out: &out}
		opt := Options{ResultMode: c.mode, Interactive: true, Screen: scr, Pager: c.pager}
		if _, err := Result(context.Background(), &out, rows(c.rows), opt); err != nil {
			t.Fatal(err)
		}
		if got := len(scr.paged) == 1; got != c.paged {
			t.Errorf("%+v: paged %v", c, got)
			continue
		}
		if c.paged && (out.Len() != 0 || !strings.HasSuffix(scr.paged[0], "100 rows in set\n")) {
			t.Errorf("%+v: out %q, paged %q", c, out.String(), scr.paged[0])
		}
		if !c.paged && !strings.Contains(out.String(), " in set\n") {
			t.Errorf("%+v: out %q", c, out.String())
		}
	}
}

func TestDecodeKeys(t *testing.T) {
	for in, want := range map[string][]key{
		"q":                {keyQuit},
		"\x03":             {keyQuit},
		"\x1b":             {keyQuit},
		"\x1b[A\x1b[B":     {keyUp, keyDown},
		"\x1bOA":           {keyUp},
		"nNpPgGlL":         {keyNext, keyNext, keyPrev, keyPrev, keyFirst, keyFirst, keyLast, keyLast},
		"+-rRoO\r":         {keyIncRefresh, keyDecRefresh, keyRefresh, keyRefresh, keyOpen, keyOpen, keyOpen},
		"x\x1b[15~\x1b[F":  {keyRefresh, keyLast},
		"\x1b[D\x1b[CaAdD": {keyLeft, keyRight, keyLeft, keyLeft, keyRight, keyRight},
	} {
		if got := decodeKeys([]byte(in)); !reflect.DeepEqual(got, want) {
			t.Errorf("%q: %v, want %v", in, got, want)
		}
	}
}

// TestLiveTable: a retraction removes the last equal row; the cap drops
// the oldest rows; many retractions leave the order intact.
func TestLiveTable(t *testing.T) {
	tb := newLiveTable(0)
	for _, r := range []string{"a", "b", "a", "c"} {
		tb.insert([]string{r})
	}
	tb.retract([]string{"a"})
	tb.retract([]string{"zz"}) // not in the table
	if got := tb.rows(); !reflect.DeepEqual(got, [][]string{{"a"}, {"b"}, {"c"}}) {
		t.Errorf("after retracting a: %v", got)
	}
	capped := newLiveTable(2)
	for _, r := range []string{"a", "b", "c"} {
		capped.insert([]string{r})
	}
	if got := capped.rows(); !reflect.DeepEqual(got, [][]string{{"b"}, {"c"}}) {
		t.Errorf("capped at 2: %v", got)
	}
	big := newLiveTable(0)
	for i := range 1000 {
		big.insert([]string{itoa3(i)})
	}
	for i := range 1000 {
		if i%10 != 0 {
			big.retract([]string{itoa3(i)})
		}
	}
	got := big.rows()
	if len(got) != 100 || big.live != 100 || got[0][0] != "000" || got[99][0] != "990" || len(big.all) > 300 {
		t.Errorf("after 900 retractions: %d rows (%d held), first %v, last %v", len(got), len(big.all), got[0], got[len(got)-1])
	}
}

func itoa3(i int) string { return fmt.Sprintf("%03d", i) }

// TestProgressCountsInEnglish: eddy's own status line says "1 row" and
// "0 rows" (Flink's footers keep Flink's "0 row").
func TestProgressCountsInEnglish(t *testing.T) {
	for n, want := range map[int64]string{0: "0 rows received", 1: "1 row received", 2: "2 rows received"} {
		if got := Progress(time.Second, n); !strings.Contains(got, want) {
			t.Errorf("Progress(%d) = %q, want %q", n, got, want)
		}
	}
	if got := rowsInSet(0); got != "0 row in set" {
		t.Errorf("Flink's footer changed: %q", got)
	}
}

// TestHelpLinesFit: the key help never wraps, however narrow the
// terminal.
func TestHelpLinesFit(t *testing.T) {
	opts := [][2]string{{"Q", "Quit"}, {"R", "Refresh"}, {"+", "Inc Refresh"}, {"-", "Dec Refresh"}, {"N", "Next Page"}}
	for _, width := range []int{20, 40, 80, 160} {
		for _, l := range helpLines(width, opts) {
			if w := displayWidth(stripCodes(l)); w > width {
				t.Errorf("width %d: help line of %d cells: %q", width, w, l)
			}
		}
	}
	if l := helpLines(160, opts)[0]; !strings.Contains(l, inverse+"Q"+plain+" Quit") {
		t.Errorf("the keys are not inverse at 160 columns: %q", l)
	}
}

func stripCodes(s string) string {
	return regexp.MustCompile("\x1b\\[[0-9;?]*[A-Za-z]").ReplaceAllString(s, "")
}

// TestTableViewScrolls: Right (d) scrolls the first column off, Left (a)
// brings it back.
func TestTableViewScrolls(t *testing.T) {
	cols := []result.Column{{Name: "first_col", Type: types.New(types.Int)}, {Name: "second_col", Type: types.New(types.Int)}}
	res := &result.Result{Kind: result.KindRows, IsQuery: true, Columns: cols,
		Rows: &openRows{rows: []result.Row{{Kind: types.Insert, Values: []any{int32(1), int32(2)}}}}}
	var out bytes.Buffer
	scr := &scriptedScreen{width: 80, height: 12, out: &out, keys: []string{"", "d", "a", "q"}}
	if _, err := Result(context.Background(), &out, res, Options{ResultMode: ModeTable, Interactive: true, Screen: scr}); err != nil {
		t.Fatal(err)
	}
	full := moveTo(4) + " " + underline + "  first_col" + plain
	scrolled := moveTo(4) + " " + underline + " second_col" + plain + plain + eraseToEnd
	text := out.String()
	i, j := strings.Index(text, full), strings.Index(text, scrolled)
	if i < 0 || j < i || !strings.Contains(text[j:], full) {
		t.Errorf("no scrolled header between two full ones: %q", text)
	}
}
