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
	produceJSON(b, addr, topic, benchRows)
	s := session(b, "batch")
	exec1(b, s, sourceTable(topic, addr))
	exec1(b, s, `CREATE TABLE bh (id BIGINT, name STRING, score DOUBLE, ts TIMESTAMP(3)) WITH ('connector' = 'blackhole')`)
	b.ResetTimer()
	start, cpu := time.Now(), cpuTime(b)
	for range b.N {
		exec1(b, s, "INSERT INTO bh SELECT * FROM src")
	}
	reportRates(b, benchRows, start, cpu)
}

// BenchmarkSourceAvro reads Avro records (the schema derived from the
// table, as Flink's avro format writes them) into a blackhole sink.
func BenchmarkSourceAvro(b *testing.B) {
	addr := broker(b)
	topic, avroTopic := newTopic(b, addr, 1), newTopic(b, addr, 1)
	produceJSON(b, addr, topic, benchRows)
	s := session(b, "batch")
	exec1(b, s, sourceTable(topic, addr))
	exec1(b, s, fmt.Sprintf(`CREATE TABLE avro_src (id BIGINT, name STRING, score DOUBLE, ts TIMESTAMP(3)) WITH (
		'connector' = 'kafka', 'topic' = '%s', 'properties.bootstrap.servers' = '%s', 'format' = 'avro',
		'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset')`, avroTopic, addr))
	exec1(b, s, "INSERT INTO avro_src SELECT * FROM src")
	exec1(b, s, `CREATE TABLE bh (id BIGINT, name STRING, score DOUBLE, ts TIMESTAMP(3)) WITH ('connector' = 'blackhole')`)
	b.ResetTimer()
	start, cpu := time.Now(), cpuTime(b)
	for range b.N {
		exec1(b, s, "INSERT INTO bh SELECT * FROM avro_src")
	}
	reportRates(b, benchRows, start, cpu)
}

// produceJSON writes n JSON records of the benchmarks' shape to topic.
func produceJSON(b *testing.B, addr, topic string, n int) {
	cl, err := kgo.NewClient(kgo.SeedBrokers(addr), kgo.DefaultProduceTopic(topic))
	if err != nil {
		b.Fatal(err)
	}
	defer cl.Close()
	for i := range n {
		v := fmt.Sprintf(`{"id":%d,"name":"user-%d","score":%d.5,"ts":"2024-01-01 00:00:%02d"}`, i, i%1000, i%100, i%60)
		cl.Produce(context.Background(), &kgo.Record{Value: []byte(v)}, nil)
	}
	if err := cl.Flush(context.Background()); err != nil {
		b.Fatal(err)
	}
}

// sourceTable is the DDL of the table src reading the records of
// produceJSON, bounded by the topic's end.
func sourceTable(topic, addr string) string {
	return fmt.Sprintf(`CREATE TABLE src (id BIGINT, name STRING, score DOUBLE, ts TIMESTAMP(3)) WITH (
		'connector' = 'kafka', 'topic' = '%s', 'properties.bootstrap.servers' = '%s', 'format' = 'json',
		'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset')`, topic, addr)
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
func reportRates(b *testing.B, n int, start time.Time, cpu time.Duration) {
	rows := float64(b.N * n)
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
	reportRates(b, benchRows, start, cpu)
}

// versusRows is the number of records each run of BenchmarkVersusFlink
// reads or writes: enough that starting a Flink job is a small part of
// its time.
const versusRows = 500_000

// BenchmarkVersusFlink runs the same statements on eddy and on a real
// Flink SQL Gateway (EDDY_GATEWAY) against the same broker: the JSON
// source into a blackhole, and datagen into a JSON Kafka sink at least
// once and exactly once. Both run on this machine, so their rows/s of
// wall time compare; eddy's rows per CPU second are reported too (Flink's
// CPU is another process's).
func BenchmarkVersusFlink(b *testing.B) {
	addr := broker(b)
	flink := openFlink(b, map[string]string{"execution.runtime-mode": "batch", "table.dml-sync": "true"})
	eddy := session(b, "batch")
	src := newTopic(b, addr, 1)
	produceJSON(b, addr, src, versusRows)
	engines := []struct {
		name string
		ex   executor
	}{{"eddy", eddy}, {"flink", flink}}
	for _, e := range engines {
		for _, sql := range []string{
			sourceTable(src, addr),
			`CREATE TABLE bh (id BIGINT, name STRING, score DOUBLE, ts TIMESTAMP(3)) WITH ('connector' = 'blackhole')`,
			fmt.Sprintf(`CREATE TABLE gen (id BIGINT, name STRING, score DOUBLE) WITH ('connector' = 'datagen',
				'number-of-rows' = '%d', 'rows-per-second' = '100000000', 'fields.name.length' = '10')`, versusRows),
			fmt.Sprintf(`CREATE TABLE alo (id BIGINT, name STRING, score DOUBLE) WITH ('connector' = 'kafka', 'topic' = '%s',
				'properties.bootstrap.servers' = '%s', 'format' = 'json', 'sink.delivery-guarantee' = 'at-least-once')`,
				newTopic(b, addr, 1), addr),
			fmt.Sprintf(`CREATE TABLE eo (id BIGINT, name STRING, score DOUBLE) WITH ('connector' = 'kafka', 'topic' = '%s',
				'properties.bootstrap.servers' = '%s', 'format' = 'json', 'sink.delivery-guarantee' = 'exactly-once',
				'sink.transactional-id-prefix' = 'bench-%s-%d',
				'properties.transaction.timeout.ms' = '600000')`, newTopic(b, addr, 1), addr, e.name, time.Now().UnixNano()),
		} {
			if err := run(e.ex, sql); err != nil {
				b.Fatalf("%s: %s: %v", e.name, sql, err)
			}
		}
	}
	for _, p := range []struct{ name, sql string }{
		{"source", "INSERT INTO bh SELECT * FROM src"},
		{"sink-at-least-once", "INSERT INTO alo SELECT * FROM gen"},
		{"sink-exactly-once", "INSERT INTO eo SELECT * FROM gen"},
	} {
		for _, e := range engines {
			b.Run(p.name+"/"+e.name, func(b *testing.B) {
				start, cpu := time.Now(), cpuTime(b)
				for range b.N {
					if err := run(e.ex, p.sql); err != nil {
						b.Fatalf("%s: %s: %v", e.name, p.sql, err)
					}
				}
				if e.name == "eddy" {
					reportRates(b, versusRows, start, cpu)
				} else {
					b.ReportMetric(float64(b.N*versusRows)/time.Since(start).Seconds(), "rows/s")
				}
			})
		}
	}
}

// run executes a statement and reads its result, waiting up to ten
// minutes: a Flink job on a busy machine takes its time.
func run(ex executor, sql string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	res, err := ex.Execute(ctx, sql)
	if err != nil {
		return err
	}
	defer res.Close()
	for res.Rows != nil {
		_, ok, err := res.Rows.Next(ctx)
		if err != nil || !ok {
			return err
		}
	}
	return nil
}
