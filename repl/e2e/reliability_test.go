package e2e

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// shellModel generates the statements of one shell and keeps a model of
// what they leave in the store: its own tables (with their column count
// and row count) and views over its own base table. Names carry the shell's
// number, so that the model of each shell is exact whatever the others do;
// shared names are touched only with IF [NOT] EXISTS, whose outcome
// depends on timing but which must never fail.
type shellModel struct {
	p      int
	rng    *rand.Rand
	tables map[string]*tableModel
	views  map[string]int // view -> the smallest a it shows of base
	base   []int          // the a values of the base table
	next   int            // counter for fresh names
	sql    strings.Builder
	stmts  int
	errs   []string          // the exception class each expected failure gives, in order
	checks map[string]int    // chk_ alias -> the count the query must answer
	chkOf  map[string]string // chk_ alias -> the statement, for messages
}

type tableModel struct{ cols, rows int }

func newShellModel(p int) *shellModel {
	m := &shellModel{p: p, rng: rand.New(rand.NewPCG(uint64(p), 7)), tables: map[string]*tableModel{},
		views: map[string]int{}, checks: map[string]int{}, chkOf: map[string]string{}}
	m.emit(fmt.Sprintf("CREATE TABLE p%d_base (a INT, b STRING)", p))
	return m
}

func (m *shellModel) emit(s string) {
	m.sql.WriteString(s + ";\n")
	m.stmts++
}

func (m *shellModel) fresh(kind string) string {
	m.next++
	return fmt.Sprintf("p%d_%s%d", m.p, kind, m.next)
}

func pick[V any](rng *rand.Rand, mp map[string]V) (string, bool) {
	if len(mp) == 0 {
		return "", false
	}
	keys := slices.Sorted(maps.Keys(mp))
	return keys[rng.IntN(len(keys))], true
}

func (m *shellModel) values(cols, n int) string {
	rows := make([]string, n)
	for i := range rows {
		cells := []string{fmt.Sprint(m.rng.IntN(100)), fmt.Sprintf("'s%d'", m.rng.IntN(1000))}
		for c := 2; c < cols; c++ {
			cells = append(cells, fmt.Sprint(m.rng.IntN(10)))
		}
		rows[i] = "(" + strings.Join(cells, ", ") + ")"
	}
	return strings.Join(rows, ", ")
}

func (m *shellModel) check(query string, want int) {
	alias := fmt.Sprintf("chk_%d_%d", m.p, m.stmts)
	m.checks[alias] = want
	m.chkOf[alias] = query
	m.emit(fmt.Sprintf(query, alias))
}

func (m *shellModel) viewCount(min int) int {
	n := 0
	for _, a := range m.base {
		if a >= min {
			n++
		}
	}
	return n
}

