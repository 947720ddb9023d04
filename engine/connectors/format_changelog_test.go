package connectors_test

import (
	"bytes"
	"strings"
	"testing"

	"eddy/engine/connectors"
	"eddy/engine/types"
)

// productColumns are the products table of Flink's changelog format
// documentation.
func productColumns(t *testing.T) []connectors.Column {
	return []connectors.Column{
		{Name: "id", Type: mustType(t, "BIGINT")}, {Name: "name", Type: mustType(t, "STRING")},
		{Name: "description", Type: mustType(t, "STRING")}, {Name: "weight", Type: mustType(t, "DECIMAL(10, 2)")},
	}
}

// changes renders decoded rows as Flink prints a changelog.
func changes(rows [][]any, kinds []types.RowKind, cols []connectors.Column) string {
	var b strings.Builder
	for i, r := range rows {
		parts := make([]string, len(r))
		for j, v := range r {
			ty := types.NewString()
			if j < len(cols) {
				ty = cols[j].Type
			}
			parts[j] = types.ValueString(v, ty)
		}
		b.WriteString(kinds[i].String() + "[" + strings.Join(parts, ", ") + "]\n")
	}
	return b.String()
}

const debeziumUpdate = `{
  "before": {"id": 111, "name": "scooter", "description": "Big 2-wheel scooter", "weight": 5.18},
  "after": {"id": 111, "name": "scooter", "description": "Big 2-wheel scooter", "weight": 5.15},
  "source": {"version": "1.1.1.Final", "connector": "mysql", "name": "dbserver1", "ts_ms": 1589362330000,
    "snapshot": "true", "db": "inventory", "table": "products", "server_id": 0, "gtid": null,
    "file": "mysql-bin.000003", "pos": 154, "row": 0, "thread": null, "query": null},
  "op": "u",
  "ts_ms": 1589362330904,
  "transaction": null
}`

func TestDebeziumJSONDecodesFlinksExamples(t *testing.T) {
	cols := productColumns(t)
	cd := codec(t, map[string]string{"format": "debezium-json"})
	for _, c := range []struct{ msg, want string }{
		{debeziumUpdate, "-U[111, scooter, Big 2-wheel scooter, 5.18]\n+U[111, scooter, Big 2-wheel scooter, 5.15]\n"},
		{`{"before":null,"after":{"id":101,"name":"scooter","description":"Small 2-wheel scooter","weight":3.14},"op":"c"}`,
			"+I[101, scooter, Small 2-wheel scooter, 3.14]\n"},
		{`{"before":null,"after":{"id":102,"name":"car battery","description":"12V car battery","weight":8.1},"op":"r"}`,
			"+I[102, car battery, 12V car battery, 8.10]\n"},
		{`{"before":{"id":111,"name":"scooter","description":"Big 2-wheel scooter","weight":5.17},"after":null,"op":"d"}`,
			"-D[111, scooter, Big 2-wheel scooter, 5.17]\n"},
		{``, ""}, // a tombstone
	} {
		rows, kinds, err := connectors.DecodeBytes(cd, []byte(c.msg), cols)
		if err != nil {
			t.Fatalf("%s: %v", c.msg, err)
		}
		if got := changes(rows, kinds, cols); got != c.want {
			t.Errorf("%s:\n%s\nwant\n%s", c.msg, got, c.want)
		}
	}
	// With 'debezium-json.schema-include' the change is the "payload".
	withSchema := `{"schema": {"type": "struct", "fields": []}, "payload": ` + debeziumUpdate + `}`
	rows, kinds, err := connectors.DecodeBytes(codec(t, map[string]string{"format": "debezium-json", "debezium-json.schema-include": "true"}), []byte(withSchema), cols)
	if got := changes(rows, kinds, cols); err != nil || got != "-U[111, scooter, Big 2-wheel scooter, 5.18]\n+U[111, scooter, Big 2-wheel scooter, 5.15]\n" {
		t.Errorf("schema-include: %s %v", got, err)
	}
}

