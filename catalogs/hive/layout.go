package hive

import (
	"fmt"
	"maps"
	"sort"
	"strconv"
	"strings"

	hms "github.com/beltran/gohive/hive_metastore"

	"eddy/catalogs"
	"eddy/engine/types"
)

// The layout Flink's HiveCatalog gives its objects in the metastore
// (HiveTableUtil.instantiateHiveTable, CatalogPropertiesUtil).
const (
	flinkPrefix = "flink."     // Flink-created table parameters
	isGeneric   = "is_generic" // set on views and connector-less tables
	keyComment  = "comment"
	connector   = "connector"
	identifier  = "hive" // the connector of Hive tables

	tableTypeManaged  = "MANAGED_TABLE"
	tableTypeExternal = "EXTERNAL_TABLE"
	tableTypeView     = "VIRTUAL_VIEW"

	// Options the Hive dialect's CREATE TABLE turns its clauses into, and
	// that the catalog turns into the storage descriptor.
	optLocation      = "hive.location-uri"
	optExternal      = "hive.is-external"
	optFileFormat    = "hive.storage.file-format"
	optInputFormat   = "hive.stored.as.input.format"
	optOutputFormat  = "hive.stored.as.output.format"
	optSerdeLib      = "hive.serde.lib.class.name"
	optSerdePropPref = "hive.serde.info.prop."
	optDBLocation    = "hive.database.location-uri"

	// Hive's default text storage (LazySimpleSerDe over text files).
	serdeLazySimple  = "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe"
	inputText        = "org.apache.hadoop.mapred.TextInputFormat"
	outputText       = "org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat"
	serdeParquet     = "org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe"
	inputParquet     = "org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat"
	outputParquet    = "org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat"
	serdeORC         = "org.apache.hadoop.hive.ql.io.orc.OrcSerde"
	inputORC         = "org.apache.hadoop.hive.ql.io.orc.OrcInputFormat"
	outputORC        = "org.apache.hadoop.hive.ql.io.orc.OrcOutputFormat"
	serdeFieldDelim  = "field.delim"
	serdeSerialFmt   = "serialization.format"
	serdeNullFormat  = "serialization.null.format"
	flinkScalaPrefix = "flink:scala:"
	flinkPyPrefix    = "flink:python:"
)

// isHiveTable reports whether options describe a Hive table (Flink's
// HiveCatalog.isHiveTable(Map)).
func isHiveTable(options map[string]string) bool {
	return strings.EqualFold(options[connector], identifier)
}

// storedIsHiveTable reports whether a metastore table is a Hive table
// rather than a Flink generic one (HiveCatalog.isHiveTable(Table)).
func storedIsHiveTable(t *hms.Table) bool {
	if v, ok := t.Parameters[isGeneric]; ok {
		return !strings.EqualFold(v, "true")
	}
	_, c := t.Parameters[flinkPrefix+connector]
	_, ct := t.Parameters[flinkPrefix+"connector.type"]
	return !c && !ct
}

// storageFor returns the storage descriptor of a STORED AS format.
func storageFor(format string) (input, output, serde string, err error) {
	switch strings.ToUpper(format) {
	case "TEXTFILE":
		return inputText, outputText, serdeLazySimple, nil
	case "PARQUET":
		return inputParquet, outputParquet, serdeParquet, nil
	case "ORC":
		return inputORC, outputORC, serdeORC, nil
	}
	return "", "", "", fmt.Errorf("Unknown storage format %s", format)
}

func defaultStorage() *hms.StorageDescriptor {
	return &hms.StorageDescriptor{
		Cols:         []*hms.FieldSchema{},
		InputFormat:  inputText,
		OutputFormat: outputText,
		NumBuckets:   -1,
		SerdeInfo: &hms.SerDeInfo{
			SerializationLib: serdeLazySimple,
			Parameters:       map[string]string{serdeSerialFmt: "1"},
		},
		BucketCols: []string{},
		SortCols:   []*hms.Order{},
		Parameters: map[string]string{},
	}
}

