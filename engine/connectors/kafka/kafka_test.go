package kafka_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"eddy/catalogs"
	"eddy/catalogs/memory"
	"eddy/engine"
	"eddy/engine/result"
	"eddy/engine/types"
)

// These tests run against a real broker: testdata/kafka/kafka.sh start
// prints its address; export it as EDDY_KAFKA. Records are produced and
// consumed with Kafka's own command-line tools (kafka.sh produce and
// consume), a client independent of the one under test.

func broker(t testing.TB) string {
	t.Helper()
	addr := os.Getenv("EDDY_KAFKA")
	if addr == "" {
		t.Skip("EDDY_KAFKA is not set: start a broker with engine/connectors/kafka/testdata/kafka/kafka.sh start and export EDDY_KAFKA=<host:port>")
	}
	return addr
}

// tool runs kafka.sh with args and stdin, and returns its standard output.
func tool(t testing.TB, stdin string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "testdata/kafka/kafka.sh", args...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("kafka.sh %s: %v\n%s", strings.Join(args, " "), err, errb.String())
	}
	return out.String()
}

// newTopic creates a topic with a name unique to the test.
func newTopic(t testing.TB, addr string, partitions int32) string {
	t.Helper()
	name := fmt.Sprintf("%s-%d", strings.NewReplacer("/", "-", " ", "-").Replace(t.Name()), time.Now().UnixNano())
	cl, err := kgo.NewClient(kgo.SeedBrokers(addr))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	resp, err := kadm.NewClient(cl).CreateTopic(ctx, partitions, 1, nil, name)
	if err == nil {
		err = resp.Err
	}
	if err != nil {
		t.Fatal(err)
	}
	return name
}

// produce writes one record per line with Kafka's console producer;
// "key|value" lines when keyed, NULL a null value.
func produce(t testing.TB, topic string, keyed bool, lines ...string) {
	t.Helper()
	args := []string{"produce", topic}
	if keyed {
		args = append(args, "--property", "parse.key=true", "--property", "key.separator=|", "--property", "null.marker=NULL")
	}
	tool(t, strings.Join(lines, "\n")+"\n", args...)
}