func TestDebeziumJSONErrors(t *testing.T) {
	cols := productColumns(t)
	cd := codec(t, map[string]string{"format": "debezium-json"})
	for _, c := range []struct{ msg, want string }{
		{`{"before":null,"after":{"id":1},"op":"x"}`, `Corrupt Debezium JSON message '{"before":null,"after":{"id":1},"op":"x"}'.` + "\nCaused by: " +
			`Unknown "op" value "x". The Debezium JSON message is '{"before":null,"after":{"id":1},"op":"x"}'`},
		{`{"before":null,"after":{"id":1},"op":"u"}`, `Corrupt Debezium JSON message '{"before":null,"after":{"id":1},"op":"u"}'.` + "\nCaused by: " +
			`The "before" field of UPDATE message is null, if you are using Debezium Postgres Connector, please check the Postgres table has been set REPLICA IDENTITY to FULL level.`},
		{`{"op":`, `Corrupt Debezium JSON message '{"op":'.`},
	} {
		_, _, err := connectors.DecodeBytes(cd, []byte(c.msg), cols)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: %v\nwant %s", c.msg, err, c.want)
		}
	}
	// ignore-parse-errors skips a message it cannot read and reads the next.
	lenient := codec(t, map[string]string{"format": "debezium-json", "debezium-json.ignore-parse-errors": "true"})
	in := "{bad\n" + `{"before":null,"after":{"id":1},"op":"x"}` + "\n" + `{"after":{"id":7,"weight":"oops"},"op":"c"}` + "\n" +
		`{"after":{"id":8},"op":"c"}` + "\n" + `{"after":{"id":"nine","weight":1.5},"op":"c"}` + "\n"
	rows, kinds, err := decodeFile(lenient, []byte(in), cols)
	// A field that cannot be read is NULL, as Flink 2.2 reads it.
	if got := changes(rows, kinds, cols); err != nil || got != "+I[7, NULL, NULL, NULL]\n+I[8, NULL, NULL, NULL]\n+I[NULL, NULL, NULL, 1.50]\n" {
		t.Errorf("ignore-parse-errors: %q %v", got, err)
	}
}

func TestDebeziumJSONMetadata(t *testing.T) {
	cols := productColumns(t)
	cd := codec(t, map[string]string{"format": "debezium-json"}).(connectors.MetadataCodec)
	var keys []string
	for _, m := range cd.ReadableMetadata() {
		keys = append(keys, m.Key+" "+m.Type.String())
	}
	if got, want := strings.Join(keys, "; "), "schema STRING; ingestion-timestamp TIMESTAMP_LTZ(3); source.timestamp TIMESTAMP_LTZ(3); "+
		"source.database STRING; source.schema STRING; source.table STRING; source.properties MAP<STRING, STRING>"; got != want {
		t.Errorf("metadata\n%s\nwant\n%s", got, want)
	}
	dec := cd.MetadataDecoder(strings.NewReader(debeziumUpdate), "message", cols,
		[]string{"source.timestamp", "source.database", "source.table", "ingestion-timestamp"})
	row := make([]any, len(cols)+4)
	kind, ok, err := dec.Next(row)
	if err != nil || !ok || kind != types.UpdateBefore {
		t.Fatal(kind, ok, err)
	}
	ltz := types.NewTimestampLTZ(3)
	if got := types.ValueString(row[4], ltz) + " " + row[5].(string) + " " + row[6].(string) + " " + types.ValueString(row[7], ltz); got != "2020-05-13 09:32:10.000 inventory products 2020-05-13 09:32:10.904" {
		t.Errorf("metadata values %s", got)
	}
}

