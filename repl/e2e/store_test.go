package e2e

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The store's reliability as the shell meets it: read-only stores, a
// store whose write lock another process holds, many shells making the
// same new store, stores changed by hand, and what DROP CATALOG leaves.

// combinedAsync is combined for a goroutine other than the test's: it
// returns the failure to start eddy instead of ending the test.
func combinedAsync(vars []string, input string, args ...string) (string, int, error) {
	cmd := exec.Command(binary, args...)
	cmd.Env = vars
	cmd.Stdin = strings.NewReader(input)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return out.String(), ee.ExitCode(), nil
	}
	return out.String(), 0, err
}

// populate makes a store with one managed table t of two rows.
func populate(t *testing.T, vars []string, st string) {
	t.Helper()
	r := eddyEnv(t, vars, "CREATE TABLE t (a INT, b STRING);\nINSERT INTO t VALUES (1, 'x'), (2, 'y');\n", "--store", st)
	if r.code != 0 {
		t.Fatalf("populating the store: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// readOnlyDir makes dir read-only for eddy: a read-only bind mount of it
// when running as root (file permissions do not bind root), otherwise the
// directory and every file in it lose their write permission. It returns
// which of the two it did.
func readOnlyDir(t *testing.T, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if err := os.Chmod(filepath.Join(dir, e.Name()), 0o444); err != nil {
			t.Fatal(err)
		}
	}
	if os.Geteuid() != 0 {
		if err := os.Chmod(dir, 0o555); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(dir, 0o700) })
		return "a directory without write permission"
	}
	if out, err := exec.Command("mount", "--bind", dir, dir).CombinedOutput(); err != nil {
		t.Skipf("root, but cannot bind-mount here: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", "-l", dir).Run() })
	if out, err := exec.Command("mount", "-o", "remount,bind,ro", dir).CombinedOutput(); err != nil {
		t.Skipf("root, but cannot remount read-only here: %v %s", err, out)
	}
	return "a read-only bind mount"
}

// TestReadOnlyStore: a store file of mode 0444 in a read-only location
// answers SELECT, SHOW and DESCRIBE, and refuses every write with one
// clear [ERROR]; the files stay as they were.
func TestReadOnlyStore(t *testing.T) {
	vars, _ := env(t)
	dir := t.TempDir()
	st := filepath.Join(dir, "store.db")
	populate(t, vars, st)
	how := readOnlyDir(t, dir)
	t.Logf("read-only location: %s", how)
	before, err := os.ReadFile(st)
	if err != nil {
		t.Fatal(err)
	}

	out, code := combined(t, vars, batchTableau+"SELECT a, b FROM t ORDER BY a;\nSHOW TABLES;\nDESCRIBE t;\nSHOW DATABASES;\n", "--store", st)
	if code != 0 || strings.Contains(out, "[ERROR]") {
		t.Fatalf("reading a read-only store (%s): exit %d\n%s", how, code, out)
	}
	for _, row := range [][]string{{"1", "x"}, {"2", "y"}, {"t"}, {"b", "STRING", "TRUE", "", "", ""}, {"default_database"}} {
		if !hasRow(out, row...) {
			t.Errorf("the answers lack the row %q:\n%s", row, out)
		}
	}

	for _, stmt := range []string{
		"INSERT INTO t VALUES (3, 'z');",
		"CREATE TABLE u (a INT);",
		"DROP TABLE t;",
		"CREATE DATABASE d2;",
		"CREATE CATALOG c WITH ('type' = 'sqlite');",
	} {
		out, code := combined(t, vars, stmt+"\n", "--store", st)
		rs := reasons(out)
		if code == 0 || len(rs) != 1 || !strings.Contains(rs[0], "read-only") || strings.Contains(out, "panic") {
			t.Errorf("%s on a read-only store: exit %d, want one [ERROR] saying the store is read-only:\n%s", stmt, code, out)
		}
	}
	after, err := os.ReadFile(st)
	if err != nil {
		t.Fatal(err)
	}
	if string(before) != string(after) {
		t.Error("the read-only store file changed")
	}
}

