package hive

import (
	"reflect"
	"strings"
	"testing"

	"eddy/catalogs"
	"eddy/engine/types"
)

func mustType(t *testing.T, s string) *types.Type {
	t.Helper()
	ty, err := types.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return ty
}

func TestHiveTypes(t *testing.T) {
	for _, c := range []struct{ flink, hive, back string }{
		{"INT", "int", "INT"},
		{"STRING", "string", "VARCHAR(2147483647)"},
		{"VARCHAR(10)", "varchar(10)", "VARCHAR(10)"},
		{"CHAR(3)", "char(3)", "CHAR(3)"},
		{"DECIMAL(10, 2)", "decimal(10,2)", "DECIMAL(10, 2)"},
		{"TIMESTAMP(3)", "timestamp", "TIMESTAMP(9)"},
		{"BYTES", "binary", "VARBINARY(2147483647)"},
		{"ARRAY<INT>", "array<int>", "ARRAY<INT>"},
		{"MAP<STRING, BIGINT>", "map<string,bigint>", "MAP<VARCHAR(2147483647), BIGINT>"},
		{"ROW<a INT, b STRING>", "struct<a:int,b:string>", "ROW<`a` INT, `b` VARCHAR(2147483647)>"},
	} {
		h, err := hiveTypeName(mustType(t, c.flink))
		if err != nil || h != c.hive {
			t.Errorf("hive type of %s = %q, %v; want %q", c.flink, h, err, c.hive)
			continue
		}
		back, err := flinkType(h)
		if err != nil || back.SerializableString() != c.back {
			t.Errorf("Flink type of %s = %v, %v; want %s", h, back, err, c.back)
		}
	}
	if _, err := hiveTypeName(mustType(t, "TIMESTAMP_LTZ(3)")); err == nil {
		t.Error("TIMESTAMP_LTZ has a Hive type")
	}
	if _, err := flinkType("uniontype<int,string>"); err == nil {
		t.Error("uniontype read as a Flink type")
	}
}

// The generic table layout is Flink's: the keys CatalogPropertiesUtil
// writes, prefixed with flink., and is_generic when no connector is named.
func TestGenericTableLayout(t *testing.T) {
	tbl := &catalogs.CatalogTable{
		Schema: catalogs.Schema{
			Columns: []catalogs.Column{
				{Name: "id", Type: mustType(t, "BIGINT NOT NULL"), Comment: "key"},
				{Name: "ts", Type: mustType(t, "TIMESTAMP(3)")},
				{Name: "d", Kind: catalogs.Computed, Expr: "`id` + 1"},
				{Name: "off", Kind: catalogs.Metadata, Type: mustType(t, "BIGINT"), MetadataKey: "offset", Virtual: true},
			},
			PrimaryKey: &catalogs.PrimaryKey{Name: "PK_id", Columns: []string{"id"}},
			Watermarks: []catalogs.WatermarkSpec{{RowtimeColumn: "ts", Expr: "`ts` - INTERVAL '1' SECOND"}},
		},
		PartitionKeys: []string{"ts"},
		Options:       map[string]string{"connector": "kafka", "topic": "t"},
		Comment:       "c",
	}
	ht, err := toHiveTable(catalogs.ObjectPath{Database: "db", Object: "t"}, tbl)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"flink.schema.0.name": "id", "flink.schema.0.data-type": "BIGINT NOT NULL", "flink.schema.0.comment": "key",
		"flink.schema.1.name": "ts", "flink.schema.1.data-type": "TIMESTAMP(3)",
		"flink.schema.2.name": "d", "flink.schema.2.expr": "`id` + 1",
		"flink.schema.3.name": "off", "flink.schema.3.data-type": "BIGINT", "flink.schema.3.metadata": "offset", "flink.schema.3.virtual": "true",
		"flink.schema.watermark.0.rowtime": "ts", "flink.schema.watermark.0.strategy.expr": "`ts` - INTERVAL '1' SECOND",
		"flink.schema.watermark.0.strategy.data-type": "TIMESTAMP(3)",
		"flink.schema.primary-key.name":               "PK_id", "flink.schema.primary-key.columns": "id",
		"flink.partition.keys.0.name": "ts", "flink.comment": "c", "flink.connector": "kafka", "flink.topic": "t",
	}
	if !reflect.DeepEqual(ht.Parameters, want) {
		t.Errorf("parameters:\n got %v\nwant %v", ht.Parameters, want)
	}
	if ht.TableType != "MANAGED_TABLE" || storedIsHiveTable(ht) {
		t.Errorf("type %s, hive table %v", ht.TableType, storedIsHiveTable(ht))
	}
	back, err := fromHiveTable(ht)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, tbl) {
		t.Errorf("round trip:\n got %+v\nwant %+v", back, tbl)
	}

	// Without a connector the table is marked generic, or Flink would
	// take it for a Hive table.
	bare := &catalogs.CatalogTable{Schema: catalogs.Schema{Columns: []catalogs.Column{{Name: "x", Type: mustType(t, "INT")}}}}
	hb, err := toHiveTable(catalogs.ObjectPath{Database: "db", Object: "b"}, bare)
	if err != nil || hb.Parameters["is_generic"] != "true" || storedIsHiveTable(hb) {
		t.Errorf("bare table parameters %v, %v", hb.Parameters, err)
	}
}

