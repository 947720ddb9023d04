package connectors

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"eddy/catalogs"
	"eddy/catalogs/memory"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// parquetTypes are a column of every Flink type the parquet format maps.
var parquetTypes = []struct{ name, typ string }{
	{"c_char", "CHAR(3)"}, {"c_varchar", "VARCHAR(20)"}, {"c_bool", "BOOLEAN"},
	{"c_binary", "BINARY(2)"}, {"c_varbinary", "VARBINARY(10)"},
	{"c_dec_small", "DECIMAL(5, 2)"}, {"c_dec_mid", "DECIMAL(15, 3)"}, {"c_dec_big", "DECIMAL(30, 5)"},
	{"c_tinyint", "TINYINT"}, {"c_smallint", "SMALLINT"}, {"c_int", "INT"}, {"c_bigint", "BIGINT"},
	{"c_float", "FLOAT"}, {"c_double", "DOUBLE"}, {"c_date", "DATE"}, {"c_time", "TIME(0)"},
	{"c_ts", "TIMESTAMP(6)"}, {"c_ltz", "TIMESTAMP_LTZ(3)"},
	{"c_array", "ARRAY<INT>"}, {"c_map", "MAP<STRING, BIGINT>"},
	{"c_row", "ROW<a INT, b ARRAY<STRING>, c ROW<x DOUBLE>>"},
	{"c_nested", "ARRAY<ROW<k STRING, v MAP<STRING, INT>>>"},
}

func parquetColumns(t *testing.T) []Column {
	t.Helper()
	var out []Column
	for _, c := range parquetTypes {
		typ, err := types.Parse(c.typ)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, Column{Name: c.name, Type: typ})
	}
	return out
}

// parquetRows are two rows of every type and a row of NULLs.
func parquetRows() [][]any {
	ts := time.Date(2024, 2, 29, 13, 14, 15, 123456000, time.UTC)
	ltz := time.Date(2001, 9, 9, 1, 46, 40, 500000000, time.UTC)
	return [][]any{
		{"abc", "héllo", true, []byte{1, 2}, []byte("xyz"), dec("123.45"), dec("-123456789012.345"),
			dec("1234567890123456789012345.12345"), int8(-7), int16(300), int32(-100000), int64(1) << 40,
			float32(1.5), 2.25, int32(19782), 13*time.Hour + 14*time.Minute + 15*time.Second, ts, ltz,
			[]any{int32(1), nil, int32(3)}, map[any]any{"a": int64(1), "b": nil},
			[]any{int32(7), []any{"p", nil, "q"}, []any{0.5}},
			[]any{[]any{"k1", map[any]any{"m": int32(1)}}, nil, []any{nil, map[any]any{}}}},
		{"de ", "", false, []byte{0, 0}, []byte{}, dec("-0.01"), dec("0.000"), dec("-99999.00001"),
			int8(127), int16(-32768), int32(2147483647), int64(-9223372036854775808),
			float32(-0.25), -1e300, int32(-1), time.Duration(0), time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC),
			time.Date(2038, 1, 19, 3, 14, 8, 0, time.UTC),
			[]any{}, map[any]any{}, []any{nil, []any{}, nil}, []any{}},
		make([]any, len(parquetTypes)),
	}
}

func parquetTable(t *testing.T, dir string, cols []Column, extra ...string) *Table {
	t.Helper()
	opts := map[string]string{"connector": "filesystem", "path": dir, "format": "parquet"}
	for i := 0; i+1 < len(extra); i += 2 {
		opts[extra[i]] = extra[i+1]
	}
	return &Table{Catalog: memory.New("c", "default"), Name: catalogs.NewIdentifier("c", "default", "t"),
		Options: opts, Columns: cols}
}

func rowStrings(cols []Column, rows [][]any) []string {
	var out []string
	for _, r := range rows {
		parts := make([]string, len(r))
		for i, v := range r {
			parts[i] = types.ValueString(v, cols[i].Type)
		}
		out = append(out, strings.Join(parts, "|"))
	}
	return out
}

