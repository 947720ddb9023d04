package connectors_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"eddy/catalogs"
	"eddy/engine/connectors"
)

// fastavroEveryType writes an Avro object container file with a field of
// every Avro type Flink maps, nested ones and NULLs included.
const fastavroEveryType = `
import sys, datetime, decimal, fastavro
def opt(t): return ["null", t]
schema = {"type": "record", "name": "r", "fields": [
    {"name": "b", "type": opt("boolean")}, {"name": "i", "type": opt("int")}, {"name": "l", "type": opt("long")},
    {"name": "f", "type": opt("float")}, {"name": "d", "type": opt("double")}, {"name": "s", "type": opt("string")},
    {"name": "by", "type": opt("bytes")},
    {"name": "dec", "type": opt({"type": "bytes", "logicalType": "decimal", "precision": 12, "scale": 3})},
    {"name": "dt", "type": opt({"type": "int", "logicalType": "date"})},
    {"name": "tm", "type": opt({"type": "int", "logicalType": "time-millis"})},
    {"name": "ts", "type": opt({"type": "long", "logicalType": "timestamp-millis"})},
    {"name": "ts6", "type": opt({"type": "long", "logicalType": "timestamp-micros"})},
    {"name": "arr", "type": opt({"type": "array", "items": opt("long")})},
    {"name": "m", "type": opt({"type": "map", "values": opt("string")})},
    {"name": "rec", "type": opt({"type": "record", "name": "inner", "fields": [
        {"name": "x", "type": "int"}, {"name": "y", "type": opt({"type": "array", "items": "string"})}]})},
    {"name": "e", "type": opt({"type": "enum", "name": "color", "symbols": ["RED", "GREEN"]})},
]}
utc = datetime.timezone.utc
recs = [
    {"b": True, "i": -7, "l": 1 << 40, "f": 1.5, "d": -2.25, "s": "héllo", "by": b"\x00\x01", "dec": decimal.Decimal("-123.456"),
     "dt": datetime.date(2024, 2, 29), "tm": datetime.time(13, 5, 7, 123000), "ts": datetime.datetime(2024, 2, 29, 10, 11, 12, 345000, tzinfo=utc),
     "ts6": datetime.datetime(1969, 12, 31, 23, 59, 59, 999999, tzinfo=utc), "arr": [1, None, 3], "m": {"k": "v"},
     "rec": {"x": 5, "y": ["a", "b"]}, "e": "GREEN"},
    {k: None for k in ["b", "i", "l", "f", "d", "s", "by", "dec", "dt", "tm", "ts", "ts6", "arr", "m", "rec", "e"]},
]
with open(sys.argv[1], "wb") as f:
    fastavro.writer(f, fastavro.parse_schema(schema), recs, codec="deflate")
`

// TestAvroFileOfEveryTypeFromFastavro: eddy reads a container file
// fastavro wrote, with a field of every type, through a filesystem table
// whose columns it takes from the file.
func TestAvroFileOfEveryTypeFromFastavro(t *testing.T) {
	dir := t.TempDir()
	fastavro(t, fastavroEveryType, filepath.Join(dir, "data.avro"))
	opts := map[string]string{"connector": "filesystem", "path": dir, "format": "avro"}
	cols, keys, ok, err := connectors.InferColumns(opts)
	if err != nil || !ok || len(keys) != 0 {
		t.Fatalf("columns from the file: %v %v %v", ok, keys, err)
	}
	var decl []string
	for _, c := range cols {
		decl = append(decl, c.Name+" "+c.Type.String())
	}
	want := "b BOOLEAN, i INT, l BIGINT, f FLOAT, d DOUBLE, s STRING, by BYTES, dec DECIMAL(12, 3), dt DATE, tm TIME(3), " +
		"ts TIMESTAMP(3), ts6 TIMESTAMP(3), arr ARRAY<BIGINT>, m MAP<STRING NOT NULL, STRING>, " +
		"rec ROW<`x` INT NOT NULL, `y` ARRAY<STRING NOT NULL>>, e STRING"
	if got := strings.Join(decl, ", "); got != want {
		t.Fatalf("columns\n%s\nwant\n%s", got, want)
	}
	tbl := &connectors.Table{Name: catalogs.NewIdentifier("c", "d", "t"), Columns: cols, Options: opts}
	r, err := connectors.New().OpenReader(context.Background(), tbl)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var got []string
	for {
		b, err := r.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if b == nil {
			break
		}
		for i := range b.N {
			got = append(got, rowText(b.Row(i), cols))
		}
	}
	wantRows := []string{
		"TRUE | -7 | 1099511627776 | 1.5 | -2.25 | héllo | x'0001' | -123.456 | 2024-02-29 | 13:05:07.123 | 2024-02-29 10:11:12.345 | " +
			"1969-12-31 23:59:59.999 | [1, NULL, 3] | {k=v} | (5, [a, b]) | GREEN",
		"NULL | NULL | NULL | NULL | NULL | NULL | NULL | NULL | NULL | NULL | NULL | NULL | NULL | NULL | NULL | NULL",
	}
	if strings.Join(got, "\n") != strings.Join(wantRows, "\n") {
		t.Fatalf("rows\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(wantRows, "\n"))
	}
}
