package kafka_test

import (
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

// benchRows is the number of records each benchmark iteration reads or
// writes.
const benchRows = 200_000

// BenchmarkSourceJSON reads JSON records from a topic into a blackhole
// sink: rows/s is the source's throughput, decoding included.
func BenchmarkSourceJSON(b *testing.B) {
	addr := broker(b)
	topic := newTopic(b, addr, 1)
	cl, err := kgo.NewClient(kgo.SeedBrokers(addr), kgo.DefaultProduceTopic(topic))
	if err != nil {
		b.Fatal(err)
	}
	for i := range benchRows {
		v := fmt.Sprintf(`{"id":%d,"name":"user-%d","score":%d.5,"ts":"2024-01-01 00:00:%02d"}`, i, i%1000, i%100, i%60)
		cl.Produce(context.Background(), &kgo.Record{Value: []byte(v)}, nil)
	}
	if err := cl.Flush(context.Background()); err != nil {
		b.Fatal(err)
	}
	cl.Close()
	s := session(b, "batch")
	exec1(b, s, fmt.Sprintf(`CREATE TABLE src (id BIGINT, name STRING, score DOUBLE, ts TIMESTAMP(3)) WITH (
		'connector' = 'kafka', 'topic' = '%s', 'properties.bootstrap.servers' = '%s', 'format' = 'json',
		'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset')`, topic, addr))
	exec1(b, s, `CREATE TABLE bh (id BIGINT, name STRING, score DOUBLE, ts TIMESTAMP(3)) WITH ('connector' = 'blackhole')`)
	b.ResetTimer()
	start, cpu := time.Now(), cpuTime(b)
	for range b.N {
		exec1(b, s, "INSERT INTO bh SELECT * FROM src")
	}
	reportRates(b, start, cpu)
}

// cpuTime is the CPU time the process has used (user and system).
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportRates reports rows/s of wall time, and rows per CPU second of the
// process (every goroutine's, the client's fetching and the collector's
// included): on a machine with other load the second is the throughput
// the process would have on a core of its own.
func reportRates(b *testing.B, start time.Time, cpu time.Duration) {
	rows := float64(b.N * benchRows)
	b.ReportMetric(rows/time.Since(start).Seconds(), "rows/s")
	b.ReportMetric(rows/(cpuTime(b)-cpu).Seconds(), "rows/cpu-s")
}

// BenchmarkSinkJSON writes datagen rows as JSON records: rows/s is the
// sink's throughput until every record is acknowledged.
func BenchmarkSinkJSON(b *testing.B) {
	addr := broker(b)
	topic := newTopic(b, addr, 1)
	s := session(b, "batch")
	exec1(b, s, fmt.Sprintf(`CREATE TABLE gen (id BIGINT, name STRING, score DOUBLE) WITH ('connector' = 'datagen',
		'number-of-rows' = '%d', 'rows-per-second' = '100000000', 'fields.name.length' = '10')`, benchRows))
	exec1(b, s, fmt.Sprintf(`CREATE TABLE snk (id BIGINT, name STRING, score DOUBLE) WITH (
		'connector' = 'kafka', 'topic' = '%s', 'properties.bootstrap.servers' = '%s', 'format' = 'json')`, topic, addr))
	b.ResetTimer()
	start, cpu := time.Now(), cpuTime(b)
	for range b.N {
		exec1(b, s, "INSERT INTO snk SELECT * FROM gen")
	}
	reportRates(b, start, cpu)
}
