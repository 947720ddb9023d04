package qtest_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// repoRoot walks up from the package directory to the directory holding
// go.mod.
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test directory")
		}
		dir = parent
	}
}

// flinkDir is where Flink's .q scripts are: shared/conformance/flink next to
// the repository. ok is false when that directory is absent (a user's clone).
func flinkDir(t *testing.T) (dir string, ok bool) {
	dir = filepath.Join(repoRoot(t), "..", "shared", "conformance", "flink")
	st, err := os.Stat(dir)
	return dir, err == nil && st.IsDir()
}

// qfile is one .q file to run: its baseline key and its path.
type qfile struct {
	key, path string
}

// qfiles lists the .q files under dir, keyed "<source>/<path under dir>",
// in lexical order.
func qfiles(t *testing.T, source, dir string) []qfile {
	t.Helper()
	// WalkDir does not enter a root that is a symbolic link.
	dir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []qfile
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(path, ".q") {
			return nil
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		out = append(out, qfile{key: source + "/" + filepath.ToSlash(rel), path: path})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(out, func(a, b qfile) int { return strings.Compare(a.key, b.key) })
	return out
}
