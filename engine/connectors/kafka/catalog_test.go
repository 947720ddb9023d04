package kafka_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"eddy/catalogs"
	"eddy/catalogs/memory"
	"eddy/engine"
	"eddy/engine/connectors/kafka"
)

// catalogSession returns a batch session whose manager makes Kafka
// catalogs, with the catalog kc over the broker, its definitions in a
// topic of the test's own.
func catalogSession(t *testing.T, extra string) (*engine.Session, string) {
	t.Helper()
	addr := broker(t)
	ctx := context.Background()
	mgr := catalogs.NewManager(map[string]catalogs.Factory{
		memory.Type: memory.Factory{}, kafka.CatalogType: kafka.NewCatalogFactory()}, nil)
	t.Cleanup(func() { mgr.Close() })
	desc := catalogs.CatalogDescriptor{Name: "default_catalog", Options: map[string]string{catalogs.OptionType: memory.Type}}
	if err := mgr.RegisterCatalog(ctx, desc, memory.New("default_catalog", "default_database"), catalogs.OriginBuiltIn); err != nil {
		t.Fatal(err)
	}
	if err := mgr.SetCurrentCatalog(ctx, "default_catalog"); err != nil {
		t.Fatal(err)
	}
	s, err := engine.NewSession(engine.SessionConfig{Catalogs: mgr,
		Options: map[string]string{"table.dml-sync": "true", "execution.runtime-mode": "batch", "table.local-time-zone": "UTC"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	tables := fmt.Sprintf("_eddy_tables_%s_%d", strings.ToLower(t.Name()), time.Now().UnixNano())
	exec1(t, s, fmt.Sprintf("CREATE CATALOG kc WITH ('type' = 'kafka', 'properties.bootstrap.servers' = '%s', 'default-database' = 'cluster1', 'tables-topic' = '%s'%s)",
		addr, tables, extra))
	exec1(t, s, "USE CATALOG kc")
	t.Cleanup(func() { tool(t, "", "topics", "--delete", "--if-exists", "--topic", tables) })
	return s, tables
}

// uniqueName returns a table (topic) name no other test uses.
func uniqueName(prefix string) string { return fmt.Sprintf("%s_%d", prefix, time.Now().UnixNano()) }

func mustFail(t *testing.T, s *engine.Session, sql, want string) {
	t.Helper()
	_, err := query(t, s, sql, -1)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("%s: got %v, want an error holding %q", sql, err, want)
	}
}

// describeTopic returns what Kafka's topic tool says of a topic.
func describeTopic(t *testing.T, topic string) string {
	t.Helper()
	return tool(t, "", "topics", "--describe", "--topic", topic)
}

func TestCatalogUnreachableCluster(t *testing.T) {
	broker(t)
	s, _ := catalogSession(t, "")
	start := time.Now()
	_, err := query(t, s, `CREATE CATALOG gone WITH ('type' = 'kafka', 'properties.bootstrap.servers' = '127.0.0.1:1',
		'properties.request.timeout.ms' = '2000', 'properties.security.protocol' = 'SASL_PLAINTEXT',
		'properties.sasl.mechanism' = 'PLAIN',
		'properties.sasl.jaas.config' = 'org.apache.kafka.common.security.plain.PlainLoginModule required username="u" password="hunter2";')`, -1)
	if err == nil || !strings.Contains(err.Error(), "127.0.0.1:1") {
		t.Fatalf("unreachable cluster: got %v, want an error naming 127.0.0.1:1", err)
	}
	if strings.Contains(err.Error(), "hunter2") {
		t.Errorf("the error prints the password: %v", err)
	}
	t.Logf("after %v: %v", time.Since(start), err)
	// An address nothing answers at: the open gives up within the
	// request timeout, naming the servers.
	_, err = query(t, s, `CREATE CATALOG silent WITH ('type' = 'kafka', 'properties.bootstrap.servers' = '10.255.255.1:9092',
		'properties.request.timeout.ms' = '1500')`, -1)
	if err == nil || !strings.Contains(err.Error(), "10.255.255.1:9092") {
		t.Fatalf("silent cluster: got %v, want an error naming 10.255.255.1:9092", err)
	}
	rows := mustQuery(t, s, "SHOW CATALOGS", -1)
	if strings.Contains(strings.Join(rows, "\n"), "gone") {
		t.Errorf("a catalog that could not be opened is listed: %v", rows)
	}
}

// TestCatalogTopicOptions: CREATE TABLE makes the topic its options
// describe, ALTER TABLE changes it, Kafka's topic tool sees both.
func TestCatalogTopicOptions(t *testing.T) {
	s, _ := catalogSession(t, "")
	name := uniqueName("opts")
	exec1(t, s, fmt.Sprintf("CREATE TABLE %s (id INT, v STRING) WITH ('kafka.partitions' = '3', 'kafka.retention.time' = '1 h', 'kafka.cleanup-policy' = 'delete-compact')", name))
	d := describeTopic(t, name)
	for _, want := range []string{"PartitionCount: 3", "retention.ms=3600000", "cleanup.policy=compact,delete"} {
		if !strings.Contains(d, want) {
			t.Errorf("kafka-topics --describe lacks %q:\n%s", want, d)
		}
	}
	exec1(t, s, fmt.Sprintf("ALTER TABLE %s SET ('kafka.partitions' = '4', 'kafka.retention.size' = '1 mb', 'kafka.cleanup-policy' = 'delete')", name))
	exec1(t, s, fmt.Sprintf("ALTER TABLE %s RESET ('kafka.retention.time')", name))
	exec1(t, s, fmt.Sprintf("ALTER TABLE %s ADD (note STRING COMMENT 'added')", name))
	d = describeTopic(t, name)
	for _, want := range []string{"PartitionCount: 4", "retention.bytes=1048576", "cleanup.policy=delete"} {
		if !strings.Contains(d, want) {
			t.Errorf("after ALTER TABLE, kafka-topics --describe lacks %q:\n%s", want, d)
		}
	}
	if strings.Contains(d, "retention.ms") {
		t.Errorf("RESET left retention.ms on the topic:\n%s", d)
	}
	mustFail(t, s, fmt.Sprintf("ALTER TABLE %s SET ('kafka.partitions' = '2')", name), "Kafka cannot remove partitions")
	mustFail(t, s, fmt.Sprintf("ALTER TABLE %s SET ('kafka.cleanup-policy' = 'sometimes')", name), "Invalid value for option 'kafka.cleanup-policy'")
	rows := strings.Join(mustQuery(t, s, "SHOW CREATE TABLE "+name, -1), "\n")
	for _, want := range []string{"`note` VARCHAR(2147483647) COMMENT 'added'", "'kafka.partitions' = '4'", "'value.format' = 'json'", "'connector' = 'kafka'"} {
		if !strings.Contains(rows, want) {
			t.Errorf("SHOW CREATE TABLE lacks %q:\n%s", want, rows)
		}
	}
	// Rows written with the default JSON format are what Kafka's consumer reads.
	exec1(t, s, fmt.Sprintf("INSERT INTO %s VALUES (1, 'a', 'n')", name))
	got := tool(t, "", "consume", name, "--max-messages", "1", "--timeout-ms", "30000")
	if strings.TrimSpace(got) != `{"id":1,"v":"a","note":"n"}` {
		t.Errorf("kafka-console-consumer reads %q", got)
	}

	// LIKE and AS SELECT make topics of their own.
	like, ctas := uniqueName("like"), uniqueName("ctas")
	exec1(t, s, fmt.Sprintf("CREATE TABLE %s LIKE %s", like, name))
	exec1(t, s, fmt.Sprintf("CREATE TABLE %s AS SELECT id, v FROM %s", ctas, name))
	if d := describeTopic(t, like); !strings.Contains(d, "PartitionCount: 4") {
		t.Errorf("CREATE TABLE LIKE: the topic is not like the original's:\n%s", d)
	}
	wantRows(t, mustQuery(t, s, "SELECT * FROM "+ctas, -1), "+I 1 a")
	// TRUNCATE TABLE deletes the topic's records (Kafka's DeleteRecords).
	exec1(t, s, "TRUNCATE TABLE "+ctas)
	wantRows(t, mustQuery(t, s, "SELECT * FROM "+ctas, -1))
	if got := tool(t, "", "consume", ctas, "--timeout-ms", "3000"); strings.TrimSpace(got) != "" {
		t.Errorf("after TRUNCATE TABLE, kafka-console-consumer reads %q", got)
	}
	for _, n := range []string{name, like, ctas} {
		exec1(t, s, "DROP TABLE "+n)
	}
	list := tool(t, "", "topics", "--list")
	for _, n := range []string{name, like, ctas} {
		if regexp.MustCompile(`(?m)^` + n + `$`).MatchString(list) {
			t.Errorf("DROP TABLE left the topic %s", n)
		}
	}
	mustFail(t, s, "DROP TABLE "+name, "does not exist")
	exec1(t, s, "DROP TABLE IF EXISTS "+name)
}

// TestCatalogRefusals: what a Kafka cluster cannot do fails saying why,
// and changes nothing.
func TestCatalogRefusals(t *testing.T) {
	s, _ := catalogSession(t, ", 'properties.sasl.password' = 'hunter2'")
	name := uniqueName("refuse")
	exec1(t, s, fmt.Sprintf("CREATE TABLE %s (id INT)", name))
	defer exec1(t, s, "DROP TABLE "+name)
	for _, c := range []struct{ sql, want string }{
		{"ALTER TABLE " + name + " RENAME TO other", "Kafka cannot rename a topic"},
		{"CREATE DATABASE more", "CREATE DATABASE is not supported on Kafka catalog 'kc'"},
		{"DROP DATABASE IF EXISTS cluster1", "Cannot drop a database which is currently in use."},
		{"ALTER DATABASE cluster1 SET ('a' = 'b')", "ALTER DATABASE is not supported on Kafka catalog 'kc'"},
		{"CREATE FUNCTION f AS 'x.Y'", "a Kafka cluster keeps no functions"},
		{"CREATE TABLE x1 (a INT) WITH ('connector' = 'filesystem')", "'connector' = 'filesystem' is not possible here"},
		{"CREATE TABLE x2 (a INT) WITH ('topic' = 'elsewhere')", "'topic' = 'elsewhere' is not possible"},
		{"CREATE TABLE x3 (a INT) WITH ('properties.sasl.jaas.config' = 'secret')", "Option 'properties.sasl.jaas.config' is secret"},
		{"CREATE TABLE x4 (a INT) WITH ('kafka.partitions' = 'many')", "Invalid value for option 'kafka.partitions'"},
		{"CREATE TABLE x5 (a INT) WITH ('kafka.unknown' = '1')", "Unsupported topic option 'kafka.unknown'"},
		{"CREATE TABLE " + name + " (a INT)", "already exists in Catalog kc"},
		{"CREATE VIEW v AS SELECT 1", "View DDL is not supported on Kafka catalog 'kc'."},
		{"DROP VIEW v", "View DDL is not supported on Kafka catalog 'kc'."},
		{"USE cluster9", "cluster9"},
	} {
		mustFail(t, s, c.sql, c.want)
	}
	exec1(t, s, "USE CATALOG default_catalog")
	mustFail(t, s, "DROP DATABASE kc.cluster1", "DROP DATABASE is not supported on Kafka catalog 'kc'")
	exec1(t, s, "USE CATALOG kc")
	list := tool(t, "", "topics", "--list")
	for _, n := range []string{"x1", "x2", "x3", "x4", "x5"} {
		if regexp.MustCompile(`(?m)^` + n + `$`).MatchString(list) {
			t.Errorf("a refused CREATE TABLE left the topic %s", n)
		}
	}
	rows := strings.Join(mustQuery(t, s, "SHOW CREATE CATALOG kc", -1), "\n")
	if strings.Contains(rows, "hunter2") || !strings.Contains(rows, "'properties.sasl.password' = '****'") {
		t.Errorf("SHOW CREATE CATALOG does not mask the secret:\n%s", rows)
	}
	rows = strings.Join(mustQuery(t, s, "DESCRIBE CATALOG EXTENDED kc", -1), "\n")
	if strings.Contains(rows, "hunter2") || !strings.Contains(rows, "properties.sasl.password") {
		t.Errorf("DESCRIBE CATALOG EXTENDED does not mask the secret:\n%s", rows)
	}
	rows = strings.Join(mustQuery(t, s, "SHOW COLUMNS FROM "+name, -1), "\n")
	if !strings.Contains(rows, "id INT") {
		t.Errorf("SHOW COLUMNS: %s", rows)
	}
}

// TestCatalogDefinitionWithoutTopic: a definition whose topic a Kafka
// client deleted stays listed, and reading it says what is missing.
func TestCatalogDefinitionWithoutTopic(t *testing.T) {
	s, _ := catalogSession(t, "")
	name := uniqueName("orphan")
	exec1(t, s, fmt.Sprintf("CREATE TABLE %s (id INT)", name))
	tool(t, "", "topics", "--delete", "--topic", name)
	deadline := time.Now().Add(30 * time.Second)
	for regexp.MustCompile(`(?m)^`+name+`$`).MatchString(tool(t, "", "topics", "--list")) && time.Now().Before(deadline) {
		time.Sleep(200 * time.Millisecond)
	}
	rows := mustQuery(t, s, "SHOW TABLES LIKE 'orphan%'", -1)
	if !strings.Contains(strings.Join(rows, "\n"), name) {
		t.Fatalf("the definition without its topic is not listed: %v", rows)
	}
	mustFail(t, s, "SELECT * FROM "+name, "The topic '"+name+"' of table `kc`.`cluster1`.`"+name+"` does not exist in the Kafka cluster")
	exec1(t, s, "DROP TABLE "+name)
	if rows := mustQuery(t, s, "SHOW TABLES LIKE 'orphan%'", -1); strings.Contains(strings.Join(rows, "\n"), name) {
		t.Errorf("DROP TABLE left the definition: %v", rows)
	}
}

// TestCatalogManyClusters: 'cluster.<db>.properties.*' adds a database;
// here the broker's SASL listener, its password masked.
func TestCatalogManyClusters(t *testing.T) {
	broker(t)
	sasl := strings.TrimSpace(tool(t, "", "sasl-url"))
	s, _ := catalogSession(t, fmt.Sprintf(`, 'cluster.secure.properties.bootstrap.servers' = '%s',
		'cluster.secure.properties.security.protocol' = 'SASL_PLAINTEXT', 'cluster.secure.properties.sasl.mechanism' = 'PLAIN',
		'cluster.secure.properties.sasl.jaas.config' = 'org.apache.kafka.common.security.plain.PlainLoginModule required username="eddy" password="eddy-secret";'`, sasl))
	wantRows(t, mustQuery(t, s, "SHOW DATABASES", -1), "+I cluster1", "+I secure")
	name := uniqueName("secure")
	exec1(t, s, fmt.Sprintf("CREATE TABLE secure.%s (id INT)", name))
	exec1(t, s, fmt.Sprintf("INSERT INTO secure.%s VALUES (7)", name))
	wantRows(t, mustQuery(t, s, "SELECT id FROM secure."+name, -1), "+I 7")
	// The same broker behind both listeners: the table, topic and
	// definition, is in cluster1 too.
	wantRows(t, mustQuery(t, s, "SELECT id FROM cluster1."+name, -1), "+I 7")
	rows := strings.Join(mustQuery(t, s, "SHOW CREATE CATALOG kc", -1), "\n")
	if strings.Contains(rows, "eddy-secret") {
		t.Errorf("SHOW CREATE CATALOG prints the password:\n%s", rows)
	}
	exec1(t, s, "DROP TABLE secure."+name)
}

// TestCatalogCompletion: the names Tab completion offers come from the
// cluster (a topic a Kafka client made, the columns of a defined table),
// and a lookup whose deadline has passed offers nothing rather than wait.
func TestCatalogCompletion(t *testing.T) {
	s, _ := catalogSession(t, "")
	defined, raw := uniqueName("complete"), uniqueName("rawcomplete")
	exec1(t, s, fmt.Sprintf("CREATE TABLE %s (order_id STRING, price DOUBLE)", defined))
	defer exec1(t, s, "DROP TABLE "+defined)
	tool(t, "", "topics", "--create", "--topic", raw, "--partitions", "1")
	defer exec1(t, s, "DROP TABLE "+raw)

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	names := strings.Join(s.ObjectNames(ctx, "kc", "cluster1"), "\n")
	for _, n := range []string{defined, raw} {
		if !regexp.MustCompile(`(?m)^` + n + `$`).MatchString(names) {
			t.Errorf("completion does not offer %s", n)
		}
	}
	if got := strings.Join(s.ColumnNames(ctx, []string{"kc", "cluster1", defined}), ","); got != "order_id,price" {
		t.Errorf("columns of %s: %q", defined, got)
	}
	if got := strings.Join(s.ColumnNames(ctx, []string{raw}), ","); got != "key,val,topic,partition,headers,leader_epoch,offset,timestamp,timestamp_type" {
		t.Errorf("columns of the raw topic %s: %q", raw, got)
	}
	done, stop := context.WithCancel(context.Background())
	stop()
	if got := s.ObjectNames(done, "kc", "cluster1"); len(got) != 0 {
		t.Errorf("a lookup past its deadline offers %d names", len(got))
	}
}

// TestCatalogUnreadableDefinition: a definition this eddy cannot read (a
// later version's, written here by Kafka's console producer) is listed
// and fails saying why; it never turns into the raw layout an ALTER would
// overwrite it with. DROP TABLE removes it.
func TestCatalogUnreadableDefinition(t *testing.T) {
	s, tables := catalogSession(t, "")
	name := uniqueName("future")
	exec1(t, s, fmt.Sprintf("CREATE TABLE %s (id INT)", name))
	produce(t, tables, true, name+`|{"version":99,"columns":[]}`)
	rows := mustQuery(t, s, "SHOW TABLES LIKE 'future%'", -1)
	if !strings.Contains(strings.Join(rows, "\n"), name) {
		t.Fatalf("the table with an unreadable definition is not listed: %v", rows)
	}
	want := "The definition of table cluster1." + name + " in the topic '" + tables + "' cannot be read"
	mustFail(t, s, "SELECT * FROM "+name, want)
	mustFail(t, s, "ALTER TABLE "+name+" SET ('kafka.partitions' = '5')", want)
	got := tool(t, "", "consume", tables, "--max-messages", "2", "--property", "print.key=true", "--timeout-ms", "10000")
	if !strings.Contains(got, `"version":99`) {
		t.Errorf("the unreadable definition was replaced: %q", got)
	}
	exec1(t, s, "DROP TABLE "+name)
	if rows := mustQuery(t, s, "SHOW TABLES LIKE 'future%'", -1); strings.Contains(strings.Join(rows, "\n"), name) {
		t.Errorf("DROP TABLE left the table: %v", rows)
	}
}

// TestCatalogRawTopic: a topic a Kafka client made reads as Flink's raw
// layout with the metadata columns; ALTER TABLE defines it.
func TestCatalogRawTopic(t *testing.T) {
	s, _ := catalogSession(t, "")
	name := uniqueName("raw")
	tool(t, "", "topics", "--create", "--topic", name, "--partitions", "1")
	defer exec1(t, s, "DROP TABLE "+name)
	produce(t, name, true, "k1|v1", "k2|v2")
	wantRows(t, mustQuery(t, s, fmt.Sprintf("SELECT CAST(key AS STRING), CAST(val AS STRING), `topic`, `partition`, `offset`, timestamp_type FROM %s", name), -1),
		fmt.Sprintf("+I k1 v1 %s 0 0 CreateTime", name), fmt.Sprintf("+I k2 v2 %s 0 1 CreateTime", name))
	show := strings.Join(mustQuery(t, s, "SHOW CREATE TABLE "+name, -1), "\n")
	for _, want := range []string{"`key` VARBINARY(2147483647),", "`val` VARBINARY(2147483647),", "`leader_epoch` INT METADATA FROM 'leader-epoch' VIRTUAL", "without a table definition", "'value.format' = 'raw'"} {
		if !strings.Contains(show, want) {
			t.Errorf("SHOW CREATE TABLE of a raw topic lacks %q:\n%s", want, show)
		}
	}
	exec1(t, s, fmt.Sprintf("ALTER TABLE %s SET ('scan.bounded.mode' = 'latest-offset') ", name))
	show = strings.Join(mustQuery(t, s, "SHOW CREATE TABLE "+name, -1), "\n")
	if strings.Contains(show, "without a table definition") {
		t.Errorf("a defined topic keeps the raw note:\n%s", show)
	}
	wantRows(t, mustQuery(t, s, fmt.Sprintf("SELECT CAST(val AS STRING) FROM %s WHERE key = CAST('k2' AS BYTES)", name), -1), "+I v2")
}
