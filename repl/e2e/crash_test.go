package e2e

import (
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	_ "github.com/mattn/go-sqlite3"
)

// crashIterations is how many times each crash test kills eddy;
// EDDY_CRASH_ITERATIONS overrides it for a quicker local run.
func crashIterations(t *testing.T) int {
	if s := os.Getenv("EDDY_CRASH_ITERATIONS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("EDDY_CRASH_ITERATIONS=%q", s)
		}
		return n
	}
	return 50
}

// killAfter starts eddy on script and kills it with SIGKILL after delay.
// It reports whether the kill hit a running process.
func killAfter(t *testing.T, vars []string, st, script string, delay time.Duration) (killed bool, out string) {
	t.Helper()
	cmd := exec.Command(binary, "--store", st)
	cmd.Env = vars
	cmd.Stdin = strings.NewReader(script)
	var b strings.Builder
	cmd.Stdout, cmd.Stderr = &b, &b
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("eddy failed before it was killed: %v\n%s", err, b.String())
		}
		return false, b.String()
	case <-time.After(delay):
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	err := <-done
	if ee, ok := err.(*exec.ExitError); ok {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return true, b.String()
		}
	}
	if err != nil {
		t.Fatalf("eddy failed: %v\n%s", err, b.String())
	}
	return false, b.String()
}

// integrity opens the store file with SQLite itself and runs its
// integrity check.
func integrity(t *testing.T, st string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite3", st)
	if err != nil {
		t.Fatal(err)
	}
	var res string
	if err := db.QueryRow(`PRAGMA integrity_check`).Scan(&res); err != nil || res != "ok" {
		t.Fatalf("integrity_check: %q %v", res, err)
	}
	return db
}

