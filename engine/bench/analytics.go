package main

import (
	"database/sql"
	"fmt"
	"strings"
)

// query is one analytics workload; {t} and {d} stand for the fact and
// dimension tables.
type query struct {
	name string
	sql  string
}

func queries(sc scale) []query {
	return []query{
		{"filtered count", "SELECT COUNT(*) FROM {t} WHERE v > 500 AND k1 < 500"},
		{"GROUP BY, 1,000 groups", "SELECT COUNT(*), SUM(n), MAX(sv) FROM (SELECT k1, COUNT(*) AS n, SUM(v) AS sv FROM {t} GROUP BY k1) AS g"},
		{fmt.Sprintf("GROUP BY, %s groups", fmtCount(float64(sc.groups))), "SELECT COUNT(*), SUM(n), MAX(sv) FROM (SELECT k2, COUNT(*) AS n, SUM(v) AS sv FROM {t} GROUP BY k2) AS g"},
		{fmt.Sprintf("join %s × %s", fmtCount(float64(sc.rows)), fmtCount(float64(sc.groups))), "SELECT COUNT(*), SUM(w) FROM {t} JOIN {d} ON k2 = did"},
		{"ORDER BY ... LIMIT 100", "SELECT id, v FROM {t} ORDER BY v DESC, id LIMIT 100"},
		{"window ROW_NUMBER", "SELECT COUNT(*), MAX(rn) FROM (SELECT ROW_NUMBER() OVER (PARTITION BY k1 ORDER BY v, id) AS rn FROM {t}) AS w"},
	}
}

func fill(q, t, d string) string {
	return strings.NewReplacer("{t}", t, "{d}", d).Replace(q)
}

const (
	eddyFacts = "(id BIGINT, k1 BIGINT, k2 BIGINT, v DOUBLE, s STRING)"
	eddyDims  = "(did BIGINT, w BIGINT, name STRING)"
	liteFacts = "(id INTEGER, k1 INTEGER, k2 INTEGER, v REAL, s TEXT)"
	liteDims  = "(did INTEGER, w INTEGER, name TEXT)"
	duckFacts = "{'id': 'BIGINT', 'k1': 'BIGINT', 'k2': 'BIGINT', 'v': 'DOUBLE', 's': 'VARCHAR'}"
	duckDims  = "{'did': 'BIGINT', 'w': 'BIGINT', 'name': 'VARCHAR'}"
)

func eddyCSVTables(facts, dims string) string {
	return fmt.Sprintf("CREATE TABLE t %s WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv');\n"+
		"CREATE TABLE d %s WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv');\n", eddyFacts, facts, eddyDims, dims)
}

func duckCSV(path, cols string) string {
	return fmt.Sprintf("read_csv('%s', header = false, columns = %s)", path, cols)
}

