package sqlite

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestOnlyThisPackageTalksToTheStore scans the module's source: no package
// but this one imports the SQLite driver, and no code outside it reaches
// the store's database handle (Store.DB), so every SQL text sent to the
// store is one TestSQLIsNeverBuiltFromStrings checks.
func TestOnlyThisPackageTalksToTheStore(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	must(t, err)
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not found at %s", root)
	}
	here, err := filepath.Abs(".")
	must(t, err)
	scanned := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || filepath.Dir(path) == here {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, src, parser.ImportsOnly)
		if err != nil {
			return nil // a file being written; the compiler reports it
		}
		scanned++
		rel, _ := filepath.Rel(root, path)
		usesStore := false
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			switch {
			case p == "github.com/mattn/go-sqlite3":
				t.Errorf("%s imports the SQLite driver; only catalogs/sqlite may", rel)
			case p == "eddy/catalogs/sqlite":
				usesStore = true
			}
		}
		if usesStore && strings.Contains(string(src), ".DB()") {
			t.Errorf("%s reaches the store's database handle; SQL against the store belongs in catalogs/sqlite", rel)
		}
		return nil
	})
	must(t, err)
	if scanned < 50 {
		t.Fatalf("only %d files scanned; the scan is not looking at the module", scanned)
	}
}