// step emits one random statement and updates the model.
func (m *shellModel) step() {
	t, haveT := pick(m.rng, m.tables)
	v, haveV := pick(m.rng, m.views)
	switch r := m.rng.IntN(20); {
	case r < 2 || !haveT:
		name := m.fresh("t")
		m.emit(fmt.Sprintf("CREATE TABLE %s (a INT, b STRING)", name))
		m.tables[name] = &tableModel{cols: 2}
	case r < 5:
		n := 1 + m.rng.IntN(5)
		m.emit(fmt.Sprintf("INSERT INTO %s VALUES %s", t, m.values(m.tables[t].cols, n)))
		m.tables[t].rows += n
	case r < 6:
		src, _ := pick(m.rng, m.tables)
		m.emit(fmt.Sprintf("INSERT INTO %s (a, b) SELECT a, b FROM %s", t, src))
		m.tables[t].rows += m.tables[src].rows
	case r < 7:
		m.emit("DROP TABLE " + t)
		delete(m.tables, t)
	case r < 8:
		name := m.fresh("t")
		m.emit(fmt.Sprintf("ALTER TABLE %s RENAME TO %s", t, name))
		m.tables[name] = m.tables[t]
		delete(m.tables, t)
	case r < 9:
		tm := m.tables[t]
		m.emit(fmt.Sprintf("ALTER TABLE %s ADD c%d INT", t, tm.cols))
		tm.cols++
	case r < 10:
		m.emit(fmt.Sprintf("ALTER TABLE %s SET ('step' = '%d')", t, m.stmts))
	case r < 11:
		n := 1 + m.rng.IntN(4)
		vals := make([]string, n)
		for i := range vals {
			a := m.rng.IntN(100)
			m.base = append(m.base, a)
			vals[i] = fmt.Sprintf("(%d, 'b')", a)
		}
		m.emit(fmt.Sprintf("INSERT INTO p%d_base VALUES %s", m.p, strings.Join(vals, ", ")))
	case r < 12 || !haveV:
		name, min := m.fresh("v"), m.rng.IntN(100)
		m.emit(fmt.Sprintf("CREATE VIEW %s AS SELECT a, b FROM p%d_base WHERE a >= %d", name, m.p, min))
		m.views[name] = min
	case r < 13:
		min := m.rng.IntN(100)
		m.emit(fmt.Sprintf("ALTER VIEW %s AS SELECT a, b FROM p%d_base WHERE a >= %d", v, m.p, min))
		m.views[v] = min
	case r < 14:
		name := m.fresh("v")
		m.emit(fmt.Sprintf("ALTER VIEW %s RENAME TO %s", v, name))
		m.views[name] = m.views[v]
		delete(m.views, v)
	case r < 15:
		m.emit("DROP VIEW " + v)
		delete(m.views, v)
	case r < 17:
		m.check("SELECT COUNT(*) AS %s FROM "+t, m.tables[t].rows)
	case r < 18:
		m.check("SELECT COUNT(*) AS %s FROM "+v, m.viewCount(m.views[v]))
	case r < 19:
		// Logically expected failures: they must fail with their own
		// error, never with a locked store.
		if m.rng.IntN(2) == 0 {
			m.emit(fmt.Sprintf("CREATE TABLE %s (x INT)", t))
			m.errs = append(m.errs, "TableAlreadyExistException")
		} else {
			m.emit(fmt.Sprintf("DROP TABLE p%d_missing", m.p))
			m.errs = append(m.errs, "ValidationException")
		}
	default:
		k := m.rng.IntN(3)
		switch m.rng.IntN(3) {
		case 0:
			m.emit(fmt.Sprintf("CREATE TABLE IF NOT EXISTS shared_%d (a INT, b STRING)", k))
		case 1:
			m.emit(fmt.Sprintf("DROP TABLE IF EXISTS shared_%d", k))
		default:
			m.emit(fmt.Sprintf("CREATE VIEW IF NOT EXISTS shared_v%d AS SELECT 1 AS x", k))
		}
	}
}

