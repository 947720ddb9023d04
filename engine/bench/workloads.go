package main

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"
)

// group is a family of workloads sharing prepared data.
type group struct {
	name    string
	prepare func(e *env) ([]caseDef, error)
}

func groups() []group {
	return []group{
		{"startup", startupCases},
		{"catalog", catalogCases},
		{"script", scriptCases},
		{"analytics", analyticsCases},
		{"csv", csvCases},
		{"parquet", parquetCases},
		{"memory", memoryCases},
		{"streaming", streamingCases},
	}
}

const ms = time.Millisecond

// within is a target on eddy's median time.
func within(limit time.Duration) func(s *stats) (string, verdict) {
	return func(s *stats) (string, verdict) {
		return fmt.Sprintf("≤ %s: %s", fmtDur(limit), fmtDur(s.med[eddyEngine])), judge(s.med[eddyEngine] <= limit)
	}
}

func judge(ok bool) verdict {
	if ok {
		return met
	}
	return missed
}

func startupCases(e *env) ([]caseDef, error) {
	store := e.fresh("startup.db")
	if _, err := proc("", e.eddy, e.eddyArgs(store, "-e", "SELECT 1")...); err != nil {
		return nil, err
	}
	c := caseDef{name: "start-up: -e 'SELECT 1'"}
	c.runs[eddyEngine] = func(int) (sample, error) {
		return proc("", e.eddy, e.eddyArgs(store, "-e", "SELECT 1")...)
	}
	if e.sqlite != "" {
		c.runs[sqliteEngine] = func(int) (sample, error) { return proc("", e.sqlite, ":memory:", "SELECT 1") }
	}
	c.target = func(s *stats) (string, verdict) {
		d := s.med[eddyEngine]
		r := s.ratio(sqliteEngine)
		return fmt.Sprintf("≤ 20 ms and ≤ 2× sqlite3: %s, %.2f×", fmtDur(d), r), judge(d <= 20*ms && r > 0 && r <= 2)
	}
	return []caseDef{c}, nil
}

// opCost times one catalog operation as (T(base + k ops) - T(base)) / k,
// both runs on the same store, so start-up and the store's opening cancel.
func opCost(k int, run func(ops int, i int) (sample, error)) runFunc {
	return func(i int) (sample, error) {
		b, err := run(0, i)
		if err != nil {
			return sample{}, err
		}
		s, err := run(k, i)
		if err != nil {
			return sample{}, err
		}
		return sample{d: max(s.d-b.d, 0) / time.Duration(k), rss: s.rss,
			cpu: max(s.cpu-b.cpu, 0) / time.Duration(k)}, nil
	}
}