func session(t testing.TB, mode string) *engine.Session {
	t.Helper()
	ctx := context.Background()
	mgr := catalogs.NewManager(map[string]catalogs.Factory{memory.Type: memory.Factory{}}, nil)
	t.Cleanup(func() { mgr.Close() })
	desc := catalogs.CatalogDescriptor{Name: "default_catalog", Options: map[string]string{catalogs.OptionType: memory.Type}}
	if err := mgr.RegisterCatalog(ctx, desc, memory.New("default_catalog", "default_database"), catalogs.OriginBuiltIn); err != nil {
		t.Fatal(err)
	}
	if err := mgr.SetCurrentCatalog(ctx, "default_catalog"); err != nil {
		t.Fatal(err)
	}
	s, err := engine.NewSession(engine.SessionConfig{Catalogs: mgr,
		Options: map[string]string{"table.dml-sync": "true", "execution.runtime-mode": mode, "table.local-time-zone": "UTC"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func exec1(t testing.TB, s *engine.Session, sql string) {
	t.Helper()
	res, err := s.Execute(context.Background(), sql)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	if res.Rows != nil {
		for {
			_, ok, err := res.Rows.Next(context.Background())
			if err != nil {
				t.Fatalf("%s: %v", sql, err)
			}
			if !ok {
				break
			}
		}
	}
	res.Close()
}

// executor runs statements: an eddy session, or a Flink SQL Gateway
// session.
type executor interface {
	Execute(ctx context.Context, sql string) (*result.Result, error)
}

// query returns at most n rows (all when n < 0) as "kind v1 v2 ...".
func query(t testing.TB, s executor, sql string, n int) ([]string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := s.Execute(ctx, sql)
	if err != nil {
		return nil, err
	}
	defer res.Close()
	var out []string
	for res.Rows != nil && (n < 0 || len(out) < n) {
		row, ok, err := res.Rows.Next(ctx)
		if err != nil {
			return out, err
		}
		if !ok {
			break
		}
		vals := make([]string, len(row.Values))
		for i, v := range row.Values {
			switch x := v.(type) {
			case []byte:
				vals[i] = string(x)
			case time.Time:
				vals[i] = x.UTC().Format("2006-01-02 15:04:05.000")
			case map[any]any:
				var kv []string
				for k, e := range x {
					if b, ok := e.([]byte); ok {
						e = string(b)
					}
					kv = append(kv, fmt.Sprintf("%v=%v", k, e))
				}
				sort.Strings(kv)
				vals[i] = "{" + strings.Join(kv, ",") + "}"
			case *decimal.Decimal:
				vals[i] = types.DecimalText(x)
			default:
				vals[i] = fmt.Sprint(v)
			}
		}
		out = append(out, row.Kind.String()+" "+strings.Join(vals, " "))
	}
	return out, nil
}

func mustQuery(t testing.TB, s *engine.Session, sql string, n int) []string {
	t.Helper()
	rows, err := query(t, s, sql, n)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return rows
}

func wantRows(t *testing.T, got []string, want ...string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestBatchReadJSON(t *testing.T) {
	addr := broker(t)
	topic := newTopic(t, addr, 2)
	produce(t, topic, false, `{"id":1,"name":"ann","score":1.5}`, `{"id":2,"name":"bob","score":2.5}`, `{"id":3,"name":null,"score":3}`)
	s := session(t, "batch")
	exec1(t, s, fmt.Sprintf(`CREATE TABLE t (id INT, name STRING, score DOUBLE) WITH (
		'connector' = 'kafka', 'topic' = '%s', 'properties.bootstrap.servers' = '%s',
		'format' = 'json', 'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset')`, topic, addr))
	wantRows(t, mustQuery(t, s, "SELECT id, name, score FROM t ORDER BY id", -1),
		"+I 1 ann 1.5", "+I 2 bob 2.5", "+I 3 <nil> 3")
	wantRows(t, mustQuery(t, s, "SELECT COUNT(*), SUM(score) FROM t", -1), "+I 3 7")

	// Specific offsets of a partition; latest-offset start reads nothing.
	exec1(t, s, fmt.Sprintf(`CREATE TABLE nothing (id INT) WITH ('connector' = 'kafka', 'topic' = '%s',
		'properties.bootstrap.servers' = '%s', 'format' = 'json',
		'scan.startup.mode' = 'latest-offset', 'scan.bounded.mode' = 'latest-offset')`, topic, addr))
	wantRows(t, mustQuery(t, s, "SELECT * FROM nothing", -1))

	// Unbounded in batch mode is Flink's error.
	exec1(t, s, fmt.Sprintf(`CREATE TABLE endless (id INT) WITH ('connector' = 'kafka', 'topic' = '%s',
		'properties.bootstrap.servers' = '%s', 'format' = 'json')`, topic, addr))
	if _, err := query(t, s, "SELECT * FROM endless", -1); err == nil || !strings.Contains(err.Error(), "unbounded") {
		t.Errorf("unbounded table in batch mode: got %v", err)
	}
}

func TestMetadataColumns(t *testing.T) {
	addr := broker(t)
	topic := newTopic(t, addr, 1)
	tool(t, "h1:v1\tk1|{\"v\":10}\nh2:v2,h3:v3\tk2|{\"v\":20}\n", "produce", topic,
		"--property", "parse.headers=true", "--property", "parse.key=true", "--property", "key.separator=|")
	s := session(t, "batch")
	exec1(t, s, fmt.Sprintf(`CREATE TABLE m (
		v INT,
		tp STRING METADATA FROM 'topic' VIRTUAL,
		part INT METADATA FROM 'partition' VIRTUAL,
		off BIGINT METADATA FROM 'offset' VIRTUAL,
		hs MAP<STRING, BYTES> METADATA FROM 'headers' VIRTUAL,
		tt STRING METADATA FROM 'timestamp-type' VIRTUAL,
		ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL,
		le INT METADATA FROM 'leader-epoch' VIRTUAL
	) WITH ('connector' = 'kafka', 'topic' = '%s', 'properties.bootstrap.servers' = '%s', 'value.format' = 'json',
		'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset')`, topic, addr))
	got := mustQuery(t, s, "SELECT v, tp = '"+topic+"', part, off, hs, tt, ts > TIMESTAMP '2020-01-01 00:00:00', le FROM m ORDER BY off", -1)
	wantRows(t, got, "+I 10 true 0 0 {h1=v1} CreateTime true 0", "+I 20 true 0 1 {h2=v2,h3=v3} CreateTime true 0")

}

func TestStreamingReadStopsAfterRows(t *testing.T) {
	addr := broker(t)
	topic := newTopic(t, addr, 1)
	produce(t, topic, false, `{"n":1}`, `{"n":2}`, `{"n":3}`, `{"n":4}`)
	s := session(t, "streaming")
	exec1(t, s, fmt.Sprintf(`CREATE TABLE st (n INT) WITH ('connector' = 'kafka', 'topic' = '%s',
		'properties.bootstrap.servers' = '%s', 'properties.group.id' = 'g-%s', 'format' = 'json',
		'scan.startup.mode' = 'earliest-offset')`, topic, addr, topic))
	start := time.Now()
	wantRows(t, mustQuery(t, s, "SELECT n * 10 FROM st WHERE n <> 2", 3), "+I 10", "+I 30", "+I 40")
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("reading 3 rows of an unbounded table took %v", d)
	}
	// The group committed what was read: group-offsets resumes after it.
	produce(t, topic, false, `{"n":5}`)
	exec1(t, s, fmt.Sprintf(`CREATE TABLE resumed (n INT) WITH ('connector' = 'kafka', 'topic' = '%s',
		'properties.bootstrap.servers' = '%s', 'properties.group.id' = 'g-%s', 'format' = 'json',
		'scan.startup.mode' = 'group-offsets')`, topic, addr, topic))
	wantRows(t, mustQuery(t, s, "SELECT n FROM resumed", 1), "+I 5")
}

func TestWatermarkTumbleWindow(t *testing.T) {
	addr := broker(t)
	topic := newTopic(t, addr, 1)
	produce(t, topic, false,
		`{"k":"a","ts":"2024-01-01 00:00:01","v":1}`,
		`{"k":"a","ts":"2024-01-01 00:00:04","v":2}`,
		`{"k":"b","ts":"2024-01-01 00:00:06","v":5}`,
		`{"k":"a","ts":"2024-01-01 00:00:12","v":7}`,
		`{"k":"a","ts":"2024-01-01 00:00:30","v":9}`)
	s := session(t, "streaming")
	exec1(t, s, fmt.Sprintf(`CREATE TABLE ev (k STRING, ts TIMESTAMP(3), v INT,
		WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'kafka', 'topic' = '%s',
		'properties.bootstrap.servers' = '%s', 'format' = 'json', 'scan.startup.mode' = 'earliest-offset')`, topic, addr))
	got := mustQuery(t, s, `SELECT window_start, k, SUM(v) FROM TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL '10' SECOND))
		GROUP BY window_start, window_end, k`, 3)
	sort.Strings(got)
	wantRows(t, got, "+I 2024-01-01 00:00:00.000 a 3", "+I 2024-01-01 00:00:00.000 b 5", "+I 2024-01-01 00:00:10.000 a 7")
}

func TestInsertReadBackWithConsoleConsumer(t *testing.T) {
	addr := broker(t)
	topic := newTopic(t, addr, 1)
	s := session(t, "batch")
	exec1(t, s, `CREATE TABLE gen (id BIGINT, name STRING) WITH ('connector' = 'datagen',
		'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '3', 'fields.name.length' = '4',
		'number-of-rows' = '3')`)
	exec1(t, s, fmt.Sprintf(`CREATE TABLE sink (id BIGINT, name STRING) WITH ('connector' = 'kafka', 'topic' = '%s',
		'properties.bootstrap.servers' = '%s', 'key.format' = 'json', 'key.fields' = 'id',
		'value.format' = 'json', 'value.fields-include' = 'EXCEPT_KEY')`, topic, addr))
	before := time.Now().Add(-time.Second).UnixMilli()
	exec1(t, s, "INSERT INTO sink SELECT id, 'n' || CAST(id AS STRING) FROM gen")
	out := tool(t, "", "consume", topic, "--max-messages", "3", "--timeout-ms", "20000",
		"--property", "print.key=true", "--property", "print.timestamp=true", "--property", "key.separator=|")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	sort.Strings(lines)
	if len(lines) != 3 {
		t.Fatalf("consumed %q", out)
	}
	for i, l := range lines {
		// CreateTime:<millis>|{"id":1}|{"name":"n1"}
		parts := strings.Split(l, "|")
		var ms int64
		_, _ = fmt.Sscanf(parts[0], "CreateTime:%d", &ms)
		if len(parts) != 3 || ms < before {
			t.Errorf("record %q: want a CreateTime timestamp after %d", l, before)
		}
		if want := fmt.Sprintf(`{"id":%d}|{"name":"n%d"}`, i+1, i+1); len(parts) == 3 && parts[1]+"|"+parts[2] != want {
			t.Errorf("record %q: want key and value %s", l, want)
		}
	}
	// The same rows read back through the connector.
	exec1(t, s, fmt.Sprintf(`CREATE TABLE back (id BIGINT, name STRING) WITH ('connector' = 'kafka', 'topic' = '%s',
		'properties.bootstrap.servers' = '%s', 'key.format' = 'json', 'key.fields' = 'id',
		'value.format' = 'json', 'value.fields-include' = 'EXCEPT_KEY',
		'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset')`, topic, addr))
	wantRows(t, mustQuery(t, s, "SELECT * FROM back ORDER BY id", -1), "+I 1 n1", "+I 2 n2", "+I 3 n3")
}

func TestUpsertKafka(t *testing.T) {
	addr := broker(t)
	topic := newTopic(t, addr, 1)
	produce(t, topic, true,
		`{"id":1}|{"id":1,"v":"a"}`,
		`{"id":2}|{"id":2,"v":"x"}`,
		`{"id":1}|{"id":1,"v":"b"}`,
		`{"id":1}|{"id":1,"v":"b"}`,
		`{"id":2}|NULL`,
		`{"id":3}|NULL`)
	s := session(t, "streaming")
	exec1(t, s, fmt.Sprintf(`CREATE TABLE u (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH (
		'connector' = 'upsert-kafka', 'topic' = '%s', 'properties.bootstrap.servers' = '%s',
		'key.format' = 'json', 'value.format' = 'json')`, topic, addr))
	wantRows(t, mustQuery(t, s, "SELECT * FROM u", 5), "+I 1 a", "+I 2 x", "-U 1 a", "+U 1 b", "-D 2 x")

	// The sink writes updates as the key's new value and deletes as
	// tombstones: the changelog of u, read to its end, copied.
	copied := newTopic(t, addr, 1)
	exec1(t, s, fmt.Sprintf(`CREATE TABLE u_to_end (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH (
		'connector' = 'upsert-kafka', 'topic' = '%s', 'properties.bootstrap.servers' = '%s',
		'key.format' = 'json', 'value.format' = 'json', 'scan.bounded.mode' = 'latest-offset')`, topic, addr))
	exec1(t, s, fmt.Sprintf(`CREATE TABLE u_copy (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH (
		'connector' = 'upsert-kafka', 'topic' = '%s', 'properties.bootstrap.servers' = '%s',
		'key.format' = 'json', 'value.format' = 'json', 'sink.buffer-flush.max-rows' = '10',
		'sink.buffer-flush.interval' = '1s')`, copied, addr))
	exec1(t, s, "INSERT INTO u_copy SELECT * FROM u_to_end")
	got := tool(t, "", "consume", copied, "--max-messages", "4", "--timeout-ms", "20000",
		"--property", "print.key=true", "--property", "key.separator=|")
	wantRows(t, strings.Split(strings.TrimSpace(got), "\n"),
		`{"id":1}|{"id":1,"v":"a"}`, `{"id":2}|{"id":2,"v":"x"}`, `{"id":1}|{"id":1,"v":"b"}`, `{"id":2}|null`)

	// In batch mode, rows are upserts by key.
	out := newTopic(t, addr, 1)
	b := session(t, "batch")
	exec1(t, b, fmt.Sprintf(`CREATE TABLE counts (v STRING, n BIGINT, PRIMARY KEY (v) NOT ENFORCED) WITH (
		'connector' = 'upsert-kafka', 'topic' = '%s', 'properties.bootstrap.servers' = '%s',
		'key.format' = 'json', 'value.format' = 'json')`, out, addr))
	exec1(t, b, "INSERT INTO counts VALUES ('p', 1), ('q', 2)")
	got = tool(t, "", "consume", out, "--max-messages", "2", "--timeout-ms", "20000",
		"--property", "print.key=true", "--property", "key.separator=|")
	lines := strings.Split(strings.TrimSpace(got), "\n")
	sort.Strings(lines)
	wantRows(t, lines, `{"v":"p"}|{"v":"p","n":1}`, `{"v":"q"}|{"v":"q","n":2}`)

	// Without a primary key: Flink's error.
	exec1(t, s, fmt.Sprintf(`CREATE TABLE nokey (id INT) WITH ('connector' = 'upsert-kafka', 'topic' = '%s',
		'properties.bootstrap.servers' = '%s', 'key.format' = 'json', 'value.format' = 'json')`, topic, addr))
	if _, err := query(t, s, "SELECT * FROM nokey", 1); err == nil || !strings.Contains(err.Error(), "require to define a PRIMARY KEY") {
		t.Errorf("upsert-kafka without a primary key: got %v", err)
	}
}

func TestSASLPlain(t *testing.T) {
	broker(t)
	addr := strings.TrimSpace(tool(t, "", "sasl-url"))
	topic := newTopic(t, broker(t), 1)
	produce(t, topic, false, `{"n":1}`)
	s := session(t, "batch")
	table := func(name, password string) {
		exec1(t, s, fmt.Sprintf(`CREATE TABLE %s (n INT) WITH ('connector' = 'kafka', 'topic' = '%s',
			'properties.bootstrap.servers' = '%s', 'properties.security.protocol' = 'SASL_PLAINTEXT',
			'properties.sasl.mechanism' = 'PLAIN', 'properties.request.timeout.ms' = '10000',
			'properties.sasl.jaas.config' = 'org.apache.kafka.common.security.plain.PlainLoginModule required username="eddy" password="%s";',
			'format' = 'json', 'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset')`,
			name, topic, addr, password))
	}
	table("good", "eddy-secret")
	wantRows(t, mustQuery(t, s, "SELECT n FROM good", -1), "+I 1")
	table("wrong", "not-the-password")
	_, err := query(t, s, "SELECT n FROM wrong", -1)
	if err == nil || !strings.Contains(err.Error(), "SaslAuthenticationException: Authentication failed") {
		t.Fatalf("wrong password: got %v", err)
	}
	t.Logf("wrong password: %v", err)
	if strings.Contains(err.Error(), "not-the-password") {
		t.Errorf("the error prints the password: %v", err)
	}
}

func TestUnreachableBroker(t *testing.T) {
	broker(t)
	s := session(t, "batch")
	exec1(t, s, `CREATE TABLE gone (n INT) WITH ('connector' = 'kafka', 'topic' = 'x',
		'properties.bootstrap.servers' = '127.0.0.1:1', 'properties.request.timeout.ms' = '2000',
		'format' = 'json', 'scan.bounded.mode' = 'latest-offset', 'scan.startup.mode' = 'earliest-offset')`)
	start := time.Now()
	_, err := query(t, s, "SELECT * FROM gone", -1)
	if err == nil || !strings.Contains(err.Error(), "127.0.0.1:1") {
		t.Fatalf("unreachable broker: got %v", err)
	}
	t.Logf("unreachable broker after %v: %v", time.Since(start).Round(time.Millisecond), err)
	if d := time.Since(start); d > 15*time.Second {
		t.Errorf("the error took %v", d)
	}
	// A sink fails the same way before it writes anything.
	start = time.Now()
	if _, err := query(t, s, "INSERT INTO gone VALUES (1)", -1); err == nil || !strings.Contains(err.Error(), "127.0.0.1:1") {
		t.Errorf("unreachable broker, sink: got %v", err)
	}
	if d := time.Since(start); d > 15*time.Second {
		t.Errorf("the sink's error took %v", d)
	}
}

func TestUndecodableRecord(t *testing.T) {
	addr := broker(t)
	topic := newTopic(t, addr, 1)
	produce(t, topic, false, `{"n":1}`, `not json`, `{"n":3}`)
	s := session(t, "batch")
	for _, ignore := range []bool{false, true} {
		name := fmt.Sprintf("j%v", ignore)
		exec1(t, s, fmt.Sprintf(`CREATE TABLE %s (n INT) WITH ('connector' = 'kafka', 'topic' = '%s',
			'properties.bootstrap.servers' = '%s', 'format' = 'json', 'json.ignore-parse-errors' = '%v',
			'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset')`, name, topic, addr, ignore))
		rows, err := query(t, s, "SELECT n FROM "+name, -1)
		if ignore {
			if err != nil {
				t.Fatal(err)
			}
			wantRows(t, rows, "+I 1", "+I 3")
			continue
		}
		t.Logf("undecodable record: %v", err)
		want := fmt.Sprintf("topic = %s, partition = 0, leaderEpoch = 0, offset = 1", topic)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("undecodable record: got %v, want an error with %q", err, want)
		}
	}
}

func TestValidation(t *testing.T) {
	s := session(t, "batch")
	for _, c := range []struct{ with, want string }{
		{`'topic' = 't'`, "Missing required options are:\n\nproperties.bootstrap.servers"},
		{`'properties.bootstrap.servers' = 'h:1', 'format' = 'json'`, "Either 'topic' or 'topic-pattern' must be set."},
		{`'properties.bootstrap.servers' = 'h:1', 'topic' = 't', 'topic-pattern' = 't.*', 'format' = 'json'`, "Option 'topic' and 'topic-pattern' shouldn't be set together."},
		{`'properties.bootstrap.servers' = 'h:1', 'topic' = 't'`, "Could not find required scan format 'value.format'."},
		{`'properties.bootstrap.servers' = 'h:1', 'topic' = 't', 'format' = 'json', 'scan.startup.mode' = 'timestamp'`, "'scan.startup.timestamp-millis' is required in 'timestamp' startup mode but missing."},
		{`'properties.bootstrap.servers' = 'h:1', 'topic' = 't', 'format' = 'json', 'scan.startup.mode' = 'specific-offsets', 'scan.startup.specific-offsets' = 'p0'`, "Invalid properties 'scan.startup.specific-offsets' should follow the format 'partition:0,offset:42;partition:1,offset:300', but is 'p0'."},
		{`'properties.bootstrap.servers' = 'h:1', 'topic' = 't', 'format' = 'json', 'key.fields' = 'n'`, "The option 'key.fields' can only be declared if a key format is defined using 'key.format'."},
		{`'properties.bootstrap.servers' = 'h:1', 'topic' = 't', 'format' = 'json', 'bogus' = '1'`, "Unsupported options found for 'kafka'.\n\nUnsupported options:\n\nbogus"},
		{`'properties.bootstrap.servers' = 'h:1', 'topic' = 't', 'format' = 'nope'`, "Could not find any factory for identifier 'nope'"},
		{`'properties.bootstrap.servers' = 'h:1', 'topic' = 't', 'format' = 'json', 'properties.compression.type' = 'brotli'`, "Invalid value brotli for configuration compression.type: String must be one of: none, gzip, snappy, lz4, zstd"},
		{`'properties.bootstrap.servers' = 'h:1', 'topic' = 't', 'format' = 'json', 'properties.security.protocol' = 'SSL', 'properties.ssl.truststore.type' = 'BKS', 'properties.ssl.truststore.location' = 'x'`, "Failed to create SSL keystore of type BKS"},
		{`'properties.bootstrap.servers' = 'h:1', 'topic' = 't', 'format' = 'json', 'properties.security.protocol' = 'SSL', 'properties.ssl.truststore.certificates' = 'x'`, "SSL trust store certs can be specified only for PEM, but trust store type is JKS."},
		{`'properties.bootstrap.servers' = 'h:1', 'topic' = 't', 'format' = 'json', 'properties.security.protocol' = 'SSL', 'properties.ssl.truststore.type' = 'PEM', 'properties.ssl.truststore.certificates' = 'not a certificate'`, "Failed to load PEM SSL trust store from ssl.truststore.certificates: no certificate found."},
		{`'properties.bootstrap.servers' = 'h:1', 'topic' = 't', 'format' = 'json', 'properties.security.protocol' = 'SSL', 'properties.ssl.truststore.location' = '/nonexistent/ts.jks'`, "Failed to load SSL keystore /nonexistent/ts.jks of type JKS"},
	} {
		exec1(t, s, "CREATE TABLE v (n INT) WITH ('connector' = 'kafka', "+c.with+")")
		_, err := query(t, s, "SELECT * FROM v", -1)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.with, err, c.want)
		}
		exec1(t, s, "DROP TABLE v")
	}
	exec1(t, s, `CREATE TABLE x (n INT) WITH ('connector' = 'kafka', 'properties.bootstrap.servers' = 'h:1',
		'topic' = 't', 'format' = 'json', 'sink.delivery-guarantee' = 'exactly-once')`)
	if _, err := query(t, s, "INSERT INTO x VALUES (1)", -1); err == nil || !strings.Contains(err.Error(), "sink.transactional-id-prefix must be specified when using DeliveryGuarantee.EXACTLY_ONCE.") {
		t.Errorf("exactly-once without a prefix: got %v", err)
	}
}

func TestTransactions(t *testing.T) {
	addr := broker(t)
	topic := newTopic(t, addr, 1)
	tool(t, "{\"n\":1}\n{\"n\":2}\n", "produce-tx", topic)
	tool(t, "{\"n\":99}\n", "produce-tx", topic, "--abort")
	tool(t, "{\"n\":3}\n", "produce-tx", topic)
	s := session(t, "batch")
	for _, level := range []string{"read_committed", "read_uncommitted"} {
		exec1(t, s, fmt.Sprintf(`CREATE TABLE %s (n INT) WITH ('connector' = 'kafka', 'topic' = '%s',
			'properties.bootstrap.servers' = '%s', 'properties.isolation.level' = '%s', 'format' = 'json',
			'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset')`, level, topic, addr, level))
	}
	wantRows(t, mustQuery(t, s, "SELECT n FROM read_committed", -1), "+I 1", "+I 2", "+I 3")
	wantRows(t, mustQuery(t, s, "SELECT n FROM read_uncommitted ORDER BY n", -1), "+I 1", "+I 2", "+I 3", "+I 99")

	// An exactly-once INSERT in streaming mode commits a transaction at
	// each checkpoint interval and at the end of its input.
	out := newTopic(t, addr, 1)
	st := session(t, "streaming")
	exec1(t, st, "SET 'execution.checkpointing.interval' = '1 ms'")
	exec1(t, st, `CREATE TABLE gen (id BIGINT) WITH ('connector' = 'datagen', 'fields.id.kind' = 'sequence',
		'fields.id.start' = '1', 'fields.id.end' = '5000')`)
	exec1(t, st, fmt.Sprintf(`CREATE TABLE eo (id BIGINT) WITH ('connector' = 'kafka', 'topic' = '%s',
		'properties.bootstrap.servers' = '%s', 'format' = 'json', 'sink.delivery-guarantee' = 'exactly-once',
		'sink.transactional-id-prefix' = 'eddy-%s')`, out, addr, out))
	exec1(t, st, "INSERT INTO eo SELECT id FROM gen")
	exec1(t, s, fmt.Sprintf(`CREATE TABLE eoback (id BIGINT) WITH ('connector' = 'kafka', 'topic' = '%s',
		'properties.bootstrap.servers' = '%s', 'properties.isolation.level' = 'read_committed', 'format' = 'json',
		'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset')`, out, addr))
	wantRows(t, mustQuery(t, s, "SELECT COUNT(*), COUNT(DISTINCT id), MIN(id), MAX(id) FROM eoback", -1), "+I 5000 5000 1 5000")
	// Each transaction ends with a commit marker, which takes an offset.
	if end := endOffset(t, addr, out); end <= 5001 {
		t.Errorf("end offset %d: the 5000 records were written in one transaction, want several", end)
	}
	consumed := tool(t, "", "consume", out, "--max-messages", "5000", "--timeout-ms", "20000", "--isolation-level", "read_committed")
	if n := len(strings.Split(strings.TrimSpace(consumed), "\n")); n != 5000 {
		t.Errorf("the console consumer read %d committed records, want 5000", n)
	}
}

// endOffset returns the end offset of partition 0 of topic.
func endOffset(t testing.TB, addr, topic string) int64 {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(addr))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ends, err := kadm.NewClient(cl).ListEndOffsets(context.Background(), topic)
	if err != nil {
		t.Fatal(err)
	}
	o, ok := ends.Lookup(topic, 0)
	if !ok || o.Err != nil {
		t.Fatalf("end offset of %s: %v", topic, o.Err)
	}
	return o.Offset
}