func writeRows(t *testing.T, c *Connectors, tbl *Table, rows [][]any) {
	t.Helper()
	b := vector.NewBatch(tbl.Types(), len(rows))
	for _, r := range rows {
		b.AppendRow(types.Insert, r)
	}
	if err := write(t, c, tbl, WriteSpec{}, b, false); err != nil {
		t.Fatal(err)
	}
}

func readRows(t *testing.T, c *Connectors, tbl *Table) []string {
	t.Helper()
	r, err := c.OpenReader(context.Background(), tbl)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var rows [][]any
	for {
		b, err := r.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if b == nil {
			break
		}
		for i := range b.N {
			rows = append(rows, b.Row(i))
		}
	}
	return rowStrings(tbl.Columns, rows)
}

func TestParquetRoundTripEveryType(t *testing.T) {
	dir := t.TempDir()
	cols := parquetColumns(t)
	tbl := parquetTable(t, dir, cols)
	c := New()
	writeRows(t, c, tbl, parquetRows())
	check(t, readRows(t, c, tbl), rowStrings(cols, parquetRows())...)
	// A projection reads only the columns asked for.
	got := readProjected(t, c, tbl, []int{20, 2})
	check(t, got, "(7, [p, NULL, q], (0.5))|TRUE", "(NULL, [], NULL)|FALSE", "NULL|NULL")
}

func readProjected(t *testing.T, c *Connectors, tbl *Table, proj []int) []string {
	t.Helper()
	r, err := c.OpenReader(context.Background(), tbl)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	r.(Pushdown).PushColumns(proj)
	var out []string
	for {
		b, err := r.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if b == nil {
			return out
		}
		for i := range b.N {
			var parts []string
			for j, v := range b.Cols {
				parts = append(parts, types.ValueString(v.Get(i), tbl.Columns[proj[j]].Type))
			}
			out = append(out, strings.Join(parts, "|"))
		}
	}
}

// python runs a script with python3 and pyarrow, skipping the test when
// they are missing (CI installs pyarrow and fastavro).
func python(t *testing.T, module, script string, args ...string) string {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed: the independent Parquet/Avro writer and reader are Python's pyarrow and fastavro")
	}
	if err := exec.Command("python3", "-c", "import "+module).Run(); err != nil {
		t.Skipf("python3 lacks %s (pip install pyarrow fastavro): it is the independent writer and reader of these tests", module)
	}
	cmd := exec.Command("python3", append([]string{"-c", script}, args...)...)
	cmd.Env = append(os.Environ(), "TZ=UTC")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("python3: %v\n%s", err, out)
	}
	return string(out)
}

// pyarrowPrint prints every row of a Parquet file as eddy prints values.
const pyarrowPrint = `
import sys, datetime, decimal, pyarrow.parquet as pq
def fmt(v, top=True):
    if v is None: return "NULL"
    if isinstance(v, bool): return "TRUE" if v else "FALSE"
    if isinstance(v, bytes): return "x'" + v.hex() + "'"
    if isinstance(v, float): return repr(v)
    if isinstance(v, decimal.Decimal): return str(v)
    if isinstance(v, datetime.datetime): return v.strftime("%Y-%m-%d %H:%M:%S.%f")
    if isinstance(v, datetime.time): return v.strftime("%H:%M:%S")
    if isinstance(v, datetime.date): return v.isoformat()
    if isinstance(v, dict): return "(" + ", ".join(fmt(x) for x in v.values()) + ")"
    if isinstance(v, list) and v and isinstance(v[0], tuple): return "{" + ", ".join(str(k) + "=" + fmt(x) for k, x in v) + "}"
    if isinstance(v, list): return "[" + ", ".join(fmt(x) for x in v) + "]"
    return str(v)
t = pq.read_table(sys.argv[1])
print(",".join(t.schema.names))
for row in t.to_pylist():
    print("|".join(fmt(v) for v in row.values()))
`