// analyticsCases: the data in each engine's own storage (eddy's managed
// tables in its SQLite store, a sqlite3 database file, a DuckDB table).
func analyticsCases(e *env) ([]caseDef, error) {
	facts, err := e.genFacts()
	if err != nil {
		return nil, err
	}
	dims, err := e.genDims()
	if err != nil {
		return nil, err
	}
	store := e.fresh("facts.db")
	load, err := e.writeFile("load.sql", "CREATE TEMPORARY TABLE ct "+eddyFacts+
		fmt.Sprintf(" WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv');\n", facts)+
		"CREATE TEMPORARY TABLE cd "+eddyDims+fmt.Sprintf(" WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv');\n", dims)+
		"CREATE TABLE t "+eddyFacts+";\nCREATE TABLE d "+eddyDims+";\n"+
		"INSERT INTO t SELECT * FROM ct;\nINSERT INTO d SELECT * FROM cd;\n")
	if err != nil {
		return nil, err
	}
	if s, err := e.eddyScript(store, load); err != nil {
		return nil, fmt.Errorf("loading eddy's managed tables: %w", err)
	} else {
		fmt.Fprintf(e.log, "  eddy loaded %d + %d rows in %s\n", e.sc.rows, e.sc.groups, fmtDur(s.d))
	}
	liteDB := e.fresh("facts.sqlite")
	if e.sqlite != "" {
		s, err := e.writeFile("load-sqlite.sql", "CREATE TABLE t "+liteFacts+";\nCREATE TABLE d "+liteDims+";\n"+
			".import --csv "+facts+" t\n.import --csv "+dims+" d\n")
		if err != nil {
			return nil, err
		}
		if _, err := proc(s, e.sqlite, "-bail", liteDB); err != nil {
			return nil, err
		}
	}
	db, err := e.duckDB()
	if err != nil {
		return nil, err
	}
	for _, stmt := range []string{
		"CREATE OR REPLACE TABLE t AS SELECT * FROM " + duckCSV(facts, duckFacts),
		"CREATE OR REPLACE TABLE d AS SELECT * FROM " + duckCSV(dims, duckDims),
	} {
		if _, err := db.Exec(stmt); err != nil {
			return nil, err
		}
	}
	var cases []caseDef
	for _, q := range queries(e.sc) {
		c := caseDef{name: q.name, target: peerTarget}
		text := fill(q.sql, "t", "d")
		c.runs[eddyEngine] = func(int) (sample, error) { return proc("", e.eddy, e.eddyArgs(store, "-e", text)...) }
		if e.sqlite != "" {
			c.runs[sqliteEngine] = func(int) (sample, error) { return proc("", e.sqlite, "-bail", liteDB, text) }
		}
		c.runs[duckEngine] = duckQuery(e, text)
		cases = append(cases, c)
	}
	return cases, nil
}

// peerTarget: faster than the sqlite3 CLI and within 5× of DuckDB.
func peerTarget(s *stats) (string, verdict) {
	rs, rd := s.ratio(sqliteEngine), s.ratio(duckEngine)
	text := fmt.Sprintf("≤ 1.0× sqlite3, ≤ 5× duckdb: %.2f×, %.2f×", rs, rd)
	if rs == 0 || rd == 0 {
		return text, unknown
	}
	return text, judge(rs <= 1 && rd <= 5)
}

// csvCases: the same queries over the CSV files (eddy's filesystem
// tables; sqlite3 imports the files into :memory: first, as it has no
// CSV reader; DuckDB's read_csv).
func csvCases(e *env) ([]caseDef, error) {
	facts, err := e.genFacts()
	if err != nil {
		return nil, err
	}
	dims, err := e.genDims()
	if err != nil {
		return nil, err
	}
	store := e.fresh("csv.db")
	defs, err := e.writeFile("csv-tables.sql", eddyCSVTables(facts, dims))
	if err != nil {
		return nil, err
	}
	if _, err := e.eddyScript(store, defs); err != nil {
		return nil, err
	}
	var cases []caseDef
	for i, q := range queries(e.sc) {
		c := caseDef{name: q.name + " (CSV)", target: peerTarget}
		text := fill(q.sql, "t", "d")
		c.runs[eddyEngine] = func(int) (sample, error) { return proc("", e.eddy, e.eddyArgs(store, "-e", text)...) }
		if e.sqlite != "" {
			p, err := e.writeFile(fmt.Sprintf("csv-sqlite-%d.sql", i), "CREATE TABLE t "+liteFacts+";\nCREATE TABLE d "+liteDims+";\n"+
				".import --csv "+facts+" t\n.import --csv "+dims+" d\n"+text+";\n")
			if err != nil {
				return nil, err
			}
			c.runs[sqliteEngine] = func(int) (sample, error) { return proc(p, e.sqlite, "-bail", ":memory:") }
		}
		c.runs[duckEngine] = duckQuery(e, fill(q.sql, duckCSV(facts, duckFacts), duckCSV(dims, duckDims)))
		cases = append(cases, c)
	}
	return cases, nil
}