func TestPartitionDiscovery(t *testing.T) {
	addr := broker(t)
	first := newTopic(t, addr, 1)
	produce(t, first, false, `{"n":1}`)
	s := session(t, "streaming")
	exec1(t, s, fmt.Sprintf(`CREATE TABLE p (n INT, tp STRING METADATA FROM 'topic') WITH ('connector' = 'kafka',
		'topic-pattern' = '%s.*', 'properties.bootstrap.servers' = '%s', 'format' = 'json',
		'scan.startup.mode' = 'earliest-offset', 'scan.topic-partition-discovery.interval' = '500 ms')`, first, addr))
	// A topic matching the pattern appears after the read began.
	second := first + "-later"
	errc := make(chan error, 1)
	go func() {
		time.Sleep(2 * time.Second)
		cl, err := kgo.NewClient(kgo.SeedBrokers(addr))
		if err != nil {
			errc <- err
			return
		}
		defer cl.Close()
		ctx := context.Background()
		if _, err := kadm.NewClient(cl).CreateTopic(ctx, 1, 1, nil, second); err != nil {
			errc <- err
			return
		}
		errc <- cl.ProduceSync(ctx, &kgo.Record{Topic: second, Value: []byte(`{"n":2}`)}).FirstErr()
	}()
	got := mustQuery(t, s, "SELECT n, tp = '"+second+"' FROM p", 2)
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	wantRows(t, got, "+I 1 false", "+I 2 true")
}