func TestParquetEddyWritesPyarrowReads(t *testing.T) {
	python(t, "pyarrow", "")
	dir := t.TempDir()
	cols := []Column{}
	for _, c := range parquetColumns(t) {
		if c.Type.Kind != types.TimestampLTZ { // pyarrow has no local-zone type
			cols = append(cols, c)
		}
	}
	tbl := parquetTable(t, dir, cols, "parquet.utc-timezone", "true")
	c := New()
	var rows [][]any
	for _, r := range parquetRows() {
		rows = append(rows, append(append([]any{}, r[:17]...), r[18:]...))
	}
	// Maps of one entry keep the comparison independent of map order.
	rows[0][18] = map[any]any{"a": int64(1)}
	writeRows(t, c, tbl, rows)
	files, err := dataFiles(dir)
	if err != nil || len(files) != 1 {
		t.Fatalf("files %v, %v", files, err)
	}
	got := strings.Split(strings.TrimSpace(python(t, "pyarrow", pyarrowPrint, files[0])), "\n")
	var names []string
	for _, c := range cols {
		names = append(names, c.Name)
	}
	check(t, got[:1], strings.Join(names, ","))
	check(t, got[1:],
		"abc|héllo|TRUE|x'0102'|x'78797a'|123.45|-123456789012.345|1234567890123456789012345.12345|-7|300|-100000|1099511627776|1.5|2.25|2024-02-29|13:14:15|2024-02-29 13:14:15.123456|[1, NULL, 3]|{a=1}|(7, [p, NULL, q], (0.5))|[(k1, {m=1}), NULL, (NULL, [])]",
		"de ||FALSE|x'0000'|x''|-0.01|0.000|-99999.00001|127|-32768|2147483647|-9223372036854775808|-0.25|-1e+300|1969-12-31|00:00:00|1900-01-01 00:00:00.000000|[]|[]|(NULL, [], NULL)|[]",
		"NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL")
}

// pyarrowWrite writes a Parquet file of every type with pyarrow's defaults
// (INT64 timestamps, dictionary pages, several row groups).
const pyarrowWrite = `
import sys, datetime, decimal, pyarrow as pa, pyarrow.parquet as pq
schema = pa.schema([
    ("c_char", pa.string()), ("c_varchar", pa.string()), ("c_bool", pa.bool_()),
    ("c_binary", pa.binary()), ("c_varbinary", pa.binary()),
    ("c_dec_small", pa.decimal128(5, 2)), ("c_dec_mid", pa.decimal128(15, 3)), ("c_dec_big", pa.decimal128(30, 5)),
    ("c_tinyint", pa.int8()), ("c_smallint", pa.int16()), ("c_int", pa.int32()), ("c_bigint", pa.int64()),
    ("c_float", pa.float32()), ("c_double", pa.float64()), ("c_date", pa.date32()), ("c_time", pa.time32("ms")),
    ("c_ts", pa.timestamp("us")), ("c_ltz", pa.timestamp("ms", tz="UTC")),
    ("c_array", pa.list_(pa.int32())), ("c_map", pa.map_(pa.string(), pa.int64())),
    ("c_row", pa.struct([("a", pa.int32()), ("b", pa.list_(pa.string())), ("c", pa.struct([("x", pa.float64())]))])),
    ("c_nested", pa.list_(pa.struct([("k", pa.string()), ("v", pa.map_(pa.string(), pa.int32()))]))),
])
D = decimal.Decimal
rows = [
    ["abc", "héllo", True, b"\x01\x02", b"xyz", D("123.45"), D("-123456789012.345"), D("1234567890123456789012345.12345"),
     -7, 300, -100000, 1 << 40, 1.5, 2.25, datetime.date(2024, 2, 29), datetime.time(13, 14, 15),
     datetime.datetime(2024, 2, 29, 13, 14, 15, 123456), datetime.datetime(2001, 9, 9, 1, 46, 40, 500000, tzinfo=datetime.timezone.utc),
     [1, None, 3], [("a", 1)], {"a": 7, "b": ["p", None, "q"], "c": {"x": 0.5}},
     [{"k": "k1", "v": [("m", 1)]}, None, {"k": None, "v": []}]],
    ["de ", "", False, b"\x00\x00", b"", D("-0.01"), D("0.000"), D("-99999.00001"),
     127, -32768, 2147483647, -9223372036854775808, -0.25, -1e300, datetime.date(1969, 12, 31), datetime.time(0, 0, 0),
     datetime.datetime(1900, 1, 1), datetime.datetime(2038, 1, 19, 3, 14, 8, tzinfo=datetime.timezone.utc),
     [], [], {"a": None, "b": [], "c": None}, []],
    [None] * 22,
]
cols = list(zip(*rows))
t = pa.table([pa.array(list(c), type=f.type) for c, f in zip(cols, schema)], schema=schema)
pq.write_table(t, sys.argv[1], row_group_size=1)
`

