package connectors

import "io"

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
}

func newJSONOptions(o map[string]string) (*jsonOptions, error) {
	f := &jsonOptions{}
	if err := boolOption(o, "json.ignore-parse-errors", &f.ignoreErrors); err != nil {
		return nil, err
	}
	if err := boolOption(o, "json.fail-on-missing-field", &f.failOnMissing); err != nil {
		return nil, err
	}
	if f.ignoreErrors && f.failOnMissing {
		return nil, validationError("fail-on-missing-field and ignore-parse-errors shouldn't both be true.")
	}
	switch std := o["json.timestamp-format.standard"]; std {
	case "", "SQL":
	case "ISO-8601":
		f.isoTimestamps = true
	default:
		return nil, validationError("Unsupported value '%s' for timestamp-format.standard. Supported values are [SQL, ISO-8601].", std)
	}
	return f, nil
}

// Decoder implements Codec.
func (f *jsonOptions) Decoder(r io.Reader, name string, cols []Column) RowDecoder {
	return newJSONDecoder(r, name, f, cols)
}

// Encoder implements Codec.
func (f *jsonOptions) Encoder(w io.Writer, cols []Column) RowEncoder {
	return newJSONEncoder(w, cols)
}
