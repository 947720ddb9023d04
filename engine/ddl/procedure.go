package ddl

import (
	"context"

	"eddy/catalogs"

	"eddy/engine/ast"
	"eddy/engine/result"
	"eddy/engine/sqlerr"
)

// No catalog eddy has provides procedures. Flink's Catalog interface
// answers listProcedures and getProcedure with an
// UnsupportedOperationException naming the catalog's class; SHOW
// PROCEDURES and CALL end there, before any database is looked up.

// showProcedures answers SHOW PROCEDURES [FROM|IN [catalog.]db].
func (ex *Executor) showProcedures(ctx context.Context, st *ast.Show) (*result.Result, error) {
	catalog, _, err := ex.showNamespace(st)
	if err != nil {
		return nil, err
	}
	class, err := ex.catalogClass(ctx, catalog)
	if err != nil {
		return nil, err
	}
	return nil, sqlerr.Errorf(sqlerr.UnsupportedOperationException, "listProcedures is not implemented for class %s.", class)
}

// execCall answers CALL [catalog.][db.]procedure(args).
func (ex *Executor) execCall(ctx context.Context, st *ast.Call) (*result.Result, error) {
	id, err := ex.cat.Qualify(st.Procedure.Names()...)
	if err != nil {
		return nil, err
	}
	if ok, err := ex.cat.CatalogExists(ctx, id.Catalog); err != nil {
		return nil, err
	} else if !ok {
		// Flink's validator then finds no procedure and reports the call
		// as an unknown function.
		if len(st.Args) == 0 {
			return nil, sqlerr.Errorf(sqlerr.SqlValidatorException, "No match found for function signature %s()", id.Object)
		}
		return nil, sqlerr.Errorf(sqlerr.SqlValidatorException, "No match found for function signature %s", id.Object)
	}
	class, err := ex.catalogClass(ctx, id.Catalog)
	if err != nil {
		return nil, err
	}
	return nil, sqlerr.Errorf(sqlerr.UnsupportedOperationException, "getProcedure is not implemented for class %s.", class)
}

// catalogClass names a catalog's implementation as Flink's messages do:
// the Java class of Flink's own catalog type, else eddy's type name.
func (ex *Executor) catalogClass(ctx context.Context, name string) (string, error) {
	info, err := ex.cat.DescribeCatalog(ctx, name)
	if err != nil {
		return "", err
	}
	typ := info.Descriptor.Type()
	if typ == "" {
		// A built-in catalog registered without options knows its type.
		cat, err := ex.cat.Catalog(ctx, name)
		if err != nil {
			return "", err
		}
		if t, ok := cat.(catalogs.Typed); ok {
			typ = t.Type()
		}
	}
	if typ == "generic_in_memory" {
		return "org.apache.flink.table.catalog.GenericInMemoryCatalog", nil
	}
	return "eddy.catalogs." + typ, nil
}
