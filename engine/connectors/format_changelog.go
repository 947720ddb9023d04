package connectors

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"time"

	"eddy/engine/types"
	"eddy/engine/vector"
)

// The changelog formats of Flink's flink-json: debezium-json, canal-json
// and maxwell-json. A message is one JSON object describing one change of
// a database row (a batch of rows for canal); the decoder turns it into
// the rows of the change with their row kinds, as Flink's
// *JsonDeserializationSchema do, and the encoder writes a changelog as
// Flink's *JsonSerializationSchema do (an insert or update-after as a
// create/insert message, an update-before or delete as a delete
// message). In a file, messages follow each other, one a line (a message
// may span lines); an empty message (a Kafka tombstone) has no rows.

// ChangelogCodec is implemented by codecs whose rows are not all inserts
// (Flink's DecodingFormat.getChangelogMode).
type ChangelogCodec interface {
	Codec
	Changelog() ChangelogMode
}

// CodecChangelog returns the changelog a codec's decoder produces (and its
// encoder takes): InsertOnly unless it is a ChangelogCodec.
func CodecChangelog(c Codec) ChangelogMode {
	if cc, ok := c.(ChangelogCodec); ok {
		return cc.Changelog()
	}
	return InsertOnly
}

// MetadataCodec is implemented by codecs that read metadata of their
// messages (Flink's DecodingFormat.listReadableMetadata); a connector
// offers them under keys of its own (the Kafka connector as
// 'value.<key>').
type MetadataCodec interface {
	Codec
	// ReadableMetadata lists the keys in Flink's order.
	ReadableMetadata() []MetadataKey
	// MetadataDecoder is Decoder whose rows hold, after the fields of
	// cols, the values of keys (keys ReadableMetadata lists).
	MetadataDecoder(r io.Reader, name string, cols []Column, keys []string) RowDecoder
}

// jsonChangelogFormat builds the Format of one changelog format: its
// options are the shared JSON options under its prefix plus extra.
func jsonChangelogFormat(id string, extra []string, configure func(map[string]string) (Codec, error)) *Format {
	opts := []string{id + ".ignore-parse-errors", id + ".timestamp-format.standard", id + ".map-null-key.mode",
		id + ".map-null-key.literal", id + ".encode.decimal-as-plain-number", id + ".encode.ignore-null-fields"}
	for _, e := range extra {
		opts = append(opts, id+"."+e)
	}
	return &Format{Identifier: id, Options: opts, Configure: configure}
}

func debeziumJSONFormat() *Format {
	return jsonChangelogFormat("debezium-json", []string{"schema-include"}, func(o map[string]string) (Codec, error) {
		c := &changelogJSON{kind: debeziumKind}
		if err := c.read(o, "debezium-json."); err != nil {
			return nil, err
		}
		if err := boolOption(o, "debezium-json.schema-include", &c.schemaInclude); err != nil {
			return nil, err
		}
		return c, nil
	})
}

func canalJSONFormat() *Format {
	return jsonChangelogFormat("canal-json", []string{"database.include", "table.include"}, func(o map[string]string) (Codec, error) {
		c := &changelogJSON{kind: canalKind}
		if err := c.read(o, "canal-json."); err != nil {
			return nil, err
		}
		for key, dst := range map[string]**regexp.Regexp{"canal-json.database.include": &c.database, "canal-json.table.include": &c.table} {
			if p, ok := o[key]; ok {
				// Java's Pattern.matches: the whole text must match.
				re, err := regexp.Compile(`^(?:` + p + `)$`)
				if err != nil {
					return nil, validationError("Could not parse value '%s' for key '%s'.", p, key)
				}
				*dst = re
			}
		}
		return c, nil
	})
}

func maxwellJSONFormat() *Format {
	return jsonChangelogFormat("maxwell-json", nil, func(o map[string]string) (Codec, error) {
		c := &changelogJSON{kind: maxwellKind}
		if err := c.read(o, "maxwell-json."); err != nil {
			return nil, err
		}
		return c, nil
	})
}

