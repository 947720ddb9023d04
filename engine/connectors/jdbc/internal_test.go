package jdbc

import (
	"fmt"
	"testing"
	"time"

	"eddy/engine/connectors"
	"eddy/engine/types"
)

func TestPartitions(t *testing.T) {
	for _, tc := range []struct {
		lo, hi int64
		n      int
		want   string
	}{
		{1, 10, 3, "[[1 4] [5 7] [8 10]]"},
		{1, 1000, 7, "[[1 143] [144 286] [287 429] [430 572] [573 715] [716 858] [859 1000]]"},
		{5, 6, 4, "[[5 5] [6 6]]"},
		{0, 0, 1, "[[0 0]]"},
	} {
		if got := fmt.Sprint(partitions(tc.lo, tc.hi, tc.n)); got != tc.want {
			t.Errorf("partitions(%d, %d, %d) = %s, want %s", tc.lo, tc.hi, tc.n, got, tc.want)
		}
	}
}

func TestLookupCache(t *testing.T) {
	t0 := time.Unix(0, 0)
	c := newLookupCache(cacheSpec{expireWrite: 10 * time.Second, expireAccess: 3 * time.Second, maxRows: 2, cacheMissing: false})
	c.put("a", [][]any{{1}}, t0)
	if _, ok := c.get("a", t0.Add(2*time.Second)); !ok {
		t.Error("a fresh entry is missing")
	}
	if _, ok := c.get("a", t0.Add(4*time.Second)); !ok {
		t.Error("an entry read 2s ago expired")
	}
	if _, ok := c.get("a", t0.Add(8*time.Second)); ok {
		t.Error("an entry unread for 4s did not expire after access")
	}
	c.put("b", nil, t0)
	if _, ok := c.get("b", t0); ok {
		t.Error("a missing key was cached without cache-missing-key")
	}
	c.put("x", [][]any{{1}}, t0)
	c.put("y", [][]any{{2}}, t0)
	c.get("x", t0)
	c.put("z", [][]any{{3}}, t0)
	if _, ok := c.get("y", t0); ok {
		t.Error("the least recently used entry stayed past max-rows")
	}
	w := newLookupCache(cacheSpec{expireWrite: 10 * time.Second, cacheMissing: true})
	w.put("m", nil, t0)
	if _, ok := w.get("m", t0.Add(9*time.Second)); !ok {
		t.Error("a missing key was not cached")
	}
	if _, ok := w.get("m", t0.Add(10*time.Second)); ok {
		t.Error("an entry outlived expire-after-write")
	}
}

// TestPushedQuery checks the SELECT a reader sends: the projected
// columns, the partition range and the pushed filters, byte-wise string
// ranges in the C collation.
func TestPushedQuery(t *testing.T) {
	tb := &connectors.Table{Options: map[string]string{"connector": "jdbc", "url": "jdbc:postgresql://h:5433/db", "table-name": "s.t",
		"scan.partition.column": "id", "scan.partition.num": "2", "scan.partition.lower-bound": "1", "scan.partition.upper-bound": "10"},
		Columns: []connectors.Column{{Name: "id", Type: types.New(types.Int)}, {Name: "name", Type: types.NewString()}, {Name: "d", Type: types.NewDecimal(5, 2)}}}
	s, err := newSpec(tb)
	if err != nil {
		t.Fatal(err)
	}
	r := openReader(s)
	taken := r.PushFilters([]connectors.RowFilter{
		{Column: 0, Op: connectors.FilterGe, Value: int64(3)},
		{Column: 1, Op: connectors.FilterLt, Value: "m"},
		{Column: 2, Op: connectors.FilterEq, Value: "1.5"},
		{Column: 1, Op: connectors.FilterIsNotNull},
	})
	if fmt.Sprint(taken) != "[true true false true]" {
		t.Errorf("taken = %v", taken)
	}
	r.PushColumns([]int{1, 0})
	q, args := r.query()
	want := `SELECT name, id FROM s.t WHERE id BETWEEN $1 AND $2 AND (id >= $3) AND (name COLLATE "C" < $4) AND (name IS NOT NULL)`
	if q != want || fmt.Sprint(args) != "[1 5 3 m]" {
		t.Errorf("query:\n%s %v\nwant:\n%s [1 5 3 m]", q, args, want)
	}
	if s.url.address() != "h:5433" || s.url.database != "db" {
		t.Errorf("url: %s %s", s.url.address(), s.url.database)
	}
}

// TestMySQLStatements checks the statements of the MySQL dialect:
// backquoted identifiers, ? parameters, byte-wise string ranges, the
// upsert as Flink's MySqlDialect writes it and the DELETE by key.
func TestMySQLStatements(t *testing.T) {
	tb := &connectors.Table{Options: map[string]string{"connector": "jdbc", "url": "jdbc:mysql://h/db", "table-name": "t",
		"scan.partition.column": "id", "scan.partition.num": "2", "scan.partition.lower-bound": "1", "scan.partition.upper-bound": "10"},
		Columns:    []connectors.Column{{Name: "id", Type: types.New(types.Int)}, {Name: "name", Type: types.NewString()}, {Name: "order", Type: types.New(types.BigInt)}},
		PrimaryKey: []string{"id"}}
	s, err := newSpec(tb)
	if err != nil {
		t.Fatal(err)
	}
	if s.url.address() != "h:3306" || s.dialect.name() != "MySQL" {
		t.Errorf("url: %s, dialect %s", s.url.address(), s.dialect.name())
	}
	r := openReader(s)
	r.PushFilters([]connectors.RowFilter{
		{Column: 1, Op: connectors.FilterGt, Value: "m"},
		{Column: 2, Op: connectors.FilterEq, Value: int64(4)},
	})
	r.PushColumns([]int{2, 1})
	q, args := r.query()
	want := "SELECT `order`, `name` FROM `t` WHERE `id` BETWEEN ? AND ? AND (CAST(`name` AS BINARY) > ?) AND (`order` = ?)"
	if q != want || fmt.Sprint(args) != "[1 5 m 4]" {
		t.Errorf("query:\n%s %v\nwant:\n%s [1 5 m 4]", q, args, want)
	}
	w := &writer{s: s, upsert: true}
	w.insert = s.dialect.upsert(s.table, s.columnsNames, []string{"id"})
	if want := "INSERT INTO `t`(`id`, `name`, `order`) VALUES (?, ?, ?) ON DUPLICATE KEY UPDATE `id`=VALUES(`id`), `name`=VALUES(`name`), `order`=VALUES(`order`)"; w.insert != want {
		t.Errorf("upsert:\n%s\nwant:\n%s", w.insert, want)
	}
	if want := "INSERT INTO `t`(`id`, `name`, `order`) VALUES (?, ?, ?), (?, ?, ?) ON DUPLICATE KEY UPDATE `id`=VALUES(`id`), `name`=VALUES(`name`), `order`=VALUES(`order`)"; w.multiStatement(2) != want {
		t.Errorf("two-row upsert:\n%s\nwant:\n%s", w.multiStatement(2), want)
	}
	for _, tc := range []struct {
		v    any
		t    *types.Type
		want string
	}{
		{int32(20000), types.New(types.Date), "2024-10-04"},
		{12*time.Hour + 3*time.Second + 500*time.Millisecond, types.NewTime(3), "12:00:03.5"},
	} {
		if got := fmt.Sprint(s.dialect.param(tc.v, tc.t)); got != tc.want {
			t.Errorf("param(%v, %s) = %s, want %s", tc.v, tc.t, got, tc.want)
		}
	}
}