func TestWriteMetadata(t *testing.T) {
	addr := broker(t)
	topic := newTopic(t, addr, 1)
	s := session(t, "batch")
	exec1(t, s, fmt.Sprintf(`CREATE TABLE w (id INT, hs MAP<STRING, BYTES> METADATA FROM 'headers',
		ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp', off BIGINT METADATA FROM 'offset' VIRTUAL) WITH ('connector' = 'kafka',
		'topic' = '%s', 'properties.bootstrap.servers' = '%s', 'format' = 'json',
		'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset')`, topic, addr))
	exec1(t, s, `INSERT INTO w VALUES (1, MAP['trace', CAST('abc' AS BYTES), 'src', CAST('eddy' AS BYTES)], TO_TIMESTAMP_LTZ(1700000000123, 3))`)
	exec1(t, s, `INSERT INTO w (id) VALUES (2)`)
	out := tool(t, "", "consume", topic, "--max-messages", "2", "--timeout-ms", "20000",
		"--property", "print.headers=true", "--property", "print.timestamp=true")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || lines[0] != "CreateTime:1700000000123\tsrc:eddy,trace:abc\t{\"id\":1}" ||
		!strings.HasSuffix(lines[1], "\tNO_HEADERS\t{\"id\":2}") {
		t.Errorf("consumed:\n%s", out)
	}
	wantRows(t, mustQuery(t, s, "SELECT id, hs, ts, off FROM w WHERE id = 1", -1), "+I 1 {src=eddy,trace=abc} 2023-11-14 22:13:20.123 0")
	// Without a timestamp the record gets the time it was written.
	wantRows(t, mustQuery(t, s, "SELECT id, hs, ts > TO_TIMESTAMP_LTZ(1700000000123, 3), off FROM w WHERE id = 2", -1), "+I 2 {} true 1")

	// A connector that cannot write metadata: Flink's error.
	exec1(t, s, `CREATE TABLE f (id INT, p STRING METADATA FROM 'file.path') WITH ('connector' = 'filesystem',
		'path' = '/nonexistent', 'format' = 'json')`)
	if _, err := query(t, s, "INSERT INTO f VALUES (1, 'x')", -1); err == nil || !strings.Contains(err.Error(), "declares persistable metadata columns") {
		t.Errorf("persisted metadata on filesystem: got %v", err)
	}
}

