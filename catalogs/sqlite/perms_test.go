package sqlite

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestStoreFilesArePrivate: the store and the WAL and shared-memory files
// SQLite keeps beside it are readable by their owner only, whatever the
// umask, since they hold every definition and row.
func TestStoreFilesArePrivate(t *testing.T) {
	old := syscall.Umask(0)
	defer syscall.Umask(old)
	path := filepath.Join(t.TempDir(), "eddy.db")
	s, err := OpenStore(path)
	must(t, err)
	defer s.Close()
	m := newManager(t, s)
	must(t, m.CreateDatabase(ctx, "default_catalog", "d", nil, false))
	for _, f := range []string{path, path + "-wal", path + "-shm"} {
		fi, err := os.Stat(f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, want 0600", filepath.Base(f), fi.Mode().Perm())
		}
	}
}