// toHiveTable is the metastore form of a table or view.
func toHiveTable(path catalogs.ObjectPath, base catalogs.BaseTable) (*hms.Table, error) {
	t := &hms.Table{
		DbName:        path.Database,
		TableName:     path.Object,
		Sd:            defaultStorage(),
		PartitionKeys: []*hms.FieldSchema{},
		Parameters:    map[string]string{},
		TableType:     tableTypeManaged,
		OwnerType:     hms.PrincipalType_USER,
	}
	props := maps.Clone(base.GetOptions())
	if props == nil {
		props = map[string]string{}
	}
	if c := base.GetComment(); c != "" {
		props[keyComment] = c
	}
	view, isView := base.(*catalogs.CatalogView)
	table, _ := base.(*catalogs.CatalogTable)
	hiveTable := isHiveTable(props) && !isView

	var cols []catalogs.Column
	var partKeys []string
	if isView {
		cols = view.Columns
	} else {
		cols = table.Schema.Columns
		partKeys = table.PartitionKeys
	}

	if hiveTable {
		if err := applyStorage(t, props); err != nil {
			return nil, err
		}
		delete(props, connector)
		maps.Copy(t.Parameters, props)
	} else {
		var flink map[string]string
		if isView {
			flink = serializeColumns(view.Columns, nil, nil)
			if view.Comment != "" {
				flink[keyComment] = view.Comment
			}
			maps.Copy(flink, view.Options)
		} else {
			flink = serializeTable(table)
		}
		delete(flink, isGeneric)
		for k, v := range flink {
			t.Parameters[flinkPrefix+k] = v
		}
		if isView || (flink[connector] == "" && flink["connector.type"] == "") {
			t.Parameters[isGeneric] = "true"
		}
	}

	// Columns and partition keys in Hive types; a generic table whose
	// types Hive lacks keeps only its Flink properties, as Flink does.
	fields, err := hiveColumns(cols)
	if err != nil && hiveTable {
		return nil, err
	}
	if err == nil {
		if len(partKeys) > 0 {
			byName := map[string]*hms.FieldSchema{}
			for _, f := range fields {
				byName[f.Name] = f
			}
			var regular []*hms.FieldSchema
			for _, f := range fields {
				if !containsFold(partKeys, f.Name) {
					regular = append(regular, f)
				}
			}
			var parts []*hms.FieldSchema
			for _, k := range partKeys {
				if f := byName[k]; f != nil {
					parts = append(parts, f)
				}
			}
			t.Sd.Cols = nonNil(regular)
			t.PartitionKeys = parts
		} else {
			t.Sd.Cols = fields
		}
	}
	if isView {
		t.PartitionKeys = []*hms.FieldSchema{}
		t.ViewOriginalText = view.OriginalQuery
		t.ViewExpandedText = view.ExpandedQuery
		t.TableType = tableTypeView
		// Hive's own views have no location, but the Thrift bindings
		// cannot leave it unset and the metastore takes an empty one for
		// a path when it drops the database: CreateTable gives a view the
		// path a table of its name would have, where nothing is written.
	}
	return t, nil
}