func TestStartupAndBoundedModes(t *testing.T) {
	addr := broker(t)
	topic := newTopic(t, addr, 1)
	cl, err := kgo.NewClient(kgo.SeedBrokers(addr), kgo.DefaultProduceTopic(topic))
	if err != nil {
		t.Fatal(err)
	}
	for i := int64(1); i <= 4; i++ {
		rec := &kgo.Record{Value: []byte(fmt.Sprintf(`{"n":%d}`, i)), Timestamp: time.Now().Add(time.Duration(i-10) * time.Minute)}
		if err := cl.ProduceSync(context.Background(), rec).FirstErr(); err != nil {
			t.Fatal(err)
		}
	}
	cl.Close()
	// The records' timestamps are 9, 8, 7 and 6 minutes ago.
	at := func(minutesAgo int) int64 {
		return time.Now().Add(-time.Duration(minutesAgo)*time.Minute - 20*time.Second).UnixMilli()
	}
	s := session(t, "batch")
	for i, c := range []struct{ with, want string }{
		{`'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset'`, "1 2 3 4"},
		{fmt.Sprintf(`'scan.startup.mode' = 'timestamp', 'scan.startup.timestamp-millis' = '%d', 'scan.bounded.mode' = 'latest-offset'`, at(7)), "3 4"},
		{`'scan.startup.mode' = 'specific-offsets', 'scan.startup.specific-offsets' = 'partition:0,offset:1', 'scan.bounded.mode' = 'latest-offset'`, "2 3 4"},
		{fmt.Sprintf(`'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'timestamp', 'scan.bounded.timestamp-millis' = '%d'`, at(7)), "1 2"},
		{`'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'specific-offsets', 'scan.bounded.specific-offsets' = 'partition:0,offset:3'`, "1 2 3"},
		{`'scan.startup.mode' = 'latest-offset', 'scan.bounded.mode' = 'latest-offset'`, ""},
	} {
		name := fmt.Sprintf("m%d", i)
		exec1(t, s, fmt.Sprintf(`CREATE TABLE %s (n INT) WITH ('connector' = 'kafka', 'topic' = '%s',
			'properties.bootstrap.servers' = '%s', 'format' = 'json', %s)`, name, topic, addr, c.with))
		rows := mustQuery(t, s, "SELECT n FROM "+name+" ORDER BY n", -1)
		got := strings.TrimSpace(strings.ReplaceAll(strings.Join(rows, " "), "+I ", ""))
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.with, got, c.want)
		}
	}
}

