package logictest

import (
	"slices"
	"testing"

	"eddy/engine/types"
)

func TestParseFormatRoundTrip(t *testing.T) {
	src := `# a comment

statement ok
CREATE TABLE t (a INT)

query IT rowsort
SELECT a, b
FROM t
----
1 | x
2 | y

query any
EXPLAIN SELECT 1
----
----
first

second
----
----

statement error ^ValidationException: .*
SELECT nope
`
	chunks, err := parse("src", src)
	if err != nil {
		t.Fatal(err)
	}
	var recs []*record
	for _, c := range chunks {
		if c.rec != nil {
			recs = append(recs, c.rec)
		}
	}
	if len(recs) != 4 {
		t.Fatalf("%d records, want 4", len(recs))
	}
	if q := recs[1]; q.line != 6 || !slices.Equal(q.fields, []string{"query", "IT", "rowsort"}) ||
		!slices.Equal(q.input, []string{"SELECT a, b", "FROM t"}) || q.expected != "1 | x\n2 | y\n" {
		t.Errorf("query record: %+v", q)
	}
	if e := recs[2]; e.expected != "first\n\nsecond\n" {
		t.Errorf("output with a blank line: %q", e.expected)
	}
	if recs[0].hasExpected || recs[3].hasExpected {
		t.Error("a record without \"----\" has an expected output")
	}
	if got := format(chunks); got != src {
		t.Errorf("format(parse(src)):\n%s\nwant:\n%s", got, src)
	}
	if _, err := parse("src", "query any\nSELECT 1\n----\n----\nx\n"); err == nil {
		t.Error("an unclosed two-separator output parsed")
	}
}

func TestMaterialize(t *testing.T) {
	kinds := []types.RowKind{types.Insert, types.Insert, types.UpdateBefore, types.UpdateAfter, types.Delete}
	rows := [][]string{{"b", "1"}, {"a", "1"}, {"b", "1"}, {"b", "2"}, {"a", "1"}}
	got, _, ok := materialize(kinds, rows)
	if !ok || !slices.Equal(got, []string{"b | 2"}) {
		t.Errorf("materialize = %v, %v", got, ok)
	}
	if _, bad, ok := materialize([]types.RowKind{types.Delete}, [][]string{{"x"}}); ok || bad != "-D[x]" {
		t.Errorf("a retraction of a missing row gave %q, %v", bad, ok)
	}
}

func TestFormatRow(t *testing.T) {
	if got := formatRow(true, types.UpdateBefore, []string{"1", "NULL"}); got != "-U[1, NULL]" {
		t.Errorf("changelog row: %s", got)
	}
	if got := formatRow(false, types.Insert, []string{"1", "NULL"}); got != "1 | NULL" {
		t.Errorf("row: %s", got)
	}
}
