package iceberg

import (
	"fmt"

	iceberg "github.com/apache/iceberg-go"

	"eddy/catalogs"
	"eddy/engine/types"
)

// idGen numbers the fields of a new schema as Iceberg's FlinkSchemaUtil
// does before the catalog assigns fresh ids: top-level columns first,
// then nested fields.
type idGen struct{ next int }

func (g *idGen) id() int { g.next++; return g.next }

// toIcebergSchema converts a table's physical columns (Iceberg's
// FlinkSchemaUtil.convert): the primary key columns become the identifier
// fields and are required.
func toIcebergSchema(s catalogs.Schema) (*iceberg.Schema, error) {
	var pk []string
	if s.PrimaryKey != nil {
		pk = s.PrimaryKey.Columns
	}
	g := &idGen{next: len(s.Columns)}
	fields := make([]iceberg.NestedField, 0, len(s.Columns))
	var ids []int
	for i, c := range s.Columns {
		if c.Kind != catalogs.Physical {
			return nil, fmt.Errorf("Creating table with computed columns is not supported yet.")
		}
		t, err := toIcebergType(c.Type, g)
		if err != nil {
			return nil, fmt.Errorf("column %s: %w", c.Name, err)
		}
		f := iceberg.NestedField{ID: i + 1, Name: c.Name, Type: t, Required: c.Type.NotNull, Doc: c.Comment}
		if contains(pk, c.Name) {
			f.Required = true
			ids = append(ids, f.ID)
		}
		fields = append(fields, f)
	}
	return iceberg.NewSchemaWithIdentifiers(0, ids, fields...), nil
}

// toIcebergType maps a Flink type as Iceberg's FlinkTypeToType does.
func toIcebergType(t *types.Type, g *idGen) (iceberg.Type, error) {
	switch t.Kind {
	case types.Char, types.VarChar:
		return iceberg.PrimitiveTypes.String, nil
	case types.Boolean:
		return iceberg.PrimitiveTypes.Bool, nil
	case types.Binary:
		return iceberg.FixedTypeOf(t.Length), nil
	case types.VarBinary:
		return iceberg.PrimitiveTypes.Binary, nil
	case types.Decimal:
		return iceberg.DecimalTypeOf(t.Prec, t.Scale), nil
	case types.TinyInt, types.SmallInt, types.Int:
		return iceberg.PrimitiveTypes.Int32, nil
	case types.BigInt:
		return iceberg.PrimitiveTypes.Int64, nil
	case types.Float:
		return iceberg.PrimitiveTypes.Float32, nil
	case types.Double:
		return iceberg.PrimitiveTypes.Float64, nil
	case types.Date:
		return iceberg.PrimitiveTypes.Date, nil
	case types.Time:
		return iceberg.PrimitiveTypes.Time, nil
	case types.Timestamp:
		return iceberg.PrimitiveTypes.Timestamp, nil
	case types.TimestampLTZ:
		return iceberg.PrimitiveTypes.TimestampTz, nil
	case types.Array, types.Multiset:
		id := g.id()
		if t.Kind == types.Multiset {
			// Iceberg keeps a MULTISET as a map of counts.
			vid := g.id()
			k, err := toIcebergType(t.Elem, g)
			if err != nil {
				return nil, err
			}
			return &iceberg.MapType{KeyID: id, KeyType: k, ValueID: vid, ValueType: iceberg.PrimitiveTypes.Int32, ValueRequired: true}, nil
		}
		e, err := toIcebergType(t.Elem, g)
		if err != nil {
			return nil, err
		}
		return &iceberg.ListType{ElementID: id, Element: e, ElementRequired: t.Elem.NotNull}, nil
	case types.Map:
		kid, vid := g.id(), g.id()
		k, err := toIcebergType(t.Elem, g)
		if err != nil {
			return nil, err
		}
		v, err := toIcebergType(t.Val, g)
		if err != nil {
			return nil, err
		}
		return &iceberg.MapType{KeyID: kid, KeyType: k, ValueID: vid, ValueType: v, ValueRequired: t.Val.NotNull}, nil
	case types.Row:
		ids := make([]int, len(t.Fields))
		for i := range t.Fields {
			ids[i] = g.id()
		}
		fs := make([]iceberg.NestedField, len(t.Fields))
		for i, f := range t.Fields {
			ft, err := toIcebergType(f.Type, g)
			if err != nil {
				return nil, err
			}
			fs[i] = iceberg.NestedField{ID: ids[i], Name: f.Name, Type: ft, Required: f.Type.NotNull, Doc: f.Description}
		}
		return &iceberg.StructType{FieldList: fs}, nil
	}
	return nil, fmt.Errorf("Unsupported type: %s", t)
}

