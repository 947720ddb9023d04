package connectors_test

import (
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"eddy/catalogs"
	"eddy/engine/connectors"
	"eddy/engine/types"
)

func mustType(t *testing.T, s string) *types.Type {
	t.Helper()
	ty, err := types.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return ty
}

// avroColumns are a column of every type Flink maps to Avro, with a row of
// values in eddy's representation. legacy false adds the types only
// 'avro.timestamp_mapping.legacy' = 'false' maps (TIMESTAMP(6),
// TIMESTAMP_LTZ), nanos a TIMESTAMP(9).
func avroColumns(t *testing.T, legacy, nanos bool) ([]connectors.Column, []any) {
	t.Helper()
	dec, _ := types.ParseDecimal("-12.34")
	big, _ := types.ParseDecimal("123456789012345678.90")
	date, _ := types.ParseDate("2024-02-29")
	cols := []connectors.Column{}
	row := []any{}
	add := func(name, typ string, v any) {
		cols = append(cols, connectors.Column{Name: name, Type: mustType(t, typ)})
		row = append(row, v)
	}
	add("b", "BOOLEAN", true)
	add("ti", "TINYINT", int8(-7))
	add("si", "SMALLINT", int16(300))
	add("i", "INT", int32(-100000))
	add("bi", "BIGINT NOT NULL", int64(1)<<40)
	add("f", "FLOAT", float32(1.5))
	add("d", "DOUBLE", -2.25)
	add("s", "STRING", "héllo")
	add("bin", "BYTES", []byte{0, 1, 254})
	add("dec", "DECIMAL(10, 2)", dec)
	add("big", "DECIMAL(20, 2)", big)
	add("dt", "DATE", date)
	add("tm", "TIME(3)", 13*time.Hour+5*time.Minute+7*time.Second+123*time.Millisecond)
	add("ts", "TIMESTAMP(3)", time.Date(2024, 2, 29, 10, 11, 12, 345e6, time.UTC))
	if !legacy {
		add("ts6", "TIMESTAMP(6)", time.Date(1969, 12, 31, 23, 59, 59, 999999e3, time.UTC))
		add("ltz", "TIMESTAMP_LTZ(3)", time.Date(2024, 1, 1, 0, 0, 0, 1e6, time.UTC))
	}
	if nanos {
		add("ts9", "TIMESTAMP(9)", time.Date(2024, 1, 1, 0, 0, 0, 123456789, time.UTC))
	}
	add("ms", "MULTISET<STRING>", []any{"a", "a"})
	add("arr", "ARRAY<INT>", []any{int32(1), nil, int32(3)})
	add("m", "MAP<STRING, BIGINT>", map[any]any{"k": int64(9)})
	add("r", "ROW<x INT, y STRING>", []any{int32(5), nil})
	add("n", "STRING", nil)
	return cols, row
}

func rowText(row []any, cols []connectors.Column) string {
	parts := make([]string, len(row))
	for i, v := range row {
		parts[i] = types.ValueString(v, cols[i].Type)
	}
	return strings.Join(parts, " | ")
}

