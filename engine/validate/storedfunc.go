package validate

import (
	"fmt"
	"strings"

	"eddy/catalogs"
)

// storedFunction tells why a call of a function that is not built in
// cannot run when the name is a function a catalog (or CREATE TEMPORARY
// FUNCTION) stores: eddy runs no JVM or Python code, so such a function is
// a definition only. It returns nil for a name nothing stores.
func (s *state) storedFunction(name []string) error {
	m := s.a.Catalogs
	if m == nil || len(name) == 0 || len(name) > 3 {
		return nil
	}
	var fn *catalogs.CatalogFunction
	shown := strings.Join(name, ".")
	if len(name) == 1 {
		if e, ok := m.GetTemporarySystemFunction(name[0]); ok {
			fn = e.Function
		}
	}
	if fn == nil {
		id, err := m.Qualify(name...)
		if err != nil {
			return nil
		}
		e, err := m.GetFunction(s.ctx, id)
		if err != nil {
			return nil
		}
		fn, shown = e.Function, id.String()
	}
	lang := fn.Language
	if lang == "" {
		lang = catalogs.LangJava
	}
	return fmt.Errorf("Function %s is a %s function (class '%s'), which eddy cannot run locally: it runs its built-in functions only",
		shown, lang, fn.ClassName)
}
