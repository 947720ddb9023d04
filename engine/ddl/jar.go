package ddl

import (
	"archive/zip"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"eddy/engine/ast"
	"eddy/engine/result"
	"eddy/engine/sqlerr"
)

// execAddJar registers a jar with the session (SHOW JARS lists it). eddy
// runs no JVM code: the jar is recorded so that scripts written for the
// Flink SQL client keep working, so that CREATE TEMPORARY FUNCTION finds
// its class as Flink's class loader would, and so that a gateway session
// can use it. The path is checked as Flink's ResourceManager checks it
// (a '.jar' name, an existing file, not a directory), and the file must be
// a jar: a zip archive holding a manifest or class files.
func (ex *Executor) execAddJar(st *ast.AddJar) (*result.Result, error) {
	if slices.Contains(ex.jars, st.Path) {
		return result.Success(), nil
	}
	if err := checkJar(st.Path); err != nil {
		return nil, err
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

// Exception classes of the jar checks that sqlerr does not name: Java's
// own, as Flink's client prints the root cause.
const (
	fileNotFoundException  = "FileNotFoundException"
	classNotFoundException = "ClassNotFoundException"
)

// checkJar checks a jar path as ADD JAR and USING JAR take it.
func checkJar(path string) error {
	if !strings.EqualFold(filepath.Ext(path), ".jar") {
		return sqlerr.Errorf(sqlerr.ValidationException, "The registering or unregistering jar resource [%s] must ends with '.jar' suffix.", path)
	}
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return sqlerr.Errorf(fileNotFoundException, "Jar resource [%s] not found.", path)
	case err != nil:
		return sqlerr.Errorf(sqlerr.SqlExecutionException, "Failed to add jar '%s': %v", path, err)
	case info.IsDir():
		return sqlerr.Errorf(sqlerr.ValidationException, "The registering or unregistering jar resource [%s] is a directory that is not allowed.", path)
	}
	names, err := jarEntries(path)
	if err != nil {
		return sqlerr.Errorf(sqlerr.ValidationException, "The jar resource [%s] is not a jar file: %v", path, err)
	}
	if !slices.ContainsFunc(names, func(n string) bool {
		return strings.EqualFold(n, "META-INF/MANIFEST.MF") || strings.HasSuffix(n, ".class")
	}) {
		return sqlerr.Errorf(sqlerr.ValidationException, "The jar resource [%s] is not a jar file: it holds no manifest and no class.", path)
	}
	return nil
}

// jarEntries returns the names of the entries of a zip archive.
func jarEntries(path string) ([]string, error) {
	r, err := zip.OpenReader(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	names := make([]string, len(r.File))
	for i, f := range r.File {
		names[i] = f.Name
	}
	return names, nil
}

// checkFunctionClass checks that a Java function's class is in one of the
// jars (the session's and the function's USING JAR ones), as Flink's class
// loader finds it when a temporary function is created; the error is the
// root cause Flink's client prints.
func checkFunctionClass(className string, jars ...[]string) error {
	entry := strings.ReplaceAll(className, ".", "/") + ".class"
	for _, list := range jars {
		for _, jar := range list {
			names, err := jarEntries(jar)
			if err == nil && slices.Contains(names, entry) {
				return nil
			}
		}
	}
	return sqlerr.Errorf(classNotFoundException, "%s", className)
}
