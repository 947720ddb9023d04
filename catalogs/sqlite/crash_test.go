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

// TestKilledBulkInserterFoldsAllOrNothing kills, 50 times, a process
// whose INSERTs of 3,000 rows each fold the delta into column chunks of
// 2,048 rows in their own transaction: after every kill the store passes
// SQLite's integrity check and holds whole statements only (a multiple of
// 3,000 rows, every acknowledged one), in the order they were written,
// partly in chunks.
func TestKilledBulkInserterFoldsAllOrNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	const batch = 3000
	path := filepath.Join(t.TempDir(), "eddy.db")
	s, err := OpenStore(path)
	must(t, err)
	cat, err := s.Create("cat", nil)
	must(t, err)
	cols := createScanTable(t, cat.(*Catalog), catalogs.NewObjectPath("default", "t"))
	must(t, s.Close())
	acked := int64(-1)
	for round := range 50 {
		cmd := child(t, path, "bulk", fmt.Sprintf("EDDY_BATCH=%d", batch), "EDDY_CHUNK_ROWS=2048")
		out, err := cmd.StdoutPipe()
		must(t, err)
		must(t, cmd.Start())
		sc := bufio.NewScanner(out)
		deadline := time.Now().Add(time.Duration(20+rand.IntN(80)) * time.Millisecond)
		for time.Now().Before(deadline) && sc.Scan() {
			if k, ok := strings.CutPrefix(sc.Text(), "ACK "); ok {
				acked, _ = strconv.ParseInt(k, 10, 64)
			} else if strings.HasPrefix(sc.Text(), "ERROR") {
				t.Fatalf("round %d: %s", round, sc.Text())
			}
		}
		must(t, cmd.Process.Kill())
		_ = cmd.Wait()

		s, err := OpenStore(path)
		if err != nil {
			t.Fatalf("round %d: store does not open after a kill: %v", round, err)
		}
		var check string
		must(t, s.db.QueryRow(`PRAGMA integrity_check`).Scan(&check))
		if check != "ok" {
			t.Fatalf("round %d: integrity_check = %q", round, check)
		}
		cat, err := s.Create("cat", nil)
		must(t, err)
		c := cat.(*Catalog)
		cur, err := c.ScanRows(ctx, catalogs.NewObjectPath("default", "t"), cols, catalogs.ScanSpec{Columns: []int{0}})
		must(t, err)
		rows := scanAll(t, cur, cols[:1])
		if len(rows)%batch != 0 || int64(len(rows)) <= acked {
			t.Fatalf("round %d: %d rows: not whole statements of %d, or fewer than the %d acknowledged", round, len(rows), batch, acked+1)
		}
		for i, r := range rows {
			if r != fmt.Sprintf("[%d]", i) {
				t.Fatalf("round %d: row %d is %s", round, i, r)
			}
		}
		must(t, s.Close())
	}
	s, err = OpenStore(path)
	must(t, err)
	defer s.Close()
	var chunks int
	must(t, s.db.QueryRow(`SELECT count(*) FROM eddy_chunks`).Scan(&chunks))
	if acked < 0 || chunks == 0 {
		t.Fatalf("%d rows acknowledged, %d chunk columns: the kills came before any fold", acked+1, chunks)
	}
}
