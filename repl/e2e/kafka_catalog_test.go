package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Kafka catalogs over a real broker: engine/connectors/kafka/testdata/
// kafka/kafka.sh start prints its address; export it as EDDY_KAFKA. What
// eddy writes is checked with Kafka's own command-line tools (kafka.sh
// topics, produce, consume), clients independent of eddy's.

func kafkaBroker(t *testing.T) string {
	t.Helper()
	addr := os.Getenv("EDDY_KAFKA")
	if addr == "" {
		t.Skip("EDDY_KAFKA is not set: start a broker with engine/connectors/kafka/testdata/kafka/kafka.sh start and export EDDY_KAFKA=<host:port>")
	}
	return addr
}

// kafkaTool runs kafka.sh with args and stdin and returns its output.
func kafkaTool(t *testing.T, stdin string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "../../engine/connectors/kafka/testdata/kafka/kafka.sh", args...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("kafka.sh %s: %v\n%s", strings.Join(args, " "), err, errb.String())
	}
	return out.String()
}

// topicList returns the cluster's topics as Kafka's topic tool lists them.
func topicList(t *testing.T) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	for _, l := range strings.Split(kafkaTool(t, "", "topics", "--list"), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out[l] = true
		}
	}
	return out
}

// kafkaConfig writes a configuration with the Kafka catalog `kafka-cat`
// (database `kafka-db`, its definitions in tablesTopic) and the
// environment catalog _env_prod.
func kafkaConfig(t *testing.T, addr, tablesTopic string) string {
	t.Helper()
	return writeFile(t, "config.yaml", "catalogs:\n"+
		"  - name: kafka-cat\n    type: kafka\n    default-database: kafka-db\n"+
		"    properties.bootstrap.servers: "+addr+"\n    tables-topic: "+tablesTopic+"\n"+
		"  - name: _env_prod\n    type: sqlite\n    default-database: default\n")
}

// uniqueTablesTopic names a tables topic of the test's own, deleted when
// the test ends.
func uniqueTablesTopic(t *testing.T) string {
	name := fmt.Sprintf("_eddy_tables_%s_%d", strings.ToLower(t.Name()), time.Now().UnixNano())
	t.Cleanup(func() { kafkaTool(t, "", "topics", "--delete", "--if-exists", "--topic", name) })
	return name
}

// mustRun runs a script and fails the test unless it succeeds.
func mustRun(t *testing.T, vars []string, script string, args ...string) string {
	t.Helper()
	r := eddyEnv(t, vars, script, args...)
	if r.code != 0 || strings.Contains(r.stdout+r.stderr, "[ERROR]") {
		t.Fatalf("script failed (exit %d):\n%s\nstdout:\n%s\nstderr:\n%s", r.code, script, r.stdout, r.stderr)
	}
	return r.stdout
}

