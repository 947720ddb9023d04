package engine

import (
	"os"
	"slices"

	"eddy/engine/ast"
)

// execAddJar registers a jar path with the session (SHOW JARS lists it).
// eddy runs no JVM code: the jar is recorded so that scripts written for
// the Flink SQL client keep working, and so that a gateway session can use
// it. The file must exist, as Flink checks.
func (s *Session) execAddJar(st *ast.AddJar) (*Result, error) {
	if slices.Contains(s.jars, st.Path) {
		return Success(), nil
	}
	if _, err := os.Stat(st.Path); err != nil {
		return nil, Errorf("SqlExecutionException", "Failed to add jar '%s': %v", st.Path, err)
	}
	s.jars = append(s.jars, st.Path)
	return Success(), nil
}

func (s *Session) execRemoveJar(st *ast.RemoveJar) (*Result, error) {
	i := slices.Index(s.jars, st.Path)
	if i < 0 {
		return nil, Errorf("SqlExecutionException", "The specified jar '%s' is not registered.", st.Path)
	}
	s.jars = slices.Delete(s.jars, i, i+1)
	return Success(), nil
}