// TestConcurrentShellsMixedStatements runs 8 shells on one store, 250
// statements each: DDL on tables and views, INSERT into managed tables,
// queries whose answers are checked against the model as they run. No
// statement may fail except the expected failures, no 'database is
// locked' may reach a user, and the final store must equal the union of
// the models.
func TestConcurrentShellsMixedStatements(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns 8 processes")
	}
	const procs, stmts = 8, 250
	vars, _ := env(t)
	st := store(t)
	if out, code := combined(t, vars, "SHOW TABLES;", "--store", st); code != 0 {
		t.Fatalf("creating the store: %s", out)
	}
	models := make([]*shellModel, procs)
	for p := range models {
		m := newShellModel(p)
		m.sql.WriteString(batchTableau)
		for m.stmts < stmts {
			m.step()
		}
		models[p] = m
	}
	outs := make([]string, procs)
	var wg sync.WaitGroup
	for p := range models {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[p], _ = combined(t, vars, models[p].sql.String(), "--store", st, "--keep-going")
		}()
	}
	wg.Wait()

	held := 0
	for p, m := range models {
		out := outs[p]
		if strings.Contains(strings.ToLower(out), "locked") || strings.Contains(strings.ToLower(out), "busy") {
			t.Errorf("shell %d: the store's locking reached the user:\n%s", p, out)
		}
		got := reasons(out)
		if len(got) != len(m.errs) {
			t.Errorf("shell %d: %d errors, want %d (the expected failures):\n%s", p, len(got), len(m.errs), strings.Join(got, "\n"))
		} else {
			for i, r := range got {
				if !strings.HasPrefix(r, m.errs[i]+":") {
					t.Errorf("shell %d: error %d is %q, want a %s", p, i, r, m.errs[i])
				}
			}
		}
		answers := checks(out)
		for alias, want := range m.checks {
			if g, ok := answers[alias]; !ok || g != want {
				t.Errorf("shell %d: %s answered %d (found %v), the model says %d", p, fmt.Sprintf(m.chkOf[alias], alias), g, ok, want)
			}
		}
		held += m.stmts
	}

	// The final state: every table and view of the models, nothing else
	// of the shells' names, and every row count.
	var wantTables, wantViews []string
	var final strings.Builder
	final.WriteString(batchTableau + "SHOW TABLES;\nSHOW VIEWS;\n")
	want := map[string]int{}
	for _, m := range models {
		for name, tm := range m.tables {
			wantTables = append(wantTables, name)
			want["chk_"+name] = tm.rows
		}
		for name, min := range m.views {
			wantViews = append(wantViews, name)
			want["chk_"+name] = m.viewCount(min)
		}
		wantTables = append(wantTables, fmt.Sprintf("p%d_base", m.p))
		want[fmt.Sprintf("chk_p%d_base", m.p)] = len(m.base)
	}
	wantTables = append(wantTables, wantViews...)
	slices.Sort(wantTables)
	slices.Sort(wantViews)
	for name := range want {
		fmt.Fprintf(&final, "SELECT COUNT(*) AS %s FROM %s;\n", name, strings.TrimPrefix(name, "chk_"))
	}
	out, code := combined(t, vars, final.String(), "--store", st)
	if code != 0 {
		t.Fatalf("reading the final state: exit %d\n%s", code, out)
	}
	own := func(names []string) []string {
		var o []string
		for _, n := range names {
			if !strings.HasPrefix(n, "shared_") {
				o = append(o, n)
			}
		}
		return o
	}
	gotTables := own(column(out, "table name"))
	gotViews := own(column(out, "view name"))
	if !slices.Equal(gotTables, wantTables) {
		t.Errorf("SHOW TABLES: got %d names, the models say %d\ngot  %v\nwant %v", len(gotTables), len(wantTables), gotTables, wantTables)
	}
	if !slices.Equal(gotViews, wantViews) {
		t.Errorf("SHOW VIEWS: got %v\nwant %v", gotViews, wantViews)
	}
	lost := 0
	answers := checks(out)
	rows := 0
	for name, n := range want {
		rows += n
		if answers[name] != n {
			lost++
			t.Errorf("%s holds %d rows, the model says %d", strings.TrimPrefix(name, "chk_"), answers[name], n)
		}
	}
	t.Logf("%d shells x %d statements = %d statements held; %d tables and views with %d rows checked; %d differ",
		procs, stmts, held, len(want), rows, lost)
}

// tailWriter keeps only the last bytes written to it.
type tailWriter struct {
	buf []byte
	n   int64
}

func (w *tailWriter) Write(p []byte) (int, error) {
	w.n += int64(len(p))
	w.buf = append(w.buf, p...)
	if len(w.buf) > 8192 {
		w.buf = append(w.buf[:0], w.buf[len(w.buf)-4096:]...)
	}
	return len(p), nil
}

