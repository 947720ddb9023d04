package jdbc_test

import (
	"fmt"
	"testing"
	"time"
)

// The benchmarks run against the real PostgreSQL of EDDY_POSTGRES and
// report rows per second.

const benchRows = 100000

func BenchmarkScanToBlackhole(b *testing.B) {
	url := pgURL(b)
	c := pg(b)
	name := table(b, c, `CREATE TABLE %s (id BIGINT, name TEXT, amount NUMERIC(12,2), ts TIMESTAMP(3))`)
	pgExec(b, c, fmt.Sprintf("INSERT INTO %s SELECT g, 'name-' || g, g / 100.0, TIMESTAMP '2024-01-01' + g * INTERVAL '1 second' FROM generate_series(1, %d) g", name, benchRows))
	s := session(b, "batch")
	exec1(b, s, "CREATE TABLE src (id BIGINT, name STRING, amount DECIMAL(12,2), ts TIMESTAMP(3)) "+with(url, name))
	exec1(b, s, "CREATE TABLE hole (id BIGINT, name STRING, amount DECIMAL(12,2), ts TIMESTAMP(3)) WITH ('connector' = 'blackhole')")
	b.ResetTimer()
	start := time.Now()
	for range b.N {
		exec1(b, s, "INSERT INTO hole SELECT * FROM src")
	}
	b.ReportMetric(float64(benchRows*b.N)/time.Since(start).Seconds(), "rows/s")
}

func BenchmarkUpsertSink(b *testing.B) {
	url := pgURL(b)
	c := pg(b)
	name := table(b, c, `CREATE TABLE %s (id BIGINT PRIMARY KEY, name TEXT, qty INT)`)
	s := session(b, "batch")
	exec1(b, s, fmt.Sprintf(`CREATE TABLE gen (id BIGINT, name STRING, qty INT) WITH ('connector' = 'datagen', 'number-of-rows' = '%d', 'rows-per-second' = '100000000',
		'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '%d', 'fields.name.length' = '10')`, benchRows, benchRows))
	exec1(b, s, "CREATE TABLE up (id BIGINT, name STRING, qty INT, PRIMARY KEY (id) NOT ENFORCED) "+with(url, name, "'sink.buffer-flush.max-rows' = '1000'"))
	b.ResetTimer()
	start := time.Now()
	for range b.N {
		exec1(b, s, "INSERT INTO up SELECT * FROM gen")
	}
	b.ReportMetric(float64(benchRows*b.N)/time.Since(start).Seconds(), "rows/s")
}

func benchLookup(b *testing.B, cache bool) {
	url := pgURL(b)
	c := pg(b)
	name := table(b, c, `CREATE TABLE %s (id INT PRIMARY KEY, name TEXT)`)
	pgExec(b, c, "INSERT INTO "+name+" SELECT g, 'n' || g FROM generate_series(0, 999) g")
	const events = 20000
	s := session(b, "streaming")
	opts := []string{}
	if cache {
		opts = append(opts, "'lookup.cache' = 'PARTIAL'", "'lookup.partial-cache.max-rows' = '10000'", "'lookup.partial-cache.expire-after-write' = '1 min'")
	}
	exec1(b, s, "CREATE TABLE dim (id INT, name STRING, PRIMARY KEY (id) NOT ENFORCED) "+with(url, name, opts...))
	exec1(b, s, fmt.Sprintf(`CREATE TABLE ev (seq BIGINT, pt AS PROCTIME()) WITH ('connector' = 'datagen', 'number-of-rows' = '%d', 'rows-per-second' = '100000000',
		'fields.seq.kind' = 'sequence', 'fields.seq.start' = '1', 'fields.seq.end' = '%d')`, events, events))
	exec1(b, s, "CREATE TABLE hole (seq BIGINT, name STRING) WITH ('connector' = 'blackhole')")
	b.ResetTimer()
	start := time.Now()
	for range b.N {
		exec1(b, s, "INSERT INTO hole SELECT e.seq, d.name FROM ev AS e JOIN dim FOR SYSTEM_TIME AS OF e.pt AS d ON CAST(e.seq % 1000 AS INT) = d.id")
	}
	b.ReportMetric(float64(events*b.N)/time.Since(start).Seconds(), "rows/s")
}

func BenchmarkLookupJoinNoCache(b *testing.B)      { benchLookup(b, false) }
func BenchmarkLookupJoinPartialCache(b *testing.B) { benchLookup(b, true) }
