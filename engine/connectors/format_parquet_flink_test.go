package connectors_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"eddy/catalogs"
	"eddy/catalogs/memory"
	"eddy/engine"
	"eddy/engine/gateway"
	"eddy/engine/result"
	"eddy/engine/types"
)

// flinkParquetColumns are a column of every type Flink's parquet format
// reads and writes (its documentation's type mapping), nested types
// included.
const flinkParquetColumns = `(c_char CHAR(3), c_varchar VARCHAR(20), c_string STRING, c_bool BOOLEAN,
	c_binary BINARY(2), c_varbinary VARBINARY(10), c_bytes BYTES,
	c_dec_small DECIMAL(5, 2), c_dec_mid DECIMAL(15, 3), c_dec_big DECIMAL(30, 5),
	c_tinyint TINYINT, c_smallint SMALLINT, c_int INT, c_bigint BIGINT, c_float FLOAT, c_double DOUBLE,
	c_date DATE, c_time TIME(0), c_ts3 TIMESTAMP(3), c_ts6 TIMESTAMP(6), c_ltz TIMESTAMP_LTZ(3),
	c_array ARRAY<INT>, c_map MAP<STRING, BIGINT>, c_row ROW<a INT, b STRING, c ROW<x DOUBLE>>,
	c_str_array ARRAY<STRING>)`

// flinkParquetRows are rows of every value kind, a row of NULLs among them.
const flinkParquetRows = `
('abc', 'héllo', 'a longer string', TRUE, X'0102', X'78797A', X'',
 123.45, -123456789012.345, CAST('1234567890123456789012345.12345' AS DECIMAL(30, 5)),
 CAST(-7 AS TINYINT), CAST(300 AS SMALLINT), -100000, 1099511627776, CAST(1.5 AS FLOAT), 2.25,
 DATE '2024-02-29', TIME '13:14:15', TIMESTAMP '2024-02-29 13:14:15.123', TIMESTAMP '2024-02-29 13:14:15.123456',
 CAST(TIMESTAMP '2001-09-09 01:46:40.500' AS TIMESTAMP_LTZ(3)),
 ARRAY[1, CAST(NULL AS INT), 3], MAP['a', CAST(1 AS BIGINT), 'b', CAST(NULL AS BIGINT)], ROW(7, 'p', ROW(0.5)),
 ARRAY['x', CAST(NULL AS STRING), '']),
('de ', '', '', FALSE, X'0000', X'', X'FF00',
 -0.01, 0.000, -99999.00001,
 CAST(127 AS TINYINT), CAST(-32768 AS SMALLINT), 2147483647, -9223372036854775807, CAST(-0.25 AS FLOAT), -1e300,
 DATE '1900-01-01', TIME '00:00:00', TIMESTAMP '1900-01-01 00:00:00', TIMESTAMP '2038-01-19 03:14:08.000001',
 CAST(TIMESTAMP '1970-01-01 00:00:00' AS TIMESTAMP_LTZ(3)),
 ARRAY[-1], MAP['k', CAST(-5 AS BIGINT)], ROW(CAST(NULL AS INT), CAST(NULL AS STRING), CAST(NULL AS ROW<x DOUBLE>)),
 ARRAY['only']),
(CAST(NULL AS CHAR(3)), CAST(NULL AS VARCHAR(20)), CAST(NULL AS STRING), CAST(NULL AS BOOLEAN),
 CAST(NULL AS BINARY(2)), CAST(NULL AS VARBINARY(10)), CAST(NULL AS BYTES),
 CAST(NULL AS DECIMAL(5, 2)), CAST(NULL AS DECIMAL(15, 3)), CAST(NULL AS DECIMAL(30, 5)),
 CAST(NULL AS TINYINT), CAST(NULL AS SMALLINT), CAST(NULL AS INT), CAST(NULL AS BIGINT), CAST(NULL AS FLOAT), CAST(NULL AS DOUBLE),
 CAST(NULL AS DATE), CAST(NULL AS TIME(0)), CAST(NULL AS TIMESTAMP(3)), CAST(NULL AS TIMESTAMP(6)), CAST(NULL AS TIMESTAMP_LTZ(3)),
 CAST(NULL AS ARRAY<INT>), CAST(NULL AS MAP<STRING, BIGINT>), CAST(NULL AS ROW<a INT, b STRING, c ROW<x DOUBLE>>),
 CAST(NULL AS ARRAY<STRING>))`