func TestCanalJSONDecodesFlinksExample(t *testing.T) {
	cols := productColumns(t)
	msg := `{
  "data": [{"id": "111", "name": "scooter", "description": "Big 2-wheel scooter", "weight": "5.18"}],
  "database": "inventory", "es": 1589373560000, "id": 9, "isDdl": false,
  "mysqlType": {"id": "INTEGER", "name": "VARCHAR(255)", "description": "VARCHAR(512)", "weight": "FLOAT"},
  "old": [{"weight": "5.15"}],
  "pkNames": ["id"], "sql": "", "sqlType": {"id": 4, "name": 12, "description": 12, "weight": 7},
  "table": "products", "ts": 1589373560798, "type": "UPDATE"
}`
	cd := codec(t, map[string]string{"format": "canal-json"})
	rows, kinds, err := connectors.DecodeBytes(cd, []byte(msg), cols)
	if got, want := changes(rows, kinds, cols), "-U[111, scooter, Big 2-wheel scooter, 5.15]\n+U[111, scooter, Big 2-wheel scooter, 5.18]\n"; err != nil || got != want {
		t.Errorf("update: %s %v, want %s", got, err, want)
	}
	batch := `{"data":[{"id":"1","name":"a"},{"id":"2","name":"b"}],"database":"inventory","table":"products","type":"INSERT"}
{"data":[{"id":"1","name":"a"}],"database":"inventory","table":"products","type":"DELETE"}
{"data":null,"database":"inventory","table":"products","type":"CREATE","isDdl":true,"sql":"CREATE TABLE x (a INT)"}
{"data":[{"id":"3"}],"database":"other","table":"products","type":"INSERT"}`
	rows, kinds, err = decodeFile(cd, []byte(batch), cols)
	if got, want := changes(rows, kinds, cols), "+I[1, a, NULL, NULL]\n+I[2, b, NULL, NULL]\n-D[1, a, NULL, NULL]\n+I[3, NULL, NULL, NULL]\n"; err != nil || got != want {
		t.Errorf("batch: %s %v, want %s", got, err, want)
	}
	// 'canal-json.database.include' is a regular expression the whole name matches.
	only := codec(t, map[string]string{"format": "canal-json", "canal-json.database.include": "inv.*", "canal-json.table.include": "prod"})
	rows, _, _ = decodeFile(only, []byte(batch), cols)
	if len(rows) != 0 {
		t.Errorf("table.include 'prod' matched %d rows", len(rows))
	}
	only = codec(t, map[string]string{"format": "canal-json", "canal-json.database.include": "inv.*"})
	rows, _, _ = decodeFile(only, []byte(batch), cols)
	if len(rows) != 3 {
		t.Errorf("database.include 'inv.*': %d rows, want 3", len(rows))
	}
	md := cd.(connectors.MetadataCodec)
	dec := md.MetadataDecoder(strings.NewReader(msg), "m", cols, []string{"database", "table", "pk-names", "event-timestamp", "sql-type"})
	row := make([]any, 9)
	if _, _, err := dec.Next(row); err != nil {
		t.Fatal(err)
	}
	if got := types.ValueString(row[6], types.NewArray(types.NewString())) + " " + types.ValueString(row[7], types.NewTimestampLTZ(3)); row[4] != "inventory" || row[5] != "products" || got != "[id] 2020-05-13 12:39:20.000" {
		t.Errorf("metadata %v %v %s", row[4], row[5], got)
	}
	if m := row[8].(map[any]any); m["weight"] != int32(7) {
		t.Errorf("sql-type %v", m)
	}
}

func TestMaxwellJSONDecodes(t *testing.T) {
	cols := productColumns(t)
	cd := codec(t, map[string]string{"format": "maxwell-json"})
	in := `{"database":"test","table":"e","type":"insert","ts":1477053217,"xid":23396,"commit":true,"primary_key_columns":["id"],` +
		`"data":{"id":111,"name":"scooter","description":"Big 2-wheel scooter","weight":5.15}}
{"database":"test","table":"e","type":"update","ts":1477053218,"data":{"id":111,"name":"scooter","description":"Big 2-wheel scooter","weight":5.18},"old":{"weight":5.15,"description":null}}
{"database":"test","table":"e","type":"delete","ts":1477053219,"data":{"id":111,"name":"scooter","description":"Big 2-wheel scooter","weight":5.18}}`
	rows, kinds, err := decodeFile(cd, []byte(in), cols)
	want := "+I[111, scooter, Big 2-wheel scooter, 5.15]\n-U[111, scooter, NULL, 5.15]\n+U[111, scooter, Big 2-wheel scooter, 5.18]\n-D[111, scooter, Big 2-wheel scooter, 5.18]\n"
	if got := changes(rows, kinds, cols); err != nil || got != want {
		t.Errorf("%s %v\nwant\n%s", got, err, want)
	}
	dec := cd.(connectors.MetadataCodec).MetadataDecoder(strings.NewReader(in), "m", cols, []string{"ingestion-timestamp", "primary-key-columns"})
	row := make([]any, 6)
	if _, _, err := dec.Next(row); err != nil {
		t.Fatal(err)
	}
	if got := types.ValueString(row[4], types.NewTimestampLTZ(3)) + " " + types.ValueString(row[5], types.NewArray(types.NewString())); got != "2016-10-21 12:33:37.000 [id]" {
		t.Errorf("metadata %s", got)
	}
}