// fromIcebergSchema converts an Iceberg schema to columns (Iceberg's
// FlinkSchemaUtil.toResolvedSchema): identifier fields are the primary key.
func fromIcebergSchema(s *iceberg.Schema) (catalogs.Schema, error) {
	var out catalogs.Schema
	for _, f := range s.Fields() {
		t, err := fromIcebergType(f.Type)
		if err != nil {
			return out, fmt.Errorf("column %s: %w", f.Name, err)
		}
		t.NotNull = f.Required
		out.Columns = append(out.Columns, catalogs.Column{Name: f.Name, Kind: catalogs.Physical, Type: t, Comment: f.Doc})
	}
	if len(s.IdentifierFieldIDs) > 0 {
		pk := &catalogs.PrimaryKey{Name: "PK"}
		for _, id := range s.IdentifierFieldIDs {
			name, ok := s.FindColumnName(id)
			if !ok {
				return out, fmt.Errorf("identifier field %d is not in the schema", id)
			}
			pk.Columns = append(pk.Columns, name)
			pk.Name += "_" + name
		}
		out.PrimaryKey = pk
	}
	return out, nil
}

// fromIcebergType maps an Iceberg type as Iceberg's TypeToFlinkType does.
func fromIcebergType(t iceberg.Type) (*types.Type, error) {
	switch t := t.(type) {
	case iceberg.BooleanType:
		return types.New(types.Boolean), nil
	case iceberg.Int32Type:
		return types.New(types.Int), nil
	case iceberg.Int64Type:
		return types.New(types.BigInt), nil
	case iceberg.Float32Type:
		return types.New(types.Float), nil
	case iceberg.Float64Type:
		return types.New(types.Double), nil
	case iceberg.DateType:
		return types.New(types.Date), nil
	case iceberg.TimeType:
		return types.NewTime(0), nil
	case iceberg.TimestampType:
		return types.NewTimestamp(6), nil
	case iceberg.TimestampTzType:
		return types.NewTimestampLTZ(6), nil
	case iceberg.StringType:
		return types.NewString(), nil
	case iceberg.UUIDType:
		return types.NewBinary(16), nil
	case iceberg.FixedType:
		return types.NewBinary(t.Len()), nil
	case iceberg.BinaryType:
		return types.NewVarBinary(types.MaxLength), nil
	case iceberg.DecimalType:
		return types.NewDecimal(t.Precision(), t.Scale()), nil
	case *iceberg.ListType:
		e, err := fromIcebergType(t.Element)
		if err != nil {
			return nil, err
		}
		e.NotNull = t.ElementRequired
		return types.NewArray(e), nil
	case *iceberg.MapType:
		k, err := fromIcebergType(t.KeyType)
		if err != nil {
			return nil, err
		}
		k.NotNull = true
		v, err := fromIcebergType(t.ValueType)
		if err != nil {
			return nil, err
		}
		v.NotNull = t.ValueRequired
		return types.NewMap(k, v), nil
	case *iceberg.StructType:
		fs := make([]types.Field, len(t.FieldList))
		for i, f := range t.FieldList {
			ft, err := fromIcebergType(f.Type)
			if err != nil {
				return nil, err
			}
			ft.NotNull = f.Required
			fs[i] = types.Field{Name: f.Name, Type: ft, Description: f.Doc}
		}
		return types.NewRow(fs...), nil
	}
	return nil, fmt.Errorf("Unsupported Iceberg type: %s", t)
}

// toPartitionSpec is an identity partition of each key (Iceberg's
// FlinkCatalog.toPartitionSpec).
func toPartitionSpec(keys []string, s *iceberg.Schema) (iceberg.PartitionSpec, error) {
	fields := make([]iceberg.PartitionField, 0, len(keys))
	for i, k := range keys {
		f, ok := s.FindFieldByName(k)
		if !ok {
			return iceberg.PartitionSpec{}, fmt.Errorf("Cannot find source column: %s", k)
		}
		fields = append(fields, iceberg.PartitionField{SourceIDs: []int{f.ID}, FieldID: 1000 + i, Name: k, Transform: iceberg.IdentityTransform{}})
	}
	return iceberg.NewPartitionSpec(fields...), nil
}

// partitionKeys returns the identity partition columns of a spec; a spec
// with another transform has none for Flink (Iceberg's
// FlinkCatalog.toPartitionKeys).
func partitionKeys(spec iceberg.PartitionSpec, s *iceberg.Schema) []string {
	var keys []string
	for _, f := range spec.Fields() {
		if _, ok := f.Transform.(iceberg.IdentityTransform); !ok {
			return nil
		}
		name, ok := s.FindColumnName(f.SourceID())
		if !ok {
			return nil
		}
		keys = append(keys, name)
	}
	return keys
}