// streamRows prints fileRows*copies rows in tableau mode (a CSV file read
// copies times with UNION ALL), checks that all arrived, and returns
// eddy's peak memory in KiB.
func streamRows(t *testing.T, fileRows, copies int) int64 {
	t.Helper()
	vars, home := env(t)
	csv := filepath.Join(home, "rows.csv")
	var b strings.Builder
	for i := 0; i < fileRows; i++ {
		fmt.Fprintf(&b, "%d,row %d\n", i, i)
	}
	if err := os.WriteFile(csv, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	union := strings.TrimSuffix(strings.Repeat("SELECT * FROM c UNION ALL ", copies), " UNION ALL ")
	script := fmt.Sprintf("SET 'sql-client.execution.result-mode' = 'tableau';\n"+
		"CREATE TEMPORARY TABLE c (a INT, b STRING) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv');\n%s;\n", csv, union)
	cmd := exec.Command(binary, "--store", store(t))
	cmd.Env = vars
	cmd.Stdin = strings.NewReader(script)
	out := &tailWriter{}
	var errb strings.Builder
	cmd.Stdout, cmd.Stderr = out, &errb
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	want := fmt.Sprintf("Received a total of %d rows", fileRows*copies)
	if !strings.Contains(string(out.buf), want) {
		t.Fatalf("the output does not end with %q:\n%s", want, out.buf)
	}
	maxRSS := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss // KiB on Linux
	t.Logf("%d rows, %d MiB of output in %v; eddy's peak memory %d MiB", fileRows*copies, out.n>>20,
		time.Since(start).Round(time.Second), maxRSS>>10)
	return maxRSS
}

// TestTenMillionRowsStreamInBoundedMemory prints 10 million rows in
// tableau mode: they stream to stdout, and eddy's peak memory is about
// that of printing a million rows the same way, far below what holding
// them would take.
func TestTenMillionRowsStreamInBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("prints 10 million rows")
	}
	small := streamRows(t, 100_000, 10)
	big := streamRows(t, 1_000_000, 10)
	if limit := 2*small + 64<<10; big > limit {
		t.Errorf("peak memory %d MiB for 10 million rows, %d MiB for a million: it grows with the rows", big>>10, small>>10)
	}
}

// TestTerminalHistoryIsPrivateAndMasked types statements with secret
// options at a real terminal: the history file and its directory are
// private, the secret is stored as '****' and never verbatim, and SHOW
// CREATE TABLE masks it too.
func TestTerminalHistoryIsPrivateAndMasked(t *testing.T) {
	vars, home := env(t)
	vars = append(vars, "TERM=xterm-256color")
	term := newTerminal(t, vars, "--store", filepath.Join(home, "store.db"))
	term.atPrompt(
		"CREATE TABLE s (a INT) WITH ('connector' = 'blackhole', 'password' = 'hunter2', 'Api.Token' = 'tok-123');",
		"SET 'my.secret' = 's3cr3t';",
		"SET 'sql-client.execution.result-mode' = 'tableau';",
		"SHOW CREATE TABLE s;",
	)
	s := term.screen()
	if !strings.Contains(s, "'password' = '****'") || strings.Contains(s, "'password' = 'hunter2'\n") {
		t.Errorf("SHOW CREATE TABLE does not mask the password:\n%s", s)
	}
	term.keys("C-d")
	histFile := filepath.Join(home, "state", "eddy", "history")
	var hist []byte
	deadline := time.Now().Add(10 * time.Second)
	for {
		var err error
		if hist, err = os.ReadFile(histFile); err == nil && strings.Contains(string(hist), "SHOW CREATE TABLE s;") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("history not written: %v\n%s", err, hist)
		}
		time.Sleep(50 * time.Millisecond)
	}
	for _, secret := range []string{"hunter2", "tok-123", "s3cr3t"} {
		if strings.Contains(string(hist), secret) {
			t.Errorf("the history file holds the secret %q:\n%s", secret, hist)
		}
	}
	if !strings.Contains(string(hist), "'password' = '****'") || !strings.Contains(string(hist), "'my.secret' = '****'") {
		t.Errorf("the history file lacks the masked statements:\n%s", hist)
	}
	for path, want := range map[string]os.FileMode{histFile: 0o600, filepath.Dir(histFile): 0o700} {
		fi, err := os.Stat(path)
		if err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v (%v), want %v", path, fi.Mode().Perm(), err, want)
		}
	}
}