func TestParquetPyarrowWritesEddyReads(t *testing.T) {
	python(t, "pyarrow", "")
	dir := t.TempDir()
	python(t, "pyarrow", pyarrowWrite, filepath.Join(dir, "data.parquet"))
	cols := parquetColumns(t)
	tbl := parquetTable(t, dir, cols)
	c := New()
	rows := parquetRows()
	rows[0][19] = map[any]any{"a": int64(1)}
	check(t, readRows(t, c, tbl), rowStrings(cols, rows)...)
}

func TestParquetRowGroupsSkippedByStatistics(t *testing.T) {
	dir := t.TempDir()
	cols := []Column{{Name: "id", Type: types.New(types.BigInt)}, {Name: "s", Type: types.NewString()}}
	tbl := parquetTable(t, dir, cols, "parquet.block.size", "1")
	c := New()
	var rows [][]any
	for i := range 5000 {
		rows = append(rows, []any{int64(i), "v"})
	}
	writeRows(t, c, tbl, rows)
	files, _ := dataFiles(dir)
	codec := &parquetCodec{}
	read := func(fs ...RowFilter) (n, groups int) {
		f, err := os.Open(files[0])
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		br := codec.ReadBulkFiltered(f, files[0], cols, nil, fs).(*parquetReader)
		vecs := []*vector.Vec{vector.New(cols[0].Type, 1024), vector.New(cols[1].Type, 1024)}
		for {
			k, eof, err := br.Read(vecs, 1024)
			if err != nil {
				t.Fatal(err)
			}
			n += k
			if eof || k == 0 {
				return n, br.groupsRead
			}
		}
	}
	all, groups := read()
	if all != 5000 || groups < 4 {
		t.Fatalf("read %d rows in %d row groups, want 5000 rows in several groups", all, groups)
	}
	n, g := read(RowFilter{Column: 0, Op: FilterGe, Value: int64(4990)})
	if g != 1 || n >= all {
		t.Fatalf("id >= 4990 read %d rows of %d row groups, want one row group", n, g)
	}
	if n, _ := read(RowFilter{Column: 0, Op: FilterGt, Value: int64(10000)}); n != 0 {
		t.Fatalf("id > 10000 read %d rows", n)
	}
	if n, _ := read(RowFilter{Column: 1, Op: FilterEq, Value: "v"}); n != 5000 {
		t.Fatalf("s = 'v' read %d rows", n)
	}
}

