package ddl

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"eddy/catalogs"
	"eddy/engine/ast"
	"eddy/engine/result"
	"eddy/engine/sqlerr"
)

func functionOf(className, language string, jars []string) *catalogs.CatalogFunction {
	fn := &catalogs.CatalogFunction{ClassName: className, Language: catalogs.FunctionLanguage(language)}
	for _, j := range jars {
		fn.Resources = append(fn.Resources, catalogs.Resource{Type: "JAR", URI: j})
	}
	return fn
}

func (ex *Executor) execCreateFunction(ctx context.Context, st *ast.CreateFunction) (*result.Result, error) {
	fn := functionOf(st.ClassName, st.Language, st.Jars)
	for _, jar := range st.Jars {
		if err := checkJar(jar); err != nil {
			return nil, err
		}
	}
	// Flink loads the class of a new temporary Java function when it is
	// created (a catalog function's when it is first used):
	// checkFunctionClass finds it in the jars as its class loader would.
	checkClass := st.Temporary && (st.Language == "" || st.Language == "JAVA")
	switch {
	case st.Temporary && st.System:
		if len(st.Name.Parts) != 1 {
			return nil, sqlerr.Errorf(sqlerr.ValidationException, "Temporary system function does not support qualified identifier: %s", ast.String(st.Name))
		}
		if _, exists := ex.cat.GetTemporarySystemFunction(st.Name.Parts[0].Name); checkClass && !exists {
			if err := checkFunctionClass(st.ClassName, ex.jars, st.Jars); err != nil {
				return nil, err
			}
		}
		return success(ex.cat.CreateTemporarySystemFunction(st.Name.Parts[0].Name, fn, st.IfNotExists))
	case st.Temporary:
		id, err := ex.cat.Qualify(st.Name.Names()...)
		if err != nil {
			return nil, err
		}
		if e, err := ex.cat.GetFunction(ctx, id); checkClass && (err != nil || !e.Temporary) {
			if err := checkFunctionClass(st.ClassName, ex.jars, st.Jars); err != nil {
				return nil, err
			}
		}
		return success(ex.cat.CreateTemporaryFunction(id, fn, st.IfNotExists))
	}
	id, err := ex.cat.Qualify(st.Name.Names()...)
	if err != nil {
		return nil, err
	}
	return success(ex.cat.CreateFunction(ctx, id, fn, st.IfNotExists))
}

func (ex *Executor) execDropFunction(ctx context.Context, st *ast.DropFunction) (*result.Result, error) {
	switch {
	case st.Temporary && st.System:
		return success(ex.cat.DropTemporarySystemFunction(st.Name.Parts[len(st.Name.Parts)-1].Name, st.IfExists))
	case st.Temporary:
		id, err := ex.cat.Qualify(st.Name.Names()...)
		if err != nil {
			return nil, err
		}
		return success(ex.cat.DropTemporaryFunction(id, st.IfExists))
	}
	id, err := ex.cat.Qualify(st.Name.Names()...)
	if err != nil {
		return nil, err
	}
	return success(ex.cat.DropFunction(ctx, id, st.IfExists))
}

func (ex *Executor) execAlterFunction(ctx context.Context, st *ast.AlterFunction) (*result.Result, error) {
	if st.Temporary {
		if st.System {
			return nil, sqlerr.Errorf(sqlerr.ValidationException, "Alter temporary system function is not supported")
		}
		return nil, sqlerr.Errorf(sqlerr.ValidationException, "Alter temporary catalog function is not supported")
	}
	id, err := ex.cat.Qualify(st.Name.Names()...)
	if err != nil {
		return nil, err
	}
	return success(ex.cat.AlterFunction(ctx, id, functionOf(st.ClassName, st.Language, nil), st.IfExists))
}

// describeFunction answers DESCRIBE FUNCTION [EXTENDED] (Flink's
// DescribeFunctionOperation). A one-part name resolves as Flink's
// FunctionCatalog does: temporary system function, built-in function,
// then temporary and permanent catalog functions of the current database.
func (ex *Executor) describeFunction(ctx context.Context, name *ast.ObjectName, extended bool) (*result.Result, error) {
	info := func(rows ...[]any) *result.Result {
		return result.StringTable([]string{"info name", "info value"}, rows)
	}
	parts := name.Names()
	if len(parts) == 1 {
		if _, ok := ex.cat.GetTemporarySystemFunction(parts[0]); ok {
			return info([]any{"is system function", "true"}, []any{"is temporary", "true"}), nil
		}
		if f, ok := ex.funcs.Lookup(parts[0]); ok {
			rows := [][]any{{"is system function", "true"}, {"is temporary", "false"}}
			if extended {
				rows = append(rows,
					[]any{"kind", f.Kind.String()},
					[]any{"requirements", "[]"},
					[]any{"is deterministic", strconv.FormatBool(f.Deterministic)},
					[]any{"supports constant folding", "true"},
					[]any{"signature", f.Signature()})
			}
			return info(rows...), nil
		}
	}
	id, err := ex.cat.Qualify(parts...)
	if err != nil {
		return nil, err
	}
	e, err := ex.cat.GetFunction(ctx, id)
	if errors.Is(err, catalogs.ErrFunctionNotExist) {
		return nil, sqlerr.Errorf(sqlerr.ValidationException, "Function with the identifier '%s' doesn't exist.", id.SummaryString())
	}
	if err != nil {
		return nil, err
	}
	lang := string(e.Function.Language)
	if lang == "" {
		lang = string(catalogs.LangJava)
	}
	uris := make([]string, len(e.Function.Resources))
	for i, r := range e.Function.Resources {
		uris[i] = fmt.Sprintf("ResourceUri{resourceType=%s, uri='%s'}", r.Type, r.URI)
	}
	return info(
		[]any{"is system function", "false"},
		[]any{"is temporary", strconv.FormatBool(e.Temporary)},
		[]any{"class name", e.Function.ClassName},
		[]any{"function language", lang},
		[]any{"resource uris", "[" + strings.Join(uris, ", ") + "]"},
	), nil
}
