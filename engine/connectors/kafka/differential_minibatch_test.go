package kafka_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestDifferentialFlinkMiniBatch reads an upsert-kafka topic in streaming
// mode with mini-batching on, on eddy and on a real Flink at parallelism
// 1, and wants the same changelog line for line: the ChangelogNormalize of
// the upsert source applies each key's last record of a bundle, and a
// group aggregation over it folds its changes per bundle.
func TestDifferentialFlinkMiniBatch(t *testing.T) {
	addr := broker(t)
	flink := openFlink(t, map[string]string{"execution.runtime-mode": "streaming", "parallelism.default": "1"})
	eddy := session(t, "streaming")
	topic := newTopic(t, addr, 1)
	produce(t, topic, true, `{"k":1}|{"k":1,"v":"a"}`, `{"k":2}|{"k":2,"v":"x"}`, `{"k":1}|{"k":1,"v":"b"}`,
		`{"k":3}|{"k":3,"v":"c"}`, `{"k":1}|{"k":1,"v":"b"}`, `{"k":2}|{"k":2,"v":"y"}`, `{"k":4}|{"k":4,"v":"z"}`,
		`{"k":1}|{"k":1,"v":"d"}`, `{"k":3}|NULL`, `{"k":5}|{"k":5,"v":"y"}`)
	stmts := []string{
		fmt.Sprintf(`CREATE TEMPORARY TABLE up (k BIGINT, v STRING, PRIMARY KEY (k) NOT ENFORCED) WITH (
			'connector' = 'upsert-kafka', 'topic' = '%s', 'properties.bootstrap.servers' = '%s',
			'key.format' = 'json', 'value.format' = 'json', 'scan.bounded.mode' = 'latest-offset')`, topic, addr),
		"SET 'table.exec.mini-batch.enabled' = 'true'",
		// A latency of an hour keeps Flink's timer from ending a bundle.
		"SET 'table.exec.mini-batch.allow-latency' = '1 h'",
	}
	for _, sql := range stmts {
		exec1(t, eddy, sql)
		if _, err := query(t, flink, sql, -1); err != nil {
			t.Fatalf("Flink: %s: %v", sql, err)
		}
	}
	compared := 0
	for _, size := range []string{"100", "4", "3", "2", "1"} {
		set := "SET 'table.exec.mini-batch.size' = '" + size + "'"
		exec1(t, eddy, set)
		if _, err := query(t, flink, set, -1); err != nil {
			t.Fatal(err)
		}
		for _, sql := range []string{"SELECT * FROM up", "SELECT v, COUNT(*) FROM up GROUP BY v"} {
			got, gerr := query(t, eddy, sql, -1)
			want, werr := query(t, flink, sql, -1)
			if gerr != nil || werr != nil {
				t.Fatalf("size %s: %s: eddy %v, Flink %v", size, sql, gerr, werr)
			}
			if len(want) == 0 {
				t.Fatalf("size %s: %s: Flink answered no rows", size, sql)
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("size %s: %s:\neddy:  %v\nFlink: %v", size, sql, got, want)
			}
			compared++
		}
	}
	t.Logf("%d mini-batched changelogs compared with Flink's", compared)
}
