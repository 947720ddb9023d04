package connectors

import "eddy/engine/types"

// Flink 2.2 has no converter for VARIANT in its formats (json, csv, avro,
// parquet, raw, ...) or in datagen: a table with a VARIANT column can be
// declared but not read or written through them. eddy refuses it with
// Flink's error instead of writing or reading some text in its place.

// variantIn returns the VARIANT type inside t (t itself, an element, a
// field), or nil.
func variantIn(t *types.Type) *types.Type {
	switch t.Kind {
	case types.Variant:
		return t
	case types.Array, types.Multiset:
		return variantIn(t.Elem)
	case types.Map:
		if v := variantIn(t.Elem); v != nil {
			return v
		}
		return variantIn(t.Val)
	case types.Row:
		for _, f := range t.Fields {
			if v := variantIn(f.Type); v != nil {
				return v
			}
		}
	}
	return nil
}

// FormatVariantError returns the error of format for a VARIANT among
// cols, read (sink false) or written (sink true), or nil. Connectors
// that take a format call it when they validate a table.
func FormatVariantError(format string, cols []Column, sink bool) error {
	for _, c := range cols {
		v := variantIn(c.Type)
		if v == nil {
			continue
		}
		switch {
		case format == "csv" && v == c.Type:
			// CsvRowSchemaConverter names the column.
			return &Error{Exception: "IllegalArgumentException",
				Msg: "Unsupported type '" + v.String() + "' for field '" + c.Name + "'."}
		case format == "csv":
			return &Error{Exception: "IllegalArgumentException",
				Msg: "Only simple types are supported in the second level nesting of fields '" + c.Name + "' but was: " + v.String()}
		case sink && format == "json":
			// RowDataToJsonConverters.
			return &Error{Exception: "UnsupportedOperationException", Msg: "Not support to parse type: " + v.String()}
		}
		return &Error{Exception: "UnsupportedOperationException", Msg: "Unsupported type: " + v.String()}
	}
	return nil
}
