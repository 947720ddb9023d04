package sink

import (
	"context"
	"time"

	"eddy/catalogs"
	"eddy/engine/connectors"
	"eddy/engine/exec"
	"eddy/engine/plan"
)

// Table returns the connectors' view of the table sk writes, from what the
// validator resolved: no catalog lookup.
func Table(sk *plan.Sink) *connectors.Table {
	id := catalogs.NewIdentifier(sk.Table.Catalog, sk.Table.Database, sk.Table.Object)
	t := &connectors.Table{Catalog: sk.Catalog, Name: id, Temporary: sk.Temporary, Options: sk.Options,
		PartitionKeys: sk.PartitionKeys, PrimaryKey: sk.PrimaryKey}
	if t.Options == nil {
		t.Options = map[string]string{}
	}
	t.Columns = make([]connectors.Column, len(sk.Physical))
	for i, c := range sk.Physical {
		t.Columns[i] = connectors.Column{Name: c.Name, Type: c.Type}
	}
	return t
}

// Reads reports whether sk's input reads a table.
func Reads(sk *plan.Sink) bool {
	reads := false
	plan.Walk(sk, func(x plan.Node) {
		if _, ok := x.(*plan.Scan); ok {
			reads = true
		}
	})
	return reads
}

// Groupable returns the row store of sk's table when the statement can be
// one of a write group's: it appends rows computed without reading any
// table into a table whose catalog keeps its rows. nil otherwise. A sink
// marked direct (constant rows) reads no table.
func Groupable(reg *connectors.Registry, sk *plan.Sink, t *connectors.Table) connectors.RowStore {
	rs := reg.StoredRows(t)
	if rs == nil || !sk.Direct && Reads(sk) {
		return nil
	}
	return rs
}

// WriteLiteral is the physical fast path of an INSERT of literal rows:
// when the optimizer marked sk direct (plan.Sink.Direct: constant rows
// into a table whose catalog keeps its rows) and the rows can be
// computed (exec.ConstantRows), it writes them straight into the store of
// table t — inside g when g is not nil and holds that store — and reports
// done. Otherwise it does nothing and the operators run.
func WriteLiteral(ctx context.Context, reg *connectors.Registry, sk *plan.Sink, t *connectors.Table, g catalogs.WriteGroup, loc *time.Location) (done bool, err error) {
	if !sk.Direct {
		return false, nil
	}
	rs := reg.StoredRows(t)
	if rs == nil || g != nil && !g.Holds(rs) {
		return false, nil
	}
	rows, ok := exec.ConstantRows(sk.Input, loc)
	if !ok {
		return false, nil
	}
	produce := func(emit func(row []any) error) error {
		for _, r := range rows {
			if err := emit(r); err != nil {
				return err
			}
		}
		return nil
	}
	if g != nil {
		return true, g.WriteRows(ctx, rs, t.Name.Path(), t.Types(), false, produce)
	}
	return true, rs.WriteRows(ctx, t.Name.Path(), t.Types(), false, produce)
}