func nonNil(f []*hms.FieldSchema) []*hms.FieldSchema {
	if f == nil {
		return []*hms.FieldSchema{}
	}
	return f
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

func hiveColumns(cols []catalogs.Column) ([]*hms.FieldSchema, error) {
	out := make([]*hms.FieldSchema, 0, len(cols))
	for _, c := range cols {
		if c.Type == nil {
			return nil, fmt.Errorf("column %s has no type", c.Name)
		}
		name, err := hiveTypeName(c.Type)
		if err != nil {
			return nil, err
		}
		out = append(out, &hms.FieldSchema{Name: strings.ToLower(c.Name), Type: name, Comment: c.Comment})
	}
	return out, nil
}

// applyStorage moves the Hive dialect's storage options into the table's
// storage descriptor and type (HiveTableUtil.initiateTableFromProperties).
func applyStorage(t *hms.Table, props map[string]string) error {
	if v, ok := props[optExternal]; ok {
		delete(props, optExternal)
		if strings.EqualFold(v, "true") {
			t.TableType = tableTypeExternal
			t.Parameters["EXTERNAL"] = "TRUE"
		}
	}
	if lib, ok := props[optSerdeLib]; ok {
		delete(props, optSerdeLib)
		t.Sd.SerdeInfo.SerializationLib = lib
	}
	for k, v := range maps.Clone(props) {
		if !strings.HasPrefix(k, optSerdePropPref) {
			continue
		}
		delete(props, k)
		key := strings.TrimPrefix(k, optSerdePropPref)
		t.Sd.SerdeInfo.Parameters[key] = v
		if key == serdeFieldDelim {
			t.Sd.SerdeInfo.Parameters[serdeSerialFmt] = v
		}
	}
	if f, ok := props[optFileFormat]; ok {
		delete(props, optFileFormat)
		in, out, serde, err := storageFor(f)
		if err != nil {
			return err
		}
		t.Sd.InputFormat, t.Sd.OutputFormat = in, out
		if serde != serdeLazySimple || t.Sd.SerdeInfo.SerializationLib == "" {
			t.Sd.SerdeInfo.SerializationLib = serde
		}
	} else if in, ok := props[optInputFormat]; ok {
		delete(props, optInputFormat)
		t.Sd.InputFormat = in
		t.Sd.OutputFormat = props[optOutputFormat]
		delete(props, optOutputFormat)
	}
	if loc, ok := props[optLocation]; ok {
		delete(props, optLocation)
		t.Sd.Location = loc
	}
	return nil
}

// serializeTable is CatalogPropertiesUtil.serializeCatalogTable.
func serializeTable(t *catalogs.CatalogTable) map[string]string {
	m := serializeColumns(t.Schema.Columns, t.Schema.PrimaryKey, t.Schema.Watermarks)
	if t.Comment != "" {
		m[keyComment] = t.Comment
	}
	for i, k := range t.PartitionKeys {
		m[fmt.Sprintf("partition.keys.%d.name", i)] = k
	}
	maps.Copy(m, t.Options)
	return m
}

func serializeColumns(cols []catalogs.Column, pk *catalogs.PrimaryKey, wms []catalogs.WatermarkSpec) map[string]string {
	m := map[string]string{}
	typeOf := map[string]*types.Type{}
	for i, c := range cols {
		p := fmt.Sprintf("schema.%d.", i)
		m[p+"name"] = c.Name
		if c.Type != nil {
			m[p+"data-type"] = c.Type.SerializableString()
			typeOf[c.Name] = c.Type
		}
		switch c.Kind {
		case catalogs.Computed:
			m[p+"expr"] = c.Expr
		case catalogs.Metadata:
			key := c.MetadataKey
			if key == "" {
				key = c.Name
			}
			m[p+"metadata"] = key
			m[p+"virtual"] = strconv.FormatBool(c.Virtual)
		}
		if c.Comment != "" {
			m[p+"comment"] = c.Comment
		}
	}
	for i, w := range wms {
		p := fmt.Sprintf("schema.watermark.%d.", i)
		m[p+"rowtime"] = w.RowtimeColumn
		m[p+"strategy.expr"] = w.Expr
		if t := typeOf[w.RowtimeColumn]; t != nil {
			m[p+"strategy.data-type"] = t.WithTimeAttr(types.Regular).SerializableString()
		}
	}
	if pk != nil {
		m["schema.primary-key.name"] = pk.Name
		m["schema.primary-key.columns"] = strings.Join(pk.Columns, ",")
	}
	return m
}

// fromHiveTable is the catalog form of a metastore table or view
// (HiveCatalog.instantiateCatalogTable).
func fromHiveTable(t *hms.Table) (catalogs.BaseTable, error) {
	view := t.TableType == tableTypeView
	if storedIsHiveTable(t) {
		var cols []catalogs.Column
		var partKeys []string
		var fields []*hms.FieldSchema
		if t.Sd != nil {
			fields = append(fields, t.Sd.Cols...)
		}
		fields = append(fields, t.PartitionKeys...)
		for _, f := range fields {
			ft, err := flinkType(f.Type)
			if err != nil {
				return nil, err
			}
			cols = append(cols, catalogs.Column{Name: f.Name, Type: ft, Comment: f.Comment})
		}
		for _, f := range t.PartitionKeys {
			partKeys = append(partKeys, f.Name)
		}
		opts := maps.Clone(t.Parameters)
		if opts == nil {
			opts = map[string]string{}
		}
		comment := opts[keyComment]
		delete(opts, keyComment)
		opts[connector] = identifier
		if view {
			return &catalogs.CatalogView{OriginalQuery: t.ViewOriginalText, ExpandedQuery: t.ViewExpandedText,
				Columns: cols, Comment: comment, Options: opts}, nil
		}
		return &catalogs.CatalogTable{Schema: catalogs.Schema{Columns: cols}, PartitionKeys: partKeys, Options: opts, Comment: comment}, nil
	}
	props := map[string]string{}
	for k, v := range t.Parameters {
		if strings.HasPrefix(k, flinkPrefix) {
			props[strings.TrimPrefix(k, flinkPrefix)] = v
		}
	}
	schema, rest, err := deserializeSchema(props)
	if err != nil {
		return nil, fmt.Errorf("table %s.%s: %v", t.DbName, t.TableName, err)
	}
	comment := rest[keyComment]
	delete(rest, keyComment)
	var partKeys []string
	for i := 0; ; i++ {
		k := fmt.Sprintf("partition.keys.%d.name", i)
		v, ok := rest[k]
		if !ok {
			break
		}
		partKeys = append(partKeys, v)
	}
	for k := range rest {
		if strings.HasPrefix(k, "partition.keys.") || k == "snapshot" {
			delete(rest, k)
		}
	}
	if view {
		for i := range schema.Columns {
			schema.Columns[i].Kind = catalogs.Physical
		}
		return &catalogs.CatalogView{OriginalQuery: t.ViewOriginalText, ExpandedQuery: t.ViewExpandedText,
			Columns: schema.Columns, Comment: comment, Options: rest}, nil
	}
	return &catalogs.CatalogTable{Schema: schema, PartitionKeys: partKeys, Options: rest, Comment: comment}, nil
}

// deserializeSchema reads schema.* properties and returns the others.
func deserializeSchema(props map[string]string) (catalogs.Schema, map[string]string, error) {
	var s catalogs.Schema
	for i := 0; ; i++ {
		p := fmt.Sprintf("schema.%d.", i)
		name, ok := props[p+"name"]
		if !ok {
			break
		}
		c := catalogs.Column{Name: name, Comment: props[p+"comment"]}
		if dt, ok := props[p+"data-type"]; ok {
			t, err := types.Parse(dt)
			if err != nil {
				return s, nil, fmt.Errorf("column %s: data type '%s': %v", name, dt, err)
			}
			c.Type = t
		}
		if e, ok := props[p+"expr"]; ok {
			c.Kind, c.Expr = catalogs.Computed, e
		} else if md, ok := props[p+"metadata"]; ok {
			c.Kind = catalogs.Metadata
			if md != name {
				c.MetadataKey = md
			}
			c.Virtual = strings.EqualFold(props[p+"virtual"], "true")
		} else if c.Type == nil {
			return s, nil, fmt.Errorf("column %s has no data type", name)
		}
		s.Columns = append(s.Columns, c)
	}
	for i := 0; ; i++ {
		p := fmt.Sprintf("schema.watermark.%d.", i)
		rt, ok := props[p+"rowtime"]
		if !ok {
			break
		}
		s.Watermarks = append(s.Watermarks, catalogs.WatermarkSpec{RowtimeColumn: rt, Expr: props[p+"strategy.expr"]})
	}
	if n, ok := props["schema.primary-key.name"]; ok {
		s.PrimaryKey = &catalogs.PrimaryKey{Name: n, Columns: strings.Split(props["schema.primary-key.columns"], ",")}
	}
	rest := map[string]string{}
	for k, v := range props {
		if !strings.HasPrefix(k, "schema.") {
			rest[k] = v
		}
	}
	return s, rest, nil
}

// Functions: Hive keeps a class name only, so the language is a prefix of
// it (HiveCatalog.instantiateHiveFunction).
func toHiveFunction(path catalogs.ObjectPath, fn *catalogs.CatalogFunction, now int32) *hms.Function {
	class := fn.ClassName
	switch fn.Language {
	case catalogs.LangScala:
		class = flinkScalaPrefix + class
	case catalogs.LangPython:
		class = flinkPyPrefix + class
	}
	var res []*hms.ResourceUri
	for _, r := range fn.Resources {
		rt := hms.ResourceType_JAR
		switch strings.ToUpper(r.Type) {
		case "FILE":
			rt = hms.ResourceType_FILE
		case "ARCHIVE":
			rt = hms.ResourceType_ARCHIVE
		}
		res = append(res, &hms.ResourceUri{ResourceType: rt, URI: r.URI})
	}
	if res == nil {
		res = []*hms.ResourceUri{}
	}
	return &hms.Function{
		FunctionName: strings.ToLower(strings.TrimSpace(path.Object)),
		DbName:       path.Database,
		ClassName:    class,
		OwnerType:    hms.PrincipalType_GROUP,
		CreateTime:   now,
		FunctionType: hms.FunctionType_JAVA,
		ResourceUris: res,
	}
}

func fromHiveFunction(f *hms.Function) *catalogs.CatalogFunction {
	out := &catalogs.CatalogFunction{ClassName: f.ClassName, Language: catalogs.LangJava}
	switch {
	case strings.HasPrefix(f.ClassName, flinkScalaPrefix):
		out.ClassName, out.Language = strings.TrimPrefix(f.ClassName, flinkScalaPrefix), catalogs.LangScala
	case strings.HasPrefix(f.ClassName, flinkPyPrefix):
		out.ClassName, out.Language = strings.TrimPrefix(f.ClassName, flinkPyPrefix), catalogs.LangPython
	}
	for _, r := range f.ResourceUris {
		out.Resources = append(out.Resources, catalogs.Resource{Type: r.ResourceType.String(), URI: r.URI})
	}
	return out
}

// partitionName is Hive's k1=v1/k2=v2 name of a partition (values
// escaped as FileUtils.escapePathName does).
func partitionName(keys []string, spec catalogs.PartitionSpec) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = escapePath(k) + "=" + escapePath(spec[k])
	}
	return strings.Join(parts, "/")
}

// parsePartitionName reads a k1=v1/k2=v2 partition name.
func parsePartitionName(name string) catalogs.PartitionSpec {
	spec := catalogs.PartitionSpec{}
	for _, kv := range strings.Split(name, "/") {
		k, v, _ := strings.Cut(kv, "=")
		spec[unescapePath(k)] = unescapePath(v)
	}
	return spec
}

// escapePath escapes the characters Hive escapes in partition paths.
func escapePath(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == 0x7f || strings.IndexByte("\"#%'*/:=?\\{[]^", c) >= 0 {
			fmt.Fprintf(&b, "%%%02X", c)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

func unescapePath(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil {
				b.WriteByte(byte(n))
				i += 2
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func sortedSpecs(specs []catalogs.PartitionSpec, keys []string) {
	sort.SliceStable(specs, func(i, j int) bool {
		return partitionName(keys, specs[i]) < partitionName(keys, specs[j])
	})
}
