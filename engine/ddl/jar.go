package ddl

import (
	"os"
	"slices"

	"eddy/engine/ast"
	"eddy/engine/result"
	"eddy/engine/sqlerr"
)

// execAddJar registers a jar path with the session (SHOW JARS lists it).
// eddy runs no JVM code: the jar is recorded so that scripts written for
// the Flink SQL client keep working, and so that a gateway session can use
// it. The file must exist, as Flink checks.
func (ex *Executor) execAddJar(st *ast.AddJar) (*result.Result, error) {
	if slices.Contains(ex.jars, st.Path) {
		return result.Success(), nil
	}
	if _, err := os.Stat(st.Path); err != nil {
		return nil, sqlerr.Errorf(sqlerr.SqlExecutionException, "Failed to add jar '%s': %v", st.Path, err)
	}
	ex.jars = append(ex.jars, st.Path)
	return result.Success(), nil
}

func (ex *Executor) execRemoveJar(st *ast.RemoveJar) (*result.Result, error) {
	i := slices.Index(ex.jars, st.Path)
	if i < 0 {
		return nil, sqlerr.Errorf(sqlerr.SqlExecutionException, "The specified jar '%s' is not registered.", st.Path)
	}
	ex.jars = slices.Delete(ex.jars, i, i+1)
	return result.Success(), nil
}
