package e2e

import (
	"bufio"
	"database/sql"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Group commit: a piped script's INSERTs share store transactions, and
// their answers are printed only after the shared commit (see
// repl/groupcommit.go). These tests hold eddy to what that promises.

const ackLine = "[INFO] Complete execution of the SQL update statement."

// tableRows returns the rows of a managed table of
// default_catalog.default_database as "c0|c1|..." strings in insertion
// order (nil when it has none).
func tableRows(t *testing.T, db *sql.DB, table string, cols int) []string {
	t.Helper()
	var id int64
	err := db.QueryRow(`SELECT id FROM row_tables WHERE catalog = 'default_catalog' AND db = 'default_database' AND name = ?`,
		table).Scan(&id)
	if err == sql.ErrNoRows {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, cols)
	for i := range names {
		names[i] = fmt.Sprintf("coalesce(c%d, 'NULL')", i)
	}
	rows, err := db.Query(fmt.Sprintf(`SELECT %s FROM eddy_rows_%d ORDER BY rowid`, strings.Join(names, " || '|' || "), id))
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

// startPiped starts eddy with args and pipes on its stdin and stdout.
func startPiped(t *testing.T, vars []string, args ...string) (*exec.Cmd, io.WriteCloser, io.Reader) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = vars
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, in, out
}

// countAnswers reads out to its end and returns how many INSERT answers
// it holds; at the answer numbered at it calls signal.
func countAnswers(out io.Reader, at int, signal func()) int {
	acked := 0
	r := bufio.NewReader(out)
	for {
		line, err := r.ReadString('\n')
		if strings.TrimSpace(line) == ackLine {
			acked++
			if acked == at {
				signal()
			}
		}
		if err != nil {
			return acked
		}
	}
}

// endedBySignal says what is wrong when err, from cmd.Wait, is not the
// end of eddy by sig.
func endedBySignal(err error, sig syscall.Signal) error {
	ee, ok := err.(*exec.ExitError)
	if !ok {
		return fmt.Errorf("eddy was not ended by the signal: %v", err)
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != sig {
		return fmt.Errorf("exit status %v, want the end by %v", ee, sig)
	}
	return nil
}

// TestGroupCommitKilled kills eddy with SIGKILL while a pipe feeds it
// three-row INSERTs, at the moment it has printed some hundreds of
// answers. Every acknowledged statement's rows must be in the store, and
// every other statement's rows all there or all absent.
func TestGroupCommitKilled(t *testing.T) {
	for round := range 4 {
		vars, _ := env(t)
		st := store(t)
		cmd, in, out := startPiped(t, vars, "--store", st, "-D", "table.dml-sync=true")
		const statements = 20000
		go func() {
			w := bufio.NewWriterSize(in, 64<<10)
			fmt.Fprintln(w, "CREATE TABLE g (s INT, k INT);")
			for i := range statements {
				fmt.Fprintf(w, "INSERT INTO g VALUES (%d, 0), (%d, 1), (%d, 2);\n", i, i, i)
				if i%700 == 0 {
					w.Flush() // the reader sees the pipe run dry now and then
				}
			}
			w.Flush()
			in.Close()
		}()
		killAt := 300 + round*900
		acked := countAnswers(out, killAt, func() { _ = cmd.Process.Signal(syscall.SIGKILL) })
		_ = cmd.Wait()
		if acked < killAt {
			t.Fatalf("round %d: eddy answered %d statements before it ended, want at least %d", round, acked, killAt)
		}
		db := integrity(t, st)
		count := map[string]int{}
		for _, row := range tableRows(t, db, "g", 2) {
			s, _, _ := strings.Cut(row, "|")
			count[s]++
		}
		db.Close()
		for i := range statements {
			n := count[fmt.Sprint(i)]
			if i < acked && n != 3 {
				t.Fatalf("round %d: statement %d was acknowledged (%d answers) but has %d of its 3 rows", round, i, acked, n)
			}
			if n != 0 && n != 3 {
				t.Fatalf("round %d: statement %d has %d of its 3 rows", round, i, n)
			}
		}
		beyond := 0
		for i := acked; i < statements; i++ {
			if count[fmt.Sprint(i)] == 3 {
				beyond++
			}
		}
		t.Logf("round %d: killed after %d answers; %d more statements were stored", round, acked, beyond)
	}
}

// failingScript has a failing statement between INSERTs that share a
// commit: a cast error in the second row of a two-row INSERT.
const failingScript = `CREATE TABLE f (a INT NOT NULL, b STRING);
INSERT INTO f VALUES (1, 'a');
INSERT INTO f VALUES (2, 'b');
INSERT INTO f VALUES (3, 'c'), (CAST('x' AS INT), 'bad');
INSERT INTO f VALUES (4, 'd');
`

func TestGroupCommitFailingStatement(t *testing.T) {
	vars, _ := env(t)
	errLine := "[ERROR] Could not execute SQL statement. Reason:"

	st := store(t)
	out, code := combined(t, vars, failingScript, "--store", st, "-D", "table.dml-sync=true", "--keep-going")
	if code != 1 {
		t.Errorf("--keep-going: exit %d, want 1\n%s", code, out)
	}
	var kinds []string
	for _, line := range strings.Split(out, "\n") {
		switch {
		case line == ackLine:
			kinds = append(kinds, "ok")
		case line == errLine:
			kinds = append(kinds, "error")
		}
	}
	if got := strings.Join(kinds, " "); got != "ok ok error ok" {
		t.Errorf("--keep-going: answers %q, want \"ok ok error ok\":\n%s", got, out)
	}
	db := integrity(t, st)
	if got := strings.Join(tableRows(t, db, "f", 2), " "); got != "1|a 2|b 4|d" {
		t.Errorf("--keep-going: rows %q, want \"1|a 2|b 4|d\"", got)
	}
	db.Close()

	st = store(t)
	out, code = combined(t, vars, failingScript, "--store", st, "-D", "table.dml-sync=true")
	if code != 1 {
		t.Errorf("exit %d, want 1\n%s", code, out)
	}
	if n := strings.Count(out, ackLine); n != 2 || !strings.HasSuffix(strings.TrimSpace(out), "") ||
		strings.Index(out, errLine) < strings.LastIndex(out, ackLine) {
		t.Errorf("want two answers, then the error, then nothing:\n%s", out)
	}
	db = integrity(t, st)
	if got := strings.Join(tableRows(t, db, "f", 2), " "); got != "1|a 2|b" {
		t.Errorf("rows %q, want \"1|a 2|b\" (the script stops at the failure)", got)
	}
	db.Close()
}

// TestGroupCommitConcurrentWriter runs short writers on the store while a
// long piped script inserts into it: each must succeed, and soon.
func TestGroupCommitConcurrentWriter(t *testing.T) {
	vars, _ := env(t)
	st := store(t)
	if r := eddyEnv(t, vars, "CREATE TABLE big (i INT, s STRING);\nCREATE TABLE other (i INT);\n", "--store", st); r.code != 0 {
		t.Fatalf("setup: %s", r.stderr)
	}
	const statements = 30000
	var script strings.Builder
	for i := range statements {
		fmt.Fprintf(&script, "INSERT INTO big VALUES (%d, 'row %d');\n", i, i)
	}
	var wg sync.WaitGroup
	var long result
	wg.Add(1)
	go func() {
		defer wg.Done()
		long = eddyEnv(t, vars, script.String(), "--store", st, "-D", "table.dml-sync=true")
	}()
	time.Sleep(100 * time.Millisecond)
	for i := range 5 {
		start := time.Now()
		r := eddyEnv(t, vars, "", "--store", st, "-D", "table.dml-sync=true", "-e", fmt.Sprintf("INSERT INTO other VALUES (%d);", i))
		if r.code != 0 {
			t.Fatalf("concurrent writer %d: exit %d\n%s", i, r.code, r.stderr)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("concurrent writer %d waited %s", i, d)
		}
	}
	wg.Wait()
	if long.code != 0 {
		t.Fatalf("piped script: exit %d\n%s", long.code, long.stderr)
	}
	if n := strings.Count(long.stdout, ackLine); n != statements {
		t.Errorf("piped script answered %d statements, want %d", n, statements)
	}
	db := integrity(t, st)
	defer db.Close()
	if n := storedRows(t, db, "big"); n != statements {
		t.Errorf("big has %d rows, want %d", n, statements)
	}
	if n := storedRows(t, db, "other"); n != 5 {
		t.Errorf("other has %d rows, want 5", n)
	}
}

// TestGroupCommitPipeAnswersAtOnce feeds statements one at a time through
// a pipe that stays open: each answer comes without waiting for more
// input, and what was answered is already in the store.
func TestGroupCommitPipeAnswersAtOnce(t *testing.T) {
	vars, _ := env(t)
	st := store(t)
	cmd, in, out := startPiped(t, vars, "--store", st, "-D", "table.dml-sync=true")
	defer func() {
		in.Close()
		cmd.Wait()
	}()
	lines := make(chan string, 100)
	go func() {
		r := bufio.NewReader(out)
		for {
			line, err := r.ReadString('\n')
			if line != "" {
				lines <- strings.TrimSpace(line)
			}
			if err != nil {
				close(lines)
				return
			}
		}
	}()
	await := func(want string) {
		t.Helper()
		timeout := time.After(10 * time.Second)
		for {
			select {
			case line, ok := <-lines:
				if !ok {
					t.Fatalf("eddy ended before answering %q", want)
				}
				if line == want {
					return
				}
			case <-timeout:
				t.Fatalf("no %q within 10 s while the pipe stays open", want)
			}
		}
	}
	io.WriteString(in, "CREATE TABLE p (i INT);\n")
	await("[INFO] Execute statement succeeded.")
	for i := range 3 {
		fmt.Fprintf(in, "INSERT INTO p VALUES (%d);\n", i)
		await(ackLine)
		db := integrity(t, st)
		n := storedRows(t, db, "p")
		db.Close()
		if n != i+1 {
			t.Fatalf("after %d answers the store holds %d rows", i+1, n)
		}
	}
}

// TestGroupCommitTerminated sends SIGTERM while a pipe feeds eddy
// INSERTs: eddy commits and answers what it holds, then ends by the
// signal; the store holds exactly the answered statements.
func TestGroupCommitTerminated(t *testing.T) {
	vars, _ := env(t)
	st := store(t)
	cmd, in, out := startPiped(t, vars, "--store", st, "-D", "table.dml-sync=true")
	const statements = 50000
	go func() {
		w := bufio.NewWriterSize(in, 64<<10)
		fmt.Fprintln(w, "CREATE TABLE g (s INT, k INT);")
		for i := range statements {
			fmt.Fprintf(w, "INSERT INTO g VALUES (%d, 0), (%d, 1);\n", i, i)
		}
		w.Flush()
		in.Close()
	}()
	acked := countAnswers(out, 1500, func() { _ = cmd.Process.Signal(syscall.SIGTERM) })
	if err := endedBySignal(cmd.Wait(), syscall.SIGTERM); err != nil {
		t.Fatalf("%v (%d answers)", err, acked)
	}
	db := integrity(t, st)
	defer db.Close()
	rows := tableRows(t, db, "g", 2)
	if len(rows) != 2*acked {
		t.Errorf("%d answers but %d statements stored", acked, len(rows)/2)
	}
	if acked >= statements {
		t.Errorf("eddy ran the whole script (%d statements) despite the signal", acked)
	}
}

// TestGroupCommitSignalWhileNothingHeld: with no answer held, SIGTERM
// ends a piped run at once, even in the middle of an endless query, and
// the statements answered before are stored.
func TestGroupCommitSignalWhileNothingHeld(t *testing.T) {
	vars, _ := env(t)
	st := store(t)
	cmd, in, out := startPiped(t, vars, "--store", st, "-D", "table.dml-sync=true", "-D", "execution.runtime-mode=streaming",
		"-D", "sql-client.execution.result-mode=tableau")
	defer in.Close()
	io.WriteString(in, "CREATE TABLE p (i INT);\nINSERT INTO p VALUES (1);\nINSERT INTO p VALUES (2);\n"+
		"CREATE TABLE d (x INT) WITH ('connector' = 'datagen', 'rows-per-second' = '5');\nSELECT * FROM d;\n")
	r := bufio.NewReader(out)
	acked := 0
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("eddy ended early: %v", err)
		}
		if strings.TrimSpace(line) == ackLine {
			acked++
		}
		if strings.HasPrefix(line, "| +I |") {
			break // the endless query runs
		}
	}
	start := time.Now()
	_ = cmd.Process.Signal(syscall.SIGTERM)
	go io.Copy(io.Discard, r)
	err := cmd.Wait()
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("eddy took %s to end after SIGTERM", d)
	}
	if err := endedBySignal(err, syscall.SIGTERM); err != nil {
		t.Error(err)
	}
	db := integrity(t, st)
	defer db.Close()
	if acked != 2 || storedRows(t, db, "p") != 2 {
		t.Errorf("%d answers, %d rows stored; want 2 and 2", acked, storedRows(t, db, "p"))
	}
}
