package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// secretValues are the values secretScript gives to sensitive options.
var secretValues = []string{"APIKEY1", "JAAS1", "SSLPW1", "AZURE1", "BASIC1", "DBPW1", "SETPW1", "SETKEY1", "HEADERS1",
	"SECRET1", "APIKEY2", "AUTHPARAMS1", "SERVICEKEY1", "TOKEN1"}

// secretScript gives credentials to a table, a database and the session
// under key names Flink counts as sensitive, then shows them every way
// the shell can: SHOW CREATE TABLE, DESCRIBE, DESCRIBE DATABASE EXTENDED,
// SET;, EXPLAIN and the error of a table whose options are refused.
const secretScript = `SET 'sql-client.execution.result-mode' = 'tableau';
SET 'execution.runtime-mode' = 'batch';
CREATE TABLE t (a INT) WITH ('connector' = 'blackhole', 'api-key' = 'APIKEY1',
  'properties.sasl.jaas.config' = 'JAAS1', 'properties.ssl.keystore.password' = 'SSLPW1',
  'fs.azure.account.key.acct' = 'AZURE1', 'basic-auth' = 'BASIC1', 'client.secret' = 'SECRET1',
  'apikey' = 'APIKEY2', 'auth-params' = 'AUTHPARAMS1', 'gcp.service-key' = 'SERVICEKEY1', 'oauth.token' = 'TOKEN1');
SHOW CREATE TABLE t;
DESCRIBE t;
CREATE DATABASE d WITH ('password' = 'DBPW1');
DESCRIBE DATABASE EXTENDED d;
SET 'db.password' = 'SETPW1';
SET 'my.api-key' = 'SETKEY1';
SET 'sink.http-headers' = 'HEADERS1';
SET;
EXPLAIN INSERT INTO t SELECT 1;
INSERT INTO t SELECT 1;
`

// TestSecretsNeverShown runs secretScript in tableau and JSON output: no
// value of a sensitive option appears, and each is shown as '****'.
func TestSecretsNeverShown(t *testing.T) {
	vars, _ := env(t)
	for _, format := range []string{"tableau", "json"} {
		out, _ := combined(t, vars, secretScript, "--store", store(t), "--keep-going", "--output", format)
		for _, v := range secretValues {
			if strings.Contains(out, v) {
				t.Errorf("--output %s shows the secret %s:\n%s", format, v, out)
			}
		}
		if n := strings.Count(out, "****"); n < 9 {
			t.Errorf("--output %s: %d masked values, want at least 9:\n%s", format, n, out)
		}
		for _, key := range []string{"my.api-key", "db.password", "properties.sasl.jaas.config", "fs.azure.account.key.acct"} {
			if !strings.Contains(out, key) {
				t.Errorf("--output %s does not list %s:\n%s", format, key, out)
			}
		}
	}
}

// TestTerminalHistoryMasksFlinkKeys types statements with credentials
// under Flink's sensitive key names at a terminal: the history file keeps
// none of their values.
func TestTerminalHistoryMasksFlinkKeys(t *testing.T) {
	vars, home := env(t)
	vars = append(vars, "TERM=xterm-256color")
	term := newTerminal(t, vars, "--store", filepath.Join(home, "store.db"))
	term.atPrompt(
		"CREATE TABLE s (a INT) WITH ('connector' = 'blackhole', 'api-key' = 'APIKEY1', 'properties.sasl.jaas.config' = 'JAAS1');",
		"SET 'fs.azure.account.key.acct' = 'AZURE1';",
		"SET 'basic-auth' = 'BASIC1';",
	)
	term.keys("C-d")
	histFile := filepath.Join(home, "state", "eddy", "history")
	var hist []byte
	deadline := time.Now().Add(10 * time.Second)
	for {
		var err error
		if hist, err = os.ReadFile(histFile); err == nil && strings.Contains(string(hist), "basic-auth") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("history not written: %v\n%s", err, hist)
		}
		time.Sleep(50 * time.Millisecond)
	}
	for _, v := range secretValues {
		if strings.Contains(string(hist), v) {
			t.Errorf("the history file holds the secret %s:\n%s", v, hist)
		}
	}
	if !strings.Contains(string(hist), "'api-key' = '****'") || !strings.Contains(string(hist), "'basic-auth' = '****'") {
		t.Errorf("the history file lacks the masked statements:\n%s", hist)
	}
}
