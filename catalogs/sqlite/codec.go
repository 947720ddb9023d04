package sqlite

import (
	"database/sql"
	"encoding/json"
	"fmt"

	"eddy/catalogs"
	"eddy/engine/types"
)

// The definition column of objects holds one object's schema as JSON.
// Types are kept in Flink's serializable form (types.Parse reads it back);
// the time attribute, which that form omits, is kept beside it.

type typeDoc struct {
	Type     string `json:"type"`
	TimeAttr string `json:"timeAttr,omitempty"` // ROWTIME or PROCTIME
}

type columnDoc struct {
	Name        string   `json:"name"`
	Kind        string   `json:"kind"`
	Type        *typeDoc `json:"type,omitempty"`
	Expr        string   `json:"expr,omitempty"`
	MetadataKey string   `json:"metadataKey,omitempty"`
	Virtual     bool     `json:"virtual,omitempty"`
	Comment     string   `json:"comment,omitempty"`
}

type pkDoc struct {
	Name    string   `json:"name"`
	Columns []string `json:"columns"`
}

type watermarkDoc struct {
	Column string `json:"column"`
	Expr   string `json:"expr"`
}

type distributionDoc struct {
	Kind    string   `json:"kind"`
	Keys    []string `json:"keys,omitempty"`
	Buckets int      `json:"buckets,omitempty"`
}

type definitionDoc struct {
	Columns       []columnDoc      `json:"columns"`
	PrimaryKey    *pkDoc           `json:"primaryKey,omitempty"`
	Watermarks    []watermarkDoc   `json:"watermarks,omitempty"`
	PartitionKeys []string         `json:"partitionKeys,omitempty"`
	Distribution  *distributionDoc `json:"distribution,omitempty"`
}

func encodeType(t *types.Type) *typeDoc {
	if t == nil {
		return nil
	}
	d := &typeDoc{Type: t.SerializableString()}
	switch t.TimeAttr {
	case types.Rowtime:
		d.TimeAttr = "ROWTIME"
	case types.Proctime:
		d.TimeAttr = "PROCTIME"
	}
	return d
}

func decodeType(d *typeDoc) (*types.Type, error) {
	if d == nil {
		return nil, nil
	}
	t, err := types.Parse(d.Type)
	if err != nil {
		return nil, fmt.Errorf("stored type %q: %w", d.Type, err)
	}
	switch d.TimeAttr {
	case "ROWTIME":
		t = t.WithTimeAttr(types.Rowtime)
	case "PROCTIME":
		t = t.WithTimeAttr(types.Proctime)
	}
	return t, nil
}

func encodeColumns(cols []catalogs.Column) []columnDoc {
	out := make([]columnDoc, len(cols))
	for i, c := range cols {
		out[i] = columnDoc{Name: c.Name, Kind: c.Kind.String(), Type: encodeType(c.Type), Expr: c.Expr,
			MetadataKey: c.MetadataKey, Virtual: c.Virtual, Comment: c.Comment}
	}
	return out
}

func decodeColumns(docs []columnDoc) ([]catalogs.Column, error) {
	out := make([]catalogs.Column, len(docs))
	for i, d := range docs {
		t, err := decodeType(d.Type)
		if err != nil {
			return nil, err
		}
		kind := catalogs.Physical
		switch d.Kind {
		case "COMPUTED":
			kind = catalogs.Computed
		case "METADATA":
			kind = catalogs.Metadata
		}
		out[i] = catalogs.Column{Name: d.Name, Kind: kind, Type: t, Expr: d.Expr,
			MetadataKey: d.MetadataKey, Virtual: d.Virtual, Comment: d.Comment}
	}
	return out, nil
}

// encodeObject returns the kind, definition JSON and view texts of a table
// or view.
func encodeObject(t catalogs.BaseTable) (kind, def string, orig, expanded sql.NullString, err error) {
	var doc definitionDoc
	switch v := t.(type) {
	case *catalogs.CatalogTable:
		kind = "TABLE"
		// A column whose values the table holds needs a type; storing
		// one without would leave a table nothing can read or write.
		for _, c := range v.Schema.Columns {
			if c.Type == nil && c.Kind != catalogs.Computed {
				return "", "", orig, expanded, catalogs.ClassErrorf(catalogs.ErrUnsupported, "ValidationException",
					"Column '%s' has no data type.", c.Name)
			}
		}
		doc.Columns = encodeColumns(v.Schema.Columns)
		if pk := v.Schema.PrimaryKey; pk != nil {
			doc.PrimaryKey = &pkDoc{Name: pk.Name, Columns: pk.Columns}
		}
		for _, w := range v.Schema.Watermarks {
			doc.Watermarks = append(doc.Watermarks, watermarkDoc{Column: w.RowtimeColumn, Expr: w.Expr})
		}
		doc.PartitionKeys = v.PartitionKeys
		if d := v.Distribution; d != nil {
			doc.Distribution = &distributionDoc{Kind: d.Kind.String(), Keys: d.Keys, Buckets: d.Buckets}
		}
	case *catalogs.CatalogView:
		kind = "VIEW"
		doc.Columns = encodeColumns(v.Columns)
		orig = sql.NullString{String: v.OriginalQuery, Valid: true}
		expanded = sql.NullString{String: v.ExpandedQuery, Valid: true}
	default:
		return "", "", orig, expanded, fmt.Errorf("unknown table kind %T", t)
	}
	b, err := json.Marshal(doc)
	return kind, string(b), orig, expanded, err
}

func decodeObject(kind, def, comment, options string, orig, expanded sql.NullString) (catalogs.BaseTable, error) {
	var doc definitionDoc
	if err := json.Unmarshal([]byte(def), &doc); err != nil {
		return nil, fmt.Errorf("stored definition: %w", err)
	}
	opts, err := decodeOptions(options)
	if err != nil {
		return nil, err
	}
	cols, err := decodeColumns(doc.Columns)
	if err != nil {
		return nil, err
	}
	if kind == "VIEW" {
		return &catalogs.CatalogView{OriginalQuery: orig.String, ExpandedQuery: expanded.String,
			Columns: cols, Comment: comment, Options: opts}, nil
	}
	t := &catalogs.CatalogTable{Schema: catalogs.Schema{Columns: cols}, PartitionKeys: doc.PartitionKeys,
		Options: opts, Comment: comment}
	if pk := doc.PrimaryKey; pk != nil {
		t.Schema.PrimaryKey = &catalogs.PrimaryKey{Name: pk.Name, Columns: pk.Columns}
	}
	for _, w := range doc.Watermarks {
		t.Schema.Watermarks = append(t.Schema.Watermarks, catalogs.WatermarkSpec{RowtimeColumn: w.Column, Expr: w.Expr})
	}
	if d := doc.Distribution; d != nil {
		k := catalogs.DistUnknown
		switch d.Kind {
		case "HASH":
			k = catalogs.DistHash
		case "RANGE":
			k = catalogs.DistRange
		}
		t.Distribution = &catalogs.Distribution{Kind: k, Keys: d.Keys, Buckets: d.Buckets}
	}
	return t, nil
}

func encodeOptions(m map[string]string) string {
	if m == nil {
		m = map[string]string{}
	}
	b, _ := json.Marshal(m) // a map of strings always marshals
	return string(b)
}

func decodeOptions(s string) (map[string]string, error) {
	m := map[string]string{}
	if s == "" {
		return m, nil
	}
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		return nil, fmt.Errorf("stored options: %w", err)
	}
	return m, nil
}