// TestSASLScram: SCRAM-SHA-256 logins on the broker's SASL listener: a
// sink writes and a source reads with the right password, Kafka's console
// consumer checks the record, and a wrong password is the broker's
// authentication error without the password.
func TestSASLScram(t *testing.T) {
	broker(t)
	addr := strings.TrimSpace(tool(t, "", "sasl-url"))
	topic := newTopic(t, broker(t), 1)
	s := session(t, "batch")
	table := func(name, password string) {
		exec1(t, s, fmt.Sprintf(`CREATE TABLE %s (n INT, s STRING) WITH ('connector' = 'kafka', 'topic' = '%s',
			'properties.bootstrap.servers' = '%s', 'properties.security.protocol' = 'SASL_PLAINTEXT',
			'properties.sasl.mechanism' = 'SCRAM-SHA-256', 'properties.request.timeout.ms' = '10000',
			'properties.sasl.jaas.config' = 'org.apache.kafka.common.security.scram.ScramLoginModule required username="eddy" password="%s";',
			'format' = 'json', 'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset')`,
			name, topic, addr, password))
	}
	table("good", "eddy-secret")
	exec1(t, s, "INSERT INTO good VALUES (7, 'scram')")
	wantRows(t, mustQuery(t, s, "SELECT n, s FROM good", -1), "+I 7 scram")
	if out := tool(t, "", "consume", topic, "--max-messages", "1", "--timeout-ms", "20000"); !strings.Contains(out, `"s":"scram"`) {
		t.Errorf("Kafka's consumer read %q", out)
	}
	table("wrong", "not-the-password")
	_, err := query(t, s, "SELECT n FROM wrong", -1)
	if err == nil || !strings.Contains(err.Error(), "SaslAuthenticationException") {
		t.Fatalf("wrong password: got %v", err)
	}
	if strings.Contains(err.Error(), "not-the-password") {
		t.Errorf("the error prints the password: %v", err)
	}
}

