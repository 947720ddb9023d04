package examples

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"eddy/catalogs"
	"eddy/engine/connectors"
)

// readAll reads every row of a table as the connectors open it, in batch
// or streaming mode, as text.
func readAll(t *testing.T, c *Catalog, name string, batch bool, cols []int) (rows []string, bounded bool) {
	t.Helper()
	ctx := context.Background()
	bt, err := c.GetTable(ctx, catalogs.ObjectPath{Database: Database, Object: name})
	if err != nil {
		t.Fatal(err)
	}
	tbl := bt.(*catalogs.CatalogTable)
	ct := &connectors.Table{Catalog: c, Name: catalogs.NewIdentifier(Name, Database, name), Options: tbl.Options, Batch: batch}
	for _, col := range tbl.Schema.Columns {
		ct.Columns = append(ct.Columns, connectors.Column{Name: col.Name, Type: col.Type})
	}
	conns := connectors.New()
	if !conns.Abilities(ct).Bounded {
		return nil, false
	}
	r, err := conns.OpenReader(ctx, ct)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if cols != nil {
		r.(connectors.Pushdown).PushColumns(cols)
	}
	for {
		b, err := r.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if b == nil {
			return rows, true
		}
		for i := range b.N {
			rows = append(rows, fmt.Sprint(b.Row(i)))
		}
	}
}

// TestBatchSnapshot: in batch mode every table is a bounded snapshot of
// SnapshotRows rows, the same on every read whatever columns are read,
// with event times a tenth of a second apart from SnapshotStart; in
// streaming mode the tables stay unbounded.
func TestBatchSnapshot(t *testing.T) {
	c := New(Name)
	for _, name := range []string{"orders", "customers", "products", "clicks"} {
		first, bounded := readAll(t, c, name, true, nil)
		if !bounded || int64(len(first)) != SnapshotRows(name) {
			t.Fatalf("%s: bounded %v, %d rows, want %d", name, bounded, len(first), SnapshotRows(name))
		}
		again, _ := readAll(t, New(Name), name, true, nil)
		if strings.Join(again, "\n") != strings.Join(first, "\n") {
			t.Errorf("%s: a second read differs", name)
		}
		if _, bounded := readAll(t, c, name, false, nil); bounded {
			t.Errorf("%s is bounded in streaming mode", name)
		}
	}
	// orders: event_time is column 4; read alone it is the same column.
	all, _ := readAll(t, c, "orders", true, nil)
	times, _ := readAll(t, c, "orders", true, []int{3, 4})
	for i, row := range times {
		want := SnapshotStart().Add(time.Duration(i) * time.Second / 10)
		if !strings.HasSuffix(all[i], fmt.Sprint(want)+"]") || !strings.HasSuffix(row, fmt.Sprint(want)+"]") {
			t.Fatalf("row %d: %s / %s, want the event time %s", i, all[i], row, want)
		}
		if price := strings.Fields(strings.Trim(all[i], "[]"))[3]; !strings.HasPrefix(row, "["+price+" ") {
			t.Fatalf("row %d: price read alone %s, with every column %s", i, row, all[i])
		}
	}
}

// TestSnapshotHonoursRowHint: an OPTIONS hint's 'number-of-rows' bounds
// the snapshot instead of its own row count.
func TestSnapshotHonoursRowHint(t *testing.T) {
	name := catalogs.NewIdentifier(Name, Database, "orders")
	if got := snapshotTable(&connectors.Table{Name: name, Options: map[string]string{"number-of-rows": "7"}}).Options["number-of-rows"]; got != "7" {
		t.Errorf("with a hint: number-of-rows %q", got)
	}
	if got := snapshotTable(&connectors.Table{Name: name, Options: map[string]string{}}).Options["number-of-rows"]; got != "1000" {
		t.Errorf("without a hint: number-of-rows %q", got)
	}
}