func TestViewLayout(t *testing.T) {
	v := &catalogs.CatalogView{
		OriginalQuery: "SELECT * FROM t",
		ExpandedQuery: "SELECT `t`.`a` FROM `c`.`db`.`t` AS `t`",
		Columns:       []catalogs.Column{{Name: "a", Type: mustType(t, "INT")}},
		Comment:       "about",
		Options:       map[string]string{},
	}
	ht, err := toHiveTable(catalogs.ObjectPath{Database: "db", Object: "v"}, v)
	if err != nil {
		t.Fatal(err)
	}
	if ht.TableType != "VIRTUAL_VIEW" || ht.ViewOriginalText != v.OriginalQuery || ht.ViewExpandedText != v.ExpandedQuery ||
		ht.Parameters["is_generic"] != "true" || ht.Parameters["flink.comment"] != "about" || len(ht.Sd.Cols) != 1 {
		t.Errorf("view record %+v", ht)
	}
	back, err := fromHiveTable(ht)
	if err != nil || !reflect.DeepEqual(back, v) {
		t.Errorf("round trip %+v, %v", back, err)
	}
}

// A Hive table's clauses become its storage descriptor; its TBLPROPERTIES
// stay table parameters, unprefixed.
func TestHiveTableLayout(t *testing.T) {
	tbl := &catalogs.CatalogTable{
		Schema: catalogs.Schema{Columns: []catalogs.Column{
			{Name: "a", Type: mustType(t, "INT")}, {Name: "dt", Type: mustType(t, "STRING")},
		}},
		PartitionKeys: []string{"dt"},
		Options: map[string]string{
			"connector": "hive", "hive.serde.info.prop.field.delim": ",", "hive.storage.file-format": "TEXTFILE",
			"hive.location-uri": "file:/data/t", "hive.is-external": "true", "k": "v",
		},
		Comment: "hive table",
	}
	ht, err := toHiveTable(catalogs.ObjectPath{Database: "db", Object: "t"}, tbl)
	if err != nil {
		t.Fatal(err)
	}
	if ht.TableType != "EXTERNAL_TABLE" || ht.Sd.Location != "file:/data/t" || ht.Sd.SerdeInfo.Parameters["field.delim"] != "," ||
		ht.Sd.SerdeInfo.Parameters["serialization.format"] != "," || len(ht.Sd.Cols) != 1 || len(ht.PartitionKeys) != 1 ||
		ht.Parameters["k"] != "v" || ht.Parameters["comment"] != "hive table" || ht.Parameters["EXTERNAL"] != "TRUE" {
		t.Errorf("hive table record %+v, sd %+v", ht, ht.Sd)
	}
	for k := range ht.Parameters {
		if strings.HasPrefix(k, "flink.") || strings.HasPrefix(k, "hive.") || k == "connector" {
			t.Errorf("parameter %s kept", k)
		}
	}
	back, err := fromHiveTable(ht)
	if err != nil {
		t.Fatal(err)
	}
	bt := back.(*catalogs.CatalogTable)
	if bt.Options["connector"] != "hive" || bt.Comment != "hive table" || !reflect.DeepEqual(bt.PartitionKeys, []string{"dt"}) || len(bt.Schema.Columns) != 2 {
		t.Errorf("read back %+v", bt)
	}
}

func TestFunctionLayout(t *testing.T) {
	for _, f := range []*catalogs.CatalogFunction{
		{ClassName: "a.B", Language: catalogs.LangJava},
		{ClassName: "a.C", Language: catalogs.LangScala},
		{ClassName: "m.f", Language: catalogs.LangPython, Resources: []catalogs.Resource{{Type: "FILE", URI: "/x.py"}}},
	} {
		hf := toHiveFunction(catalogs.ObjectPath{Database: "db", Object: "MyFn"}, f, 1)
		if hf.FunctionName != "myfn" {
			t.Errorf("function name %s", hf.FunctionName)
		}
		if back := fromHiveFunction(hf); !reflect.DeepEqual(back, f) {
			t.Errorf("round trip of %+v: %+v (class %s)", f, back, hf.ClassName)
		}
	}
}

func TestPartitionNames(t *testing.T) {
	keys := []string{"dt", "city"}
	spec := catalogs.PartitionSpec{"dt": "2024-01-01", "city": "a/b=c"}
	name := partitionName(keys, spec)
	if name != "dt=2024-01-01/city=a%2Fb%3Dc" {
		t.Errorf("name %s", name)
	}
	if back := parsePartitionName(name); !reflect.DeepEqual(back, spec) {
		t.Errorf("parsed %v", back)
	}
}