// lockHold is how long the lock holder keeps the store's write lock:
// EDDY_E2E_LOCK_HOLD (a Go duration, such as 60s) overrides it.
func lockHold(t *testing.T) time.Duration {
	if s := os.Getenv("EDDY_E2E_LOCK_HOLD"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			t.Fatalf("EDDY_E2E_LOCK_HOLD: %v", err)
		}
		return d
	}
	return 8 * time.Second
}

// holdWriteLock takes the store's write lock in this test process (a
// process other than the eddy under test, as a long ALTER of another
// program would) with BEGIN IMMEDIATE and an uncommitted change of the
// schema, and keeps it for hold. The returned channel closes when the
// lock is released.
func holdWriteLock(t *testing.T, st string, hold time.Duration) <-chan struct{} {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+st+"?_busy_timeout=5000")
	if err != nil {
		t.Fatal(err)
	}
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{`BEGIN IMMEDIATE`, `CREATE TABLE lock_holder (a INTEGER)`} {
		if _, err := conn.ExecContext(context.Background(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	released := make(chan struct{})
	go func() {
		time.Sleep(hold)
		conn.ExecContext(context.Background(), `ROLLBACK`)
		conn.Close()
		db.Close()
		close(released)
	}()
	t.Cleanup(func() { <-released })
	return released
}

// TestReadsWhileAnotherProcessHoldsTheWriteLock: while another process
// holds the store's write lock (for longer than the busy timeout, with
// EDDY_E2E_LOCK_HOLD=60s), eddy starts and answers SELECT, SHOW and
// DESCRIBE at once, without waiting for the lock.
func TestReadsWhileAnotherProcessHoldsTheWriteLock(t *testing.T) {
	vars, _ := env(t)
	st := store(t)
	populate(t, vars, st)
	hold := lockHold(t)
	start := time.Now()
	released := holdWriteLock(t, st, hold)
	for _, q := range []string{"SELECT a, b FROM t ORDER BY a;", "SHOW TABLES;", "DESCRIBE t;", "SHOW CATALOGS;"} {
		began := time.Now()
		out, code := combined(t, vars, batchTableau+q+"\n", "--store", st)
		took := time.Since(began)
		select {
		case <-released:
			t.Fatalf("%s finished only after the lock was released (%v)", q, took)
		default:
		}
		if code != 0 || strings.Contains(out, "[ERROR]") {
			t.Fatalf("%s while the write lock is held: exit %d after %v\n%s", q, code, took, out)
		}
		t.Logf("%s answered in %v while the lock was held", q, took.Round(time.Millisecond))
	}
	if out, _ := combined(t, vars, batchTableau+"SELECT count(*) AS chk_n FROM t;\n", "--store", st); checks(out)["chk_n"] != 2 {
		t.Errorf("count while the lock is held:\n%s", out)
	}
	t.Logf("the lock was held for %v; every read finished %v after it was taken", hold, time.Since(start).Round(time.Millisecond))
}

// initTrials is how many times TestFirstInitialisationRace starts its
// shells: EDDY_E2E_INIT_TRIALS overrides it.
func initTrials(t *testing.T) int {
	if s := os.Getenv("EDDY_E2E_INIT_TRIALS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("EDDY_E2E_INIT_TRIALS=%q", s)
		}
		return n
	}
	return 30
}

// TestFirstInitialisationRace starts six shells at once on a store file
// that does not exist yet, many times over: every shell succeeds, and
// the store ends with each shell's table.
func TestFirstInitialisationRace(t *testing.T) {
	const shells = 6
	vars, _ := env(t)
	trials := initTrials(t)
	failures := 0
	for trial := 0; trial < trials && failures < 5; trial++ {
		st := filepath.Join(t.TempDir(), "new", "store.db")
		var wg sync.WaitGroup
		outs := make([]string, shells)
		codes := make([]int, shells)
		errs := make([]error, shells)
		for p := range shells {
			wg.Add(1)
			go func() {
				defer wg.Done()
				script := fmt.Sprintf("CREATE TABLE s%d (a INT);\nSHOW TABLES;\n", p)
				outs[p], codes[p], errs[p] = combinedAsync(vars, script, "--store", st)
			}()
		}
		wg.Wait()
		for p := range shells {
			if errs[p] != nil {
				t.Fatalf("running eddy: %v", errs[p])
			}
			if codes[p] != 0 || strings.Contains(outs[p], "[ERROR]") {
				failures++
				t.Errorf("trial %d, shell %d: exit %d\n%s", trial, p, codes[p], outs[p])
			}
		}
		if failures == 0 {
			out, _ := combined(t, vars, batchTableau+"SHOW TABLES;\n", "--store", st)
			for p := range shells {
				if !hasRow(out, fmt.Sprintf("s%d", p)) {
					t.Fatalf("trial %d: table s%d is missing:\n%s", trial, p, out)
				}
			}
		}
	}
	t.Logf("%d trials of %d shells on a new store: %d failures", trials, shells, failures)
}

// TestDamagedStoreThroughShell: a store whose bookkeeping was changed by
// hand makes eddy stop with one clear message naming the store, never a
// panic or SQLite's words, and leaves the file as it was.
func TestDamagedStoreThroughShell(t *testing.T) {
	vars, _ := env(t)
	cases := []struct{ name, edit, want string }{
		{"negative version", `UPDATE eddy_meta SET value = '-1' WHERE key = 'schema_version'`, "is damaged"},
		{"zero version", `UPDATE eddy_meta SET value = '0' WHERE key = 'schema_version'`, "is damaged"},
		{"text version", `UPDATE eddy_meta SET value = 'one' WHERE key = 'schema_version'`, "is damaged"},
		{"no version", `DELETE FROM eddy_meta WHERE key = 'schema_version'`, "is damaged"},
		{"missing table", `DROP TABLE functions`, "is damaged"},
		{"newer version", `UPDATE eddy_meta SET value = '99' WHERE key = 'schema_version'`, "has schema version 99"},
		{"no meta", `DROP TABLE eddy_meta`, "not an eddy store"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := store(t)
			populate(t, vars, st)
			db := integrity(t, st)
			if _, err := db.Exec(c.edit); err != nil {
				t.Fatal(err)
			}
			db.Close()
			before, err := os.ReadFile(st)
			if err != nil {
				t.Fatal(err)
			}
			r := eddyEnv(t, vars, "SHOW TABLES;\n", "--store", st)
			lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
			if r.code == 0 || len(lines) != 1 || !strings.Contains(r.stderr, c.want) || !strings.Contains(r.stderr, st) {
				t.Errorf("exit %d, stderr:\n%s\nwant one line naming the store and saying %q", r.code, r.stderr, c.want)
			}
			for _, bad := range []string{"panic", "sql:", "already exists", "no such"} {
				if strings.Contains(r.stderr, bad) {
					t.Errorf("the message says %q: %s", bad, r.stderr)
				}
			}
			after, err := os.ReadFile(st)
			if err != nil {
				t.Fatal(err)
			}
			if string(after) != string(before) {
				t.Error("the damaged store was changed")
			}
		})
	}
}

