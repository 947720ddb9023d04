package engine

import (
	"context"

	"eddy/catalogs"
	"eddy/engine/ast"
)

func functionOf(className, language string, jars []string) *catalogs.CatalogFunction {
	fn := &catalogs.CatalogFunction{ClassName: className, Language: catalogs.FunctionLanguage(language)}
	for _, j := range jars {
		fn.Resources = append(fn.Resources, catalogs.Resource{Type: "JAR", URI: j})
	}
	return fn
}

func (s *Session) execCreateFunction(ctx context.Context, st *ast.CreateFunction) (*Result, error) {
	fn := functionOf(st.ClassName, st.Language, st.Jars)
	switch {
	case st.Temporary && st.System:
		if len(st.Name.Parts) != 1 {
			return nil, Errorf("ValidationException", "Temporary system function does not support qualified identifier: %s", ast.String(st.Name))
		}
		return success(s.cat.CreateTemporarySystemFunction(st.Name.Parts[0].Name, fn, st.IfNotExists))
	case st.Temporary:
		id, err := s.cat.Qualify(st.Name.Names()...)
		if err != nil {
			return nil, err
		}
		return success(s.cat.CreateTemporaryFunction(id, fn, st.IfNotExists))
	}
	id, err := s.cat.Qualify(st.Name.Names()...)
	if err != nil {
		return nil, err
	}
	return success(s.cat.CreateFunction(ctx, id, fn, st.IfNotExists))
}

func (s *Session) execDropFunction(ctx context.Context, st *ast.DropFunction) (*Result, error) {
	switch {
	case st.Temporary && st.System:
		return success(s.cat.DropTemporarySystemFunction(st.Name.Parts[len(st.Name.Parts)-1].Name, st.IfExists))
	case st.Temporary:
		id, err := s.cat.Qualify(st.Name.Names()...)
		if err != nil {
			return nil, err
		}
		return success(s.cat.DropTemporaryFunction(id, st.IfExists))
	}
	id, err := s.cat.Qualify(st.Name.Names()...)
	if err != nil {
		return nil, err
	}
	return success(s.cat.DropFunction(ctx, id, st.IfExists))
}

func (s *Session) execAlterFunction(ctx context.Context, st *ast.AlterFunction) (*Result, error) {
	if st.Temporary {
		if st.System {
			return nil, Errorf("ValidationException", "Alter temporary system function is not supported")
		}
		return nil, Errorf("ValidationException", "Alter temporary catalog function is not supported")
	}
	id, err := s.cat.Qualify(st.Name.Names()...)
	if err != nil {
		return nil, err
	}
	return success(s.cat.AlterFunction(ctx, id, functionOf(st.ClassName, st.Language, nil), st.IfExists))
}
