package parser

import (
	"reflect"
	"testing"

	"eddy/engine/ast"
)

func TestHiveCreateTable(t *testing.T) {
	sql := `CREATE EXTERNAL TABLE IF NOT EXISTS db.t (id INT COMMENT 'the id', name STRING)
COMMENT 'people' PARTITIONED BY (dt STRING, hr INT)
ROW FORMAT DELIMITED FIELDS TERMINATED BY '\001' COLLECTION ITEMS TERMINATED BY ',' NULL DEFINED AS ''
STORED AS textfile LOCATION 'file:/data/t' TBLPROPERTIES ('sink.partition-commit.policy.kind' = 'metastore,success-file')`
	st, err := ParseDialect(sql, "hive")
	if err != nil {
		t.Fatal(err)
	}
	ct := st.(*ast.CreateTable)
	if !ct.IfNotExists || ct.Comment == nil || *ct.Comment != "people" || len(ct.Columns) != 4 ||
		ct.Columns[0].Comment == nil || ct.Columns[3].Name.Name != "hr" || ct.Columns[3].Type.String() != "INT" {
		t.Fatalf("parsed %+v", ct)
	}
	var parts []string
	for _, p := range ct.PartitionBy {
		parts = append(parts, p.Name)
	}
	if !reflect.DeepEqual(parts, []string{"dt", "hr"}) {
		t.Errorf("partition keys %v", parts)
	}
	opts := map[string]string{}
	for _, p := range ct.Options {
		opts[p.Key] = p.Value
	}
	want := map[string]string{
		"connector": "hive", "hive.is-external": "true",
		"hive.serde.info.prop.field.delim": "\x01", "hive.serde.info.prop.collection.delim": ",",
		"hive.serde.info.prop.serialization.null.format": "", "hive.storage.file-format": "TEXTFILE",
		"hive.location-uri": "file:/data/t", "sink.partition-commit.policy.kind": "metastore,success-file",
	}
	if !reflect.DeepEqual(opts, want) {
		t.Errorf("options\n got %v\nwant %v", opts, want)
	}
	// The default dialect reads none of this.
	if _, err := ParseDialect(sql, "default"); err == nil {
		t.Error("the default dialect read a Hive CREATE TABLE")
	}
}

func TestHiveDialectFallsBack(t *testing.T) {
	for _, sql := range []string{
		"SELECT 1",
		"INSERT INTO t VALUES (1, 'alan', 18)",
		"CREATE VIEW v AS SELECT * FROM t",
		"ALTER TABLE t RENAME TO u",
		"CREATE TEMPORARY FUNCTION f AS 'a.B'",
	} {
		h, err := ParseDialect(sql, "hive")
		if err != nil {
			t.Errorf("%s: %v", sql, err)
			continue
		}
		d, _ := Parse(sql)
		if !reflect.DeepEqual(ast.String(h), ast.String(d)) {
			t.Errorf("%s: hive dialect read %s, default %s", sql, ast.String(h), ast.String(d))
		}
	}
}

func TestHiveDatabaseAndPartitions(t *testing.T) {
	st, err := ParseDialect("CREATE DATABASE IF NOT EXISTS d COMMENT 'c' LOCATION '/w/d.db' WITH DBPROPERTIES ('k' = 'v')", "hive")
	if err != nil {
		t.Fatal(err)
	}
	cd := st.(*ast.CreateDatabase)
	if !cd.IfNotExists || *cd.Comment != "c" || len(cd.Options) != 2 || cd.Options[0].Key != "hive.database.location-uri" || cd.Options[1].Value != "v" {
		t.Errorf("database %+v", cd)
	}
	st, err = ParseDialect("ALTER TABLE t ADD IF NOT EXISTS PARTITION (dt = '1', hr = 2) LOCATION '/x' PARTITION (dt = '2', hr = 3)", "hive")
	if err != nil {
		t.Fatal(err)
	}
	add := st.(*ast.AlterTable).Action.(*ast.AddPartitions)
	if !add.IfNotExists || len(add.Partitions) != 2 || len(add.Options) != 2 || len(add.Options[0]) != 1 ||
		add.Options[0][0].Key != "hive.location-uri" || add.Options[0][0].Value != "/x" || add.Options[1] != nil {
		t.Errorf("add %+v", add)
	}
	st, err = ParseDialect("ALTER TABLE t DROP IF EXISTS PARTITION (dt = '1'), PARTITION (dt = '2')", "hive")
	if err != nil {
		t.Fatal(err)
	}
	if drop := st.(*ast.AlterTable).Action.(*ast.DropPartitions); !drop.IfExists || len(drop.Partitions) != 2 {
		t.Errorf("drop %+v", drop)
	}
	if got := ast.String(st); got != "ALTER TABLE `t` DROP IF EXISTS PARTITION (`dt` = '1'), PARTITION (`dt` = '2')" {
		t.Errorf("format %q", got)
	}
	if _, err := ParseDialect("CREATE TABLE t (a INT) ROW FORMAT JSON", "hive"); err == nil {
		t.Error("ROW FORMAT JSON was accepted")
	}
}

func TestHiveUnescape(t *testing.T) {
	for in, want := range map[string]string{`\001`: "\x01", `\t`: "\t", `,`: ",", `\u0002`: "\x02", `\\`: `\`} {
		if got := hiveUnescape(in); got != want {
			t.Errorf("hiveUnescape(%q) = %q, want %q", in, got, want)
		}
	}
}
