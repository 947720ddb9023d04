package catalogs_test

import (
	"testing"

	"eddy/catalogs"
)

// TestSensitiveKeysFollowFlink: the keys Flink hides
// (GlobalConfiguration.SENSITIVE_KEYS), the connector options built on
// them, and api-key are sensitive; ordinary options, including ones that
// merely contain "key", are not.
func TestSensitiveKeysFollowFlink(t *testing.T) {
	for key, want := range map[string]bool{
		"password": true, "secret": true, "fs.azure.account.key": true, "apikey": true,
		"auth-params": true, "service-key": true, "token": true, "basic-auth": true,
		"jaas.config": true, "http-headers": true,
		"properties.sasl.jaas.config":                    true,
		"properties.ssl.keystore.password":               true,
		"properties.ssl.truststore.password":             true,
		"fs.azure.account.key.acct.dfs.core.windows.net": true,
		"api-key":                      true,
		"openai.API_KEY":               true,
		"http.Basic-Auth":              true,
		"sink.http-headers":            true,
		"connector":                    false,
		"path":                         false,
		"key.format":                   false,
		"key.fields":                   false,
		"properties.bootstrap.servers": false,
		"scan.startup.mode":            false,
		"passwd":                       false,
	} {
		if got := catalogs.IsSensitiveOption(key); got != want {
			t.Errorf("IsSensitiveOption(%q) = %v, want %v", key, got, want)
		}
		wantValue := "v"
		if want {
			wantValue = catalogs.HiddenValue
		}
		if got := catalogs.MaskOption(key, "v"); got != wantValue {
			t.Errorf("MaskOption(%q) = %q, want %q", key, got, wantValue)
		}
	}
}