// TestPartitionPruningOpensOnlyMatchingFiles counts the files a scan
// opens when a filter on the partition key is pushed to it.
func TestPartitionPruningOpensOnlyMatchingFiles(t *testing.T) {
	dir := t.TempDir()
	cols := []Column{{Name: "id", Type: types.New(types.BigInt)}, {Name: "p", Type: types.New(types.Int)}}
	tbl := parquetTable(t, dir, cols)
	tbl.PartitionKeys = []string{"p"}
	c := New()
	var rows [][]any
	for i := range 40 {
		rows = append(rows, []any{int64(i), int32(i % 4)})
	}
	writeRows(t, c, tbl, rows)
	writeRows(t, c, tbl, rows[:8]) // a second file in each partition
	scan := func(fs ...RowFilter) (n int, opened int, taken []bool) {
		ft, err := newFileTable(c.Registry, tbl)
		if err != nil {
			t.Fatal(err)
		}
		r, err := openFileReader(ft)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		fr := r.(*fileReader)
		taken = r.(Pushdown).PushFilters(fs)
		for {
			b, err := r.Next(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if b == nil {
				return n, fr.opened, taken
			}
			n += b.N
		}
	}
	if n, opened, _ := scan(); n != 48 || opened != 8 {
		t.Fatalf("full scan: %d rows from %d files, want 48 from 8", n, opened)
	}
	n, opened, taken := scan(RowFilter{Column: 1, Op: FilterEq, Value: int64(2)}, RowFilter{Column: 0, Op: FilterGt, Value: int64(0)})
	if n != 12 || opened != 2 || !taken[0] || !taken[1] {
		t.Fatalf("p = 2: %d rows from %d files (taken %v), want 12 rows from 2 files, both filters taken", n, opened, taken)
	}
	if n, opened, _ := scan(RowFilter{Column: 1, Op: FilterGe, Value: int64(3)}, RowFilter{Column: 1, Op: FilterIsNotNull}); n != 12 || opened != 2 {
		t.Fatalf("p >= 3: %d rows from %d files", n, opened)
	}
}

// readFiltered reads a Parquet file with pushed filters and returns the
// rows (as text) and the reader.
func readFiltered(t *testing.T, file string, cols []Column, fs ...RowFilter) ([]string, *parquetReader) {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	br := (&parquetCodec{}).ReadBulkFiltered(f, file, cols, nil, fs).(*parquetReader)
	var out []string
	for {
		vecs := make([]*vector.Vec, len(cols))
		for i, c := range cols {
			vecs[i] = vector.New(c.Type, 1024)
		}
		k, eof, err := br.Read(vecs, 1024)
		if err != nil {
			t.Fatal(err)
		}
		for i := range k {
			var parts []string
			for j, v := range vecs {
				parts = append(parts, types.ValueString(v.Get(i), cols[j].Type))
			}
			out = append(out, strings.Join(parts, "|"))
		}
		if eof {
			return out, br
		}
		if k == 0 {
			t.Fatal("a read returned no rows before the end")
		}
	}
}

// TestParquetPagesSkippedByStatistics: within a row group, the pages whose
// column index excludes a pushed filter are skipped, and every column
// (dictionary pages, NULLs) seeks to the rows kept.
func TestParquetPagesSkippedByStatistics(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "pages.parquet")
	python(t, "pyarrow", `
import sys, pyarrow as pa, pyarrow.parquet as pq
n = 20000
t = pa.table({"id": pa.array(range(n), pa.int64()),
              "s": pa.array(["v%d" % (i % 7) for i in range(n)]),
              "m": pa.array([None if i % 5 == 0 else i * 2 for i in range(n)], pa.int32())})
pq.write_table(t, sys.argv[1], row_group_size=n, data_page_size=2048, write_page_index=True)
`, file)
	cols := []Column{{Name: "id", Type: types.New(types.BigInt)}, {Name: "s", Type: types.NewString()}, {Name: "m", Type: types.New(types.Int)}}
	all, br := readFiltered(t, file, cols)
	if len(all) != 20000 || br.rowsSkipped != 0 {
		t.Fatalf("unfiltered: %d rows, %d skipped", len(all), br.rowsSkipped)
	}
	got, br := readFiltered(t, file, cols, RowFilter{Column: 0, Op: FilterGe, Value: int64(12345)}, RowFilter{Column: 0, Op: FilterLt, Value: int64(12400)})
	if br.rowsSkipped < 15000 {
		t.Fatalf("12345 <= id < 12400: skipped %d rows; want most pages skipped", br.rowsSkipped)
	}
	// The filters are applied exactly, and every column of the rows read
	// after a seek is aligned with its id.
	if len(got) != 55 {
		t.Fatalf("12345 <= id < 12400: %d rows", len(got))
	}
	for i, r := range got {
		if all[12345+i] != r {
			t.Fatalf("row %d read after a seek: %s, want %s", i, r, all[12345+i])
		}
	}
	// An eddy-written file with small pages is skipped the same way.
	tbl := parquetTable(t, filepath.Join(dir, "eddy"), cols[:2], "parquet.page.size", "1024")
	c := New()
	var rows [][]any
	for i := range 5000 {
		rows = append(rows, []any{int64(i), fmt.Sprint("v", i%3)})
	}
	writeRows(t, c, tbl, rows)
	files, _ := dataFiles(filepath.Join(dir, "eddy"))
	got, br = readFiltered(t, files[0], cols[:2], RowFilter{Column: 0, Op: FilterEq, Value: int64(4242)})
	if br.rowsSkipped == 0 || !slices.Equal(got, []string{"4242|v0"}) {
		t.Fatalf("id = 4242 in eddy's file: %d rows read, %d skipped", len(got), br.rowsSkipped)
	}
}