func TestAvroSchemaAsFlinkDerivesIt(t *testing.T) {
	cols := []connectors.Column{
		{Name: "id", Type: mustType(t, "BIGINT NOT NULL")},
		{Name: "price", Type: mustType(t, "DECIMAL(10, 2)")},
		{Name: "ts", Type: mustType(t, "TIMESTAMP(3)")},
		{Name: "d", Type: mustType(t, "DATE")},
		{Name: "r", Type: mustType(t, "ROW<a INT NOT NULL>")},
	}
	got, err := connectors.AvroSchema(cols, true)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"fields":[{"name":"id","type":"long"},` +
		`{"default":null,"name":"price","type":["null",{"logicalType":"decimal","precision":10,"scale":2,"type":"bytes"}]},` +
		`{"default":null,"name":"ts","type":["null",{"logicalType":"timestamp-millis","type":"long"}]},` +
		`{"default":null,"name":"d","type":["null",{"logicalType":"date","type":"int"}]},` +
		`{"default":null,"name":"r","type":["null",{"fields":[{"name":"a","type":"int"}],"name":"org.apache.flink.avro.generated.record_r","type":"record"}]}],` +
		`"name":"org.apache.flink.avro.generated.record","type":"record"}`
	if got != want {
		t.Errorf("schema\n%s\nwant\n%s", got, want)
	}
	for _, c := range []struct{ typ, want string }{
		{"TIMESTAMP(6)", "Avro does not support TIMESTAMP type with precision: 6, it only supports precision less than 3."},
		{"TIMESTAMP_LTZ(3)", "Unsupported to derive Schema for type: TIMESTAMP_LTZ(3)"},
		{"MAP<INT, INT>", "Avro format doesn't support non-string as key type of map. The key type is: INT"},
		{"INTERVAL DAY", "Unsupported to derive Schema for type: INTERVAL DAY(2)"},
	} {
		_, err := connectors.AvroSchema([]connectors.Column{{Name: "x", Type: mustType(t, c.typ)}}, true)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: %v, want %q", c.typ, err, c.want)
		}
	}
	// The mapping of 'avro.timestamp_mapping.legacy' = 'false'; array
	// elements keep the legacy mapping, as Flink derives them.
	got, err = connectors.AvroSchema([]connectors.Column{{Name: "a", Type: mustType(t, "TIMESTAMP(6) NOT NULL")},
		{Name: "b", Type: mustType(t, "TIMESTAMP_LTZ(9) NOT NULL")}, {Name: "c", Type: mustType(t, "ARRAY<TIMESTAMP(3) NOT NULL> NOT NULL")},
		{Name: "d", Type: mustType(t, "MULTISET<STRING NOT NULL> NOT NULL")}}, false)
	want = `{"fields":[{"name":"a","type":{"logicalType":"local-timestamp-micros","type":"long"}},` +
		`{"name":"b","type":{"logicalType":"timestamp-nanos","type":"long"}},` +
		`{"name":"c","type":{"items":{"logicalType":"timestamp-millis","type":"long"},"type":"array"}},` +
		`{"name":"d","type":{"type":"map","values":["null","int"]}}],"name":"org.apache.flink.avro.generated.record","type":"record"}`
	if err != nil || got != want {
		t.Errorf("non-legacy schema\n%s %v\nwant\n%s", got, err, want)
	}
}

func TestAvroRoundTrips(t *testing.T) {
	for _, c := range []struct {
		codec, legacy string
	}{{"null", "true"}, {"deflate", "false"}, {"snappy", "true"}, {"zstandard", "false"}} {
		cols, row := avroColumns(t, c.legacy == "true", c.legacy == "false")
		avroRoundTrip(t, codec(t, map[string]string{"format": "avro", "avro.codec": c.codec, "avro.timestamp_mapping.legacy": c.legacy}), c.codec, cols, row)
	}
}

func avroRoundTrip(t *testing.T, cd connectors.Codec, codecName string, cols []connectors.Column, row []any) {
	want := rowText(row, cols)
	{
		// A message: one binary record.
		msg, err := connectors.EncodeBytes(cd, types.Insert, row, cols)
		if err != nil {
			t.Fatal(err)
		}
		rows, kinds, err := connectors.DecodeBytes(cd, msg, cols)
		if err != nil || len(rows) != 1 || kinds[0] != types.Insert {
			t.Fatalf("message: %v %v %v", rows, kinds, err)
		}
		if got := rowText(rows[0], cols); got != want {
			t.Errorf("message round trip\n got %s\nwant %s", got, want)
		}
		// A file: an object container.
		var file bytes.Buffer
		enc := cd.Encoder(&file, cols)
		for range 3 {
			if err := enc.Write(types.Insert, row); err != nil {
				t.Fatal(err)
			}
		}
		if err := enc.Flush(); err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(file.Bytes(), []byte("Obj\x01")) || !bytes.Contains(file.Bytes(), []byte("avro.codec")) {
			t.Fatalf("%s: not a container file: %q", codecName, file.Bytes()[:8])
		}
		rows, _, err = decodeFile(cd, file.Bytes(), cols)
		if err != nil || len(rows) != 3 {
			t.Fatalf("%s: file: %d rows, %v", codecName, len(rows), err)
		}
		for _, r := range rows {
			if got := rowText(r, cols); got != want {
				t.Errorf("%s: file round trip\n got %s\nwant %s", codecName, got, want)
			}
		}
	}
}

func decodeFile(cd connectors.Codec, b []byte, cols []connectors.Column) ([][]any, []types.RowKind, error) {
	dec := cd.Decoder(bytes.NewReader(b), "file", cols)
	var rows [][]any
	var kinds []types.RowKind
	for {
		row := make([]any, len(cols))
		k, ok, err := dec.Next(row)
		if err != nil || !ok {
			return rows, kinds, err
		}
		rows, kinds = append(rows, row), append(kinds, k)
	}
}

func TestAvroOptionErrors(t *testing.T) {
	reg := connectors.NewRegistry()
	for _, c := range []struct {
		options map[string]string
		want    string
	}{
		{map[string]string{"format": "avro", "avro.codec": "lz4"}, "Unrecognized codec: lz4"},
		{map[string]string{"format": "avro", "avro.encoding": "json"}, "The avro format reads and writes 'avro.encoding' = 'binary' only."},
		{map[string]string{"format": "avro-confluent", "avro-confluent.url": "http://localhost:8081"},
			"The 'avro-confluent' format is not supported: it reads and writes schemas in a Confluent Schema Registry"},
		{map[string]string{"format": "debezium-avro-confluent"},
			"The 'debezium-avro-confluent' format is not supported: it reads and writes schemas in a Confluent Schema Registry"},
	} {
		f, _ := reg.Format(c.options["format"])
		if _, err := f.Configure(c.options); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.options, err, c.want)
		}
	}
}

// fastavro runs a Python program with fastavro, an Avro implementation
// independent of eddy's, or skips the test.
func fastavro(t *testing.T, program string, args ...string) string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed")
	}
	if exec.Command(py, "-c", "import fastavro").Run() != nil {
		t.Skip("fastavro is not installed (pip install fastavro)")
	}
	out, err := exec.Command(py, append([]string{"-c", program}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("python: %v\n%s", err, out)
	}
	return string(out)
}

// TestAvroAgainstFastavro checks eddy's Avro bytes against an independent
// implementation: fastavro reads eddy's container file and writes the
// same record as a message with eddy's schema (golden bytes), and eddy
// reads a container file fastavro wrote with another field order, an
// extra field and the deflate codec.
func TestAvroAgainstFastavro(t *testing.T) {
	cols, row := avroColumns(t, false, false)
	cd := codec(t, map[string]string{"format": "avro", "avro.codec": "deflate", "avro.timestamp_mapping.legacy": "false"})
	dir := t.TempDir()
	var file bytes.Buffer
	enc := cd.Encoder(&file, cols)
	if err := enc.Write(types.Insert, row); err != nil {
		t.Fatal(err)
	}
	if err := enc.Flush(); err != nil {
		t.Fatal(err)
	}
	eddyFile := filepath.Join(dir, "eddy.avro")
	if err := os.WriteFile(eddyFile, file.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	msg, err := connectors.EncodeBytes(cd, types.Insert, row, cols)
	if err != nil {
		t.Fatal(err)
	}
	schema, err := connectors.AvroSchema(cols, false)
	if err != nil {
		t.Fatal(err)
	}
	out := fastavro(t, `