func catalogCases(e *env) ([]caseDef, error) {
	n := e.sc.objects
	var ddl strings.Builder
	for i := range n {
		fmt.Fprintf(&ddl, "CREATE TABLE t%d (id BIGINT, name STRING, v DOUBLE);\n", i)
	}
	for i := range n {
		fmt.Fprintf(&ddl, "CREATE VIEW v%d AS SELECT id, v FROM t%d WHERE v > 1;\n", i, i)
	}
	ddl.WriteString("CREATE VIEW nv1 AS SELECT id, v FROM t0 WHERE v > 1;\n")
	for i := 2; i <= 5; i++ {
		fmt.Fprintf(&ddl, "CREATE VIEW nv%d AS SELECT id, v FROM nv%d WHERE v > %d;\n", i, i-1, i)
	}
	script, err := e.writeFile("catalog.sql", ddl.String())
	if err != nil {
		return nil, err
	}
	store := e.fresh("catalog.db")
	start := time.Now()
	if _, err := e.eddyScript(store, script); err != nil {
		return nil, err
	}
	fmt.Fprintf(e.log, "  eddy created %d tables and %d views in %s\n", n, n, fmtDur(time.Since(start)))
	sqliteDB := e.fresh("catalog.sqlite")
	if e.sqlite != "" {
		s, err := e.writeFile("catalog-sqlite.sql", "PRAGMA journal_mode=WAL;\nBEGIN;\n"+ddl.String()+"COMMIT;\n")
		if err != nil {
			return nil, err
		}
		if _, err := proc(s, e.sqlite, "-bail", sqliteDB); err != nil {
			return nil, err
		}
	}
	label := fmt.Sprintf("%s tables + %s views", fmtCount(float64(n)), fmtCount(float64(n)))
	startup := caseDef{name: "start-up, " + label, target: within(20 * ms)}
	startup.runs[eddyEngine] = func(int) (sample, error) {
		return proc("", e.eddy, e.eddyArgs(store, "-e", "SELECT 1")...)
	}
	if e.sqlite != "" {
		startup.runs[sqliteEngine] = func(int) (sample, error) { return proc("", e.sqlite, sqliteDB, "SELECT 1") }
	}
	cases := []caseDef{startup}
	type op struct {
		name       string
		k          int
		eddy, lite func(i, j int) string
	}
	// k is the statements of a script: their cost is the difference of two
	// process times that each move by a millisecond or two, so k makes the
	// statements' time tens of milliseconds at least.
	ops := []op{
		{"SHOW TABLES", 5,
			func(int, int) string { return "SHOW TABLES;" },
			func(int, int) string { return "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name;" }},
		{fmt.Sprintf("DESCRIBE t%d", n/2), 200,
			func(int, int) string { return fmt.Sprintf("DESCRIBE t%d;", n/2) },
			func(int, int) string { return fmt.Sprintf("PRAGMA table_info(t%d);", n/2) }},
		{"CREATE VIEW", 100,
			func(i, j int) string {
				return fmt.Sprintf("CREATE VIEW cv_%d_%d AS SELECT id, v FROM t1 WHERE v > 1;", i, j)
			},
			func(i, j int) string {
				return fmt.Sprintf("CREATE VIEW cv_%d_%d AS SELECT id, v FROM t1 WHERE v > 1;", i, j)
			}},
		{"query through 5 nested views", 200,
			func(int, int) string { return "SELECT COUNT(*) FROM nv5;" },
			func(int, int) string { return "SELECT COUNT(*) FROM nv5;" }},
	}
	for _, o := range ops {
		c := caseDef{name: o.name + ", " + label + " (per statement)", target: within(5 * ms)}
		c.runs[eddyEngine] = opCost(o.k, func(k, i int) (sample, error) {
			p, err := e.writeFile("op-eddy.sql", repeat(k, i, o.eddy))
			if err != nil {
				return sample{}, err
			}
			return e.eddyScript(store, p)
		})
		if e.sqlite != "" {
			c.runs[sqliteEngine] = opCost(o.k, func(k, i int) (sample, error) {
				p, err := e.writeFile("op-sqlite.sql", repeat(k, i, o.lite))
				if err != nil {
					return sample{}, err
				}
				return proc(p, e.sqlite, "-bail", sqliteDB)
			})
		}
		cases = append(cases, c)
	}
	return cases, nil
}

// repeat writes k statements (none gives an empty script with a harmless
// statement so both runs start the same way).
func repeat(k, i int, stmt func(i, j int) string) string {
	var b strings.Builder
	b.WriteString("SELECT 1;\n")
	for j := range k {
		b.WriteString(stmt(i, j))
		b.WriteByte('\n')
	}
	return b.String()
}

