package kafka_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestDifferentialFlink runs the same statements over the same topics on
// eddy and on a real Flink (a SQL Gateway whose class path holds
// flink-sql-connector-kafka, as engine/gateway/testdata/flink/pom.xml
// builds it) and compares their rows, or, for statements Flink rejects,
// checks that Flink's error holds eddy's message.
func TestDifferentialFlink(t *testing.T) {
	addr := broker(t)
	flink := flinkSession(t, "batch")
	eddy := session(t, "batch")

	users := newTopic(t, addr, 2)
	produce(t, users, false, `{"id":1,"name":"ann","score":1.5}`, `{"id":2,"name":"bob","score":2.5}`,
		`{"id":3,"name":null,"score":3}`, `{"id":4,"name":"ann","score":-1}`)
	keyed := newTopic(t, addr, 1)
	produce(t, keyed, true, `{"k":1}|{"v":"a","n":10}`, `{"k":2}|{"v":"b","n":20}`, `{"k":1}|{"v":"c","n":30}`)
	lines := newTopic(t, addr, 1)
	produce(t, lines, false, `1,x,2024-01-01 10:00:00`, `2,y,2024-01-01 10:00:05`, `3,"z,w",2024-01-01 10:00:11`)
	with := func(topic, more string) string {
		return fmt.Sprintf(`'connector' = 'kafka', 'topic' = '%s', 'properties.bootstrap.servers' = '%s',
			'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', %s`, topic, addr, more)
	}
	ddl := []string{
		`CREATE TABLE users (id INT, name STRING, score DOUBLE) WITH (` + with(users, `'format' = 'json'`) + `)`,
		`CREATE TABLE meta (id INT, part INT METADATA FROM 'partition' VIRTUAL, off BIGINT METADATA FROM 'offset' VIRTUAL,
			tt STRING METADATA FROM 'timestamp-type' VIRTUAL, tp STRING METADATA FROM 'topic' VIRTUAL) WITH (` + with(users, `'format' = 'json'`) + `)`,
		`CREATE TABLE kv (k INT, v STRING, n BIGINT) WITH (` + with(keyed, `'key.format' = 'json', 'key.fields' = 'k',
			'value.format' = 'json', 'value.fields-include' = 'EXCEPT_KEY'`) + `)`,
		`CREATE TABLE pk (key_k INT, v STRING, n BIGINT) WITH (` + with(keyed, `'key.format' = 'json', 'key.fields' = 'key_k',
			'key.fields-prefix' = 'key_', 'value.format' = 'json', 'value.fields-include' = 'EXCEPT_KEY'`) + `)`,
		`CREATE TABLE csvt (id INT, s STRING, ts TIMESTAMP(3)) WITH (` + with(lines, `'format' = 'csv'`) + `)`,
		`CREATE TABLE notopic (id INT) WITH ('connector' = 'kafka', 'properties.bootstrap.servers' = '` + addr + `', 'format' = 'json')`,
		`CREATE TABLE twice (id INT) WITH ('connector' = 'kafka', 'topic' = 't', 'topic-pattern' = 't.*',
			'properties.bootstrap.servers' = '` + addr + `', 'format' = 'json')`,
		`CREATE TABLE nots (id INT) WITH ('connector' = 'kafka', 'topic' = 't', 'scan.startup.mode' = 'timestamp',
			'properties.bootstrap.servers' = '` + addr + `', 'format' = 'json')`,
		`CREATE TABLE badoffsets (id INT) WITH ('connector' = 'kafka', 'topic' = 't', 'scan.startup.mode' = 'specific-offsets',
			'scan.startup.specific-offsets' = 'partition:0', 'properties.bootstrap.servers' = '` + addr + `', 'format' = 'json')`,
		`CREATE TABLE nooffsets (id INT) WITH ('connector' = 'kafka', 'topic' = 't', 'scan.bounded.mode' = 'specific-offsets',
			'properties.bootstrap.servers' = '` + addr + `', 'format' = 'json')`,
		`CREATE TABLE rr (id INT) WITH ('connector' = 'kafka', 'topic' = 't', 'sink.partitioner' = 'round-robin',
			'key.format' = 'json', 'key.fields' = 'id', 'properties.bootstrap.servers' = '` + addr + `', 'format' = 'json')`,
		`CREATE TABLE keyfields (id INT) WITH ('connector' = 'kafka', 'topic' = 't', 'key.fields' = 'id',
			'properties.bootstrap.servers' = '` + addr + `', 'format' = 'json')`,
	}
	// Each side writes a topic the other reads.
	byEddy, byFlink, upserts := newTopic(t, addr, 1), newTopic(t, addr, 1), newTopic(t, addr, 1)
	produce(t, upserts, true, `{"id":1}|{"id":1,"v":"a"}`, `{"id":2}|{"id":2,"v":"b"}`, `{"id":1}|{"id":1,"v":"c"}`, `{"id":2}|NULL`)
	for _, w := range []string{byEddy, byFlink} {
		ddl = append(ddl, `CREATE TABLE `+map[string]string{byEddy: "by_eddy", byFlink: "by_flink"}[w]+
			` (id INT, name STRING, amount DECIMAL(10, 2), ts TIMESTAMP(3)) WITH (`+with(w, `'key.format' = 'json',
			'key.fields' = 'id', 'value.format' = 'json'`)+`)`)
	}
	metaEddy, metaFlink := newTopic(t, addr, 1), newTopic(t, addr, 1)
	for name, w := range map[string]string{"meta_eddy": metaEddy, "meta_flink": metaFlink} {
		ddl = append(ddl, `CREATE TABLE `+name+` (id INT, hs MAP<STRING, BYTES> METADATA FROM 'headers',
			ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp') WITH (`+with(w, `'format' = 'json'`)+`)`)
	}
	ddl = append(ddl, `CREATE TABLE ups (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'upsert-kafka',
		'topic' = '`+upserts+`', 'properties.bootstrap.servers' = '`+addr+`', 'key.format' = 'json', 'value.format' = 'json',
		'scan.bounded.mode' = 'latest-offset')`,
		`CREATE TABLE ups_nokey (id INT, v STRING) WITH ('connector' = 'upsert-kafka', 'topic' = '`+upserts+`',
		'properties.bootstrap.servers' = '`+addr+`', 'key.format' = 'json', 'value.format' = 'json')`)
	for _, sql := range ddl {
		exec1(t, eddy, sql)
		if _, err := query(t, flink, sql, -1); err != nil {
			t.Fatalf("Flink: %s: %v", sql, err)
		}
	}
	insert := `INSERT INTO %s VALUES (1, 'ann', 12.50, TIMESTAMP '2024-01-01 10:00:00.123'), (2, CAST(NULL AS STRING), -3.00, TIMESTAMP '2024-02-29 23:59:59')`
	exec1(t, eddy, fmt.Sprintf(insert, "by_eddy"))
	if _, err := query(t, flink, fmt.Sprintf(insert, "by_flink"), -1); err != nil {
		t.Fatal(err)
	}
	insertMeta := `INSERT INTO %s VALUES (7, MAP['k', CAST('v' AS BYTES)], TO_TIMESTAMP_LTZ(1700000000123, 3))`
	exec1(t, eddy, fmt.Sprintf(insertMeta, "meta_eddy"))
	if _, err := query(t, flink, fmt.Sprintf(insertMeta, "meta_flink"), -1); err != nil {
		t.Fatal(err)
	}
	queries := []string{
		"SELECT id, hs['k'], ts FROM meta_eddy",
		"SELECT id, hs['k'], ts FROM meta_flink",
		"SELECT * FROM by_eddy",
		"SELECT * FROM by_flink",
		"SELECT * FROM ups",
		"SELECT * FROM ups_nokey",
		"SELECT id, name, score FROM users",
		"SELECT COUNT(*), SUM(score), MIN(name), MAX(id) FROM users",
		"SELECT name, COUNT(*) AS c FROM users GROUP BY name",
		"SELECT id, part, tt, tp = '" + users + "' FROM meta",
		"SELECT SUM(off), COUNT(DISTINCT part) FROM meta",
		"SELECT k, v, n FROM kv",
		"SELECT k, SUM(n) FROM kv GROUP BY k",
		"SELECT key_k, v FROM pk",
		"SELECT id, s, ts FROM csvt",
		"SELECT window_start, COUNT(*) FROM TABLE(TUMBLE(TABLE csvt, DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY window_start, window_end",
		"SELECT * FROM notopic",
		"SELECT * FROM twice",
		"SELECT * FROM nots",
		"SELECT * FROM badoffsets",
		"SELECT * FROM keyfields",
		"SELECT * FROM nooffsets",
		"INSERT INTO rr VALUES (1)",
	}
	cases := make([]diffCase, len(queries))
	for i, q := range queries {
		cases[i] = diffCase{sql: q, n: -1}
	}
	match := compareRuns(t, eddy, flink, cases)
	t.Logf("%d of %d statements over Kafka topics match Flink", match, len(queries))
}

// gerrMessage is an eddy error's message without its exception class.
func gerrMessage(err error) string {
	msg := err.Error()
	if i := strings.Index(msg, ": "); i > 0 && !strings.Contains(msg[:i], " ") {
		msg = msg[i+2:]
	}
	return msg
}