// TestKafkaCatalogViewsWalkthrough walks through views over the tables of
// a Kafka catalog configured in YAML: the orders table defined in the
// cluster and filled by Kafka's console producer, the view
// large_kafka_orders in _env_prod.`default` listed, shown and read, an
// INSERT whose records Kafka's console consumer reads back, the seed's
// own large_orders over the examples catalog and its INSERT into
// big_spenders (batch mode: the examples' bounded snapshot), view DDL
// refused in the Kafka catalog, and DROP TABLE deleting the topic while
// the view stays and fails naming the table.
func TestKafkaCatalogViewsWalkthrough(t *testing.T) {
	addr := kafkaBroker(t)
	vars, home := env(t)
	cfg := kafkaConfig(t, addr, uniqueTablesTopic(t))
	db := home + "/store.db"
	args := []string{"--store", db, "--config", cfg}

	out := mustRun(t, vars, "USE CATALOG `kafka-cat`;\n"+
		"DROP TABLE IF EXISTS `orders`;\nDROP TABLE IF EXISTS `big_spenders`;\n"+
		"CREATE TABLE `kafka-cat`.`kafka-db`.`orders` (order_id STRING, customer_id INT, product_id STRING, price DOUBLE) WITH ('kafka.partitions' = '1');\n"+
		"CREATE TABLE `kafka-cat`.`kafka-db`.`big_spenders` (customer_id INT, price DOUBLE);\n"+
		"SHOW DATABASES;\nSHOW TABLES LIKE '%s%';\n", args...)
	if !hasRow(out, "kafka-db") || !hasRow(out, "orders") || !hasRow(out, "big_spenders") {
		t.Fatalf("the Kafka catalog does not list its database and new tables:\n%s", out)
	}
	topics := topicList(t)
	if !topics["orders"] || !topics["big_spenders"] {
		t.Fatalf("CREATE TABLE made no topics; kafka-topics lists %v", topics)
	}

	kafkaTool(t, strings.Join([]string{
		`{"order_id":"o1","customer_id":3001,"product_id":"p1","price":75.5}`,
		`{"order_id":"o2","customer_id":3002,"product_id":"p2","price":12.0}`,
		`{"order_id":"o3","customer_id":3003,"product_id":"p3","price":51.0}`,
		`{"order_id":"o4","customer_id":3004,"product_id":"p4","price":50.0}`,
	}, "\n")+"\n", "produce", "orders")

	out = mustRun(t, vars, "SET 'table.dml-sync' = 'true';\n"+
		"USE CATALOG _env_prod;\nUSE `default`;\n"+
		"CREATE VIEW large_kafka_orders AS\n  SELECT order_id, customer_id, price\n  FROM `kafka-cat`.`kafka-db`.`orders`\n  WHERE price > 50;\n"+
		"SHOW VIEWS;\nSHOW CREATE VIEW large_kafka_orders;\nDESCRIBE large_kafka_orders;\n"+
		"SELECT customer_id, price FROM large_kafka_orders;\n"+
		"INSERT INTO `kafka-cat`.`kafka-db`.`big_spenders`\n  SELECT customer_id, price FROM large_kafka_orders;\n", args...)
	if !hasRow(out, "large_kafka_orders") {
		t.Errorf("SHOW VIEWS does not list large_kafka_orders:\n%s", out)
	}
	if !strings.Contains(out, "CREATE VIEW `_env_prod`.`default`.`large_kafka_orders`") ||
		!strings.Contains(out, "FROM `kafka-cat`.`kafka-db`.`orders`") {
		t.Errorf("SHOW CREATE VIEW is not the stored, fully qualified form:\n%s", out)
	}
	for _, row := range [][]string{{"+I", "3001", "75.5"}, {"+I", "3003", "51.0"}} {
		if !hasRow(out, row...) {
			t.Errorf("reading the view misses %v:\n%s", row, out)
		}
	}
	if hasRow(out, "+I", "3002", "12.0") || hasRow(out, "+I", "3004", "50.0") {
		t.Errorf("reading the view returns orders the filter excludes:\n%s", out)
	}

	got := kafkaTool(t, "", "consume", "big_spenders", "--max-messages", "2", "--timeout-ms", "30000")
	lines := strings.Fields(got)
	sort.Strings(lines)
	want := []string{`{"customer_id":3001,"price":75.5}`, `{"customer_id":3003,"price":51.0}`}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("kafka-console-consumer reads from big_spenders:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}

	// The seed's own view over the examples catalog and its INSERT, in
	// batch mode, where the examples are a bounded snapshot: Kafka's
	// consumer reads every row the view gives after the two above.
	mustRun(t, vars, "SET 'execution.runtime-mode' = 'batch';\nSET 'table.dml-sync' = 'true';\n"+
		"USE CATALOG _env_prod;\nUSE `default`;\n"+
		"CREATE VIEW large_orders AS SELECT order_id, customer_id, price FROM examples.marketplace.orders WHERE price > 50;\n"+
		"INSERT INTO `kafka-cat`.`kafka-db`.`big_spenders`\n  SELECT customer_id, price FROM large_orders;\n", args...)
	out = mustRun(t, vars, "SET 'execution.runtime-mode' = 'batch';\n"+
		"SELECT COUNT(*) AS n, COUNT(DISTINCT customer_id) AS c FROM _env_prod.`default`.large_orders;\n", args...)
	m := regexp.MustCompile(`\|\s+(\d+)\s+\|\s+(\d+)\s+\|`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no count of large_orders:\n%s", out)
	}
	n, _ := strconv.Atoi(m[1])
	distinct, _ := strconv.Atoi(m[2])
	if n < 100 {
		t.Fatalf("large_orders has %d rows: the examples snapshot should give hundreds", n)
	}
	got = kafkaTool(t, "", "consume", "big_spenders", "--max-messages", strconv.Itoa(2+n), "--timeout-ms", "30000")
	records := strings.Fields(got)
	customers := map[float64]bool{}
	for _, rec := range records[min(2, len(records)):] {
		var v struct {
			CustomerID *float64 `json:"customer_id"`
			Price      *float64 `json:"price"`
		}
		if err := json.Unmarshal([]byte(rec), &v); err != nil || v.CustomerID == nil || v.Price == nil || *v.Price <= 50 {
			t.Errorf("big_spenders record %q is no row of large_orders (%v)", rec, err)
			continue
		}
		customers[*v.CustomerID] = true
	}
	if len(records) != 2+n || len(customers) != distinct {
		t.Errorf("Kafka's consumer read %d records of %d customers from big_spenders, want 2 + %d of %d customers",
			len(records), len(customers), n, distinct)
	}

	for _, stmt := range []string{
		"CREATE VIEW `kafka-cat`.`kafka-db`.v AS SELECT 1",
		"CREATE OR REPLACE VIEW `kafka-cat`.`kafka-db`.v AS SELECT 1",
		"CREATE VIEW IF NOT EXISTS `kafka-cat`.`kafka-db`.`orders` AS SELECT 1",
		"ALTER VIEW `kafka-cat`.`kafka-db`.v AS SELECT 2",
		"ALTER VIEW `kafka-cat`.`kafka-db`.v RENAME TO w",
		"DROP VIEW IF EXISTS `kafka-cat`.`kafka-db`.v",
		"DROP VIEW `kafka-cat`.`kafka-db`.v",
	} {
		r := eddyEnv(t, vars, "", append(args, "-e", stmt)...)
		if r.code == 0 || !strings.Contains(r.stdout+r.stderr, "View DDL is not supported on Kafka catalog 'kafka-cat'.\n") {
			t.Errorf("%s: exit %d, want the Kafka catalog's refusal of view DDL:\n%s%s", stmt, r.code, r.stdout, r.stderr)
		}
	}

	mustRun(t, vars, "DROP TABLE `kafka-cat`.`kafka-db`.`orders`;\n", args...)
	if topicList(t)["orders"] {
		t.Errorf("DROP TABLE left the topic orders")
	}
	out = mustRun(t, vars, "SHOW VIEWS IN _env_prod.`default`;\n", args...)
	if !hasRow(out, "large_kafka_orders") {
		t.Errorf("the view is no longer listed after DROP TABLE:\n%s", out)
	}
	r := eddyEnv(t, vars, "", append(args, "-e", "SELECT * FROM _env_prod.`default`.large_kafka_orders")...)
	// Flink's (Calcite's) text for a table the expanded query names and
	// the catalog no longer has: the table by catalog, database and name.
	if want := "Object 'orders' not found within 'kafka-cat.kafka-db'"; r.code == 0 || !strings.Contains(r.stdout+r.stderr, want) {
		t.Errorf("reading the view over the dropped table: exit %d, want an error naming %q:\n%s%s",
			r.code, want, r.stdout, r.stderr)
	}
	mustRun(t, vars, "DROP TABLE `kafka-cat`.`kafka-db`.`big_spenders`;\n", args...)
}

// TestKafkaCatalogSharedByProcesses: two eddy processes with different
// stores share the tables of a Kafka catalog through the cluster: a table
// one defines, while the other runs, the other lists and describes; a
// topic Kafka's tool creates appears in both and reads as raw key/val.
func TestKafkaCatalogSharedByProcesses(t *testing.T) {
	addr := kafkaBroker(t)
	tablesTopic := uniqueTablesTopic(t)
	varsA, homeA := env(t)
	varsB, homeB := env(t)
	cfgA := kafkaConfig(t, addr, tablesTopic)
	argsA := []string{"--store", homeA + "/store.db", "--config", cfgA}
	argsB := []string{"--store", homeB + "/store.db", "--config", cfgA}
	suffix := time.Now().UnixNano()
	table := fmt.Sprintf("shared_%d", suffix)
	raw := fmt.Sprintf("raw_%d", suffix)

	// B opens the catalog first and keeps running.
	cmd := exec.Command(binary, argsB...)
	cmd.Env = varsB
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var outB, errB bytes.Buffer
	cmd.Stdout, cmd.Stderr = &outB, &errB
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	fmt.Fprintf(stdin, "USE CATALOG `kafka-cat`;\nSHOW TABLES LIKE 'shared_%%';\n")

	mustRun(t, varsA, fmt.Sprintf("CREATE TABLE `kafka-cat`.`kafka-db`.`%s` (id BIGINT, name STRING, PRIMARY KEY (id) NOT ENFORCED) COMMENT 'made by A' WITH ('connector' = 'upsert-kafka', 'key.format' = 'json', 'value.format' = 'json');\n", table), argsA...)
	kafkaTool(t, "", "topics", "--create", "--topic", raw, "--partitions", "1")
	kafkaTool(t, "k1|v1\nk2|v2\n", "produce", raw, "--property", "parse.key=true", "--property", "key.separator=|")

	fmt.Fprintf(stdin, "SHOW TABLES LIKE '%%_%d';\nSHOW CREATE TABLE `%s`;\nDESCRIBE `%s`;\nSELECT CAST(key AS STRING) AS k, CAST(val AS STRING) AS v, `topic`, `partition` FROM `%s`;\n",
		suffix, table, raw, raw)
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("process B: %v\n%s\n%s", err, outB.String(), errB.String())
	}
	out := outB.String()
	if !hasRow(out, table) || !hasRow(out, raw) {
		t.Errorf("process B does not list the table A defined and the topic Kafka's tool made:\n%s", out)
	}
	for _, want := range []string{"`id` BIGINT NOT NULL", "PRIMARY KEY (`id`) NOT ENFORCED", "COMMENT 'made by A'", "'connector' = 'upsert-kafka'"} {
		if !strings.Contains(out, want) {
			t.Errorf("process B's SHOW CREATE TABLE lacks %q:\n%s", want, out)
		}
	}
	for _, row := range [][]string{
		{"key", "BYTES", "TRUE", "", "", ""},
		{"val", "BYTES", "TRUE", "", "", ""},
		{"+I", "k1", "v1", raw, "0"},
		{"+I", "k2", "v2", raw, "0"},
	} {
		if !hasRow(out, row...) {
			t.Errorf("process B misses the row %v of the raw topic:\n%s", row, out)
		}
	}

	// A, with its own store, sees the raw topic as well; DROP TABLE there
	// deletes both topics.
	out = mustRun(t, varsA, fmt.Sprintf("SHOW TABLES FROM `kafka-cat`.`kafka-db` LIKE '%%_%d';\nDROP TABLE `kafka-cat`.`kafka-db`.`%s`;\nDROP TABLE `kafka-cat`.`kafka-db`.`%s`;\n", suffix, raw, table), argsA...)
	if !hasRow(out, raw) || !hasRow(out, table) {
		t.Errorf("process A does not list both tables:\n%s", out)
	}
	topics := topicList(t)
	if topics[raw] || topics[table] {
		t.Errorf("DROP TABLE left topics behind: %v %v", topics[raw], topics[table])
	}
}