// TestFlinkReadsEddysParquet: eddy writes a filesystem table in Parquet
// with every type Flink's parquet format supports, and a real Flink SQL
// Gateway reads the same directory with the same DDL; the rows must be
// the same, column by column (mismatches listed).
func TestFlinkReadsEddysParquet(t *testing.T) {
	url := os.Getenv("EDDY_GATEWAY")
	if url == "" {
		t.Skip("EDDY_GATEWAY is not set: start a Flink SQL Gateway with engine/gateway/testdata/flink/gateway.sh start and export its URL")
	}
	ctx := context.Background()
	flink, err := gateway.Open(ctx, gateway.Config{ClientConfig: gateway.ClientConfig{Endpoint: url, RequestTimeout: 4 * time.Minute},
		Properties: map[string]string{"execution.runtime-mode": "batch", "table.local-time-zone": "UTC", "table.dml-sync": "true"}})
	if err != nil {
		t.Fatal(err)
	}
	defer flink.Close()
	eddy := eddySession(t)
	dir := t.TempDir()
	ddl := fmt.Sprintf("CREATE TABLE p %s WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'parquet')", flinkParquetColumns, dir)
	for _, s := range []string{ddl, "INSERT INTO p VALUES " + flinkParquetRows} {
		if _, err := runRows(eddy, s); err != nil {
			t.Fatalf("eddy: %s: %v", s, err)
		}
	}
	if _, err := runRows(flink, ddl); err != nil {
		t.Fatalf("Flink: %s: %v", ddl, err)
	}
	cols := strings.Fields(strings.NewReplacer("(", " ", ")", " ", ",", " ").Replace(flinkParquetColumns))
	var names []string
	for _, f := range cols {
		if strings.HasPrefix(f, "c_") {
			names = append(names, f)
		}
	}
	// One query per column, so that a mismatch names its column; then
	// the whole rows.
	var mismatches []string
	for _, q := range append(func() (qs []string) {
		for _, n := range names {
			qs = append(qs, fmt.Sprintf("SELECT c_int, %s FROM p", n))
		}
		return qs
	}(), "SELECT * FROM p", "SELECT c_bigint, c_varchar FROM p WHERE c_int > 0") {
		e, eerr := runRows(eddy, q)
		f, ferr := runRows(flink, q)
		slices.Sort(e)
		slices.Sort(f)
		switch {
		case eerr != nil || ferr != nil:
			mismatches = append(mismatches, fmt.Sprintf("%s: eddy error %v, Flink error %v", q, eerr, ferr))
		case !slices.Equal(e, f):
			mismatches = append(mismatches, fmt.Sprintf("%s:\n  eddy:  %q\n  Flink: %q", q, e, f))
		}
	}
	if len(mismatches) > 0 {
		t.Errorf("Flink reads eddy's Parquet differently in %d queries:\n%s", len(mismatches), strings.Join(mismatches, "\n"))
	}
	if all, _ := runRows(flink, "SELECT COUNT(*) FROM p"); !slices.Equal(all, []string{"3"}) {
		t.Errorf("Flink counts %v rows, want 3", all)
	}
}

// eddySession is an eddy session over a memory catalog, in batch mode.
func eddySession(t *testing.T) *engine.Session {
	t.Helper()
	ctx := context.Background()
	mgr := catalogs.NewManager(map[string]catalogs.Factory{memory.Type: memory.Factory{}}, nil)
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
	return s
}

// runRows runs a statement and returns its rows, each value printed as
// its column's type prints it, tab-separated.
func runRows(s interface {
	Execute(ctx context.Context, sql string) (*result.Result, error)
}, sql string) ([]string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	res, err := s.Execute(ctx, sql)
	if err != nil {
		return nil, err
	}
	defer res.Close()
	var out []string
	for res.Rows != nil {
		row, ok, err := res.Rows.Next(ctx)
		if err != nil {
			return out, err
		}
		if !ok {
			break
		}
		vals := make([]string, len(row.Values))
		for i, v := range row.Values {
			vals[i] = types.ValueString(v, res.Columns[i].Type)
		}
		out = append(out, strings.Join(vals, "\t"))
	}
	return out, nil
}
