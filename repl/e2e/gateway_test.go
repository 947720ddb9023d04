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
