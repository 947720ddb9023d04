package jdbc_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestLookupJoinBounded joins a bounded input with a PostgreSQL dimension
// by key: INNER and LEFT, keys from the ON equalities, the rest of the
// condition a filter of the joined rows, the input's order kept.
func TestLookupJoinBounded(t *testing.T) {
	url := pgURL(t)
	c := pg(t)
	name := table(t, c, `CREATE TABLE %s (id INT PRIMARY KEY, name TEXT, tier INT)`)
	pgExec(t, c, "INSERT INTO "+name+" VALUES (1, 'ann', 1), (2, 'bob', 2), (3, 'cy', 1)")
	s := session(t, "streaming")
	exec1(t, s, "CREATE TABLE dim (id INT, name STRING, tier INT, PRIMARY KEY (id) NOT ENFORCED) "+with(url, name))
	exec1(t, s, "CREATE TEMPORARY VIEW orders AS SELECT o, cust, PROCTIME() AS pt FROM (VALUES (10, 2), (11, 1), (12, 9), (13, 2), (14, CAST(NULL AS INT))) AS v(o, cust)")
	wantRows(t, mustQuery(t, s, "SELECT o.o, d.name FROM orders AS o JOIN dim FOR SYSTEM_TIME AS OF o.pt AS d ON o.cust = d.id"),
		"+I 10 bob", "+I 11 ann", "+I 13 bob")
	wantRows(t, mustQuery(t, s, "SELECT o.o, d.name, d.tier FROM orders AS o LEFT JOIN dim FOR SYSTEM_TIME AS OF o.pt AS d ON o.cust = d.id AND d.tier = 1"),
		"+I 10 <nil> <nil>", "+I 11 ann 1", "+I 12 <nil> <nil>", "+I 13 <nil> <nil>", "+I 14 <nil> <nil>")
	// A key computed from the input, of another type than the column.
	wantRows(t, mustQuery(t, s, "SELECT o.o, d.id FROM orders AS o JOIN dim FOR SYSTEM_TIME AS OF o.pt AS d ON CAST(o.cust + 1 AS BIGINT) = d.id"),
		"+I 10 3", "+I 11 2", "+I 13 3")
	// Flink's refusals.
	for sql, want := range map[string]string{
		"SELECT * FROM orders AS o JOIN dim FOR SYSTEM_TIME AS OF o.pt AS d ON o.cust > d.id":       "Temporal table join requires an equality condition on fields of table [default_catalog.default_database.dim].",
		"SELECT * FROM orders AS o RIGHT JOIN dim FOR SYSTEM_TIME AS OF o.pt AS d ON o.cust = d.id": "Temporal table join currently only support INNER JOIN and LEFT JOIN, but was RIGHT JOIN.",
	} {
		if _, err := query(s, sql, -1); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", sql, err, want)
		}
	}
	// A connector that cannot look up.
	exec1(t, s, "CREATE TABLE gen (id INT) WITH ('connector' = 'datagen', 'number-of-rows' = '3')")
	if _, err := query(s, "SELECT * FROM orders AS o JOIN gen FOR SYSTEM_TIME AS OF o.pt AS g ON o.cust = g.id", -1); err == nil || !strings.Contains(err.Error(), "Processing-time temporal join is not supported yet.") {
		t.Errorf("datagen lookup: %v", err)
	}
}

// TestLookupJoinStreamingCache joins an unbounded datagen stream with a
// PostgreSQL dimension through a partial cache; a dimension row updated
// mid-run is seen once its cached entry expires.
func TestLookupJoinStreamingCache(t *testing.T) {
	url := pgURL(t)
	c := pg(t)
	tbl := table(t, c, `CREATE TABLE %s (id INT PRIMARY KEY, name TEXT)`)
	pgExec(t, c, "INSERT INTO "+tbl+" VALUES (0, 'zero'), (1, 'one')")
	s := session(t, "streaming")
	exec1(t, s, "CREATE TABLE dim (id INT, name STRING, PRIMARY KEY (id) NOT ENFORCED) "+with(url, tbl,
		"'lookup.cache' = 'PARTIAL'", "'lookup.partial-cache.expire-after-write' = '1s'", "'lookup.partial-cache.max-rows' = '100'"))
	exec1(t, s, `CREATE TABLE events (seq BIGINT, pt AS PROCTIME()) WITH ('connector' = 'datagen', 'rows-per-second' = '50',
		'fields.seq.kind' = 'sequence', 'fields.seq.start' = '1', 'fields.seq.end' = '1000000')`)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := s.Execute(ctx, "SELECT e.seq, d.name FROM events AS e JOIN dim FOR SYSTEM_TIME AS OF e.pt AS d ON CAST(e.seq % 2 AS INT) = d.id")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	updated := false
	var updatedAt time.Time
	seen := map[string]bool{}
	for {
		row, ok, err := res.Rows.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			t.Fatal("the stream ended")
		}
		seq, name := row.Values[0].(int64), fmt.Sprint(row.Values[1])
		if seq%2 == 0 && name != "zero" && name != "ZERO" {
			t.Fatalf("seq %d joined %q", seq, name)
		}
		seen[name] = true
		if !updated && seq >= 20 {
			pgExec(t, c, "UPDATE "+tbl+" SET name = 'ZERO' WHERE id = 0")
			updated, updatedAt = true, time.Now()
		}
		if name == "ZERO" {
			if time.Since(updatedAt) > 5*time.Second {
				t.Errorf("the new value came %v after the update", time.Since(updatedAt))
			}
			break
		}
		if updated && time.Since(updatedAt) > 20*time.Second {
			t.Fatal("the join never saw the updated row")
		}
	}
	if !seen["zero"] || !seen["one"] {
		t.Errorf("values seen: %v", seen)
	}
}

// TestLookupDatabaseDown looks up in a database that is not there: the
// lookup retries 'lookup.max-retries' times, then fails naming the host
// and database, never the password.
func TestLookupDatabaseDown(t *testing.T) {
	pgURL(t)
	s := session(t, "streaming")
	exec1(t, s, `CREATE TABLE dim (id INT, name STRING) WITH ('connector' = 'jdbc', 'url' = 'jdbc:postgresql://127.0.0.1:1/nodb',
		'table-name' = 'dim', 'username' = 'u', 'password' = 'sesame-77', 'lookup.max-retries' = '1')`)
	exec1(t, s, "CREATE TEMPORARY VIEW o AS SELECT id, PROCTIME() AS pt FROM (VALUES (1), (2)) AS v(id)")
	start := time.Now()
	_, err := query(s, "SELECT o.id, d.name FROM o JOIN dim FOR SYSTEM_TIME AS OF o.pt AS d ON o.id = d.id", -1)
	if err == nil || !strings.Contains(err.Error(), "database 'nodb' at 127.0.0.1:1") || strings.Contains(err.Error(), "sesame-77") {
		t.Errorf("lookup with the database down: %v", err)
	}
	if d := time.Since(start); d < time.Second || d > 30*time.Second {
		t.Errorf("one retry took %v (it waits a second)", d)
	}
}
