package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOverwriteKeepsStrangers: INSERT OVERWRITE on a filesystem table
// replaces the part files it wrote, and leaves every other file in the
// table's directory, and below it, as it was.
func TestOverwriteKeepsStrangers(t *testing.T) {
	s, done := openViewSession(t, filepath.Join(t.TempDir(), "s.db"))
	defer done()
	dir := t.TempDir()
	strangers := map[string]string{
		"notes.txt":          "not eddy's\n",
		"sub/keep.csv":       "9\n",
		"dt=2024/other.data": "8\n",
	}
	for name, text := range strangers {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	exec(t, s, "SET 'execution.runtime-mode' = 'batch'")
	exec(t, s, "SET 'table.dml-sync' = 'true'")
	exec(t, s, "CREATE TABLE f (a INT) WITH ('connector' = 'filesystem', 'path' = '"+dir+"', 'format' = 'csv')")
	exec(t, s, "INSERT INTO f VALUES (1)")
	exec(t, s, "INSERT OVERWRITE f VALUES (2)")
	for name, text := range strangers {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || string(got) != text {
			t.Errorf("%s after OVERWRITE: %q, %v; want it untouched", name, got, err)
		}
	}
	parts, err := filepath.Glob(filepath.Join(dir, "part-*"))
	if err != nil {
		t.Fatal(err)
	}
	if len(parts) != 1 {
		t.Fatalf("%d part files after OVERWRITE, want 1: %v", len(parts), parts)
	}
	if got, _ := os.ReadFile(parts[0]); string(got) != "2\n" {
		t.Errorf("the part file holds %q, want the overwriting row", got)
	}
}

// TestRelativeFilesystemPathResolvedOnce: CREATE TABLE and ALTER TABLE
// resolve a relative 'path' against the working directory once, so the
// stored table names one directory whatever the working directory of the
// shell that reads it.
func TestRelativeFilesystemPathResolvedOnce(t *testing.T) {
	s, done := openViewSession(t, filepath.Join(t.TempDir(), "s.db"))
	defer done()
	dir := t.TempDir()
	t.Chdir(dir)
	exec(t, s, "CREATE TABLE r (a INT) WITH ('connector' = 'filesystem', 'path' = 'data/r', 'format' = 'csv')")
	exec(t, s, "CREATE TABLE o (a INT) WITH ('connector' = 'blackhole', 'path' = 'data/o')")
	show := text(t, exec(t, s, "SHOW CREATE TABLE r"))
	if want := "'path' = '" + filepath.Join(dir, "data", "r") + "'"; !strings.Contains(show, want) {
		t.Errorf("SHOW CREATE TABLE r lacks %s:\n%s", want, show)
	}
	if show := text(t, exec(t, s, "SHOW CREATE TABLE o")); !strings.Contains(show, "'path' = 'data/o'") {
		t.Errorf("another connector's path changed:\n%s", show)
	}
	exec(t, s, "ALTER TABLE r SET ('path' = 'elsewhere')")
	if show := text(t, exec(t, s, "SHOW CREATE TABLE r")); !strings.Contains(show, "'path' = '"+filepath.Join(dir, "elsewhere")+"'") {
		t.Errorf("ALTER TABLE kept a relative path:\n%s", show)
	}
	t.Chdir(t.TempDir())
	exec(t, s, "SET 'execution.runtime-mode' = 'batch'")
	exec(t, s, "INSERT INTO r VALUES (1)")
	if _, err := os.Stat(filepath.Join(dir, "elsewhere")); err != nil {
		t.Errorf("the INSERT did not write where the table was created: %v", err)
	}
	if _, err := s.Execute(context.Background(), "SELECT * FROM r"); err != nil {
		t.Errorf("reading from another working directory: %v", err)
	}
}
