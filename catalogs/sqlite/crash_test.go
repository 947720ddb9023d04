package sqlite

import (
	"fmt"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"eddy/catalogs"
)

// TestKilledWriterLeavesConsistentStore kills a child process in the middle
// of a stream of DDL statements, several times: the store must always open,
// pass SQLite's integrity check, and hold only whole objects.
func TestKilledWriterLeavesConsistentStore(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	path := filepath.Join(t.TempDir(), "eddy.db")
	s, err := OpenStore(path)
	must(t, err)
	must(t, newManager(t, s).CreateDatabase(ctx, "default_catalog", "shared", nil, false))
	must(t, s.Close())
	const rounds = 8
	seen := 0
	for round := 0; round < rounds; round++ {
		cmd := child(t, path, "worker", fmt.Sprintf("EDDY_WORKER=%d", round), "EDDY_OPS=100000")
		var out strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &out
		must(t, cmd.Start())
		time.Sleep(time.Duration(30+rand.IntN(120)) * time.Millisecond)
		must(t, cmd.Process.Kill())
		err := cmd.Wait()
		if ee, ok := err.(*exec.ExitError); !ok || ee.Success() {
			t.Fatalf("round %d: child was not killed (%v):\n%s", round, err, out.String())
		}

		s, err := OpenStore(path)
		if err != nil {
			t.Fatalf("round %d: store does not open after a kill: %v", round, err)
		}
		var check string
		must(t, s.db.QueryRow(`PRAGMA integrity_check`).Scan(&check))
		if check != "ok" {
			t.Fatalf("round %d: integrity_check = %q", round, check)
		}
		m := newManager(t, s)
		names, err := m.ListTables(ctx, "default_catalog", "shared", nil)
		must(t, err)
		seen += len(names)
		for _, n := range names {
			if _, err := m.GetTable(ctx, catalogs.NewIdentifier("default_catalog", "shared", n)); err != nil {
				t.Fatalf("round %d: %s unreadable: %v", round, n, err)
			}
		}
		must(t, s.Close())
	}
	if seen == 0 {
		t.Fatal("no child wrote anything before it was killed; the test proved nothing")
	}
}
