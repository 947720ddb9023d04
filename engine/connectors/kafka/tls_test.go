package kafka_test

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// listener returns the address of one of the broker's TLS listeners
// (kafka.sh tls-url or sasl-ssl-url) and the directory of its test CA's
// trust stores.
func listener(t *testing.T, cmd string) (addr, dir string) {
	t.Helper()
	broker(t)
	run := func(arg string) string {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		out, err := exec.CommandContext(ctx, "testdata/kafka/kafka.sh", arg).Output()
		if err != nil {
			t.Fatalf("kafka.sh %s: %v: the running broker has no TLS listeners; one started by this kafka.sh has (kafka.sh stop, then start)", arg, err)
		}
		return strings.TrimSpace(string(out))
	}
	return run(cmd), run("tls-dir")
}

// TestTLS writes and reads over the broker's SSL listener with each kind
// of trust store (PKCS12, JKS, PEM); Kafka's own console clients, over TLS
// too, read what eddy wrote and write what eddy reads.
func TestTLS(t *testing.T) {
	addr, dir := listener(t, "tls-url")
	topic := newTopic(t, broker(t), 1)
	s := session(t, "batch")
	table := func(name, trust string) {
		exec1(t, s, fmt.Sprintf(`CREATE TABLE %s (n INT, s STRING) WITH ('connector' = 'kafka', 'topic' = '%s',
			'properties.bootstrap.servers' = '%s', 'properties.security.protocol' = 'SSL', %s
			'properties.request.timeout.ms' = '10000', 'format' = 'json',
			'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset')`, name, topic, addr, trust))
	}
	table("p12", fmt.Sprintf(`'properties.ssl.truststore.type' = 'PKCS12', 'properties.ssl.truststore.location' = '%s',
		'properties.ssl.truststore.password' = 'eddy-tls',`, filepath.Join(dir, "truststore.p12")))
	table("jks", fmt.Sprintf(`'properties.ssl.truststore.location' = '%s', 'properties.ssl.truststore.password' = 'eddy-tls',`,
		filepath.Join(dir, "truststore.jks")))
	table("pem", fmt.Sprintf(`'properties.ssl.truststore.type' = 'PEM', 'properties.ssl.truststore.location' = '%s',
		'properties.ssl.endpoint.identification.algorithm' = '',`, filepath.Join(dir, "ca.pem")))
	exec1(t, s, "INSERT INTO p12 VALUES (1, 'over tls')")
	if out := tool(t, "", "consume", "--tls", topic, "--max-messages", "1", "--timeout-ms", "20000"); !strings.Contains(out, `{"n":1,"s":"over tls"}`) {
		t.Errorf("Kafka's consumer over TLS read %q", out)
	}
	tool(t, `{"n":2,"s":"from kafka"}`+"\n", "produce", "--tls", topic)
	for _, name := range []string{"p12", "jks", "pem"} {
		wantRows(t, mustQuery(t, s, "SELECT n, s FROM "+name, -1), "+I 1 over tls", "+I 2 from kafka")
	}

	// A store without the broker's CA: the system's roots do not know it.
	table("untrusted", "")
	_, err := query(t, s, "SELECT n FROM untrusted", -1)
	if err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Errorf("untrusted broker certificate: got %v", err)
	}
	table("badpass", fmt.Sprintf(`'properties.ssl.truststore.type' = 'PKCS12', 'properties.ssl.truststore.location' = '%s',
		'properties.ssl.truststore.password' = 'not-the-password',`, filepath.Join(dir, "truststore.p12")))
	_, err = query(t, s, "SELECT n FROM badpass", -1)
	if err == nil || !strings.Contains(err.Error(), "Failed to load SSL keystore "+filepath.Join(dir, "truststore.p12")+" of type PKCS12") {
		t.Errorf("wrong trust store password: got %v", err)
	}
	if err != nil && strings.Contains(err.Error(), "not-the-password") {
		t.Errorf("the error prints the password: %v", err)
	}
	table("badjks", fmt.Sprintf(`'properties.ssl.truststore.location' = '%s', 'properties.ssl.truststore.password' = 'wrong',`,
		filepath.Join(dir, "truststore.jks")))
	if _, err = query(t, s, "SELECT n FROM badjks", -1); err == nil || !strings.Contains(err.Error(), "of type JKS") {
		t.Errorf("wrong JKS password: got %v", err)
	}
}

// TestSASLSSL logs in with SCRAM over TLS: eddy reads what Kafka's console
// producer wrote over the same listener and writes what its consumer
// reads; SHOW CREATE TABLE shows neither the login's nor the trust
// store's password.
func TestSASLSSL(t *testing.T) {
	addr, dir := listener(t, "sasl-ssl-url")
	topic := newTopic(t, broker(t), 1)
	s := session(t, "batch")
	exec1(t, s, fmt.Sprintf(`CREATE TABLE secure (n INT, s STRING) WITH ('connector' = 'kafka', 'topic' = '%s',
		'properties.bootstrap.servers' = '%s', 'properties.security.protocol' = 'SASL_SSL',
		'properties.sasl.mechanism' = 'SCRAM-SHA-256',
		'properties.sasl.jaas.config' = 'org.apache.kafka.common.security.scram.ScramLoginModule required username="eddy" password="eddy-secret";',
		'properties.ssl.truststore.location' = '%s', 'properties.ssl.truststore.password' = 'eddy-tls',
		'properties.request.timeout.ms' = '10000', 'format' = 'json',
		'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset')`, topic, addr, filepath.Join(dir, "truststore.p12")))
	tool(t, `{"n":1,"s":"sasl over tls"}`+"\n", "produce", "--sasl-ssl", topic)
	exec1(t, s, "INSERT INTO secure VALUES (2, 'by eddy')")
	wantRows(t, mustQuery(t, s, "SELECT n, s FROM secure", -1), "+I 1 sasl over tls", "+I 2 by eddy")
	out := tool(t, "", "consume", "--sasl-ssl", topic, "--max-messages", "2", "--timeout-ms", "20000")
	if !strings.Contains(out, `{"n":2,"s":"by eddy"}`) {
		t.Errorf("Kafka's consumer over SASL_SSL read %q", out)
	}
	ddl := strings.Join(mustQuery(t, s, "SHOW CREATE TABLE secure", -1), "\n")
	for _, secret := range []string{"eddy-secret", "eddy-tls"} {
		if strings.Contains(ddl, secret) {
			t.Errorf("SHOW CREATE TABLE shows %q:\n%s", secret, ddl)
		}
	}
	if strings.Count(ddl, "'****'") < 2 {
		t.Errorf("SHOW CREATE TABLE masks fewer than two options:\n%s", ddl)
	}
}