func scriptCases(e *env) ([]caseDef, error) {
	n := e.sc.inserts
	var ins strings.Builder
	for i := range n {
		fmt.Fprintf(&ins, "INSERT INTO x VALUES (%d, 'name %d', %d.25);\n", i, i%1000, i)
	}
	const create = "CREATE TABLE x (id BIGINT, name STRING, v DOUBLE);\n"
	eddyScript, err := e.writeFile("inserts.sql", create+ins.String())
	if err != nil {
		return nil, err
	}
	liteScript, err := e.writeFile("inserts-sqlite.sql", "PRAGMA journal_mode=WAL;\n"+
		"CREATE TABLE x (id INTEGER, name TEXT, v REAL);\n"+ins.String())
	if err != nil {
		return nil, err
	}
	stmts := strings.Split(strings.TrimSpace(ins.String()), "\n")
	c := caseDef{name: fmt.Sprintf("%s INSERT statements piped to stdin", fmtCount(float64(n))), per: n, unit: "statements"}
	c.runs[eddyEngine] = func(i int) (sample, error) {
		return proc(eddyScript, e.eddy, e.eddyArgs(e.fresh(fmt.Sprintf("inserts-%d.db", i)))...)
	}
	if e.sqlite != "" {
		c.runs[sqliteEngine] = func(i int) (sample, error) {
			return proc(liteScript, e.sqlite, "-bail", e.fresh(fmt.Sprintf("inserts-%d.sqlite", i)))
		}
	}
	c.runs[duckEngine] = func(i int) (sample, error) {
		db, err := e.duckDB()
		if err != nil {
			return sample{}, err
		}
		name := fmt.Sprintf("x%d", i)
		if _, err := db.Exec("DROP TABLE IF EXISTS " + name); err != nil {
			return sample{}, err
		}
		start := time.Now()
		if _, err := db.Exec("CREATE TABLE " + name + " (id BIGINT, name VARCHAR, v DOUBLE)"); err != nil {
			return sample{}, err
		}
		for _, s := range stmts {
			if _, err := db.Exec(strings.Replace(s, "INTO x ", "INTO "+name+" ", 1)); err != nil {
				return sample{}, err
			}
		}
		return sample{d: time.Since(start)}, nil
	}
	c.target = func(s *stats) (string, verdict) {
		return fmt.Sprintf("measured: %s statements/s", fmtCount(s.rate(eddyEngine))), noTarget
	}
	// The statements' own rate: the same script's time less the time of its
	// first lines alone (start-up, a new store, CREATE TABLE), as the
	// catalog workloads take a statement's cost.
	eddyEmpty, err := e.writeFile("inserts-none.sql", create)
	if err != nil {
		return nil, err
	}
	liteEmpty, err := e.writeFile("inserts-none-sqlite.sql", "PRAGMA journal_mode=WAL;\n"+
		"CREATE TABLE x (id INTEGER, name TEXT, v REAL);\n")
	if err != nil {
		return nil, err
	}
	m := caseDef{name: fmt.Sprintf("%s INSERT statements piped to stdin, less start-up and CREATE TABLE", fmtCount(float64(n))),
		per: n, unit: "statements"}
	m.runs[eddyEngine] = difference(func(i int, script string) (sample, error) {
		return proc(script, e.eddy, e.eddyArgs(e.fresh(fmt.Sprintf("inserts-%d.db", i)))...)
	}, eddyEmpty, eddyScript)
	if e.sqlite != "" {
		m.runs[sqliteEngine] = difference(func(i int, script string) (sample, error) {
			return proc(script, e.sqlite, "-bail", e.fresh(fmt.Sprintf("inserts-%d.sqlite", i)))
		}, liteEmpty, liteScript)
	}
	m.runs[duckEngine] = c.runs[duckEngine] // timed in process: no start-up to take off
	m.target = func(s *stats) (string, verdict) {
		r := s.rate(eddyEngine)
		return fmt.Sprintf("≥ 50,000 statements/s: %s/s", fmtCount(r)), judge(r >= 50_000)
	}
	return []caseDef{c, m}, nil
}

// difference runs the script without the statements measured, with
// them, and without them again, and returns the second sample less the
// faster of the other two: a run slowed by something else only ever
// makes the statements look slower.
func difference(run func(i int, script string) (sample, error), without, with string) runFunc {
	return func(i int) (sample, error) {
		b, err := run(i, without)
		if err != nil {
			return sample{}, err
		}
		s, err := run(i, with)
		if err != nil {
			return sample{}, err
		}
		b2, err := run(i, without)
		if err != nil {
			return sample{}, err
		}
		if b2.d < b.d {
			b = b2
		}
		return sample{d: max(s.d-b.d, 0), rss: s.rss, cpu: max(s.cpu-min(b.cpu, b2.cpu), 0)}, nil
	}
}

// duckQuery times one query in process, reading every row.
func duckQuery(e *env, query string) runFunc {
	return func(int) (sample, error) {
		db, err := e.duckDB()
		if err != nil {
			return sample{}, err
		}
		start := time.Now()
		if err := drain(db, query); err != nil {
			return sample{}, err
		}
		return sample{d: time.Since(start)}, nil
	}
}

func drain(db *sql.DB, query string) error {
	rows, err := db.QueryContext(context.Background(), query)
	if err != nil {
		return err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
	}
	return rows.Err()
}