import sys, io, json, datetime, decimal, fastavro
with open(sys.argv[1], "rb") as f:
    r = fastavro.reader(f)
    print(r.codec)
    recs = list(r)
rec = recs[0]
print(json.dumps(rec, default=str, sort_keys=True))
buf = io.BytesIO()
fastavro.schemaless_writer(buf, fastavro.parse_schema(json.loads(sys.argv[2])), rec)
print(buf.getvalue().hex())
`, eddyFile, schema)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 {
		t.Fatalf("fastavro printed %q", out)
	}
	if lines[0] != "deflate" {
		t.Errorf("codec %s, want deflate", lines[0])
	}
	wantRecord := `{"arr": [1, null, 3], "b": true, "bi": 1099511627776, "big": "123456789012345678.90", "bin": "b'\\x00\\x01\\xfe'", ` +
		`"d": -2.25, "dec": "-12.34", "dt": "2024-02-29", "f": 1.5, "i": -100000, "ltz": "2024-01-01 00:00:00.001000+00:00", ` +
		`"m": {"k": 9}, "ms": {"a": 2}, "n": null, "r": {"x": 5, "y": null}, "s": "h\u00e9llo", "si": 300, "ti": -7, ` +
		`"tm": "13:05:07.123000", "ts": "2024-02-29 10:11:12.345000", "ts6": "1969-12-31 23:59:59.999999"}`
	if lines[1] != wantRecord {
		t.Errorf("fastavro read\n%s\nwant\n%s", lines[1], wantRecord)
	}
	if lines[2] != hex.EncodeToString(msg) {
		t.Errorf("message bytes\n eddy     %x\n fastavro %s", msg, lines[2])
	}

	// A file fastavro writes: fields in another order, one eddy's table
	// lacks, deflate blocks.
	pyFile := filepath.Join(dir, "py.avro")
	fastavro(t, `