// TestChangelogJSONEncodes writes a changelog as Flink's serializers do
// and reads it back.
func TestChangelogJSONEncodes(t *testing.T) {
	cols := productColumns(t)
	dec, _ := types.ParseDecimal("5.15")
	row := []any{int64(111), "scooter", nil, dec}
	for _, c := range []struct {
		format string
		want   [4]string // +I, -U, +U, -D
	}{
		{"debezium-json", [4]string{
			`{"before":null,"after":{"id":111,"name":"scooter","description":null,"weight":5.15},"op":"c"}`,
			`{"before":{"id":111,"name":"scooter","description":null,"weight":5.15},"after":null,"op":"d"}`,
			`{"before":null,"after":{"id":111,"name":"scooter","description":null,"weight":5.15},"op":"c"}`,
			`{"before":{"id":111,"name":"scooter","description":null,"weight":5.15},"after":null,"op":"d"}`}},
		{"canal-json", [4]string{
			`{"data":[{"id":111,"name":"scooter","description":null,"weight":5.15}],"type":"INSERT"}`,
			`{"data":[{"id":111,"name":"scooter","description":null,"weight":5.15}],"type":"DELETE"}`,
			`{"data":[{"id":111,"name":"scooter","description":null,"weight":5.15}],"type":"INSERT"}`,
			`{"data":[{"id":111,"name":"scooter","description":null,"weight":5.15}],"type":"DELETE"}`}},
		{"maxwell-json", [4]string{
			`{"data":{"id":111,"name":"scooter","description":null,"weight":5.15},"type":"insert"}`,
			`{"data":{"id":111,"name":"scooter","description":null,"weight":5.15},"type":"delete"}`,
			`{"data":{"id":111,"name":"scooter","description":null,"weight":5.15},"type":"insert"}`,
			`{"data":{"id":111,"name":"scooter","description":null,"weight":5.15},"type":"delete"}`}},
	} {
		cd := codec(t, map[string]string{"format": c.format})
		for i, kind := range []types.RowKind{types.Insert, types.UpdateBefore, types.UpdateAfter, types.Delete} {
			msg, err := connectors.EncodeBytes(cd, kind, row, cols)
			if err != nil || strings.TrimSpace(string(msg)) != c.want[i] {
				t.Errorf("%s %s: %s %v\nwant %s", c.format, kind, msg, err, c.want[i])
				continue
			}
			rows, kinds, err := connectors.DecodeBytes(cd, msg, cols)
			wantKind := types.Insert
			if kind == types.UpdateBefore || kind == types.Delete {
				wantKind = types.Delete
			}
			if err != nil || len(rows) != 1 || kinds[0] != wantKind || changes(rows, kinds, cols) != wantKind.String()+"[111, scooter, NULL, 5.15]\n" {
				t.Errorf("%s %s: read back %s %v", c.format, kind, changes(rows, kinds, cols), err)
			}
		}
	}
	cd := codec(t, map[string]string{"format": "debezium-json", "debezium-json.schema-include": "true"})
	if _, err := connectors.EncodeBytes(cd, types.Insert, row, cols); err == nil || err.Error() != "Debezium JSON serialization doesn't support 'debezium-json.schema-include' option been set to true." {
		t.Errorf("schema-include sink: %v", err)
	}
}