// catalogLeftovers counts what the store keeps for a catalog: its
// databases, objects, functions and data tables.
func catalogLeftovers(t *testing.T, st, catalog string) int {
	t.Helper()
	db := integrity(t, st)
	defer db.Close()
	var n int
	err := db.QueryRow(`SELECT (SELECT count(*) FROM databases WHERE catalog = ?1) +
		(SELECT count(*) FROM objects WHERE catalog = ?1) +
		(SELECT count(*) FROM functions WHERE catalog = ?1) +
		(SELECT count(*) FROM row_tables WHERE catalog = ?1)`, catalog).Scan(&n)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestDropCatalogKeepsItsData: DROP CATALOG of a sqlite catalog removes
// its definition only, as Flink's DROP CATALOG leaves the data of a Hive
// or JDBC catalog where it lives: creating the catalog again finds its
// tables and rows. Dropping every database with CASCADE before DROP
// CATALOG purges the data, leaving nothing of the catalog in the store.
func TestDropCatalogKeepsItsData(t *testing.T) {
	vars, _ := env(t)
	st := store(t)
	script := `CREATE CATALOG c WITH ('type' = 'sqlite');
CREATE DATABASE c.d2;
CREATE TABLE c.d2.u (a INT);
INSERT INTO c.d2.u VALUES (1), (2), (3);
DROP CATALOG c;
`
	if out, code := combined(t, vars, script, "--store", st); code != 0 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	if n := catalogLeftovers(t, st, "c"); n == 0 {
		t.Fatal("DROP CATALOG removed the catalog's data; it keeps it")
	}
	again := batchTableau + "CREATE CATALOG c WITH ('type' = 'sqlite');\nSELECT count(*) AS chk_n FROM c.d2.u;\n"
	out, code := combined(t, vars, again, "--store", st)
	if code != 0 || checks(out)["chk_n"] != 3 {
		t.Fatalf("the re-created catalog does not find its 3 rows: exit %d\n%s", code, out)
	}
	purge := batchTableau + "DROP DATABASE c.`default` CASCADE;\nDROP DATABASE c.d2 CASCADE;\nDROP CATALOG c;\n"
	if out, code := combined(t, vars, purge, "--store", st); code != 0 {
		t.Fatalf("purge: exit %d\n%s", code, out)
	}
	if n := catalogLeftovers(t, st, "c"); n != 0 {
		t.Fatalf("after the purge the store keeps %d entries of catalog c", n)
	}
	db := integrity(t, st)
	defer db.Close()
	var tables int
	if err := db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name LIKE 'eddy_rows_%'`).Scan(&tables); err != nil {
		t.Fatal(err)
	}
	if tables != 0 {
		t.Errorf("after the purge the store keeps %d data tables", tables)
	}
	out, code = combined(t, vars, batchTableau+"CREATE CATALOG c WITH ('type' = 'sqlite');\nSHOW DATABASES IN c;\n", "--store", st)
	if code != 0 || hasRow(out, "d2") || !hasRow(out, "default") {
		t.Errorf("a catalog made again after the purge is not empty: exit %d\n%s", code, out)
	}
}

// TestTableDroppedUnderAReader: one shell reads a table over and over
// while another drops and makes it again. A read may find the table
// missing, but no message names the store's internal data tables.
func TestTableDroppedUnderAReader(t *testing.T) {
	vars, _ := env(t)
	st := store(t)
	populate(t, vars, st)
	var reads, churn strings.Builder
	reads.WriteString(batchTableau)
	for range 300 {
		reads.WriteString("SELECT count(*) FROM t;\n")
	}
	for range 100 {
		churn.WriteString("DROP TABLE t;\nCREATE TABLE t (a INT, b STRING);\nINSERT INTO t VALUES (1, 'x');\n")
	}
	var wg sync.WaitGroup
	var readOut, churnOut string
	wg.Add(2)
	var readErr, churnErr error
	go func() {
		defer wg.Done()
		readOut, _, readErr = combinedAsync(vars, reads.String(), "--store", st, "--keep-going")
	}()
	go func() {
		defer wg.Done()
		churnOut, _, churnErr = combinedAsync(vars, churn.String(), "--store", st, "--keep-going")
	}()
	wg.Wait()
	if readErr != nil || churnErr != nil {
		t.Fatalf("running eddy: %v %v", readErr, churnErr)
	}
	if rs := reasons(churnOut); len(rs) != 0 {
		t.Errorf("the shell that drops and makes the table failed: %q", rs)
	}
	missing := 0
	for _, r := range reasons(readOut) {
		switch {
		case strings.Contains(r, "eddy_rows"):
			t.Errorf("a message names an internal table: %s", r)
		case strings.Contains(r, "Object 't' not found"),
			strings.Contains(r, "dropped or changed by another session"):
			missing++
		default:
			t.Errorf("unexpected failure of a read: %s", r)
		}
	}
	t.Logf("%d of 300 reads found the table missing", missing)
}