type changelogKind uint8

const (
	debeziumKind changelogKind = iota
	canalKind
	maxwellKind
)

// changelogJSON is a configured debezium-json, canal-json or
// maxwell-json format.
type changelogJSON struct {
	kind          changelogKind
	ignoreErrors  bool
	write         jsonWriteOptions
	schemaInclude bool           // debezium-json.schema-include
	database      *regexp.Regexp // canal-json.database.include
	table         *regexp.Regexp // canal-json.table.include
}

func (c *changelogJSON) read(o map[string]string, prefix string) error {
	return readJSONOptions(o, prefix, &c.ignoreErrors, &c.write)
}

// name is the product name in Flink's error texts.
func (c *changelogJSON) name() string {
	return [...]string{"Debezium", "Canal", "Maxwell"}[c.kind]
}

// Changelog implements ChangelogCodec: every row kind.
func (c *changelogJSON) Changelog() ChangelogMode { return FullChangelog }

// changelogMeta is one readable metadata key of a changelog format and
// how its value is read from a message's JSON.
type changelogMeta struct {
	MetadataKey
	read func(root map[string]any) (any, error)
}

// metadata returns the format's readable metadata, in Flink's order.
func (c *changelogJSON) metadata() []changelogMeta {
	str := types.NewString
	ltz := func() *types.Type { return types.NewTimestampLTZ(3) }
	field := func(name string) func(map[string]any) (any, error) {
		return func(root map[string]any) (any, error) { return jsonText(root[name]), nil }
	}
	millis := func(get func(map[string]any) any, scale int64) func(map[string]any) (any, error) {
		return func(root map[string]any) (any, error) {
			v := get(root)
			if v == nil {
				return nil, nil
			}
			n, err := strconv.ParseInt(fmt.Sprint(v), 10, 64)
			if err != nil {
				return nil, fmt.Errorf("cannot read %v as a timestamp", v)
			}
			return time.UnixMilli(n * scale).UTC(), nil
		}
	}
	top := func(name string) func(map[string]any) any {
		return func(root map[string]any) any { return root[name] }
	}
	switch c.kind {
	case debeziumKind:
		source := func(key string) func(map[string]any) any {
			return func(root map[string]any) any {
				if s, ok := c.payload(root)["source"].(map[string]any); ok {
					return s[key]
				}
				return nil
			}
		}
		sourceText := func(key string) func(map[string]any) (any, error) {
			return func(root map[string]any) (any, error) { return jsonText(source(key)(root)), nil }
		}
		return []changelogMeta{
			{MetadataKey{"schema", str()}, func(root map[string]any) (any, error) { return jsonText(root["schema"]), nil }},
			{MetadataKey{"ingestion-timestamp", ltz()}, millis(func(root map[string]any) any { return c.payload(root)["ts_ms"] }, 1)},
			{MetadataKey{"source.timestamp", ltz()}, millis(source("ts_ms"), 1)},
			{MetadataKey{"source.database", str()}, sourceText("db")},
			{MetadataKey{"source.schema", str()}, sourceText("schema")},
			{MetadataKey{"source.table", str()}, sourceText("table")},
			{MetadataKey{"source.properties", types.NewMap(str(), str())}, func(root map[string]any) (any, error) {
				s, ok := c.payload(root)["source"].(map[string]any)
				if !ok {
					return nil, nil
				}
				m := map[any]any{}
				for k, v := range s {
					m[k] = jsonText(v)
				}
				return m, nil
			}},
		}
	case canalKind:
		return []changelogMeta{
			{MetadataKey{"database", str()}, field("database")},
			{MetadataKey{"table", str()}, field("table")},
			{MetadataKey{"sql-type", types.NewMap(str(), types.New(types.Int))}, func(root map[string]any) (any, error) {
				return fromJSON(root["sqlType"], types.NewMap(str(), types.New(types.Int)), false)
			}},
			{MetadataKey{"pk-names", types.NewArray(str())}, func(root map[string]any) (any, error) {
				return fromJSON(root["pkNames"], types.NewArray(str()), false)
			}},
			{MetadataKey{"ingestion-timestamp", ltz()}, millis(top("ts"), 1)},
			{MetadataKey{"event-timestamp", ltz()}, millis(top("es"), 1)},
		}
	}
	return []changelogMeta{
		{MetadataKey{"database", str()}, field("database")},
		{MetadataKey{"table", str()}, field("table")},
		{MetadataKey{"primary-key-columns", types.NewArray(str())}, func(root map[string]any) (any, error) {
			return fromJSON(root["primary_key_columns"], types.NewArray(str()), false)
		}},
		// Maxwell's "ts" is in seconds.
		{MetadataKey{"ingestion-timestamp", ltz()}, millis(top("ts"), 1000)},
	}
}