func TestJSONEncodingOptions(t *testing.T) {
	cols := []connectors.Column{{Name: "m", Type: mustType(t, "MAP<STRING, INT>")}, {Name: "d", Type: mustType(t, "DECIMAL(10, 8)")},
		{Name: "ts", Type: mustType(t, "TIMESTAMP(3)")}}
	small, _ := types.ParseDecimal("0.00000012")
	ts, _ := types.CastValue("2024-01-02 03:04:05.5", types.NewString(), types.NewTimestamp(3))
	row := []any{map[any]any{nil: int32(1), "a": int32(2)}, small, ts}
	for _, c := range []struct {
		options map[string]string
		want    string
	}{
		{map[string]string{"format": "json"}, "JSON format doesn't support to serialize map data with null keys. You can drop null key entries or encode null in literals by specifying map-null-key.mode option."},
		{map[string]string{"format": "json", "json.map-null-key.mode": "DROP"}, `{"m":{"a":2},"d":1.2E-7,"ts":"2024-01-02 03:04:05.5"}`},
		{map[string]string{"format": "json", "json.map-null-key.mode": "LITERAL", "json.map-null-key.literal": "nil",
			"json.encode.decimal-as-plain-number": "true", "json.timestamp-format.standard": "ISO-8601"},
			`{"m":{"a":2,"nil":1},"d":0.00000012,"ts":"2024-01-02T03:04:05.5"}`},
		{map[string]string{"format": "canal-json", "canal-json.map-null-key.mode": "LITERAL"},
			`{"data":[{"m":{"a":2,"null":1},"d":1.2E-7,"ts":"2024-01-02 03:04:05.5"}],"type":"INSERT"}`},
	} {
		msg, err := connectors.EncodeBytes(codec(t, c.options), types.Insert, row, cols)
		got := strings.TrimSpace(string(msg))
		if err != nil {
			got = err.Error()
		}
		if !strings.HasSuffix(got, c.want) {
			t.Errorf("%v: %s\nwant %s", c.options, got, c.want)
		}
	}
	// Decimals lose their trailing zeros, as Flink's Jackson number nodes do.
	dcols := []connectors.Column{{Name: "a", Type: mustType(t, "DECIMAL(5, 0)")}, {Name: "b", Type: mustType(t, "DECIMAL(10, 8)")},
		{Name: "c", Type: mustType(t, "DECIMAL(4, 2)")}}
	a, _ := types.ParseDecimal("12000")
	b, _ := types.ParseDecimal("0.00000000")
	c, _ := types.ParseDecimal("1.50")
	for opt, want := range map[string]string{"false": `{"a":1.2E+4,"b":0,"c":1.5}`, "true": `{"a":12000,"b":0,"c":1.5}`} {
		msg, err := connectors.EncodeBytes(codec(t, map[string]string{"format": "json", "json.encode.decimal-as-plain-number": opt}), types.Insert, []any{a, b, c}, dcols)
		if got := strings.TrimSpace(string(msg)); err != nil || got != want {
			t.Errorf("decimal-as-plain-number %s: %s %v, want %s", opt, got, err, want)
		}
	}
	f, _ := connectors.NewRegistry().Format("json")
	if _, err := f.Configure(map[string]string{"json.map-null-key.mode": "KEEP"}); err == nil ||
		err.Error() != "Unsupported value 'KEEP' for option map-null-key.mode. Supported values are [LITERAL, FAIL, DROP]." {
		t.Errorf("map-null-key.mode: %v", err)
	}
}

func TestChangelogCodecs(t *testing.T) {
	for id, want := range map[string]connectors.ChangelogMode{"json": connectors.InsertOnly, "debezium-json": connectors.FullChangelog,
		"canal-json": connectors.FullChangelog, "maxwell-json": connectors.FullChangelog, "avro": connectors.InsertOnly} {
		if got := connectors.CodecChangelog(codec(t, map[string]string{"format": id})); got != want {
			t.Errorf("%s: %s, want %s", id, got, want)
		}
	}
}

// FuzzChangelogJSON feeds arbitrary messages to the changelog decoders,
// with every metadata key: they fail or decode, never panic.
func FuzzChangelogJSON(f *testing.F) {
	f.Add([]byte(debeziumUpdate))
	f.Add([]byte(`{"data":[{"id":"1"}],"old":[{"id":"2"}],"type":"UPDATE","sqlType":{"id":4},"pkNames":["id"],"ts":1,"es":2}`))
	f.Add([]byte(`{"data":{"id":1},"old":{"id":2},"type":"update","primary_key_columns":["id"],"ts":1}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		cols := []connectors.Column{{Name: "id", Type: mustType(t, "BIGINT")}, {Name: "r", Type: mustType(t, "ROW<a ARRAY<INT>, m MAP<STRING, DECIMAL(5, 2)>>")}}
		for _, id := range []string{"debezium-json", "canal-json", "maxwell-json"} {
			cd := codec(t, map[string]string{"format": id}).(connectors.MetadataCodec)
			connectors.DecodeBytes(cd, b, cols)
			var keys []string
			for _, m := range cd.ReadableMetadata() {
				keys = append(keys, m.Key)
			}
			dec := cd.MetadataDecoder(bytes.NewReader(b), "m", cols, keys)
			row := make([]any, len(cols)+len(keys))
			for range 100 {
				if _, ok, err := dec.Next(row); !ok || err != nil {
					break
				}
			}
		}
	})
}
