package ddl

import (
	"context"
	"errors"
	"slices"
	"strings"

	"eddy/catalogs"
	"eddy/engine/ast"
	"eddy/engine/result"
	"eddy/engine/sqlerr"
)

// execAnalyze runs ANALYZE TABLE as Flink does on catalogs that keep no
// statistics of their own: the statement is checked as Flink checks it
// (a permanent table, not a view; every partition key named on a
// partitioned table, none on another; physical columns only), batch mode
// only, and the table must be readable. The statistics Flink would compute
// have no reader in eddy (its planner uses none), so none are stored; the
// session reads the table through after these checks.
func (ex *Executor) execAnalyze(ctx context.Context, st *ast.AnalyzeTable) (*result.Result, error) {
	id, err := ex.cat.Qualify(st.Name.Names()...)
	if err != nil {
		return nil, err
	}
	e, err := ex.cat.GetTable(ctx, id)
	if errors.Is(err, catalogs.ErrTableNotExist) || (err == nil && e.Temporary) {
		return nil, sqlerr.Errorf(sqlerr.ValidationException, "Table %s doesn't exist or is a temporary table.", id)
	}
	if err != nil {
		return nil, err
	}
	t, ok := e.Table.(*catalogs.CatalogTable)
	if !ok {
		return nil, sqlerr.Errorf(sqlerr.ValidationException, "ANALYZE TABLE for a view is not allowed")
	}
	if err := checkAnalyzePartition(id, t, st.Partition); err != nil {
		return nil, err
	}
	for _, c := range st.ForColumns {
		col := t.Schema.Column(c.Name)
		switch {
		case col == nil:
			return nil, sqlerr.Errorf(sqlerr.ValidationException, "Column: %s does not exist in the table: %s.", c.Name, id)
		case col.Kind == catalogs.Computed:
			return nil, sqlerr.Errorf(sqlerr.ValidationException, "Column: %s is a computed column, ANALYZE TABLE does not support computed column.", c.Name)
		case col.Kind == catalogs.Metadata:
			return nil, sqlerr.Errorf(sqlerr.ValidationException, "Column: %s is a metadata column, ANALYZE TABLE does not support metadata column.", c.Name)
		}
	}
	if ex.batch == nil || !ex.batch() {
		return nil, sqlerr.Errorf(sqlerr.TableException, "ANALYZE TABLE is not supported for streaming mode now")
	}
	return result.Success(), nil
}

// checkAnalyzePartition checks a PARTITION clause: a partitioned table
// names all its partition keys, a table without any names none.
func checkAnalyzePartition(id catalogs.Identifier, t *catalogs.CatalogTable, spec []*ast.PartitionValue) error {
	given := make([]string, len(spec))
	for i, pv := range spec {
		given[i] = pv.Key.Name
	}
	if len(t.PartitionKeys) == 0 {
		if len(spec) > 0 {
			return sqlerr.Errorf(sqlerr.ValidationException, "Invalid ANALYZE TABLE statement. Table: %s is not a partition table, while partition values are given.", id)
		}
		return nil
	}
	sorted := slices.Clone(given)
	slices.Sort(sorted)
	keys := slices.Clone(t.PartitionKeys)
	slices.Sort(keys)
	if !slices.Equal(sorted, keys) {
		return sqlerr.Errorf(sqlerr.ValidationException, "Invalid ANALYZE TABLE statement. For partition table, all partition keys should be specified explicitly. The given partition keys: [%s] are not match the target partition keys: [%s].",
			strings.Join(given, ", "), strings.Join(t.PartitionKeys, ", "))
	}
	return nil
}
