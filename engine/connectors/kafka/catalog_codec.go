package kafka

import (
	"encoding/json"
	"fmt"

	"eddy/catalogs"
	"eddy/engine/types"
)

// A table definition is one record of the tables topic: the table's name
// as the key and this JSON document as the value (a record without value
// removes the definition). Types are kept in Flink's serializable form
// (types.Parse reads it back), the time attribute beside it.

// definitionVersion is the version of the document written.
const definitionVersion = 1

type defDoc struct {
	Version       int               `json:"version"`
	Comment       string            `json:"comment,omitempty"`
	Columns       []colDoc          `json:"columns"`
	PrimaryKey    *pkeyDoc          `json:"primaryKey,omitempty"`
	Watermarks    []wmDoc           `json:"watermarks,omitempty"`
	PartitionKeys []string          `json:"partitionKeys,omitempty"`
	Distribution  *distDoc          `json:"distribution,omitempty"`
	Options       map[string]string `json:"options"`
}

type colDoc struct {
	Name        string `json:"name"`
	Kind        string `json:"kind"`
	Type        string `json:"type,omitempty"`
	TimeAttr    string `json:"timeAttr,omitempty"`
	Expr        string `json:"expr,omitempty"`
	MetadataKey string `json:"metadataKey,omitempty"`
	Virtual     bool   `json:"virtual,omitempty"`
	Comment     string `json:"comment,omitempty"`
}

type pkeyDoc struct {
	Name    string   `json:"name"`
	Columns []string `json:"columns"`
}

type wmDoc struct {
	Column string `json:"column"`
	Expr   string `json:"expr"`
}

type distDoc struct {
	Kind    string   `json:"kind"`
	Keys    []string `json:"keys,omitempty"`
	Buckets int      `json:"buckets,omitempty"`
}

// encodeTable returns the document of a table definition.
func encodeTable(t *catalogs.CatalogTable) ([]byte, error) {
	doc := defDoc{Version: definitionVersion, Comment: t.Comment, PartitionKeys: t.PartitionKeys, Options: t.Options}
	if doc.Options == nil {
		doc.Options = map[string]string{}
	}
	for _, c := range t.Schema.Columns {
		d := colDoc{Name: c.Name, Kind: c.Kind.String(), Expr: c.Expr, MetadataKey: c.MetadataKey,
			Virtual: c.Virtual, Comment: c.Comment}
		if c.Type != nil {
			d.Type = c.Type.SerializableString()
			switch c.Type.TimeAttr {
			case types.Rowtime:
				d.TimeAttr = "ROWTIME"
			case types.Proctime:
				d.TimeAttr = "PROCTIME"
			}
		} else if c.Kind != catalogs.Computed {
			return nil, catalogs.ClassErrorf(catalogs.ErrUnsupported, "ValidationException", "Column '%s' has no data type.", c.Name)
		}
		doc.Columns = append(doc.Columns, d)
	}
	if pk := t.Schema.PrimaryKey; pk != nil {
		doc.PrimaryKey = &pkeyDoc{Name: pk.Name, Columns: pk.Columns}
	}
	for _, w := range t.Schema.Watermarks {
		doc.Watermarks = append(doc.Watermarks, wmDoc{Column: w.RowtimeColumn, Expr: w.Expr})
	}
	if d := t.Distribution; d != nil {
		doc.Distribution = &distDoc{Kind: d.Kind.String(), Keys: d.Keys, Buckets: d.Buckets}
	}
	return json.Marshal(doc)
}

// decodeTable reads a table definition document.
func decodeTable(b []byte) (*catalogs.CatalogTable, error) {
	var doc defDoc
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("table definition: %w", err)
	}
	if doc.Version > definitionVersion {
		return nil, fmt.Errorf("table definition of version %d: this eddy reads version %d", doc.Version, definitionVersion)
	}
	t := &catalogs.CatalogTable{Comment: doc.Comment, PartitionKeys: doc.PartitionKeys, Options: doc.Options}
	if t.Options == nil {
		t.Options = map[string]string{}
	}
	for _, d := range doc.Columns {
		c := catalogs.Column{Name: d.Name, Kind: catalogs.Physical, Expr: d.Expr, MetadataKey: d.MetadataKey,
			Virtual: d.Virtual, Comment: d.Comment}
		switch d.Kind {
		case catalogs.Computed.String():
			c.Kind = catalogs.Computed
		case catalogs.Metadata.String():
			c.Kind = catalogs.Metadata
		}
		if d.Type != "" {
			ty, err := types.Parse(d.Type)
			if err != nil {
				return nil, fmt.Errorf("column %s: type %q: %w", d.Name, d.Type, err)
			}
			switch d.TimeAttr {
			case "ROWTIME":
				ty = ty.WithTimeAttr(types.Rowtime)
			case "PROCTIME":
				ty = ty.WithTimeAttr(types.Proctime)
			}
			c.Type = ty
		}
		t.Schema.Columns = append(t.Schema.Columns, c)
	}
	if pk := doc.PrimaryKey; pk != nil {
		t.Schema.PrimaryKey = &catalogs.PrimaryKey{Name: pk.Name, Columns: pk.Columns}
	}
	for _, w := range doc.Watermarks {
		t.Schema.Watermarks = append(t.Schema.Watermarks, catalogs.WatermarkSpec{RowtimeColumn: w.Column, Expr: w.Expr})
	}
	if d := doc.Distribution; d != nil {
		k := catalogs.DistUnknown
		switch d.Kind {
		case catalogs.DistHash.String():
			k = catalogs.DistHash
		case catalogs.DistRange.String():
			k = catalogs.DistRange
		}
		t.Distribution = &catalogs.Distribution{Kind: k, Keys: d.Keys, Buckets: d.Buckets}
	}
	return t, nil
}
