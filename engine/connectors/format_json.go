package connectors

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"

	"eddy/engine/types"
	"eddy/engine/vector"
)

// jsonFormat is the json format (connectors.md §4b, Flink's JsonFormatFactory).
func jsonFormat() *Format {
	return &Format{
		Identifier: "json",
		Options: []string{
			"json.fail-on-missing-field", "json.ignore-parse-errors", "json.timestamp-format.standard",
			"json.map-null-key.mode", "json.map-null-key.literal", "json.encode.decimal-as-plain-number",
			"json.encode.ignore-null-fields", "decode.json-parser.enabled",
		},
		Configure: func(o map[string]string) (Codec, error) { return newJSONOptions(o) },
	}
}

// jsonOptions is a configured json format.
type jsonOptions struct {
	ignoreErrors  bool
	failOnMissing bool
	isoTimestamps bool
	write         jsonWriteOptions
}

func newJSONOptions(o map[string]string) (*jsonOptions, error) {
	f := &jsonOptions{}
	if err := boolOption(o, "json.fail-on-missing-field", &f.failOnMissing); err != nil {
		return nil, err
	}
	if err := readJSONOptions(o, "json.", &f.ignoreErrors, &f.write); err != nil {
		return nil, err
	}
	if f.ignoreErrors && f.failOnMissing {
		return nil, validationError("fail-on-missing-field and ignore-parse-errors shouldn't both be true.")
	}
	f.isoTimestamps = f.write.iso
	return f, nil
}

// readJSONOptions reads the options the json format shares with the
// formats built on it, each key with the format's prefix ('json.',
// 'debezium-json.'), validated as Flink's JsonFormatOptionsUtil does.
func readJSONOptions(o map[string]string, prefix string, ignoreErrors *bool, w *jsonWriteOptions) error {
	if err := boolOption(o, prefix+"ignore-parse-errors", ignoreErrors); err != nil {
		return err
	}
	switch std := o[prefix+"timestamp-format.standard"]; std {
	case "", "SQL":
	case "ISO-8601":
		w.iso = true
	default:
		return validationError("Unsupported value '%s' for timestamp-format.standard. Supported values are [SQL, ISO-8601].", std)
	}
	w.nullKeyMode, w.nullKeyLiteral = "FAIL", "null"
	if m, ok := o[prefix+"map-null-key.mode"]; ok {
		switch strings.ToUpper(m) {
		case "FAIL", "DROP", "LITERAL":
			w.nullKeyMode = strings.ToUpper(m)
		default:
			return validationError("Unsupported value '%s' for option map-null-key.mode. Supported values are [LITERAL, FAIL, DROP].", m)
		}
	}
	if l, ok := o[prefix+"map-null-key.literal"]; ok {
		w.nullKeyLiteral = l
	}
	if err := boolOption(o, prefix+"encode.decimal-as-plain-number", &w.plainDecimal); err != nil {
		return err
	}
	return boolOption(o, prefix+"encode.ignore-null-fields", &w.ignoreNullFields)
}

// Decoder implements Codec.
func (f *jsonOptions) Decoder(r io.Reader, name string, cols []Column) RowDecoder {
	return newJSONDecoder(r, name, f, cols)
}

// Encoder implements Codec.
func (f *jsonOptions) Encoder(w io.Writer, cols []Column) RowEncoder {
	return newJSONEncoder(w, &f.write, cols)
}

// DecodeMessage implements MessageDecoder: a message is one JSON value (an
// object, or an array of objects) even when it spans lines.
func (f *jsonOptions) DecodeMessage(msg []byte, cols []Column) ([][]any, []types.RowKind, error) {
	var line bytes.Buffer
	if json.Compact(&line, msg) == nil {
		msg = line.Bytes()
	}
	return decodeAll(f.Decoder(bytes.NewReader(msg), "message", cols), len(cols))
}

// EncodeMessage implements MessageEncoder: the line the encoder of a file
// writes, without its buffered writer.
func (f *jsonOptions) EncodeMessage(_ types.RowKind, row []any, cols []Column) ([]byte, error) {
	names := make([]string, len(cols))
	ts := make([]*types.Type, len(cols))
	for i, c := range cols {
		names[i], ts[i] = c.Name, c.Type
	}
	b, err := f.write.appendRow(make([]byte, 0, 64), row, names, ts)
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// messageReader implements messageReaderMaker: a message holding one flat
// object is read by jsonFields, any other the general way (DecodeMessage).
func (f *jsonOptions) messageReader(cols []Column) MessageReader {
	r := &jsonMessageReader{f: f, cols: cols, fast: newJSONFields(f, cols)}
	r.rows = [][]any{make([]any, len(cols))}
	r.kinds = []types.RowKind{types.Insert}
	return r
}

// jsonMessageReader is the json format's MessageReader.
type jsonMessageReader struct {
	f     *jsonOptions
	cols  []Column
	fast  *jsonFields
	rows  [][]any
	kinds []types.RowKind
}

func (r *jsonMessageReader) Decode(msg []byte) ([][]any, []types.RowKind, error) {
	if r.fast != nil && r.fast.object(msg, r.rows[0]) {
		return r.rows, r.kinds, nil
	}
	return r.f.DecodeMessage(msg, r.cols)
}

// Append implements MessageAppender.
func (r *jsonMessageReader) Append(msg []byte, vecs []*vector.Vec) (int, error) {
	if r.fast != nil && r.fast.appendObject(msg, vecs) {
		return 1, nil
	}
	rows, _, err := r.f.DecodeMessage(msg, r.cols)
	if err != nil {
		return 0, err
	}
	for _, row := range rows {
		for i, v := range vecs {
			v.Append(row[i])
		}
	}
	return len(rows), nil
}
