package jdbc_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestSinkAppend(t *testing.T) {
	url := pgURL(t)
	c := pg(t)
	name := table(t, c, `CREATE TABLE %s (id INT, name TEXT, amount NUMERIC(10,2), ts TIMESTAMP(3))`)
	s := session(t, "batch")
	exec1(t, s, "CREATE TABLE out1 (id INT, name STRING, amount DECIMAL(10,2), ts TIMESTAMP(3)) "+with(url, name, "'sink.buffer-flush.max-rows' = '2'"))
	exec1(t, s, `INSERT INTO out1 VALUES (1, 'a', 1.50, TIMESTAMP '2024-01-01 10:00:00.123'), (2, 'b', NULL, NULL), (3, 'c', 3.25, TIMESTAMP '2024-01-01 00:00:00')`)
	got := pgRows(t, c, "SELECT id, name, amount, ts FROM "+name+" ORDER BY id")
	want := []string{"1|a|1.50|2024-01-01 10:00:00.123", "2|b|NULL|NULL", "3|c|3.25|2024-01-01 00:00:00"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("table:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestSinkUpsertChangelog(t *testing.T) {
	url := pgURL(t)
	c := pg(t)
	name := table(t, c, `CREATE TABLE %s (id INT PRIMARY KEY, name TEXT, qty INT)`)
	pgExec(t, c, "INSERT INTO "+name+" VALUES (9, 'kept', 9), (4, 'old', 0)")
	// A Debezium changelog: inserts, updates and a delete.
	dir := t.TempDir()
	msgs := []string{
		`{"before":null,"after":{"id":1,"name":"a","qty":1},"op":"c"}`,
		`{"before":null,"after":{"id":2,"name":"b","qty":2},"op":"c"}`,
		`{"before":{"id":1,"name":"a","qty":1},"after":{"id":1,"name":"a2","qty":10},"op":"u"}`,
		`{"before":null,"after":{"id":3,"name":"c","qty":3},"op":"c"}`,
		`{"before":{"id":2,"name":"b","qty":2},"after":null,"op":"d"}`,
		`{"before":{"id":4,"name":"old","qty":0},"after":null,"op":"d"}`,
	}
	if err := os.WriteFile(filepath.Join(dir, "cdc.json"), []byte(strings.Join(msgs, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, rows := range []string{"1", "100"} {
		s := session(t, "streaming")
		exec1(t, s, fmt.Sprintf(`CREATE TABLE cdc (id INT, name STRING, qty INT) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'debezium-json')`, dir))
		exec1(t, s, "CREATE TABLE up (id INT, name STRING, qty INT, PRIMARY KEY (id) NOT ENFORCED) "+with(url, name, "'sink.buffer-flush.max-rows' = '"+rows+"'"))
		exec1(t, s, "INSERT INTO up SELECT * FROM cdc")
		got := pgRows(t, c, "SELECT id, name, qty FROM "+name+" ORDER BY id")
		want := []string{"1|a2|10", "3|c|3", "9|kept|9"}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("max-rows %s: table:\n%s\nwant:\n%s", rows, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	// An aggregate's updates end as its final rows.
	s := session(t, "streaming")
	name2 := table(t, c, `CREATE TABLE %s (k TEXT PRIMARY KEY, n BIGINT)`)
	exec1(t, s, "CREATE TABLE agg (k STRING, n BIGINT, PRIMARY KEY (k) NOT ENFORCED) "+with(url, name2))
	exec1(t, s, "INSERT INTO agg SELECT k, COUNT(*) FROM (VALUES ('x'), ('y'), ('x'), ('x')) AS v(k) GROUP BY k")
	got := pgRows(t, c, "SELECT k, n FROM "+name2+" ORDER BY k")
	if strings.Join(got, ",") != "x|3,y|1" {
		t.Errorf("aggregate: %v", got)
	}
}

func TestSinkBadValue(t *testing.T) {
	url := pgURL(t)
	c := pg(t)
	name := table(t, c, `CREATE TABLE %s (id INT, code VARCHAR(3) NOT NULL)`)
	s := session(t, "batch")
	exec1(t, s, "CREATE TABLE bad (id INT, code STRING) "+with(url, name, "'sink.buffer-flush.max-rows' = '2'"))
	_, err := query(s, "INSERT INTO bad VALUES (1, 'abc'), (2, 'xyz'), (3, 'abcd'), (4, 'ok')", -1)
	if err == nil {
		t.Fatal("a value longer than VARCHAR(3) was accepted")
	}
	for _, part := range []string{"value too long for type character varying(3)", "22001", "+I(3, abcd)", "eddy' at 127.0.0.1"} {
		if !strings.Contains(err.Error(), part) {
			t.Errorf("error %q lacks %q", err, part)
		}
	}
	// The batch written before the failing one stays.
	if got := pgRows(t, c, "SELECT id FROM "+name+" ORDER BY id"); strings.Join(got, ",") != "1,2" {
		t.Errorf("rows after the failure: %v", got)
	}
}

func TestConnectErrors(t *testing.T) {
	url := pgURL(t)
	s := session(t, "batch")
	// A wrong password: the server refuses; the message names host and
	// database, never the password.
	exec1(t, s, fmt.Sprintf("CREATE TABLE wp (id INT) WITH ('connector' = 'jdbc', 'url' = '%s', 'table-name' = 'x', 'username' = 'eddy', 'password' = 'sesame-wrong')", url))
	start := time.Now()
	_, err := query(s, "SELECT * FROM wp", -1)
	if err == nil || !strings.Contains(err.Error(), "password authentication failed") || !strings.Contains(err.Error(), "database 'eddy' at 127.0.0.1:") {
		t.Errorf("wrong password: %v", err)
	}
	if err != nil && strings.Contains(err.Error(), "sesame-wrong") {
		t.Errorf("the password is in the message: %v", err)
	}
	// Nothing listens: a refused connection, within the connect timeout.
	exec1(t, s, "CREATE TABLE down (id INT) WITH ('connector' = 'jdbc', 'url' = 'jdbc:postgresql://127.0.0.1:1/nodb', 'table-name' = 'x', 'username' = 'u', 'password' = 'sesame')")
	_, err = query(s, "SELECT * FROM down", -1)
	if err == nil || !strings.Contains(err.Error(), "database 'nodb' at 127.0.0.1:1") || strings.Contains(err.Error(), "sesame") {
		t.Errorf("database down: %v", err)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("the failures took %v", d)
	}
	// SHOW CREATE TABLE masks the password.
	rows := mustQuery(t, s, "SHOW CREATE TABLE wp")
	if strings.Contains(strings.Join(rows, "\n"), "sesame") {
		t.Errorf("SHOW CREATE TABLE shows the password: %v", rows)
	}
}

// TestSinkServerRestart restarts PostgreSQL while an unbounded INSERT
// writes: the sink retries per sink.max-retries; batches written before
// stay.
func TestSinkServerRestart(t *testing.T) {
	url := pgURL(t)
	if os.Getenv("EDDY_POSTGRES_RESTART") == "" && os.Getenv("CI") == "" {
		t.Skip("restarts the shared PostgreSQL server: set EDDY_POSTGRES_RESTART=1")
	}
	c := pg(t)
	name := table(t, c, `CREATE TABLE %s (id BIGINT PRIMARY KEY)`)
	s := session(t, "streaming")
	exec1(t, s, "CREATE TABLE gen (id BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '200', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '100000000')")
	exec1(t, s, "CREATE TABLE sinkr (id BIGINT, PRIMARY KEY (id) NOT ENFORCED) "+with(url, name, "'sink.buffer-flush.max-rows' = '50'", "'sink.max-retries' = '1'", "'sink.buffer-flush.interval' = '200ms'"))
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := s.Execute(ctx, "INSERT INTO sinkr SELECT id FROM gen")
		done <- err
	}()
	time.Sleep(2 * time.Second)
	script := "testdata/postgres/postgres.sh"
	out, err := exec.Command(script, "stop").CombinedOutput()
	if err != nil {
		t.Fatalf("stop: %v\n%s", err, out)
	}
	// One retry after a second finds the server still down: the INSERT
	// fails with the connection error.
	var insertErr error
	select {
	case insertErr = <-done:
	case <-time.After(60 * time.Second):
		t.Error("the INSERT did not fail while the server was down")
	}
	cancel()
	out, err = exec.Command(script, "start").CombinedOutput()
	if err != nil {
		t.Fatalf("start: %v\n%s", err, out)
	}
	newURL := strings.TrimSpace(string(out[strings.LastIndex(strings.TrimSpace(string(out)), "\n")+1:]))
	if newURL != url {
		t.Logf("the server came back at %s (was %s)", newURL, url)
	}
	if insertErr == nil || !strings.Contains(insertErr.Error(), "Writing records to JDBC failed after 1 retries") {
		t.Errorf("INSERT error: %v", insertErr)
	}
	c2 := pg(t)
	t.Cleanup(func() { c2.Exec(context.Background(), "DROP TABLE IF EXISTS "+name) })
	got := pgRows(t, c2, "SELECT count(*), min(id) FROM "+name)
	if len(got) != 1 || strings.HasPrefix(got[0], "0|") {
		t.Errorf("no batch stayed written: %v", got)
	}
}