// ReadableMetadata implements MetadataCodec.
func (c *changelogJSON) ReadableMetadata() []MetadataKey {
	var keys []MetadataKey
	for _, m := range c.metadata() {
		keys = append(keys, m.MetadataKey)
	}
	return keys
}

// jsonText is a JSON value as Flink's JSON reader gives it to a STRING
// field: text as it is, numbers and Booleans as written, null as nil.
func jsonText(v any) any {
	switch x := v.(type) {
	case nil:
		return nil
	case string:
		return x
	case json.Number:
		return x.String()
	case bool:
		return strconv.FormatBool(x)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// payload is the part of a debezium message that holds the change.
func (c *changelogJSON) payload(root map[string]any) map[string]any {
	if c.schemaInclude {
		p, _ := root["payload"].(map[string]any)
		return p
	}
	return root
}

// Decoder implements Codec.
func (c *changelogJSON) Decoder(r io.Reader, name string, cols []Column) RowDecoder {
	return c.MetadataDecoder(r, name, cols, nil)
}

// MetadataDecoder implements MetadataCodec.
func (c *changelogJSON) MetadataDecoder(r io.Reader, name string, cols []Column, keys []string) RowDecoder {
	d := c.decoder(cols, keys)
	d.msgs = newJSONMessages(r)
	return d
}

// DecodeMessage implements MessageDecoder: one message, parsed once.
func (c *changelogJSON) DecodeMessage(msg []byte, cols []Column) ([][]any, []types.RowKind, error) {
	msg = bytes.TrimSpace(msg)
	if len(msg) == 0 {
		return nil, nil, nil // a tombstone
	}
	d := c.decoder(cols, nil)
	rows, err := d.decode(msg)
	if err != nil {
		if c.ignoreErrors {
			return nil, nil, nil
		}
		return nil, nil, d.corrupt(msg, err)
	}
	out := make([][]any, len(rows))
	kinds := make([]types.RowKind, len(rows))
	for i, r := range rows {
		out[i], kinds[i] = r.row, r.kind
	}
	return out, kinds, nil
}

func (c *changelogJSON) decoder(cols []Column, keys []string) *changelogDecoder {
	d := &changelogDecoder{c: c, width: len(cols)}
	fields := make([]types.Field, len(cols))
	for i, col := range cols {
		fields[i] = types.Field{Name: col.Name, Type: col.Type}
	}
	d.rowType = types.NewRow(fields...)
	if len(keys) > 0 {
		all := c.metadata()
		for _, k := range keys {
			for _, m := range all {
				if m.Key == k {
					d.meta = append(d.meta, m)
				}
			}
		}
	}
	return d
}

// corrupt is Flink's failure for a message the format cannot read.
func (d *changelogDecoder) corrupt(msg []byte, err error) error {
	return &Error{Exception: "IOException",
		Msg: fmt.Sprintf("Corrupt %s JSON message '%s'.", d.c.name(), msg) + "\nCaused by: " + err.Error()}
}

type changelogDecoder struct {
	c       *changelogJSON
	msgs    *jsonMessages
	rowType *types.Type
	width   int
	meta    []changelogMeta
	pending []changelogRow
}

type changelogRow struct {
	kind types.RowKind
	row  []any
}

// Next implements RowDecoder.
func (d *changelogDecoder) Next(row []any) (types.RowKind, bool, error) {
	for len(d.pending) == 0 {
		msg, err := d.msgs.next()
		if err == io.EOF {
			return types.Insert, false, nil
		}
		if err != nil {
			return types.Insert, false, err
		}
		rows, err := d.decode(msg)
		if err != nil {
			if d.c.ignoreErrors {
				continue
			}
			return types.Insert, false, d.corrupt(msg, err)
		}
		d.pending = rows
	}
	r := d.pending[0]
	d.pending = d.pending[1:]
	copy(row, r.row)
	return r.kind, true, nil
}

// decode turns one message into its rows.
func (d *changelogDecoder) decode(msg []byte) ([]changelogRow, error) {
	dec := json.NewDecoder(bytes.NewReader(msg))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	root, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("expected a JSON object, found %s", jsonKind(v))
	}
	var out []changelogRow
	emit := func(kind types.RowKind, data any) error {
		if data == nil {
			return fmt.Errorf("the %s row of the message is null", kind)
		}
		obj, ok := data.(map[string]any)
		if !ok {
			return fmt.Errorf("expected a JSON object for the %s row, found %s", kind, jsonKind(data))
		}
		vals := make([]any, 0, d.width+len(d.meta))
		for _, f := range d.rowType.Fields {
			v, err := fromJSON(obj[f.Name], f.Type, d.c.write.iso)
			if err != nil {
				// As Flink's JSON reader: with 'ignore-parse-errors' a
				// field that cannot be read is NULL.
				if !d.c.ignoreErrors {
					return fmt.Errorf("Fail to deserialize at field: %s. %w", f.Name, err)
				}
				v = nil
			}
			vals = append(vals, v)
		}
		for _, m := range d.meta {
			x, err := m.read(root)
			if err != nil {
				return err
			}
			vals = append(vals, x)
		}
		out = append(out, changelogRow{kind, vals})
		return nil
	}
	switch d.c.kind {
	case debeziumKind:
		p := d.c.payload(root)
		if p == nil {
			return nil, errors.New(`the message has no "payload" object`)
		}
		op, _ := p["op"].(string)
		before, after := p["before"], p["after"]
		switch op {
		case "c", "r":
			return out, emit(types.Insert, after)
		case "u":
			if before == nil {
				return nil, fmt.Errorf(`The "before" field of %s message is null, if you are using Debezium Postgres Connector, please check the Postgres table has been set REPLICA IDENTITY to FULL level.`, "UPDATE")
			}
			if err := emit(types.UpdateBefore, before); err != nil {
				return nil, err
			}
			return out, emit(types.UpdateAfter, after)
		case "d":
			if before == nil {
				return nil, fmt.Errorf(`The "before" field of %s message is null, if you are using Debezium Postgres Connector, please check the Postgres table has been set REPLICA IDENTITY to FULL level.`, "DELETE")
			}
			return out, emit(types.Delete, before)
		}
		if d.c.ignoreErrors {
			return nil, nil
		}
		return nil, fmt.Errorf(`Unknown "op" value "%s". The Debezium JSON message is '%s'`, jsonTextOr(p["op"]), msg)
	case canalKind:
		if d.c.database != nil && !d.c.database.MatchString(fmt.Sprint(jsonTextOr(root["database"]))) ||
			d.c.table != nil && !d.c.table.MatchString(fmt.Sprint(jsonTextOr(root["table"]))) {
			return nil, nil
		}
		data, _ := root["data"].([]any)
		typ, _ := root["type"].(string)
		switch typ {
		case "INSERT", "DELETE":
			kind := types.Insert
			if typ == "DELETE" {
				kind = types.Delete
			}
			for _, r := range data {
				if err := emit(kind, r); err != nil {
					return nil, err
				}
			}
			return out, nil
		case "UPDATE":
			old, _ := root["old"].([]any)
			for i, after := range data {
				// A field missing or null in "old" did not change.
				before := map[string]any{}
				if i < len(old) {
					if o, ok := old[i].(map[string]any); ok {
						for k, v := range o {
							before[k] = v
						}
					}
				}
				if a, ok := after.(map[string]any); ok {
					for k, v := range a {
						if before[k] == nil {
							before[k] = v
						}
					}
				}
				if err := emit(types.UpdateBefore, before); err != nil {
					return nil, err
				}
				if err := emit(types.UpdateAfter, after); err != nil {
					return nil, err
				}
			}
			return out, nil
		case "CREATE":
			return nil, nil // a DDL event
		}
		if d.c.ignoreErrors {
			return nil, nil
		}
		return nil, fmt.Errorf(`Unknown "type" value "%s". The Canal JSON message is '%s'`, jsonTextOr(root["type"]), msg)
	}
	typ, _ := root["type"].(string)
	switch typ {
	case "insert":
		return out, emit(types.Insert, root["data"])
	case "update":
		// A field absent from "old" did not change.
		before := map[string]any{}
		old, _ := root["old"].(map[string]any)
		if a, ok := root["data"].(map[string]any); ok {
			for k, v := range a {
				before[k] = v
			}
		}
		for k, v := range old {
			before[k] = v
		}
		if err := emit(types.UpdateBefore, before); err != nil {
			return nil, err
		}
		return out, emit(types.UpdateAfter, root["data"])
	case "delete":
		return out, emit(types.Delete, root["data"])
	}
	if d.c.ignoreErrors {
		return nil, nil
	}
	return nil, fmt.Errorf(`Unknown "type" value "%s". The Maxwell JSON message is '%s'`, jsonTextOr(root["type"]), msg)
}

// jsonTextOr is jsonText with "null" for a missing value, as Java's
// String.valueOf prints it.
func jsonTextOr(v any) any {
	if t := jsonText(v); t != nil {
		return t
	}
	return "null"
}

// Encoder implements Codec: a changelog as Flink's serializers write it.
func (c *changelogJSON) Encoder(w io.Writer, cols []Column) RowEncoder {
	e := &changelogEncoder{c: c, buf: bufio.NewWriterSize(w, 64<<10)}
	for _, col := range cols {
		e.names = append(e.names, col.Name)
		e.ts = append(e.ts, col.Type)
	}
	return e
}

type changelogEncoder struct {
	c     *changelogJSON
	buf   *bufio.Writer
	names []string
	ts    []*types.Type
	line  []byte
}

// Write implements RowEncoder.
func (e *changelogEncoder) Write(kind types.RowKind, row []any) error {
	del := kind == types.UpdateBefore || kind == types.Delete
	b := e.line[:0]
	var err error
	switch e.c.kind {
	case debeziumKind:
		if e.c.schemaInclude {
			return &Error{Exception: "ValidationException", Msg: "Debezium JSON serialization doesn't support 'debezium-json.schema-include' option been set to true."}
		}
		b = append(b, `{"before":`...)
		if del {
			b, err = e.c.write.appendRow(b, row, e.names, e.ts)
			b = append(b, `,"after":null,"op":"d"}`...)
		} else {
			b = append(b, `null,"after":`...)
			b, err = e.c.write.appendRow(b, row, e.names, e.ts)
			b = append(b, `,"op":"c"}`...)
		}
	case canalKind:
		b = append(b, `{"data":[`...)
		b, err = e.c.write.appendRow(b, row, e.names, e.ts)
		if del {
			b = append(b, `],"type":"DELETE"}`...)
		} else {
			b = append(b, `],"type":"INSERT"}`...)
		}
	default:
		b = append(b, `{"data":`...)
		b, err = e.c.write.appendRow(b, row, e.names, e.ts)
		if del {
			b = append(b, `,"type":"delete"}`...)
		} else {
			b = append(b, `,"type":"insert"}`...)
		}
	}
	if err != nil {
		return &Error{Exception: "RuntimeException", Msg: fmt.Sprintf("Could not serialize row '%v'. %v", row, err)}
	}
	b = append(b, '\n')
	e.line = b
	_, err = e.buf.Write(b)
	return err
}

// Flush implements RowEncoder.
func (e *changelogEncoder) Flush() error { return e.buf.Flush() }

// jsonMessages splits an input into JSON messages: one a line, or several
// lines when a line ends inside a value.
type jsonMessages struct {
	r   *bufio.Reader
	eof bool
}

func newJSONMessages(r io.Reader) *jsonMessages {
	size := 64 << 10
	if br, ok := r.(*bytes.Reader); ok {
		size = max(16, int(br.Len())) // one message: no file-sized buffer
	}
	return &jsonMessages{r: bufio.NewReaderSize(r, size)}
}

// next returns the next non-empty message, or io.EOF.
func (m *jsonMessages) next() ([]byte, error) {
	var msg []byte
	for !m.eof {
		line, err := m.r.ReadBytes('\n')
		if err == io.EOF {
			m.eof = true
		} else if err != nil {
			return nil, err
		}
		msg = append(msg, line...)
		t := bytes.TrimSpace(msg)
		if len(t) == 0 {
			msg = msg[:0]
			continue
		}
		var v any
		if err := json.Unmarshal(t, &v); err != nil {
			var se *json.SyntaxError
			if errors.As(err, &se) && se.Offset >= int64(len(t)) && !m.eof {
				continue // the value goes on on the next line
			}
		}
		return t, nil
	}
	if t := bytes.TrimSpace(msg); len(t) > 0 {
		return t, nil
	}
	return nil, io.EOF
}

// ChangelogBulkReader is a BulkReader whose records carry row kinds (the
// bulk reader of a ChangelogCodec).
type ChangelogBulkReader interface {
	BulkReader
	// Kinds returns the row kinds of the records the last Read appended.
	Kinds() []types.RowKind
}

func newChangelogBulkReader(dec RowDecoder, width int) ChangelogBulkReader {
	return &changelogBulkReader{dec: dec, row: make([]any, width)}
}

type changelogBulkReader struct {
	dec   RowDecoder
	row   []any
	kinds []types.RowKind
}

func (r *changelogBulkReader) Kinds() []types.RowKind { return r.kinds }

func (r *changelogBulkReader) Read(cols []*vector.Vec, n int) (int, bool, error) {
	r.kinds = r.kinds[:0]
	for len(r.kinds) < n {
		kind, ok, err := r.dec.Next(r.row)
		if err != nil {
			return len(r.kinds), false, err
		}
		if !ok {
			return len(r.kinds), true, nil
		}
		for j, col := range cols {
			if col != nil {
				col.Append(r.row[j])
			}
		}
		r.kinds = append(r.kinds, kind)
	}
	return len(r.kinds), false, nil
}

// appendKinds appends more row kinds to those of a batch of n rows (nil:
// all inserts), keeping nil while every row is an insert.
func appendKinds(kinds []types.RowKind, n int, more []types.RowKind) []types.RowKind {
	if kinds == nil {
		insertsOnly := true
		for _, k := range more {
			insertsOnly = insertsOnly && k == types.Insert
		}
		if insertsOnly {
			return nil
		}
		kinds = make([]types.RowKind, n, vector.BatchSize)
	}
	return append(kinds, more...)
}

// formatChangelog returns the changelog of the format a table's options
// name: InsertOnly when there is none or it cannot be configured (the
// table's validation reports why).
func (r *Registry) formatChangelog(options map[string]string) ChangelogMode {
	f, ok := r.formats[options["format"]]
	if !ok {
		return InsertOnly
	}
	c, err := f.Configure(options)
	if err != nil {
		return InsertOnly
	}
	return CodecChangelog(c)
}
