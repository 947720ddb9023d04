package sqlite

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"eddy/catalogs"
	"eddy/engine/types"
)

// Disk trouble needs root (file permissions do not bind root, so the
// tests make files immutable with chattr and mount small or read-only
// tmpfs file systems). Without root or those tools the tests skip and say
// why.

func needRoot(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to mount a tmpfs or make a file immutable")
	}
}

// tmpfs mounts a tmpfs of the given size (mount's size= syntax) on a
// fresh directory, unmounted at the end of the test.
func tmpfs(t *testing.T, size string) string {
	t.Helper()
	needRoot(t)
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", "-l", dir).Run() })
	return dir
}

func remount(t *testing.T, dir, opts string) {
	t.Helper()
	if out, err := exec.Command("mount", "-o", "remount,"+opts, dir).CombinedOutput(); err != nil {
		t.Fatalf("remount %s: %v %s", opts, err, out)
	}
}

// filesOf returns the contents of every file in dir (the store, its WAL
// and shared-memory files).
func filesOf(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	entries, err := os.ReadDir(dir)
	must(t, err)
	for _, e := range entries {
		if e.Type().IsRegular() && !strings.HasSuffix(e.Name(), "-shm") {
			out[e.Name()] = snapshot(t, filepath.Join(dir, e.Name()))
		}
	}
	return out
}

func sameFiles(t *testing.T, before, after map[string][]byte) {
	t.Helper()
	for name, b := range before {
		if !bytes.Equal(after[name], b) {
			t.Errorf("%s changed", name)
		}
	}
	for name := range after {
		if _, ok := before[name]; !ok {
			t.Errorf("%s was created", name)
		}
	}
}

func populatedStore(t *testing.T, path string) {
	t.Helper()
	s, err := OpenStore(path)
	must(t, err)
	m := newManager(t, s)
	must(t, m.CreateDatabase(ctx, "default_catalog", "kept", nil, false))
	must(t, m.Close())
	must(t, s.Close())
}

// readOnlyStoreAnswers opens a store that cannot be written: it answers
// reads, refuses a write with ErrReadOnly naming the store, and changes
// no file.
func readOnlyStoreAnswers(t *testing.T, dir, path string) {
	t.Helper()
	before := filesOf(t, dir)
	s, err := OpenStore(path)
	must(t, err)
	m := newManager(t, s)
	dbs, err := m.ListDatabases(ctx, "default_catalog", nil)
	must(t, err)
	if strings.Join(dbs, ",") != "default_database,kept" {
		t.Errorf("databases of the read-only store: %v", dbs)
	}
	err = m.CreateDatabase(ctx, "default_catalog", "more", nil, false)
	if !errors.Is(err, ErrReadOnly) || !strings.Contains(err.Error(), path) {
		t.Errorf("write to a read-only store: err = %v, want ErrReadOnly naming %s", err, path)
	}
	t.Logf("write to a read-only store: %v", err)
	must(t, m.Close())
	must(t, s.Close())
	after := filesOf(t, dir)
	for name, b := range after {
		// SQLite makes its (empty) log beside a WAL store that a reader
		// opens, where the directory allows it, as the sqlite3 shell does.
		if _, ok := before[name]; !ok && strings.HasSuffix(name, "-wal") && len(b) == 0 {
			delete(after, name)
		}
	}
	sameFiles(t, before, after)
}

// TestImmutableStore: a store file nobody may write (chattr +i binds
// root too) is opened for reading: it answers, refuses writes with one
// clear error, and nothing changes.
func TestImmutableStore(t *testing.T) {
	needRoot(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "eddy.db")
	populatedStore(t, path)
	if out, err := exec.Command("chattr", "+i", path).CombinedOutput(); err != nil {
		t.Skipf("chattr +i does not work here: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("chattr", "-i", path).Run() })
	readOnlyStoreAnswers(t, dir, path)
}

// TestReadOnlyFileSystem: a store on a file system mounted read-only is
// opened for reading, and nothing changes; a store that does not exist yet
// there is one clear store error.
func TestReadOnlyFileSystem(t *testing.T) {
	dir := tmpfs(t, "4m")
	path := filepath.Join(dir, "eddy.db")
	populatedStore(t, path)
	remount(t, dir, "ro")
	readOnlyStoreAnswers(t, dir, path)
	if _, err := OpenStore(filepath.Join(dir, "new", "eddy.db")); !errors.Is(err, catalogs.ErrStore) {
		t.Fatalf("new store on a read-only file system: %v", err)
	}
}

// TestFullFileSystem fills a 1 MB tmpfs with the rows of a managed table:
// the INSERT that does not fit fails with a clear store error and leaves
// nothing behind, DDL on the full disk fails the same way, earlier data
// is intact, and once there is room again the store works.
func TestFullFileSystem(t *testing.T) {
	dir := tmpfs(t, "1m")
	path := filepath.Join(dir, "eddy.db")
	s, err := OpenStore(path)
	must(t, err)
	defer s.Close()
	cat, err := s.Create("cat", nil)
	must(t, err)
	c := cat.(*Catalog)
	tbl := managedTable(col("n", types.New(types.Int)), col("s", types.NewString()))
	p := catalogs.NewObjectPath("default", "t")
	must(t, c.CreateTable(ctx, p, tbl, false))
	writeRows(t, c, p, tbl, []any{int32(1), "first"})

	pad := strings.Repeat("z", 4000)
	var full error
	batches := 0
	for ; batches < 100 && full == nil; batches++ {
		full = c.WriteRows(ctx, p, physTypes(tbl), false, func(emit func([]any) error) error {
			for i := 0; i < 50; i++ {
				if err := emit([]any{int32(i), pad}); err != nil {
					return err
				}
			}
			return nil
		})
	}
	if full == nil {
		t.Fatal("1 MB never filled up")
	}
	if !errors.Is(full, catalogs.ErrStore) || !strings.Contains(full.Error(), "full") {
		t.Fatalf("full disk: err = %v, want a store error saying the disk is full", full)
	}
	t.Logf("after %d whole INSERTs of 50 rows: %v", batches-1, full)
	count := func() int {
		n := 0
		_, err := c.ReadRows(ctx, p, physTypes(tbl), 0, 0, func([]any) error { n++; return nil })
		must(t, err)
		return n
	}
	if got, want := count(), 1+50*(batches-1); got != want {
		t.Fatalf("%d rows after the failed INSERT, want %d (all earlier, none of the failed one)", got, want)
	}
	// Fill what is left with DDL until it fails too.
	var ddlErr error
	for i := 0; i < 2000 && ddlErr == nil; i++ {
		big := managedTable(col("c"+strings.Repeat("x", 1000), types.NewString()))
		big.Comment = pad
		ddlErr = c.CreateTable(ctx, catalogs.NewObjectPath("default", "t"+string(rune('a'+i%26))+strings.Repeat("_", i/26)), big, false)
	}
	if ddlErr != nil && !errors.Is(ddlErr, catalogs.ErrStore) {
		t.Fatalf("DDL on a full disk: %v", ddlErr)
	}
	var check string
	must(t, s.db.QueryRow(`PRAGMA integrity_check`).Scan(&check))
	equal(t, check, "ok")
	// Room again: the store takes writes.
	remount(t, dir, "size=16m")
	writeRows(t, c, p, tbl, []any{int32(2), "after"})
	if got, want := count(), 2+50*(batches-1); got != want {
		t.Fatalf("%d rows once there is room, want %d", got, want)
	}
}
