package schema_test

import (
	"testing"

	"eddy/catalogs"
	"eddy/engine/functions"
	"eddy/engine/parser"
	"eddy/engine/schema"
	"eddy/engine/types"
)

func mustType(t *testing.T, s string) *types.Type {
	t.Helper()
	typ, err := types.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return typ
}

func TestColumns(t *testing.T) {
	r := schema.Resolver{Funcs: functions.NewRegistry()}
	tbl := &catalogs.CatalogTable{Schema: catalogs.Schema{
		Columns: []catalogs.Column{
			{Name: "id", Kind: catalogs.Physical, Type: mustType(t, "BIGINT")},
			{Name: "ts", Kind: catalogs.Physical, Type: mustType(t, "TIMESTAMP(3)")},
			{Name: "total", Kind: catalogs.Computed, Expr: "`id` * 2"},
			{Name: "pt", Kind: catalogs.Computed, Expr: "PROCTIME()"},
			{Name: "part", Kind: catalogs.Metadata, Type: mustType(t, "INT"), MetadataKey: "partition", Virtual: true},
		},
		PrimaryKey: &catalogs.PrimaryKey{Name: "PK_id", Columns: []string{"id"}},
		Watermarks: []catalogs.WatermarkSpec{{RowtimeColumn: "ts", Expr: "`ts` - INTERVAL '1' SECOND"}},
	}}
	cols, err := r.Columns(tbl)
	if err != nil {
		t.Fatal(err)
	}
	want := []schema.Column{
		{Name: "id", Type: mustType(t, "BIGINT NOT NULL"), Key: "PRI(id)"},
		{Name: "ts", Type: mustType(t, "TIMESTAMP(3)").WithTimeAttr(types.Rowtime), Watermark: "`ts` - INTERVAL '1' SECOND"},
		{Name: "total", Type: mustType(t, "BIGINT"), Extras: "AS `id` * 2"},
		{Name: "pt", Type: mustType(t, "TIMESTAMP_LTZ(3) NOT NULL").WithTimeAttr(types.Proctime), Extras: "AS PROCTIME()"},
		{Name: "part", Type: mustType(t, "INT"), Extras: "METADATA FROM 'partition' VIRTUAL"},
	}
	if len(cols) != len(want) {
		t.Fatalf("got %d columns, want %d", len(cols), len(want))
	}
	for i, c := range cols {
		w := want[i]
		if c.Name != w.Name || c.Type.String() != w.Type.String() || c.Key != w.Key || c.Extras != w.Extras || c.Watermark != w.Watermark {
			t.Errorf("column %d = {%s %s %q %q %q}, want {%s %s %q %q %q}", i,
				c.Name, c.Type, c.Key, c.Extras, c.Watermark, w.Name, w.Type, w.Key, w.Extras, w.Watermark)
		}
	}

	out, err := r.OutputColumns(tbl)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != len(cols) || out[1].Type.String() != "TIMESTAMP(3) *ROWTIME*" {
		t.Errorf("OutputColumns = %v", out)
	}
}

func TestComputedAndWatermarkErrors(t *testing.T) {
	r := schema.Resolver{Funcs: functions.NewRegistry()}
	cols := []catalogs.Column{
		{Name: "id", Kind: catalogs.Physical, Type: mustType(t, "BIGINT")},
		{Name: "name", Kind: catalogs.Physical, Type: mustType(t, "STRING")},
	}
	e, err := parser.ParseExpr("UPPER(name)")
	if err != nil {
		t.Fatal(err)
	}
	text, typ, err := r.Computed(cols, e, "")
	if err != nil {
		t.Fatal(err)
	}
	if text != "UPPER(`name`)" || typ.String() != "STRING" {
		t.Errorf("Computed(UPPER(name)) = %q, %s", text, typ)
	}
	e, err = parser.ParseExpr("missing + 1")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.Computed(cols, e, ""); err == nil {
		t.Error("a computed column over an unknown column was accepted")
	}
	e, err = parser.ParseExpr("id")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Watermark(cols, "id", e, ""); err == nil {
		t.Error("a watermark on a BIGINT column was accepted")
	}
}