import sys, datetime, decimal, fastavro
schema = {"type": "record", "name": "Other", "namespace": "x", "fields": [
    {"name": "extra", "type": {"type": "array", "items": "string"}},
    {"name": "dec", "type": ["null", {"type": "bytes", "logicalType": "decimal", "precision": 10, "scale": 2}]},
    {"name": "s", "type": "string"},
    {"name": "ts", "type": {"type": "long", "logicalType": "timestamp-millis"}},
    {"name": "dt", "type": {"type": "int", "logicalType": "date"}},
    {"name": "i", "type": ["null", "int"]},
]}
recs = [{"extra": ["a"], "dec": decimal.Decimal("-0.05"), "s": "x", "ts": datetime.datetime(2020, 5, 6, 7, 8, 9, 10000, tzinfo=datetime.timezone.utc), "dt": datetime.date(2020, 5, 6), "i": None},
        {"extra": [], "dec": None, "s": "y", "ts": datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc), "dt": datetime.date(1969, 12, 31), "i": 42}]
with open(sys.argv[1], "wb") as f:
    fastavro.writer(f, fastavro.parse_schema(schema), recs * 500, codec="deflate", sync_interval=1000)
with open(sys.argv[1] + ".bz2", "wb") as f:
    fastavro.writer(f, fastavro.parse_schema(schema), recs * 500, codec="bzip2", sync_interval=1000)
