package repl

import "testing"

// TestMaskSecretsFlinkKeys: the history keeps no value of an option that
// Flink counts as sensitive, nor of api-key.
func TestMaskSecretsFlinkKeys(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"CREATE TABLE k (a INT) WITH ('properties.sasl.jaas.config' = 'org.x required password=\"p\";', 'properties.ssl.keystore.password' = 'ks');",
			"CREATE TABLE k (a INT) WITH ('properties.sasl.jaas.config' = '****', 'properties.ssl.keystore.password' = '****');"},
		{"SET 'fs.azure.account.key.acct' = 'AZ';", "SET 'fs.azure.account.key.acct' = '****';"},
		{"SET 'my.api-key' = 'K';", "SET 'my.api-key' = '****';"},
		{"SET 'basic-auth' = 'u:p';", "SET 'basic-auth' = '****';"},
		{"SET 'http-headers' = 'Authorization: x';", "SET 'http-headers' = '****';"},
		{"SET 'key.format' = 'json';", "SET 'key.format' = 'json';"},
	} {
		if got := maskSecrets(c.in); got != c.want {
			t.Errorf("maskSecrets(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}
