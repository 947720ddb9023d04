package sqlite

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"strconv"
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

// TestKilledInserterKeepsAcknowledgedRows kills a process that inserts
// one row per transaction and acknowledges each commit: after every kill,
// every acknowledged row is in the store (synchronous=NORMAL in WAL mode
// loses nothing to a process crash).
func TestKilledInserterKeepsAcknowledgedRows(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	path := filepath.Join(t.TempDir(), "eddy.db")
	s, err := OpenStore(path)
	must(t, err)
	cat, err := s.Create("cat", nil)
	must(t, err)
	createScanTable(t, cat.(*Catalog), catalogs.NewObjectPath("default", "t"))
	must(t, s.Close())
	for round := range 4 {
		from := int64(round) * 1_000_000
		cmd := child(t, path, "acker", fmt.Sprintf("EDDY_FROM=%d", from))
		out, err := cmd.StdoutPipe()
		must(t, err)
		must(t, cmd.Start())
		acked := from - 1
		sc := bufio.NewScanner(out)
		deadline := time.Now().Add(time.Duration(50+rand.IntN(100)) * time.Millisecond)
		for sc.Scan() {
			if k, ok := strings.CutPrefix(sc.Text(), "ACK "); ok {
				acked, _ = strconv.ParseInt(k, 10, 64)
			}
			if time.Now().After(deadline) && acked >= from {
				break
			}
		}
		must(t, cmd.Process.Kill())
		_ = cmd.Wait()
		if acked < from {
			t.Fatalf("round %d: the child acknowledged nothing", round)
		}
		s, err := OpenStore(path)
		must(t, err)
		cat, err := s.Create("cat", nil)
		must(t, err)
		cur, err := cat.(*Catalog).ScanRows(ctx, catalogs.NewObjectPath("default", "t"), scanTestTypes(),
			catalogs.ScanSpec{Columns: []int{0}, Filters: []catalogs.RowFilter{
				{Column: 0, Op: catalogs.FilterGe, Value: from}, {Column: 0, Op: catalogs.FilterLe, Value: acked}}})
		must(t, err)
		rows := scanAll(t, cur, scanTestTypes()[:1])
		if int64(len(rows)) != acked-from+1 {
			t.Fatalf("round %d: %d of the %d acknowledged rows are in the store", round, len(rows), acked-from+1)
		}
		must(t, s.Close())
	}
}