// storedRows counts the rows the store holds for a managed table of
// default_catalog.default_database: -1 when the table does not exist, 0
// when it has no rows yet.
func storedRows(t *testing.T, db *sql.DB, table string) int {
	t.Helper()
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM objects WHERE catalog = 'default_catalog' AND db = 'default_database' AND name = ?`,
		table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		return -1
	}
	var id int64
	err := db.QueryRow(`SELECT id FROM row_tables WHERE catalog = 'default_catalog' AND db = 'default_database' AND name = ?`,
		table).Scan(&id)
	if err == sql.ErrNoRows || err != nil && strings.Contains(err.Error(), "no such table") {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	// The row-wise delta, and the column chunks older rows were folded
	// into (rows counted on column 0).
	if err := db.QueryRow(fmt.Sprintf(`SELECT (SELECT count(*) FROM eddy_rows_%d) +
		(SELECT coalesce(sum(rows), 0) FROM eddy_chunks WHERE tbl = ? AND col = 0)`, id), id).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestKilledDuringLargeInsert kills eddy at random moments while it copies
// 200,000 rows from a CSV file into a new managed table, between DDL on
// the tables of earlier rounds. After every kill the store opens (in
// SQLite and in eddy), passes the integrity check, and the copy is all or
// nothing: the table holds 0 or 200,000 rows.
func TestKilledDuringLargeInsert(t *testing.T) {
	if testing.Short() {
		t.Skip("kills eddy 50 times")
	}
	const rows = 200_000
	vars, home := env(t)
	st := filepath.Join(home, "store.db")
	csv := filepath.Join(home, "big.csv")
	var b strings.Builder
	for i := 0; i < rows; i++ {
		fmt.Fprintf(&b, "%d,name %d,%d.5\n", i, i, i)
	}
	if err := os.WriteFile(csv, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	setup := fmt.Sprintf("CREATE TABLE src (a INT, b STRING, c DOUBLE) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv');\n", csv)
	if out, code := combined(t, vars, setup, "--store", st); code != 0 {
		t.Fatalf("setup: %s", out)
	}
	round := func(i int) string {
		return fmt.Sprintf(`SET 'execution.runtime-mode' = 'batch';
CREATE TABLE big_%[1]d (a INT, b STRING, c DOUBLE);
ALTER TABLE big_%[1]d SET ('round' = '%[1]d');
INSERT INTO big_%[1]d SELECT * FROM src;
CREATE VIEW v_%[1]d AS SELECT a FROM big_%[1]d;
DROP VIEW IF EXISTS v_%[2]d;
DROP TABLE IF EXISTS big_%[2]d;
`, i+100, i+98)
	}
	// One round without a kill gives the time to kill within.
	start := time.Now()
	if out, code := combined(t, vars, round(0), "--store", st); code != 0 {
		t.Fatalf("the uninterrupted round: %s", out)
	}
	full := time.Since(start)
	db := integrity(t, st)
	if n := storedRows(t, db, "big_100"); n != rows {
		t.Fatalf("the uninterrupted round stored %d rows, want %d", n, rows)
	}
	db.Close()

	iterations := crashIterations(t)
	killed, whole, none := 0, 0, 0
	for i := 1; i <= iterations; i++ {
		delay := time.Duration(rand.Int64N(int64(full * 3 / 4)))
		k, out := killAfter(t, vars, st, round(i), delay)
		if k {
			killed++
		} else {
			t.Logf("round %d ended before the kill after %v", i, delay)
			// The uninterrupted round ran slower than the rounds do now
			// (a busy machine then): kill within a shorter time.
			full = full * 3 / 4
		}
		db := integrity(t, st)
		switch n := storedRows(t, db, fmt.Sprintf("big_%d", i+100)); n {
		case rows:
			whole++
		case 0, -1:
			none++
		default:
			t.Fatalf("round %d (killed after %v): big_%d holds %d rows, want 0 or %d\n%s", i, delay, i+100, n, rows, out)
		}
		db.Close()
		// The store opens in eddy, which sees the same.
		if i%10 == 0 || i == iterations {
			out, code := combined(t, vars, batchTableau+fmt.Sprintf("SELECT COUNT(*) AS chk_n FROM big_%d;\nSHOW TABLES;\n", i+100), "--store", st, "--keep-going")
			if strings.Contains(out, "CatalogException") || strings.Contains(out, "InternalError") {
				t.Fatalf("round %d: eddy cannot read the store after the kill (exit %d):\n%s", i, code, out)
			}
			if n, ok := checks(out)["chk_n"]; ok && n != 0 && n != rows {
				t.Fatalf("round %d: eddy counts %d rows in big_%d", i, n, i+100)
			}
		}
	}
	if killed < iterations/2 {
		t.Fatalf("only %d of %d rounds were killed while running; the test proves little", killed, iterations)
	}
	t.Logf("%d rounds, %d killed mid-run: %d copies whole, %d absent, 0 partial (a full round took %v)", iterations, killed, whole, none, full)
}

// TestKilledDuringDDL kills eddy at random moments in a stream of DDL
// (tables of many columns, ALTERs, views, renames, drops). After every
// kill the store passes the integrity check and every table and view it
// lists reads back whole through SHOW CREATE.
func TestKilledDuringDDL(t *testing.T) {
	if testing.Short() {
		t.Skip("kills eddy 50 times")
	}
	vars, home := env(t)
	st := filepath.Join(home, "store.db")
	cols := make([]string, 40)
	for i := range cols {
		cols[i] = fmt.Sprintf("c%d STRING COMMENT 'column %d'", i, i)
	}
	round := func(i int) string {
		var b strings.Builder
		for j := 0; j < 60; j++ {
			n := fmt.Sprintf("r%d_%d", i, j)
			fmt.Fprintf(&b, "CREATE TABLE %s (%s) WITH ('connector' = 'blackhole');\n", n, strings.Join(cols, ", "))
			fmt.Fprintf(&b, "ALTER TABLE %s ADD (extra INT, more STRING);\n", n)
			fmt.Fprintf(&b, "CREATE VIEW %s_v AS SELECT c0, c1 FROM %s;\n", n, n)
			if j%2 == 0 {
				fmt.Fprintf(&b, "ALTER TABLE %s RENAME TO %s_renamed;\n", n, n)
				fmt.Fprintf(&b, "DROP VIEW %s_v;\n", n)
			}
		}
		fmt.Fprintf(&b, "DROP DATABASE IF EXISTS d%d CASCADE;\n", max(i-1, 0))
		fmt.Fprintf(&b, "CREATE DATABASE d%d;\n", i)
		return b.String()
	}
	start := time.Now()
	if out, code := combined(t, vars, round(0), "--store", st); code != 0 {
		t.Fatalf("the uninterrupted round: %s", out)
	}
	full := time.Since(start)
	iterations := crashIterations(t)
	killed, objects := 0, 0
	for i := 1; i <= iterations; i++ {
		delay := time.Duration(rand.Int64N(int64(full * 3 / 4)))
		k, _ := killAfter(t, vars, st, round(i), delay)
		if k {
			killed++
		} else {
			t.Logf("round %d ended before the kill after %v", i, delay)
			// The uninterrupted round ran slower than the rounds do now
			// (a busy machine then): kill within a shorter time.
			full = full * 3 / 4
		}
		integrity(t, st).Close()
		if i%5 != 0 && i != iterations {
			continue
		}
		out, code := combined(t, vars, batchTableau+"SHOW TABLES;\nSHOW VIEWS;\n", "--store", st)
		if code != 0 {
			t.Fatalf("round %d: the store does not open in eddy after a kill:\n%s", i, out)
		}
		names := column(out, "table name")
		views := map[string]bool{}
		for _, v := range column(out, "view name") {
			views[v] = true
		}
		var show strings.Builder
		for _, n := range names {
			kind := "TABLE"
			if views[n] {
				kind = "VIEW"
			}
			fmt.Fprintf(&show, "SHOW CREATE %s `%s`;\n", kind, n)
		}
		out, code = combined(t, vars, show.String(), "--store", st, "--keep-going")
		if rs := reasons(out); len(rs) > 0 || code != 0 {
			t.Fatalf("round %d: listed objects do not read back (exit %d): %q", i, code, rs)
		}
		if got := strings.Count(out, "CREATE "); got != len(names) {
			t.Fatalf("round %d: %d objects listed, %d definitions shown", i, len(names), got)
		}
		objects = len(names)
	}
	if killed < iterations/2 {
		t.Fatalf("only %d of %d rounds were killed while running", killed, iterations)
	}
	t.Logf("%d rounds, %d killed mid-run; %d objects read back whole after the last (a full round took %v)", iterations, killed, objects, full)
}

// TestStoreTroubleThroughShell starts eddy on stores it cannot use: a
// file that is not SQLite, a store of a newer schema version, an
// immutable store (which opens for reading, so the CREATE TABLE is the
// error). Each is one clear error naming the file, exit status 1, and the
// file is left byte for byte as it was.
func TestStoreTroubleThroughShell(t *testing.T) {
	vars, home := env(t)
	notes := filepath.Join(home, "notes.txt")
	if err := os.WriteFile(notes, []byte("my notes, not a database\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	newer := filepath.Join(home, "newer.db")
	if out, code := combined(t, vars, "CREATE TABLE kept (a INT);", "--store", newer); code != 0 {
		t.Fatal(out)
	}
	db, err := sql.Open("sqlite3", newer)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE eddy_meta SET value = '99' WHERE key = 'schema_version'`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	cases := map[string]string{notes: "is not a SQLite database", newer: "has schema version 99"}
	if os.Geteuid() == 0 {
		frozen := filepath.Join(home, "frozen.db")
		if out, code := combined(t, vars, "CREATE TABLE kept (a INT);", "--store", frozen); code != 0 {
			t.Fatal(out)
		}
		if exec.Command("chattr", "+i", frozen).Run() == nil {
			t.Cleanup(func() { exec.Command("chattr", "-i", frozen).Run() })
			cases[frozen] = "is read-only"
		}
	}
	for path, want := range cases {
		before, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		r := eddyEnv(t, vars, "CREATE TABLE t (a INT);\n", "--store", path)
		// One error: Flink's two lines, then the statement's location.
		msg, _, _ := strings.Cut(r.stderr, "\n<stdin>:1:1: in this statement:\n    CREATE TABLE t (a INT)\n")
		if r.code != 1 || r.stdout != "" || strings.Count(strings.TrimSpace(msg), "\n") > 1 ||
			!strings.Contains(r.stderr, path) || !strings.Contains(r.stderr, want) {
			t.Errorf("%s: exit %d, want 1 and one error naming the file and saying %q:\n%s%s", path, r.code, want, r.stdout, r.stderr)
		}
		after, _ := os.ReadFile(path)
		if string(after) != string(before) {
			t.Errorf("%s changed", path)
		}
		t.Logf("%s", strings.TrimSpace(r.stderr))
	}
}
