package engine

import (
	"context"
	"testing"

	"eddy/catalogs"
	"eddy/engine/connectors"
	"eddy/engine/plan"
)

// The abilities of a planned scan are known before any reader is opened.
func TestScanAbilities(t *testing.T) {
	s := openQuerySession(t)
	mustExec(t, s, "CREATE TABLE stored (id INT, s STRING)")
	mustExec(t, s, "CREATE TABLE gen (id INT) WITH ('connector' = 'datagen')")
	mustExec(t, s, "CREATE TEMPORARY TABLE tmp (id INT)")
	ctx := context.Background()
	src := scanSources{s}
	for _, c := range []struct {
		table string
		want  connectors.Abilities
	}{
		// The sqlite catalog scans column by column and takes comparisons.
		{"stored", connectors.Abilities{Source: true, Sink: true, Bounded: true, Projection: true,
			Filters: connectors.FilterCompare | connectors.FilterNullTest}},
		{"gen", connectors.Abilities{Source: true, Projection: true}},
		// Temporary managed tables live in the session's memory store.
		{"tmp", connectors.Abilities{Source: true, Sink: true, Bounded: true}},
	} {
		a, err := src.ScanAbilities(ctx, s.scanPlan(t, c.table).(*plan.Scan))
		if err != nil {
			t.Fatal(err)
		}
		if a.Source != c.want.Source || a.Sink != c.want.Sink || a.Bounded != c.want.Bounded ||
			a.Projection != c.want.Projection || a.Filters != c.want.Filters {
			t.Errorf("%s: %+v, want %+v", c.table, a, c.want)
		}
	}
}

// scanPlan returns a scan of every physical column of a table, as the
// validator plans it before the optimizer prunes it.
func (s *Session) scanPlan(t *testing.T, table string) plan.Node {
	t.Helper()
	id, _ := s.cat.Qualify(table)
	entry, err := s.cat.GetTable(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	tbl := entry.Table.(*catalogs.CatalogTable)
	var phys plan.Schema
	for _, c := range tbl.Schema.Columns {
		phys = append(phys, plan.Column{Name: c.Name, Type: c.Type})
	}
	return &plan.Scan{Table: plan.TableID{Catalog: id.Catalog, Database: id.Database, Object: id.Object},
		Options: tbl.Options, Physical: phys, Bounded: true, Rowtime: -1}
}
