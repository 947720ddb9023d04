package iceberg

import (
	"context"
	"fmt"
	"iter"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	iceberg "github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"

	"eddy/engine/types"
	"eddy/engine/vector"
)

// literalOf returns value r of an Arrow column as an Iceberg literal and
// a key string that tells values apart.
func literalOf(a arrow.Array, r int) (iceberg.Literal, string, error) {
	var lit iceberg.Literal
	switch a := a.(type) {
	case *array.Boolean:
		lit = iceberg.NewLiteral(a.Value(r))
	case *array.Int32:
		lit = iceberg.NewLiteral(a.Value(r))
	case *array.Int64:
		lit = iceberg.NewLiteral(a.Value(r))
	case *array.Float32:
		lit = iceberg.NewLiteral(a.Value(r))
	case *array.Float64:
		lit = iceberg.NewLiteral(a.Value(r))
	case *array.String:
		lit = iceberg.NewLiteral(a.Value(r))
	case *array.LargeString:
		lit = iceberg.NewLiteral(a.Value(r))
	case *array.Binary:
		lit = iceberg.NewLiteral(append([]byte(nil), a.Value(r)...))
	case *array.FixedSizeBinary:
		lit = iceberg.NewLiteral(append([]byte(nil), a.Value(r)...))
	case *array.Date32:
		lit = iceberg.NewLiteral(iceberg.Date(a.Value(r)))
	case *array.Time64:
		lit = iceberg.NewLiteral(iceberg.Time(a.Value(r)))
	case *array.Timestamp:
		lit = iceberg.NewLiteral(iceberg.Timestamp(a.Value(r)))
	case *array.Decimal128:
		dt := a.DataType().(*arrow.Decimal128Type)
		lit = iceberg.NewLiteral(iceberg.Decimal{Val: a.Value(r), Scale: int(dt.Scale)})
	default:
		return nil, "", fmt.Errorf("partition column of Arrow type %s is not supported by eddy's overwrite", a.DataType())
	}
	return lit, lit.String(), nil
}

// commitUpsert commits the changes of an upsert as Iceberg's Flink sink
// writes them with 'write.upsert.enabled': an equality delete by the
// primary key of every key written (removing the rows of earlier
// snapshots), then a data file of the keys' last rows that are not
// deletes, in one row-delta snapshot.
func (w *writer) commitUpsert(ctx context.Context) error {
	if len(w.order) == 0 {
		return nil
	}
	tbl := w.tbl
	schema := tbl.Schema()
	var ids []int
	for _, k := range w.t.PrimaryKey {
		f, ok := schema.FindFieldByName(k)
		if !ok {
			return fmt.Errorf("Iceberg table %s has no column %s", w.t.Name, k)
		}
		ids = append(ids, f.ID)
	}
	all := vector.NewBatch(w.types, len(w.order))
	live := vector.NewBatch(w.types, len(w.order))
	for _, k := range w.order {
		ch := w.last[k]
		all.AppendRow(types.Insert, ch.row)
		if ch.kind == types.Insert || ch.kind == types.UpdateAfter {
			live.AppendRow(types.Insert, ch.row)
		}
	}
	tx := tbl.NewTransaction()
	// The delete records hold the key columns and, for a partitioned
	// table, the partition source columns: the whole row serves both.
	delRec, err := toRecord(w.sc, w.types, all, nil)
	if err != nil {
		return err
	}
	dels, err := tx.WriteEqualityDeletes(ctx, ids, single(delRec))
	if err != nil {
		return fmt.Errorf("cannot write equality deletes of Iceberg table %s: %w", w.t.Name, err)
	}
	rd := tx.NewRowDelta(nil)
	rd.AddDeletes(dels...)
	if live.N > 0 {
		rec, err := toRecord(w.sc, w.types, live, nil)
		if err != nil {
			return err
		}
		for df, err := range table.WriteRecords(ctx, tbl, w.sc, single(rec)) {
			if err != nil {
				return fmt.Errorf("cannot write data files of Iceberg table %s: %w", w.t.Name, err)
			}
			rd.AddRows(df)
		}
	}
	if err := rd.Commit(ctx); err != nil {
		return fmt.Errorf("cannot commit to Iceberg table %s: %w", w.t.Name, err)
	}
	if _, err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("cannot commit to Iceberg table %s: %w", w.t.Name, err)
	}
	return nil
}

func single(rec arrow.RecordBatch) iter.Seq2[arrow.RecordBatch, error] {
	return func(yield func(arrow.RecordBatch, error) bool) { yield(rec, nil) }
}