`, pyFile)
	for _, name := range []string{pyFile, pyFile + ".bz2"} {
		readPythonFile(t, cd, name)
	}

	// The same file through a filesystem table, as a query reads it.
	tbl := &connectors.Table{Name: catalogs.NewIdentifier("c", "d", "t"), Columns: []connectors.Column{
		{Name: "s", Type: mustType(t, "STRING")}, {Name: "dec", Type: mustType(t, "DECIMAL(10, 2)")}},
		Options: map[string]string{"connector": "filesystem", "path": pyFile, "format": "avro"}}
	r, err := connectors.NewWith(connectors.NewRegistry()).OpenReader(context.Background(), tbl)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	n := 0
	for {
		b, err := r.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if b == nil {
			break
		}
		for i := range b.N {
			if n < 2 {
				want := [...]string{"x | -0.05", "y | NULL"}[n]
				if got := rowText(b.Row(i), tbl.Columns); got != want {
					t.Errorf("table row %d: %s, want %s", n, got, want)
				}
			}
			n++
		}
	}
	if n != 1000 {
		t.Errorf("table rows %d, want 1000", n)
	}
}

func readPythonFile(t *testing.T, cd connectors.Codec, name string) {
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	readCols := []connectors.Column{
		{Name: "i", Type: mustType(t, "BIGINT")}, {Name: "s", Type: mustType(t, "STRING")},
		{Name: "dt", Type: mustType(t, "DATE")}, {Name: "ts", Type: mustType(t, "TIMESTAMP(3)")},
		{Name: "dec", Type: mustType(t, "DECIMAL(10, 2)")}, {Name: "missing", Type: mustType(t, "INT")},
	}
	rows, _, err := decodeFile(cd, b, readCols)
	if err != nil || len(rows) != 1000 {
		t.Fatalf("%d rows, %v", len(rows), err)
	}
	for i, want := range []string{
		"NULL | x | 2020-05-06 | 2020-05-06 07:08:09.010 | -0.05 | NULL",
		"42 | y | 1969-12-31 | 1970-01-01 00:00:00.000 | NULL | NULL",
	} {
		if got := rowText(rows[i], readCols); got != want {
			t.Errorf("%s row %d: %s, want %s", filepath.Base(name), i, got, want)
		}
	}
}

func TestAvroDefaultCodecIsSnappy(t *testing.T) {
	cols, row := avroColumns(t, true, false)
	var file bytes.Buffer
	enc := codec(t, map[string]string{"format": "avro"}).Encoder(&file, cols)
	if err := enc.Write(types.Insert, row); err != nil {
		t.Fatal(err)
	}
	if err := enc.Flush(); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(file.Bytes(), []byte("avro.codec\x0csnappy")) {
		t.Errorf("header %q does not name the snappy codec", file.Bytes()[:200])
	}
}

func TestAvroBzip2IsReadNotWritten(t *testing.T) {
	cols := []connectors.Column{{Name: "a", Type: mustType(t, "INT")}}
	cd := codec(t, map[string]string{"format": "avro", "avro.codec": "bzip2"})
	var file bytes.Buffer
	enc := cd.Encoder(&file, cols)
	if err := enc.Write(types.Insert, []any{int32(1)}); err == nil || err.Error() !=
		"Avro codec 'bzip2' is not supported for writing; supported codecs are [null, deflate, snappy, zstandard]." {
		t.Errorf("bzip2 writer: %v", err)
	}
	// A message ignores the file codec, and the schema of one set of
	// columns is derived once.
	for i := range 3 {
		msg, err := connectors.EncodeBytes(cd, types.Insert, []any{int32(i)}, cols)
		if err != nil || !bytes.Equal(msg, []byte{2, byte(2 * i)}) {
			t.Errorf("message %d: %x %v", i, msg, err)
		}
	}
}

// FuzzAvroMessage feeds arbitrary bytes to the Avro message and file
// decoders: they fail or decode, never panic or hang.
func FuzzAvroMessage(f *testing.F) {
	cols := []connectors.Column{{Name: "a", Type: types.NewArray(types.NewString())}, {Name: "m", Type: types.NewMap(types.NewString(), types.New(types.Int))},
		{Name: "d", Type: types.NewDecimal(10, 2)}, {Name: "r", Type: types.NewRow(types.Field{Name: "x", Type: types.New(types.BigInt)})}}
	f.Add([]byte{2, 2, 2, 'x', 0, 0, 0, 0})
	f.Add([]byte{2, 1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f})
	f.Add([]byte("Obj\x01\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		c := codec(t, map[string]string{"format": "avro"})
		connectors.DecodeBytes(c, b, cols)
		decodeFile(c, b, cols)
	})
}

// TestAvroCodecsAgainstFastavro writes a container file of several
// blocks in each codec eddy writes, which fastavro reads back row for row,
// and reads the file fastavro writes in each codec it reads.
func TestAvroCodecsAgainstFastavro(t *testing.T) {
	cols := []connectors.Column{{Name: "id", Type: mustType(t, "BIGINT NOT NULL")}, {Name: "s", Type: mustType(t, "STRING")}}
	const n = 20000 // about 300 KB of objects: several blocks
	dir := t.TempDir()
	// fastavro reads snappy and zstandard blocks through these.
	fastavro(t, "import fastavro")
	if exec.Command("python3", "-c", "import cramjam, backports.zstd").Run() != nil {
		t.Skip("fastavro's snappy and zstandard codecs need cramjam and backports.zstd (pip install cramjam backports.zstd)")
	}
	for _, c := range []string{"null", "deflate", "snappy", "zstandard"} {
		cd := codec(t, map[string]string{"format": "avro", "avro.codec": c})
		var file bytes.Buffer
		enc := cd.Encoder(&file, cols)
		for i := range n {
			var s any = fmt.Sprintf("row %d of a file in %s", i, c)
			if i%7 == 0 {
				s = nil
			}
			if err := enc.Write(types.Insert, []any{int64(i), s}); err != nil {
				t.Fatal(c, err)
			}
		}
		if err := enc.Flush(); err != nil {
			t.Fatal(c, err)
		}
		name := filepath.Join(dir, "eddy-"+c+".avro")
		if err := os.WriteFile(name, file.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		out := fastavro(t, `