// parquetCases: the same queries over the same data as Parquet files,
// which DuckDB writes from the CSV files (an independent writer): eddy's
// filesystem tables with 'format' = 'parquet' against DuckDB's
// read_parquet of the same files. sqlite3 reads no Parquet.
func parquetCases(e *env) ([]caseDef, error) {
	facts, err := e.genFacts()
	if err != nil {
		return nil, err
	}
	dims, err := e.genDims()
	if err != nil {
		return nil, err
	}
	db, err := e.duckDB()
	if err != nil {
		return nil, err
	}
	pf, pd := e.path("facts.parquet"), e.path("dims.parquet")
	for _, stmt := range []string{
		fmt.Sprintf("COPY (SELECT * FROM %s) TO '%s' (FORMAT parquet)", duckCSV(facts, duckFacts), pf),
		fmt.Sprintf("COPY (SELECT * FROM %s) TO '%s' (FORMAT parquet)", duckCSV(dims, duckDims), pd),
	} {
		if _, err := db.Exec(stmt); err != nil {
			return nil, fmt.Errorf("DuckDB writing Parquet: %w", err)
		}
	}
	store := e.fresh("parquet.db")
	defs, err := e.writeFile("parquet-tables.sql", fmt.Sprintf(
		"CREATE TABLE t %s WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'parquet');\n"+
			"CREATE TABLE d %s WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'parquet');\n", eddyFacts, pf, eddyDims, pd))
	if err != nil {
		return nil, err
	}
	if _, err := e.eddyScript(store, defs); err != nil {
		return nil, err
	}
	if err := checkEddyParquet(e, db, store, facts); err != nil {
		return nil, err
	}
	var cases []caseDef
	for _, q := range queries(e.sc) {
		c := caseDef{name: q.name + " (Parquet)", target: duckTarget(2)}
		text := fill(q.sql, "t", "d")
		c.runs[eddyEngine] = func(int) (sample, error) { return proc("", e.eddy, e.eddyArgs(store, "-e", text)...) }
		c.runs[duckEngine] = duckQuery(e, fill(q.sql, "read_parquet('"+pf+"')", "read_parquet('"+pd+"')"))
		cases = append(cases, c)
	}
	return cases, nil
}

// checkEddyParquet has eddy write the fact table as Parquet and DuckDB
// read eddy's files: the same rows as DuckDB reads from the CSV file, or
// the run stops.
func checkEddyParquet(e *env, db *sql.DB, store, facts string) error {
	dir := e.path("eddy-facts")
	script, err := e.writeFile("parquet-write.sql", fmt.Sprintf(
		"CREATE TEMPORARY TABLE ct %s WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv');\n"+
			"CREATE TEMPORARY TABLE pt %s WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'parquet');\n"+
			"INSERT OVERWRITE pt SELECT * FROM ct;\n", eddyFacts, facts, eddyFacts, dir))
	if err != nil {
		return err
	}
	if _, err := e.eddyScript(store, script); err != nil {
		return fmt.Errorf("eddy writing Parquet: %w", err)
	}
	// The doubles are summed as integers of millionths, whatever order
	// DuckDB's threads add them in.
	const sum = "SELECT CONCAT_WS('|', COUNT(*), SUM(id), SUM(k1), SUM(k2), SUM(CAST(ROUND(v * 1000000) AS HUGEINT)), " +
		"MIN(s), MAX(s), COUNT(DISTINCT s), COUNT(v), COUNT(s)) FROM "
	var want, got string
	for _, q := range []struct {
		from string
		out  *string
	}{{duckCSV(facts, duckFacts), &want}, {"read_parquet('" + dir + "/part-*')", &got}} {
		row := db.QueryRow(sum + q.from)
		if err := row.Scan(q.out); err != nil {
			return fmt.Errorf("DuckDB reading %s: %w", q.from, err)
		}
	}
	if got != want {
		return fmt.Errorf("DuckDB reads eddy's Parquet files as %s, the CSV data as %s", got, want)
	}
	fmt.Fprintf(e.log, "  DuckDB reads eddy's Parquet files as the CSV data: %s\n", got)
	return nil
}

// duckTarget: within k× of DuckDB.
func duckTarget(k float64) func(s *stats) (string, verdict) {
	return func(s *stats) (string, verdict) {
		rd := s.ratio(duckEngine)
		text := fmt.Sprintf("≤ %g× duckdb: %.2f×", k, rd)
		if rd == 0 {
			return text, unknown
		}
		return text, judge(rd <= k)
	}
}

