package iceberg_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"eddy/engine/gateway"
)

// flinkGateway opens a session on the Flink SQL Gateway of the tests
// (whose class path holds Iceberg's Flink runtime), or skips.
func flinkGateway(t *testing.T) *gateway.Session {
	t.Helper()
	gw := os.Getenv("EDDY_GATEWAY")
	if gw == "" {
		t.Skip("EDDY_GATEWAY is not set: start a Flink SQL Gateway with engine/gateway/testdata/flink/gateway.sh start and export its URL")
	}
	flink, err := gateway.Open(context.Background(), gateway.Config{ClientConfig: gateway.ClientConfig{Endpoint: gw, RequestTimeout: 4 * time.Minute},
		Properties: map[string]string{"execution.runtime-mode": "batch", "table.local-time-zone": "UTC", "table.dml-sync": "true"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { flink.Close() })
	return flink
}

// TestFlinkInterop: real Flink, through Iceberg's Flink catalog on the same
// REST catalog, reads what eddy wrote (appends and upserts), and eddy reads
// what Flink wrote; mismatches are listed.
func TestFlinkInterop(t *testing.T) {
	uri := restURI(t)
	flink := flinkGateway(t)
	eddy := session(t, yamlCatalog(uri))
	create := fmt.Sprintf("CREATE CATALOG lake WITH ('type' = 'iceberg', 'catalog-type' = 'rest', 'uri' = '%s', 'io-impl' = 'org.apache.iceberg.hadoop.HadoopFileIO')", uri)
	if _, err := tryQuery(flink, create); err != nil {
		if strings.Contains(err.Error(), "'iceberg'") {
			t.Fatalf("the gateway has no Iceberg Flink runtime: stop it and start it again with gateway.sh, which rebuilds it with the runtime: %v", err)
		}
		t.Fatal(err)
	}
	db := unique("flink")
	query(t, eddy, "CREATE DATABASE lake."+db)
	cols := "(id BIGINT, name STRING, price DECIMAL(10, 2), d DATE, ts TIMESTAMP(6), ok BOOLEAN, f DOUBLE, n INT)"
	rows := "(1, 'pen', 1.50, DATE '2024-01-02', TIMESTAMP '2024-01-02 03:04:05.678', TRUE, 0.5, 7), " +
		"(2, CAST(NULL AS STRING), CAST(NULL AS DECIMAL(10, 2)), CAST(NULL AS DATE), CAST(NULL AS TIMESTAMP(6)), CAST(NULL AS BOOLEAN), CAST(NULL AS DOUBLE), CAST(NULL AS INT)), " +
		"(3, 'ink', 12.00, DATE '1999-12-31', TIMESTAMP '1970-01-01 00:00:00', FALSE, -1.25, -3)"
	query(t, eddy, "CREATE TABLE lake."+db+".by_eddy "+cols, "INSERT INTO lake."+db+".by_eddy VALUES "+rows)
	query(t, flink, "CREATE TABLE lake."+db+".by_flink "+cols, "INSERT INTO lake."+db+".by_flink VALUES "+rows)
	query(t, eddy, "CREATE TABLE lake."+db+".up (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('format-version' = '2', 'write.upsert.enabled' = 'true')",
		"INSERT INTO lake."+db+".up VALUES (1, 'a'), (2, 'b')", "INSERT INTO lake."+db+".up VALUES (1, 'c'), (3, 'd')")

	var mismatches []string
	for _, q := range []string{
		"SELECT * FROM lake." + db + ".by_eddy",
		"SELECT * FROM lake." + db + ".by_flink",
		"SELECT id, name FROM lake." + db + ".by_eddy WHERE price > 2",
		"SELECT * FROM lake." + db + ".up",
	} {
		e, eerr := tryQuery(eddy, q)
		f, ferr := tryQuery(flink, q)
		switch {
		case eerr != nil || ferr != nil:
			mismatches = append(mismatches, fmt.Sprintf("%s: eddy error %v, Flink error %v", q, eerr, ferr))
		case strings.Join(sorted(e), "\n") != strings.Join(sorted(f), "\n"):
			mismatches = append(mismatches, fmt.Sprintf("%s:\n  eddy:  %q\n  Flink: %q", q, sorted(e), sorted(f)))
		}
	}
	if len(mismatches) > 0 {
		t.Errorf("eddy and Flink disagree on %d statements:\n%s", len(mismatches), strings.Join(mismatches, "\n"))
	}
	wantRows(t, "Flink reads eddy's upserts", sorted(query(t, flink, "SELECT * FROM lake."+db+".up")), "1\tc", "2\tb", "3\td")
}
