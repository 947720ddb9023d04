package e2e

import (
	"archive/zip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeJar writes a zip archive with empty entries of these names.
func writeJar(t *testing.T, path string, entries ...string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := zip.NewWriter(f)
	for _, e := range entries {
		if _, err := w.Create(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestJarsAndJavaFunctions: ADD JAR takes only a jar; a temporary Java
// function needs its class in an added jar (Flink's ClassNotFoundException
// otherwise); calling a Java function says that it runs only on Flink.
func TestJarsAndJavaFunctions(t *testing.T) {
	dir := t.TempDir()
	jar := filepath.Join(dir, "udf.jar")
	writeJar(t, jar, "META-INF/MANIFEST.MF", "com/example/Lower.class")
	notJar := filepath.Join(dir, "notes.jar")
	if err := os.WriteFile(notJar, []byte("not a zip\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	st := store(t)
	r := eddy(t, "ADD JAR '"+notJar+"';\n", "--store", st)
	if r.code != 1 || !strings.Contains(r.stderr, "ValidationException: The jar resource ["+notJar+"] is not a jar file") {
		t.Errorf("ADD JAR of a text file: exit %d\n%s", r.code, r.stderr)
	}
	r = eddy(t, "CREATE TEMPORARY FUNCTION lower2 AS 'com.example.Lower';\n", "--store", st)
	if r.code != 1 || !strings.Contains(r.stderr, "ClassNotFoundException: com.example.Lower") {
		t.Errorf("a temporary function without its jar: exit %d\n%s", r.code, r.stderr)
	}
	in := "ADD JAR '" + jar + "';\nSHOW JARS;\nCREATE TEMPORARY FUNCTION lower2 AS 'com.example.Lower';\nSELECT lower2('A');\n"
	r = eddy(t, in, "--store", st)
	if r.code != 1 || !hasRow(r.stdout, jar) || strings.Count(r.stdout, "[INFO] Execute statement succeeded.") != 2 {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	want := "[WARNING] lower2 is a Java function (class com.example.Lower): eddy runs no Java code, so it can be called only on Flink, with eddy --gateway URL.\n"
	if !strings.Contains(r.stderr, "No match found for function signature lower2(<CHARACTER>)") || !strings.Contains(r.stderr, want) {
		t.Errorf("calling a Java function:\n%s", r.stderr)
	}
}
