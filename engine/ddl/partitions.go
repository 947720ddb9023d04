package ddl

import (
	"context"
	"errors"
	"slices"
	"strings"

	"eddy/catalogs"
	"eddy/engine/ast"
	"eddy/engine/connectors"
	"eddy/engine/result"
	"eddy/engine/sqlerr"
)

// Partitions of partitioned tables (SHOW PARTITIONS, ALTER TABLE ... ADD
// and DROP PARTITION). A filesystem table's partitions are its k=v/
// directories, which its writers make and its readers discover: SHOW
// PARTITIONS lists them, ADD PARTITION makes an empty one, DROP PARTITION
// removes the part files eddy wrote there. A table of another connector
// keeps its partitions in its catalog when the catalog stores partitions
// (catalogs.Partitioned), as Flink's catalogs do.

// partitionedTable returns the catalog table of a partition statement,
// or Flink's error for a table that is missing or not partitioned.
func (ex *Executor) partitionedTable(ctx context.Context, name *ast.ObjectName) (catalogs.Identifier, *catalogs.CatalogTable, error) {
	id, err := ex.cat.Qualify(name.Names()...)
	if err != nil {
		return id, nil, err
	}
	e, err := ex.cat.GetTable(ctx, id)
	if errors.Is(err, catalogs.ErrTableNotExist) {
		return id, nil, sqlerr.Errorf(sqlerr.ValidationException, "Table %s doesn't exist or is a temporary table.", id)
	}
	if err != nil {
		return id, nil, err
	}
	t, ok := e.Table.(*catalogs.CatalogTable)
	if !ok {
		return id, nil, sqlerr.Errorf(sqlerr.ValidationException, "%s is a view, which has no partitions.", id)
	}
	if len(t.PartitionKeys) == 0 {
		return id, nil, sqlerr.Errorf(sqlerr.TableException, "Table %s.%s in catalog %s is not partitioned.", id.Database, id.Object, id.Catalog)
	}
	return id, t, nil
}

// partitionSpec reads PARTITION (k = v, ...) of a table: every key must
// be a partition key; full asks for a value of every key.
func partitionSpec(t *catalogs.CatalogTable, spec []*ast.PartitionValue, full bool) (map[string]string, error) {
	out := map[string]string{}
	for _, pv := range spec {
		if !slices.Contains(t.PartitionKeys, pv.Key.Name) {
			return nil, sqlerr.Errorf(sqlerr.ValidationException, "Partition column '%s' not defined in the table schema. Available partition columns: [%s]",
				pv.Key.Name, strings.Join(t.PartitionKeys, ", "))
		}
		lit, ok := pv.Value.(*ast.Literal)
		if !ok {
			return nil, sqlerr.Errorf(sqlerr.ValidationException, "Partition value of '%s' must be a literal.", pv.Key.Name)
		}
		out[pv.Key.Name] = lit.Value
	}
	if full && len(out) != len(t.PartitionKeys) {
		return nil, sqlerr.Errorf(sqlerr.ValidationException, "Partition spec %s is not a full spec of the partition keys [%s].",
			specText(t.PartitionKeys, out), strings.Join(t.PartitionKeys, ", "))
	}
	return out, nil
}

func specText(keys []string, spec map[string]string) string {
	var parts []string
	for _, k := range keys {
		if v, ok := spec[k]; ok {
			parts = append(parts, k+"="+v)
		}
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func (ex *Executor) showPartitions(ctx context.Context, st *ast.Show) (*result.Result, error) {
	id, t, err := ex.partitionedTable(ctx, st.From)
	if err != nil {
		return nil, err
	}
	filter, err := partitionSpec(t, st.Partition, false)
	if err != nil {
		return nil, err
	}
	parts, ok, err := connectors.ListPartitions(t.Options, t.PartitionKeys, filter)
	if err != nil {
		return nil, sqlerr.Errorf(sqlerr.TableException, "Could not list the partitions of %s: %v", id, err)
	}
	if !ok {
		if pc, isP := ex.catalogOf(ctx, id).(catalogs.Partitioned); isP {
			specs, err := pc.ListPartitions(ctx, id.Path(), filter)
			if err != nil {
				return nil, err
			}
			for _, s := range specs {
				var segs []string
				for _, k := range t.PartitionKeys {
					segs = append(segs, k+"="+s[k])
				}
				parts = append(parts, strings.Join(segs, "/"))
			}
		}
	}
	return nameList("partition name", parts), nil
}

// catalogOf returns the catalog instance of a table, or nil.
func (ex *Executor) catalogOf(ctx context.Context, id catalogs.Identifier) catalogs.Catalog {
	c, err := ex.cat.Catalog(ctx, id.Catalog)
	if err != nil {
		return nil
	}
	return c
}

func (ex *Executor) alterPartitions(ctx context.Context, st *ast.AlterTable) (*result.Result, error) {
	id, t, err := ex.partitionedTable(ctx, st.Name)
	if err != nil {
		if st.IfExists && errors.Is(err, catalogs.ErrTableNotExist) {
			return result.Success(), nil
		}
		return nil, err
	}
	pc, _ := ex.catalogOf(ctx, id).(catalogs.Partitioned)
	_, isFS := connectors.PartitionDir(t.Options, t.PartitionKeys, nil)
	if !isFS && pc == nil {
		return nil, sqlerr.Errorf(sqlerr.TableException, "Catalog %s does not store partitions of table %s.", id.Catalog, id)
	}
	var specs []map[string]string
	var raw [][]*ast.PartitionValue
	switch a := st.Action.(type) {
	case *ast.AddPartitions:
		raw = a.Partitions
	case *ast.DropPartitions:
		raw = a.Partitions
	}
	for _, r := range raw {
		spec, err := partitionSpec(t, r, true)
		if err != nil {
			return nil, err
		}
		specs = append(specs, spec)
	}
	for _, spec := range specs {
		switch a := st.Action.(type) {
		case *ast.AddPartitions:
			if !isFS {
				if err := pc.CreatePartition(ctx, id.Path(), spec, a.IfNotExists); err != nil {
					return nil, err
				}
				continue
			}
			exists, err := connectors.AddPartition(t.Options, t.PartitionKeys, spec)
			if err != nil {
				return nil, sqlerr.Errorf(sqlerr.TableException, "Could not add partition %s of %s: %v", specText(t.PartitionKeys, spec), id, err)
			}
			if exists && !a.IfNotExists {
				return nil, sqlerr.Errorf(sqlerr.TableException, "Partition %s of table %s in catalog %s already exists.",
					specText(t.PartitionKeys, spec), id.Path(), id.Catalog)
			}
		case *ast.DropPartitions:
			if !isFS {
				if err := pc.DropPartition(ctx, id.Path(), spec, a.IfExists); err != nil {
					return nil, err
				}
				continue
			}
			exists, err := connectors.DropPartition(t.Options, t.PartitionKeys, spec)
			if err != nil {
				return nil, sqlerr.Errorf(sqlerr.TableException, "Could not drop partition %s of %s: %v", specText(t.PartitionKeys, spec), id, err)
			}
			if !exists && !a.IfExists {
				return nil, sqlerr.Errorf(sqlerr.TableException, "Partition %s of table %s in catalog %s does not exist.",
					specText(t.PartitionKeys, spec), id.Path(), id.Catalog)
			}
		}
	}
	return result.Success(), nil
}