// TestKeyFieldsInValue reads key fields that the value holds too
// ('value.fields-include' = 'ALL': the value's field is the column's) and
// key fields that it does not ('EXCEPT_KEY'), with metadata, through the
// path that decodes straight into vectors.
func TestKeyFieldsInValue(t *testing.T) {
	addr := broker(t)
	topic := newTopic(t, addr, 1)
	produce(t, topic, true, `{"id":1,"k2":"a"}|{"id":10,"v":"x"}`, `{"id":2,"k2":"b"}|{"id":20,"v":"y"}`, `NULL|{"id":30,"v":"z"}`)
	s := session(t, "batch")
	for name, more := range map[string]string{"kv_all": "", "kv_except": `'value.fields-include' = 'EXCEPT_KEY',`} {
		exec1(t, s, fmt.Sprintf(`CREATE TABLE %s (id INT, k2 STRING, v STRING, off BIGINT METADATA FROM 'offset' VIRTUAL) WITH (
			'connector' = 'kafka', 'topic' = '%s', 'properties.bootstrap.servers' = '%s', %s
			'key.format' = 'json', 'key.fields' = 'id;k2', 'value.format' = 'json',
			'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset')`, name, topic, addr, more))
	}
	wantRows(t, mustQuery(t, s, "SELECT id, k2, v, off FROM kv_all", -1), "+I 10 <nil> x 0", "+I 20 <nil> y 1", "+I 30 <nil> z 2")
	wantRows(t, mustQuery(t, s, "SELECT id, k2, v, off FROM kv_except", -1), "+I 1 a x 0", "+I 2 b y 1", "+I <nil> <nil> z 2")
}
