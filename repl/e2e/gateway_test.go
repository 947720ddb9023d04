package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGatewayFlag runs the binary with --gateway against the Flink SQL
// Gateway named by EDDY_GATEWAY (.ci/run starts one) and checks that the
// answers have the layout of the local engine's.
func TestGatewayFlag(t *testing.T) {
	url := os.Getenv("EDDY_GATEWAY")
	if url == "" {
		t.Skip("EDDY_GATEWAY is not set: no Flink SQL Gateway to run against (.ci/run starts one)")
	}
	script := `SET 'sql-client.execution.result-mode' = 'tableau';
SET 'execution.runtime-mode' = 'batch';
SHOW CATALOGS;
CREATE TEMPORARY VIEW e2e_v AS SELECT * FROM (VALUES (1, 'a')) AS t(x, y);
SELECT * FROM (VALUES (1, 'a')) AS t(x, y);
`
	remote := eddy(t, script, "--gateway", url)
	if remote.code != 0 {
		t.Fatalf("remote: exit %d\n%s%s", remote.code, remote.stdout, remote.stderr)
	}
	// Flink has no examples catalog: the local side turns it off so that
	// SHOW CATALOGS lists the same.
	cfg := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(cfg, []byte("examples-catalog: false\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	local := eddy(t, script, "--store", store(t), "--config", cfg)
	if local.code != 0 {
		t.Fatalf("local: exit %d\n%s%s", local.code, local.stdout, local.stderr)
	}
	if remote.stdout != local.stdout {
		t.Fatalf("remote and local answers differ:\n--- remote\n%s\n--- local\n%s", remote.stdout, local.stdout)
	}
	if !strings.Contains(remote.stdout, "| 1 | a |") {
		t.Fatalf("the query's row is missing:\n%s", remote.stdout)
	}
}

// TestGatewayClientCommands: with --gateway the backslash commands are
// answered by eddy (Flink's parser would refuse the backslash): \d runs
// SHOW TABLES and DESCRIBE on Flink, \x switches the display locally.
func TestGatewayClientCommands(t *testing.T) {
	url := os.Getenv("EDDY_GATEWAY")
	if url == "" {
		t.Skip("EDDY_GATEWAY is not set: no Flink SQL Gateway to run against (.ci/run starts one)")
	}
	script := "SET 'sql-client.execution.result-mode' = 'tableau';\n" +
		"CREATE TEMPORARY TABLE e2e_cc (id INT, name STRING) WITH ('connector' = 'datagen');\n" +
		"\\d\n\\d e2e_cc\n\\x\nSHOW CURRENT CATALOG;\n"
	r := eddy(t, script, "--gateway", url)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if !hasRow(r.stdout, "e2e_cc") || !hasRow(r.stdout, "id", "INT", "TRUE", "", "", "") ||
		!strings.Contains(r.stdout, "Expanded display is on.") || !strings.Contains(r.stdout, "1. row") {
		t.Errorf("client commands on Flink:\n%s", r.stdout)
	}
}