// TestTableModeKeepsTheLastRows: sql-client.execution.max-table-result.rows
// bounds the table mode; as in Flink, the oldest rows give way.
func TestTableModeKeepsTheLastRows(t *testing.T) {
	vars, home := env(t)
	vars = append(vars, "TERM=xterm-256color")
	term := newTerminal(t, vars, "--store", filepath.Join(home, "store.db"))
	term.atPrompt(
		"SET 'sql-client.execution.max-table-result.rows' = '3';",
		"SET 'sql-client.execution.result-mode' = 'table';",
		"SET 'execution.runtime-mode' = 'batch';",
		"SELECT a * 7 AS n FROM (VALUES (1), (2), (3), (4), (5), (6), (7), (8), (9), (10)) AS v(a);",
	)
	s := term.screen()
	var shown []string
	for _, l := range strings.Split(s, "\n") {
		if f := strings.Trim(l, "| "); strings.HasPrefix(l, "|") && f != "n" {
			shown = append(shown, f)
		}
	}
	if strings.Join(shown, ",") != "56,63,70" {
		t.Errorf("table mode with at most 3 rows shows %v, want the last three (56, 63, 70):\n%s", shown, s)
	}
}

// TestCrossJoinCanBeCancelled starts a cross join of a billion rows at a
// terminal and presses Ctrl-C: the statement stops within seconds, its
// memory is not still growing, and the shell answers the next statement.
func TestCrossJoinCanBeCancelled(t *testing.T) {
	vars, home := env(t)
	vars = append(vars, "TERM=xterm-256color")
	values := make([]string, 1000)
	for i := range values {
		values[i] = fmt.Sprintf("(%d)", i)
	}
	init := filepath.Join(home, "init.sql")
	if err := os.WriteFile(init, []byte("SET 'sql-client.execution.result-mode' = 'tableau';\n"+
		"CREATE TEMPORARY VIEW k AS SELECT * FROM (VALUES "+strings.Join(values, ", ")+") AS v(x);\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	term := newTerminal(t, vars, "--store", filepath.Join(home, "store.db"), "-i", init)
	prompt := func(s string) bool { return strings.HasSuffix(lastLine(s), "default_database>") }
	term.waitFor("the prompt", prompt)
	term.keys("SELECT COUNT(*) FROM k a, k b, k c;", "Enter")
	time.Sleep(time.Second)
	term.keys("C-c")
	term.waitFor("the prompt after Ctrl-C", prompt)
	term.keys("SELECT 42 AS chk_after;", "Enter")
	term.waitFor("the next answer", func(s string) bool { return strings.Contains(s, "| 42 |") || strings.Contains(s, " 42 |") })
}

// TestFilePathsAreUsedAsGiven: a filesystem table's path is used exactly
// as written: no '~' or '$VAR' expansion, a relative path is relative to
// the working directory.
func TestFilePathsAreUsedAsGiven(t *testing.T) {
	vars, home := env(t)
	st := store(t)
	if err := os.WriteFile(filepath.Join(home, "x.csv"), []byte("1\n2\n3\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cwd := t.TempDir()
	if err := os.MkdirAll(filepath.Join(cwd, "~"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cwd, "~", "x.csv"), []byte("7\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	count := func(path string) (int, string) {
		script := batchTableau + fmt.Sprintf(
			"CREATE TEMPORARY TABLE f (a INT) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv');\n"+
				"SELECT COUNT(*) AS chk_n FROM f;\n", path)
		cmd := exec.Command(binary, "--store", st)
		cmd.Env, cmd.Dir, cmd.Stdin = vars, cwd, strings.NewReader(script)
		out, _ := cmd.CombinedOutput()
		n, ok := checks(string(out))["chk_n"]
		if !ok {
			n = -1
		}
		return n, string(out)
	}
	// '~/x.csv' is the file x.csv in the directory named '~' here.
	if n, out := count("~/x.csv"); n != 1 {
		t.Errorf("'~/x.csv' read %d rows, want the 1 row of ./~/x.csv:\n%s", n, out)
	}
	if n, out := count("$HOME/x.csv"); n == 3 {
		t.Errorf("'$HOME/x.csv' was expanded to the home directory:\n%s", out)
	}
	if n, out := count(filepath.Join(home, "x.csv")); n != 3 {
		t.Errorf("the absolute path read %d rows, want 3:\n%s", n, out)
	}
}