import sys, fastavro
with open(sys.argv[1], "rb") as f:
    r = fastavro.reader(f)
    blocks = 0
    rows = []
    for b in fastavro.block_reader(open(sys.argv[1], "rb")):
        blocks += 1
        rows.extend(b)
print(r.codec, blocks, len(rows), sum(x["id"] for x in rows), sum(1 for x in rows if x["s"] is None), rows[12345]["s"])
`, name)
		want := fmt.Sprintf("%s BLOCKS %d %d %d row 12345 of a file in %s", c, n, n*(n-1)/2, (n+6)/7, c)
		got := strings.Fields(strings.TrimSpace(out))
		if len(got) < 2 {
			t.Fatalf("%s: fastavro printed %q", c, out)
		}
		if blocks := got[1]; blocks == "0" || blocks == "1" {
			t.Errorf("%s: %s blocks, want several", c, blocks)
		}
		got[1] = "BLOCKS"
		if strings.Join(got, " ") != want {
			t.Errorf("%s: fastavro read %q, want %q", c, strings.Join(got, " "), want)
		}
	}
	pyFile := filepath.Join(dir, "py")
	fastavro(t, `
import sys, fastavro
schema = {"type": "record", "name": "r", "fields": [{"name": "id", "type": "long"}, {"name": "s", "type": ["null", "string"]}]}
recs = [{"id": i, "s": None if i % 5 == 0 else "py %d" % i} for i in range(3000)]
for c in ["null", "deflate", "snappy", "zstandard", "bzip2"]:
    with open(sys.argv[1] + "." + c, "wb") as f:
        fastavro.writer(f, fastavro.parse_schema(schema), recs, codec=c, sync_interval=2000)
`, pyFile)
	for _, c := range []string{"null", "deflate", "snappy", "zstandard", "bzip2"} {
		b, err := os.ReadFile(pyFile + "." + c)
		if err != nil {
			t.Fatal(err)
		}
		rows, _, err := decodeFile(codec(t, map[string]string{"format": "avro"}), b, cols)
		if err != nil || len(rows) != 3000 {
			t.Fatalf("%s: %d rows, %v", c, len(rows), err)
		}
		if got := rowText(rows[2999], cols) + " / " + rowText(rows[5], cols); got != "2999 | py 2999 / 5 | NULL" {
			t.Errorf("%s: %s", c, got)
		}
	}
	// A block whose checksum does not match its bytes is an error, not
	// rows.
	b, err := os.ReadFile(pyFile + ".snappy")
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-17] ^= 0xff // the last byte of the last block's checksum, before the sync marker
	if _, _, err := decodeFile(codec(t, map[string]string{"format": "avro"}), b, cols); err == nil {
		t.Error("a snappy block with a wrong checksum was read")
	}
}
