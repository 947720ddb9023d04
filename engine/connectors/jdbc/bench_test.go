package jdbc_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"eddy/engine/gateway"
)

// The benchmarks run against the real PostgreSQL of EDDY_POSTGRES and
// report rows per second: on eddy (Benchmark<Name>) and, for the same
// statements over the same database, on the real Flink of EDDY_GATEWAY
// (BenchmarkFlink<Name>; Flink's figure includes submitting the job).
// EDDY_BENCH_ROWS sets the rows scanned and upserted (default 100000),
// EDDY_BENCH_EVENTS the events of the lookup joins (default 20000).

func benchRows(b *testing.B) int { return benchSize(b, "EDDY_BENCH_ROWS", 100000) }

func benchSize(b *testing.B, env string, def int) int {
	if v := os.Getenv(env); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			b.Fatalf("%s=%q is not a positive number", env, v)
		}
		return n
	}
	return def
}

// target opens where a benchmark's statements run: an eddy session, or a
// session of the Flink SQL Gateway.
type target func(b *testing.B, mode string) executor

func onEddy(b *testing.B, mode string) executor { return session(b, mode) }

func onFlink(b *testing.B, mode string) executor {
	gw := os.Getenv("EDDY_GATEWAY")
	if gw == "" {
		b.Skip("EDDY_GATEWAY is not set: start a Flink SQL Gateway with engine/gateway/testdata/flink/gateway.sh start")
	}
	s, err := gateway.Open(context.Background(), gateway.Config{ClientConfig: gateway.ClientConfig{Endpoint: gw, RequestTimeout: 10 * time.Minute},
		Properties: map[string]string{"execution.runtime-mode": mode, "table.local-time-zone": "UTC", "table.dml-sync": "true"}})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}

func run(b *testing.B, e executor, sql string) {
	b.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	res, err := e.Execute(ctx, sql)
	if err != nil {
		b.Fatalf("%s: %v", sql, err)
	}
	defer res.Close()
	for res.Rows != nil {
		_, ok, err := res.Rows.Next(ctx)
		if err != nil {
			b.Fatalf("%s: %v", sql, err)
		}
		if !ok {
			break
		}
	}
}

// timed runs sql b.N times and reports rows per second.
func timed(b *testing.B, e executor, rows int, sql string) {
	b.ResetTimer()
	start := time.Now()
	for range b.N {
		run(b, e, sql)
	}
	b.ReportMetric(float64(rows*b.N)/time.Since(start).Seconds(), "rows/s")
}

func benchScan(b *testing.B, on target) {
	url := pgURL(b)
	n := benchRows(b)
	c := pg(b)
	name := table(b, c, `CREATE TABLE %s (id BIGINT, name TEXT, amount NUMERIC(12,2), ts TIMESTAMP(3))`)
	pgExec(b, c, fmt.Sprintf("INSERT INTO %s SELECT g, 'name-' || g, g / 100.0, TIMESTAMP '2024-01-01' + g * INTERVAL '1 second' FROM generate_series(1, %d) g", name, n))
	s := on(b, "batch")
	run(b, s, "CREATE TABLE src (id BIGINT, name STRING, amount DECIMAL(12,2), ts TIMESTAMP(3)) "+with(url, name))
	run(b, s, "CREATE TABLE hole (id BIGINT, name STRING, amount DECIMAL(12,2), ts TIMESTAMP(3)) WITH ('connector' = 'blackhole')")
	timed(b, s, n, "INSERT INTO hole SELECT * FROM src")
}

func benchUpsert(b *testing.B, on target) {
	url := pgURL(b)
	n := benchRows(b)
	c := pg(b)
	name := table(b, c, `CREATE TABLE %s (id BIGINT PRIMARY KEY, name TEXT, qty INT)`)
	s := on(b, "batch")
	run(b, s, fmt.Sprintf(`CREATE TABLE gen (id BIGINT, name STRING, qty INT) WITH ('connector' = 'datagen', 'number-of-rows' = '%d', 'rows-per-second' = '100000000',
		'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '%d', 'fields.name.length' = '10')`, n, n))
	run(b, s, "CREATE TABLE up (id BIGINT, name STRING, qty INT, PRIMARY KEY (id) NOT ENFORCED) "+with(url, name, "'sink.buffer-flush.max-rows' = '1000'"))
	timed(b, s, n, "INSERT INTO up SELECT * FROM gen")
	b.StopTimer()
	if got := pgRows(b, c, "SELECT count(*) FROM "+name); len(got) != 1 || got[0] != strconv.Itoa(n) {
		b.Fatalf("the table holds %v rows, want %d", got, n)
	}
}

func benchLookup(b *testing.B, on target, cache bool) {
	url := pgURL(b)
	events := benchSize(b, "EDDY_BENCH_EVENTS", 20000)
	c := pg(b)
	name := table(b, c, `CREATE TABLE %s (id INT PRIMARY KEY, name TEXT)`)
	pgExec(b, c, "INSERT INTO "+name+" SELECT g, 'n' || g FROM generate_series(0, 999) g")
	s := on(b, "streaming")
	opts := []string{}
	if cache {
		opts = append(opts, "'lookup.cache' = 'PARTIAL'", "'lookup.partial-cache.max-rows' = '10000'", "'lookup.partial-cache.expire-after-write' = '1 min'")
	}
	run(b, s, "CREATE TABLE dim (id INT, name STRING, PRIMARY KEY (id) NOT ENFORCED) "+with(url, name, opts...))
	run(b, s, fmt.Sprintf(`CREATE TABLE ev (seq BIGINT, pt AS PROCTIME()) WITH ('connector' = 'datagen', 'number-of-rows' = '%d', 'rows-per-second' = '100000000',
		'fields.seq.kind' = 'sequence', 'fields.seq.start' = '1', 'fields.seq.end' = '%d')`, events, events))
	run(b, s, "CREATE TABLE hole (seq BIGINT, name STRING) WITH ('connector' = 'blackhole')")
	timed(b, s, events, "INSERT INTO hole SELECT e.seq, d.name FROM ev AS e JOIN dim FOR SYSTEM_TIME AS OF e.pt AS d ON CAST(e.seq % 1000 AS INT) = d.id")
}

func BenchmarkScanToBlackhole(b *testing.B)        { benchScan(b, onEddy) }
func BenchmarkUpsertSink(b *testing.B)             { benchUpsert(b, onEddy) }
func BenchmarkLookupJoinNoCache(b *testing.B)      { benchLookup(b, onEddy, false) }
func BenchmarkLookupJoinPartialCache(b *testing.B) { benchLookup(b, onEddy, true) }

func BenchmarkFlinkScanToBlackhole(b *testing.B)        { benchScan(b, onFlink) }
func BenchmarkFlinkUpsertSink(b *testing.B)             { benchUpsert(b, onFlink) }
func BenchmarkFlinkLookupJoinNoCache(b *testing.B)      { benchLookup(b, onFlink, false) }
func BenchmarkFlinkLookupJoinPartialCache(b *testing.B) { benchLookup(b, onFlink, true) }

// BenchmarkFlinkJobOverhead is the time Flink takes for a job that reads
// one row: what every Flink figure above includes besides the work.
func BenchmarkFlinkJobOverhead(b *testing.B) {
	s := onFlink(b, "batch")
	run(b, s, "CREATE TABLE hole (x INT) WITH ('connector' = 'blackhole')")
	b.ResetTimer()
	for range b.N {
		run(b, s, "INSERT INTO hole VALUES (1)")
	}
}
