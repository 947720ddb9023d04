package e2e

import (
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
)

// TestPersistenceAcrossProcesses creates catalogs, databases, tables and
// functions in one process, then a second process on the same store finds
// them all with byte-identical SHOW CREATE output.
func TestPersistenceAcrossProcesses(t *testing.T) {
	vars, _ := env(t)
	st := store(t)
	setup := `
CREATE CATALOG team WITH ('type' = 'sqlite', 'default-database' = 'main');
CREATE CATALOG scratch COMMENT 'in memory' WITH ('type' = 'generic_in_memory');
CREATE DATABASE team.sales COMMENT 'sales data' WITH ('owner' = 'ann');
CREATE TABLE team.sales.orders (
  id BIGINT NOT NULL,
  ` + "`user`" + ` STRING COMMENT 'who ordered',
  amount DECIMAL(10, 2),
  ts TIMESTAMP(3),
  ptime AS PROCTIME(),
  cost AS amount * 2,
  PRIMARY KEY (id) NOT ENFORCED,
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) COMMENT 'all orders' PARTITIONED BY (` + "`user`" + `) WITH ('connector' = 'datagen', 'password' = 'hunter2');
CREATE TABLE default_catalog.default_database.t2 (a INT, b STRING) WITH ('connector' = 'blackhole');
CREATE TABLE ` + "`team`.`sales`.`it's; -- odd`" + ` (x INT) WITH ('connector' = 'blackhole');
CREATE FUNCTION team.sales.f AS 'com.example.F';
`
	show := `
SHOW CATALOGS;
SHOW CREATE CATALOG team;
SHOW CREATE CATALOG scratch;
SHOW DATABASES FROM team;
SHOW TABLES FROM team.sales;
SHOW CREATE TABLE team.sales.orders;
DESCRIBE team.sales.orders;
SHOW CREATE TABLE default_catalog.default_database.t2;
SHOW CREATE TABLE ` + "`team`.`sales`.`it's; -- odd`" + `;
SHOW USER FUNCTIONS FROM team.sales;
`
	first := eddyEnv(t, vars, setup+show, "--store", st)
	if first.code != 0 {
		t.Fatalf("first process: exit %d\n%s%s", first.code, first.stdout, first.stderr)
	}
	second := eddyEnv(t, vars, show, "--store", st)
	if second.code != 0 {
		t.Fatalf("second process: exit %d\n%s%s", second.code, second.stdout, second.stderr)
	}
	// The first run printed the acknowledgements of the setup first.
	want := first.stdout[strings.Index(first.stdout, "+"):]
	if second.stdout != want {
		t.Fatalf("the second process sees something else:\n--- first\n%s\n--- second\n%s", want, second.stdout)
	}
	for _, s := range []string{"team", "scratch", "`team`.`sales`.`orders`", "'password' = '****'", "`it's; -- odd`", "`cost` AS `amount` * 2", "| f |"} {
		if !strings.Contains(second.stdout, s) && !strings.Contains(strings.ReplaceAll(second.stdout, " ", ""), strings.ReplaceAll(s, " ", "")) {
			t.Errorf("second process output lacks %q", s)
		}
	}
	if strings.Contains(second.stdout, "hunter2") {
		t.Errorf("a secret option is printed")
	}
}

// TestConcurrentProcesses runs 4 shells on one store, each creating and
// dropping 200 tables of its own while the others do the same; none may
// fail, and the tables left are exactly those the statements imply.
func TestConcurrentProcesses(t *testing.T) {
	vars, _ := env(t)
	st := store(t)
	if r := eddyEnv(t, vars, "SHOW TABLES;", "--store", st); r.code != 0 {
		t.Fatalf("creating the store: %s", r.stderr)
	}
	const procs, stmts = 4, 200
	var want []string
	scripts := make([]string, procs)
	for p := 0; p < procs; p++ {
		var b strings.Builder
		for i := 0; i < stmts/2; i++ {
			name := fmt.Sprintf("p%d_t%03d", p, i)
			fmt.Fprintf(&b, "CREATE TABLE %s (a INT, b STRING) WITH ('connector' = 'blackhole');\n", name)
			if i%3 == 0 {
				fmt.Fprintf(&b, "DROP TABLE %s;\n", name)
			} else {
				fmt.Fprintf(&b, "ALTER TABLE %s SET ('k' = 'v');\n", name)
				want = append(want, name)
			}
		}
		scripts[p] = b.String()
	}
	var wg sync.WaitGroup
	errs := make([]string, procs)
	for p := 0; p < procs; p++ {
		wg.Add(1)
		go func(p int) {
			defer wg.Done()
			cmd := exec.Command(binary, "--store", st)
			cmd.Env = vars
			cmd.Stdin = strings.NewReader(scripts[p])
			out, err := cmd.CombinedOutput()
			if err != nil {
				errs[p] = fmt.Sprintf("process %d: %v\n%s", p, err, out)
			}
		}(p)
	}
	wg.Wait()
	for _, e := range errs {
		if e != "" {
			t.Error(e)
		}
	}
	r := eddyEnv(t, vars, "SET 'sql-client.execution.result-mode' = 'tableau';\nSHOW TABLES;", "--store", st)
	if r.code != 0 {
		t.Fatalf("listing: %s", r.stderr)
	}
	var got []string
	for _, line := range strings.Split(r.stdout, "\n") {
		f := strings.Trim(line, "| ")
		if strings.HasPrefix(f, "p") && strings.Contains(f, "_t") {
			got = append(got, f)
		}
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("tables after the run: got %d, want %d\ngot  %v\nwant %v", len(got), len(want), got, want)
	}
}
