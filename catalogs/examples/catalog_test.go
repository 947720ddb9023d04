package examples

import (
	"context"
	"errors"
	"strings"
	"testing"

	"eddy/catalogs"
	"eddy/engine/connectors"
)

func TestTablesAreUnboundedDatagen(t *testing.T) {
	ctx := context.Background()
	c := New(Name)
	names, err := c.ListTables(ctx, Database)
	if err != nil || strings.Join(names, ",") != "clicks,customers,orders,products" {
		t.Fatalf("tables %v, %v", names, err)
	}
	want := map[string]string{
		"orders":    "order_id STRING NOT NULL,customer_id INT NOT NULL,product_id STRING NOT NULL,price DOUBLE NOT NULL,event_time TIMESTAMP_LTZ(3) NOT NULL",
		"customers": "customer_id INT NOT NULL,name STRING NOT NULL,address STRING NOT NULL,postcode STRING NOT NULL,city STRING NOT NULL,email STRING NOT NULL,event_time TIMESTAMP_LTZ(3) NOT NULL",
		"products":  "product_id STRING NOT NULL,name STRING NOT NULL,brand STRING NOT NULL,vendor STRING NOT NULL,department STRING NOT NULL,event_time TIMESTAMP_LTZ(3) NOT NULL",
		"clicks":    "click_id STRING NOT NULL,user_id INT NOT NULL,url STRING NOT NULL,user_agent STRING NOT NULL,view_time INT NOT NULL,event_time TIMESTAMP_LTZ(3) NOT NULL",
	}
	conns := connectors.New()
	conns.Seed = 7
	for _, name := range names {
		bt, err := c.GetTable(ctx, catalogs.ObjectPath{Database: Database, Object: name})
		if err != nil {
			t.Fatal(err)
		}
		tbl := bt.(*catalogs.CatalogTable)
		var cols []string
		ct := &connectors.Table{Catalog: c, Name: catalogs.NewIdentifier(Name, Database, name), Options: tbl.Options}
		for _, col := range tbl.Schema.Columns {
			cols = append(cols, col.Name+" "+strings.Replace(col.Type.String(), "VARCHAR(2147483647)", "STRING", 1))
			ct.Columns = append(ct.Columns, connectors.Column{Name: col.Name, Type: col.Type})
		}
		if got := strings.Join(cols, ","); got != want[name] {
			t.Errorf("%s columns:\n got %s\nwant %s", name, got, want[name])
		}
		if len(tbl.Schema.Watermarks) != 1 || tbl.Schema.Watermarks[0].RowtimeColumn != "event_time" {
			t.Errorf("%s watermark: %+v", name, tbl.Schema.Watermarks)
		}
		if connectors.Bounded(tbl.Options, nil) {
			t.Errorf("%s is bounded", name)
		}
		r, err := conns.OpenReader(ctx, ct)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		b, err := r.Next(ctx)
		if err != nil || b == nil || b.N == 0 {
			t.Fatalf("%s: first batch %v, %v", name, b, err)
		}
		for i, col := range b.Cols {
			if col.HasNulls() {
				t.Errorf("%s.%s has NULLs", name, ct.Columns[i].Name)
			}
		}
	}
}

func TestEveryChangeIsRefused(t *testing.T) {
	ctx := context.Background()
	c := New(Name)
	path := catalogs.ObjectPath{Database: Database, Object: "orders"}
	for name, err := range map[string]error{
		"CreateDatabase": c.CreateDatabase(ctx, "x", &catalogs.CatalogDatabase{}, false),
		"DropDatabase":   c.DropDatabase(ctx, Database, false, true),
		"CreateTable":    c.CreateTable(ctx, catalogs.ObjectPath{Database: Database, Object: "t"}, &catalogs.CatalogTable{}, false),
		"DropTable":      c.DropTable(ctx, path, false),
		"AlterTable":     c.AlterTable(ctx, path, &catalogs.CatalogTable{}, false),
		"RenameTable":    c.RenameTable(ctx, path, "o2", false),
		"CreateFunction": c.CreateFunction(ctx, path, &catalogs.CatalogFunction{}, false),
	} {
		if !errors.Is(err, catalogs.ErrReadOnly) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := c.GetTable(ctx, catalogs.ObjectPath{Database: "other", Object: "orders"}); !errors.Is(err, catalogs.ErrTableNotExist) {
		t.Errorf("GetTable in another database: %v", err)
	}
	if c.SupportsViews() {
		t.Error("the examples catalog supports views")
	}
}