// memoryCases: eddy's peak resident memory on the managed tables of the
// analytics group.
func memoryCases(e *env) ([]caseDef, error) {
	store := e.path("facts.db")
	if _, err := proc("", e.eddy, e.eddyArgs(store, "-e", "DESCRIBE t")...); err != nil {
		return nil, fmt.Errorf("needs the analytics group's store (run with it): %w", err)
	}
	grp := caseDef{name: fmt.Sprintf("peak memory, GROUP BY %s groups", fmtCount(float64(e.sc.groups)))}
	q := fill(queries(e.sc)[2].sql, "t", "d")
	grp.runs[eddyEngine] = func(int) (sample, error) { return proc("", e.eddy, e.eddyArgs(store, "-e", q)...) }
	grp.target = func(s *stats) (string, verdict) {
		return fmt.Sprintf("≤ 1 GiB RSS: %s", fmtBytes(s.rss[eddyEngine])), judge(s.rss[eddyEngine] <= 1<<30)
	}
	const budget = 256 << 20
	srt := caseDef{name: fmt.Sprintf("sort %s rows, budget 256mb", fmtCount(float64(e.sc.rows)))}
	srt.runs[eddyEngine] = func(int) (sample, error) {
		return proc("", e.eddy, e.eddyArgs(store, "--output", "csv", "-D", "eddy.exec.memory-budget=256mb",
			"-e", "SELECT id, k1, k2, v, s FROM t ORDER BY v, id")...)
	}
	srt.target = func(s *stats) (string, verdict) {
		// The budget bounds what the operators hold; the process around
		// them (runtime, scan, output) may take 64 MiB more.
		return fmt.Sprintf("RSS ≤ budget + 64 MiB: %s", fmtBytes(s.rss[eddyEngine])), judge(s.rss[eddyEngine] <= budget+64<<20)
	}
	return []caseDef{grp, srt}, nil
}

// streamingCases: datagen sources into blackhole sinks in streaming mode,
// with Flink's option names. Bounded by number-of-rows so a run ends.
func streamingCases(e *env) ([]caseDef, error) {
	n := e.sc.streamRow
	src := fmt.Sprintf("CREATE TEMPORARY TABLE src (id BIGINT, k INT, v DOUBLE) WITH ('connector' = 'datagen', "+
		"'number-of-rows' = '%d', 'rows-per-second' = '1000000000', "+
		"'fields.k.min' = '0', 'fields.k.max' = '999', 'fields.v.min' = '0', 'fields.v.max' = '1000');\n", n)
	head := "SET 'execution.runtime-mode' = 'streaming';\n" + src
	filter, err := e.writeFile("stream-filter.sql", head+
		"CREATE TEMPORARY TABLE sink (id BIGINT, k INT, v DOUBLE) WITH ('connector' = 'blackhole');\n"+
		"INSERT INTO sink SELECT id, k, v FROM src WHERE v > 500;\n")
	if err != nil {
		return nil, err
	}
	agg, err := e.writeFile("stream-agg.sql", head+
		"CREATE TEMPORARY TABLE sink (k INT, n BIGINT, sv DOUBLE) WITH ('connector' = 'blackhole');\n"+
		"INSERT INTO sink SELECT k, COUNT(*), SUM(v) FROM src GROUP BY k;\n")
	if err != nil {
		return nil, err
	}
	store := e.fresh("stream.db")
	f := caseDef{name: fmt.Sprintf("datagen → filter → blackhole, %s rows", fmtCount(float64(n))), per: n, unit: "rows"}
	f.runs[eddyEngine] = func(int) (sample, error) { return e.eddyScript(store, filter) }
	f.target = func(s *stats) (string, verdict) {
		r := s.rate(eddyEngine)
		return fmt.Sprintf("≥ 5M rows/s: %s rows/s", fmtCount(r)), judge(r >= 5_000_000)
	}
	a := caseDef{name: fmt.Sprintf("unbounded GROUP BY changelog → blackhole, %s rows", fmtCount(float64(n))), per: n, unit: "rows"}
	a.runs[eddyEngine] = func(int) (sample, error) { return e.eddyScript(store, agg) }
	a.target = func(s *stats) (string, verdict) {
		return fmt.Sprintf("measured: %s rows/s", fmtCount(s.rate(eddyEngine))), noTarget
	}
	return []caseDef{f, a}, nil
}