// TestRollingPolicyFileSize: once a part file has passed
// 'sink.rolling-policy.file-size' a partition's next rows go to a new
// one (a file may exceed the size by what its encoder buffers), and every
// row is still read.
func TestRollingPolicyFileSize(t *testing.T) {
	dir := t.TempDir()
	cols := []Column{{Name: "id", Type: types.New(types.BigInt)}, {Name: "s", Type: types.NewString()}}
	tbl := parquetTable(t, dir, cols, "sink.rolling-policy.file-size", "100kb")
	tbl.Options["format"] = "csv"
	c := New()
	var rows [][]any
	for i := range 30000 {
		rows = append(rows, []any{int64(i), "some text to fill the file"})
	}
	writeRows(t, c, tbl, rows)
	files, err := dataFiles(dir)
	if err != nil || len(files) < 4 {
		t.Fatalf("%d part files of ~1mb rolled at 100kb, %v", len(files), err)
	}
	for _, f := range files {
		if st, _ := os.Stat(f); st.Size() > 100<<10+streamBufferSize {
			t.Errorf("%s has %d bytes, past the rolling size and a buffer", f, st.Size())
		}
	}
	if got := readRows(t, c, tbl); len(got) != 30000 {
		t.Fatalf("%d rows read back", len(got))
	}
	tbl.Options["sink.rolling-policy.file-size"] = "0"
	if err := write(t, c, tbl, WriteSpec{}, vector.NewBatch(tbl.Types(), 0), false); err == nil {
		t.Fatal("a file size of 0 was accepted")
	}
}

func TestParquetIsNoMessageFormat(t *testing.T) {
	f, _ := New().Registry.Format("parquet")
	c, err := f.Configure(map[string]string{"format": "parquet"})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := DecodeBytes(c, []byte("PAR1"), nil); err == nil || !strings.Contains(err.Error(), "bulk format of files") {
		t.Errorf("decoding a message: %v", err)
	}
	if _, err := EncodeBytes(c, types.Insert, []any{int64(1)}, []Column{{Name: "a", Type: types.New(types.BigInt)}}); err == nil {
		t.Error("encoding a message succeeded")
	}
	o, _ := New().Registry.Format("orc")
	if _, err := o.Configure(map[string]string{"format": "orc"}); err == nil || !strings.Contains(err.Error(), "'orc' format is not supported") {
		t.Errorf("orc: %v", err)
	}
	for _, opts := range []map[string]string{
		{"parquet.compression": "LZO"}, {"parquet.timestamp.time.unit": "hours"}, {"parquet.utc-timezone": "yes"}, {"parquet.block.size": "-1"},
	} {
		opts["format"] = "parquet"
		if _, err := f.Configure(opts); err == nil {
			t.Errorf("%v was accepted", opts)
		}
	}
}

