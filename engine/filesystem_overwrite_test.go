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

// TestRelativeFilesystemPathRefused: a relative 'path' would be a
// different directory in every shell; it is refused with a clear error.
func TestRelativeFilesystemPathRefused(t *testing.T) {
	s, done := openViewSession(t, filepath.Join(t.TempDir(), "s.db"))
	defer done()
	exec(t, s, "CREATE TABLE r (a INT) WITH ('connector' = 'filesystem', 'path' = 'data/r', 'format' = 'csv')")
	for _, stmt := range []string{"SELECT * FROM r", "INSERT INTO r VALUES (1)"} {
		_, err := s.Execute(context.Background(), stmt)
		if err == nil || !strings.Contains(err.Error(), "The path 'data/r' of filesystem table") || !strings.Contains(err.Error(), "is relative") {
			t.Errorf("%s: err = %v, want the relative path refused", stmt, err)
		}
	}
	if _, err := os.Stat("data"); err == nil {
		t.Errorf("a directory was made relative to the working directory")
	}
}
