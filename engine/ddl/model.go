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

// Models and materialized tables (Flink 2.x). eddy's catalogs keep no
// models and its engine runs no refresh jobs for materialized tables: no
// model or materialized table ever exists in an eddy session. The
// statements that read or drop one answer as Flink does when there is
// none (an empty SHOW MODELS, IF EXISTS succeeding, Flink's not-found
// errors); those that would create one fail with a message that says so.

func (ex *Executor) execCreateModel(st *ast.CreateModel) (*result.Result, error) {
	id, err := ex.cat.Qualify(st.Name.Names()...)
	if err != nil {
		return nil, err
	}
	if len(st.Options) == 0 {
		// Flink's SqlCreateModelConverter.
		return nil, sqlerr.Errorf(sqlerr.SqlValidateException, "Model property list can not be empty.")
	}
	return nil, sqlerr.Errorf(sqlerr.TableException,
		"Model %s cannot be created: the local engine of eddy keeps no models (no model provider runs here). Run model statements on a Flink cluster with eddy --gateway URL.", id)
}

func (ex *Executor) execDropModel(st *ast.DropModel) (*result.Result, error) {
	id, err := ex.cat.Qualify(st.Name.Names()...)
	if err != nil {
		return nil, err
	}
	if st.IfExists {
		return success(nil)
	}
	if st.Temporary {
		return nil, sqlerr.Errorf(sqlerr.ValidationException, "Temporary model with identifier '%s' does not exist.", id.SummaryString())
	}
	return nil, sqlerr.Errorf(sqlerr.ValidationException, "Model with identifier '%s' does not exist.", id.SummaryString())
}

func (ex *Executor) execAlterModel(st *ast.AlterModel) (*result.Result, error) {
	id, err := ex.cat.Qualify(st.Name.Names()...)
	if err != nil {
		return nil, err
	}
	if st.IfExists {
		return success(nil)
	}
	return nil, sqlerr.Errorf(sqlerr.ValidationException, "Model %s doesn't exist.", id)
}

// describeModel and showCreateModel answer for a model that cannot exist.
func (ex *Executor) describeModel(name *ast.ObjectName) (*result.Result, error) {
	id, err := ex.cat.Qualify(name.Names()...)
	if err != nil {
		return nil, err
	}
	return nil, sqlerr.Errorf(sqlerr.ValidationException, "Model with the identifier '%s' doesn't exist.", id.SummaryString())
}

func (ex *Executor) showCreateModel(name *ast.ObjectName) (*result.Result, error) {
	id, err := ex.cat.Qualify(name.Names()...)
	if err != nil {
		return nil, err
	}
	return nil, sqlerr.Errorf(sqlerr.ValidationException, "Could not execute SHOW CREATE MODEL. Model with identifier %s does not exist.", id)
}

// showModels lists no models, after checking the database as SHOW TABLES
// does.
func (ex *Executor) showModels(ctx context.Context, st *ast.Show) (*result.Result, error) {
	catalog, database, err := ex.showNamespace(st)
	if err != nil {
		return nil, err
	}
	ok, err := ex.cat.DatabaseExists(ctx, catalog, database)
	if err != nil {
		return nil, err
	}
	if !ok {
		// Flink's catalog call fails with its own exception.
		return nil, sqlerr.Errorf("DatabaseNotExistException", "Database %s does not exist in Catalog %s.", database, catalog)
	}
	return nameList("model name", nil), nil
}

func (ex *Executor) execMaterializedTable(ctx context.Context, st *ast.MaterializedTable) (*result.Result, error) {
	id, err := ex.cat.Qualify(st.Name.Names()...)
	if err != nil {
		return nil, err
	}
	switch st.Verb {
	case "CREATE":
		connector := false
		for _, o := range st.Options {
			connector = connector || o.Key == "connector"
		}
		if !connector {
			return nil, sqlerr.Errorf(sqlerr.ValidationException, "Table options do not contain an option key 'connector' for discovering a connector.")
		}
		return nil, sqlerr.Errorf(sqlerr.TableException,
			"Materialized table %s cannot be created: the local engine of eddy runs no refresh jobs. Run materialized-table statements on a Flink cluster with eddy --gateway URL.", id)
	case "DROP":
		// Only a catalog's table can be a materialized table: a temporary
		// one of the name counts as none.
		e, err := ex.cat.GetTable(ctx, id)
		if err != nil && !errors.Is(err, catalogs.ErrTableNotExist) {
			return nil, err
		}
		if err == nil && !e.Temporary {
			return nil, sqlerr.Errorf(sqlerr.ValidationException, "Table %s is not a materialized table, does not support materialized table related operation.", id)
		}
		if st.IfExists {
			return success(nil)
		}
		return nil, sqlerr.Errorf(sqlerr.ValidationException, "Materialized table with identifier %s does not exist.", id)
	}
	// ALTER MATERIALIZED TABLE.
	if _, err := ex.cat.GetTable(ctx, id); err == nil {
		return nil, sqlerr.Errorf(sqlerr.ValidationException, "Table %s is not a materialized table, does not support materialized table related operation.", id)
	} else if !errors.Is(err, catalogs.ErrTableNotExist) {
		return nil, err
	}
	names, err := ex.cat.ListCatalogs(ctx, nil)
	if err != nil {
		return nil, err
	}
	slices.Sort(names)
	return nil, sqlerr.Errorf(sqlerr.ValidationException,
		"Cannot find table '%s' in any of the catalogs [%s], nor as a temporary table.", id, strings.Join(names, ", "))
}