// BenchmarkParquetScan reads 200,000 rows of (BIGINT, BIGINT, DOUBLE,
// STRING) from a Parquet file eddy wrote, every column.
func BenchmarkParquetScan(b *testing.B) {
	dir := b.TempDir()
	cols := []Column{{Name: "id", Type: types.New(types.BigInt)}, {Name: "k", Type: types.New(types.BigInt)},
		{Name: "v", Type: types.New(types.Double)}, {Name: "s", Type: types.NewString()}}
	tbl := &Table{Name: catalogs.NewIdentifier("c", "d", "t"), Columns: cols,
		Options: map[string]string{"connector": "filesystem", "path": dir, "format": "parquet"}}
	c := New()
	const n = 200_000
	bt := vector.NewBatch(tbl.Types(), n)
	for i := range n {
		bt.AppendRow(types.Insert, []any{int64(i), int64(i % 1000), float64(i) / 3, fmt.Sprint("name-", i%5000)})
	}
	w, err := c.OpenWriter(context.Background(), tbl, WriteSpec{})
	if err != nil {
		b.Fatal(err)
	}
	if err := w.Write(context.Background(), bt); err != nil {
		b.Fatal(err)
	}
	if err := w.Commit(context.Background()); err != nil {
		b.Fatal(err)
	}
	benchReads(b, c, tbl, n, nil)
}

// TestParquetFiltersAppliedExactly: the filters the reader takes give the
// engine's answers: NULL passes no comparison, NaN only <>, strings
// compare by bytes, a column the file lacks is NULL.
func TestParquetFiltersAppliedExactly(t *testing.T) {
	dir := t.TempDir()
	cols := []Column{{Name: "i", Type: types.New(types.Int)}, {Name: "d", Type: types.New(types.Double)}, {Name: "s", Type: types.NewString()}}
	tbl := parquetTable(t, dir, cols)
	c := New()
	nan := math.NaN()
	writeRows(t, c, tbl, [][]any{
		{int32(1), 1.5, "a"}, {nil, nan, "B"}, {int32(3), nil, nil}, {int32(-4), -2.0, "é"}, {int32(5), nan, "a"},
	})
	files, _ := dataFiles(dir)
	withMissing := append(append([]Column{}, cols...), Column{Name: "gone", Type: types.New(types.BigInt)})
	for _, tc := range []struct {
		f    RowFilter
		want string
	}{
		{RowFilter{Column: 0, Op: FilterGt, Value: int64(0)}, "1,3,5"},
		{RowFilter{Column: 0, Op: FilterNe, Value: int64(3)}, "1,-4,5"},
		{RowFilter{Column: 0, Op: FilterIsNull}, "NULL"},
		{RowFilter{Column: 1, Op: FilterLt, Value: 2.0}, "1,-4"},
		{RowFilter{Column: 1, Op: FilterNe, Value: 1.5}, "NULL,-4,5"},
		{RowFilter{Column: 1, Op: FilterIsNotNull}, "1,NULL,-4,5"},
		{RowFilter{Column: 2, Op: FilterGe, Value: "a"}, "1,-4,5"},
		{RowFilter{Column: 2, Op: FilterLt, Value: "a"}, "NULL"},
		{RowFilter{Column: 3, Op: FilterEq, Value: int64(1)}, ""},
		{RowFilter{Column: 3, Op: FilterIsNull}, "1,NULL,3,-4,5"},
	} {
		got, _ := readFiltered(t, files[0], withMissing, tc.f)
		var ids []string
		for _, r := range got {
			ids = append(ids, strings.SplitN(r, "|", 2)[0])
		}
		if strings.Join(ids, ",") != tc.want {
			t.Errorf("%+v: %v, want %s", tc.f, ids, tc.want)
		}
	}
}
