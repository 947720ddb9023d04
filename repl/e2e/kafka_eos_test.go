package e2e

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// eosRows is how many records the exactly-once test copies;
// EDDY_EOS_ROWS overrides it for a quicker local run.
func eosRows(t *testing.T) int {
	if s := os.Getenv("EDDY_EOS_ROWS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("EDDY_EOS_ROWS=%q", s)
		}
		return n
	}
	return 1_000_000
}

// TestKafkaExactlyOnceKilled: a streaming INSERT copies a topic into
// another with 'sink.delivery-guarantee' = 'exactly-once', its source
// reading from its group's offsets; the shell is killed with SIGKILL 20
// times at random moments and started again each time, then runs to the
// end. Kafka's own console consumer, reading committed records only,
// finds every source record in the target exactly once: the offsets
// commit in the sink's transactions, so a killed run's uncommitted
// records are never seen and never read again as new.
func TestKafkaExactlyOnceKilled(t *testing.T) {
	addr := os.Getenv("EDDY_KAFKA")
	if addr == "" {
		t.Skip("EDDY_KAFKA is not set: start a broker with engine/connectors/kafka/testdata/kafka/kafka.sh start and export EDDY_KAFKA=<host:port>")
	}
	n := eosRows(t)
	ctx := context.Background()
	stamp := time.Now().UnixNano()
	src, dst := fmt.Sprintf("eos-src-%d", stamp), fmt.Sprintf("eos-dst-%d", stamp)
	cl, err := kgo.NewClient(kgo.SeedBrokers(addr), kgo.DefaultProduceTopic(src), kgo.ProducerLinger(5*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := kadm.NewClient(cl).CreateTopics(ctx, 2, 1, nil, src, dst); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		cl.Produce(ctx, &kgo.Record{Value: []byte(`{"id":` + strconv.Itoa(i) + `}`)}, func(_ *kgo.Record, err error) {
			if err != nil {
				t.Error(err)
			}
		})
	}
	if err := cl.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	cl.Close()

	script := fmt.Sprintf(`SET 'execution.runtime-mode' = 'streaming';
SET 'execution.checkpointing.interval' = '200ms';
SET 'table.dml-sync' = 'true';
CREATE TEMPORARY TABLE src (id BIGINT) WITH ('connector' = 'kafka', 'topic' = '%[1]s', 'properties.bootstrap.servers' = '%[3]s',
  'properties.group.id' = 'eos-%[4]d', 'scan.startup.mode' = 'group-offsets', 'properties.auto.offset.reset' = 'earliest',
  'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TEMPORARY TABLE dst (id BIGINT) WITH ('connector' = 'kafka', 'topic' = '%[2]s', 'properties.bootstrap.servers' = '%[3]s',
  'format' = 'json', 'sink.delivery-guarantee' = 'exactly-once', 'sink.transactional-id-prefix' = 'eos-%[4]d');
INSERT INTO dst SELECT id FROM src;
`, src, dst, addr, stamp)
	vars, home := env(t)
	st := home + "/store.db"
	rng := rand.New(rand.NewPCG(uint64(stamp), 20))
	kills := 0
	for runs := 0; kills < 20; runs++ {
		if runs > 200 {
			t.Fatalf("only %d of 20 kills hit a running shell in %d runs", kills, runs)
		}
		// Kill within the first two seconds: long enough to commit
		// some transactions, short of the whole copy.
		delay := time.Duration(100+rng.IntN(1900)) * time.Millisecond
		killed, out := killAfter(t, vars, st, script, delay)
		if !killed {
			if strings.Contains(out, "[ERROR]") {
				t.Fatalf("run %d failed:\n%s", runs, out)
			}
			break // the copy ended before the kill
		}
		kills++
	}
	// The last run copies what is left.
	cmd := exec.Command(binary, "--store", st)
	cmd.Env, cmd.Stdin = vars, strings.NewReader(script)
	if out, err := cmd.CombinedOutput(); err != nil || strings.Contains(string(out), "[ERROR]") {
		t.Fatalf("the last run: %v\n%s", err, out)
	}

	consume := exec.Command("../../engine/connectors/kafka/testdata/kafka/kafka.sh", "consume", dst,
		"--isolation-level", "read_committed", "--max-messages", strconv.Itoa(n+1), "--timeout-ms", "20000")
	var stdout, stderr strings.Builder
	consume.Stdout, consume.Stderr = &stdout, &stderr
	if err := consume.Run(); err != nil && stdout.Len() == 0 {
		t.Fatalf("console consumer: %v\n%s", err, stderr.String())
	}
	seen := make([]int, n)
	total := 0
	for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		id, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(line, `{"id":`), "}"))
		if err != nil || id < 0 || id >= n {
			t.Fatalf("an unexpected record %q", line)
		}
		seen[id]++
		total++
	}
	missing, dup := 0, 0
	for _, c := range seen {
		switch {
		case c == 0:
			missing++
		case c > 1:
			dup += c - 1
		}
	}
	t.Logf("%d kills; %d records committed for %d source records: %d missing, %d duplicated", kills, total, n, missing, dup)
	if missing != 0 || dup != 0 {
		t.Errorf("exactly-once broken: %d missing, %d duplicated of %d", missing, dup, n)
	}
}
