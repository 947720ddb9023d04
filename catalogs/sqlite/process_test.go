package sqlite

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"eddy/catalogs"
	"eddy/catalogs/catalogtest"
	"eddy/catalogs/memory"
	"eddy/engine/types"
)

// Child processes re-execute this test binary with childEnv set to a role.
const childEnv = "EDDY_SQLITE_STORE_CHILD"

func newManager(t testing.TB, s *Store) *catalogs.Manager {
	m := catalogs.NewManager(map[string]catalogs.Factory{Type: s, memory.Type: memory.Factory{}}, s)
	desc := catalogs.CatalogDescriptor{Name: "default_catalog",
		Options: map[string]string{"type": Type, "default-database": "default_database"}}
	if err := m.RegisterCatalog(context.Background(), desc, nil, catalogs.OriginBuiltIn); err != nil {
		t.Fatal(err)
	}
	if err := m.SetCurrentCatalog(context.Background(), "default_catalog"); err != nil {
		t.Fatal(err)
	}
	return m
}

// runWorker does ops CREATE/DROP TABLE statements on its own ten table
// names (all in one database shared with the other workers) and returns the
// names it left existing. Any error is returned: none is expected.
func runWorker(m *catalogs.Manager, worker, ops int) ([]string, error) {
	rng := rand.New(rand.NewPCG(uint64(worker), 42))
	exists := map[string]bool{}
	for i := 0; i < ops; i++ {
		if i%5 == 0 {
			// Contended names all workers create and drop with IF [NOT] EXISTS:
			// the outcome depends on timing, but no error may surface.
			id := catalogs.NewIdentifier("default_catalog", "shared", fmt.Sprintf("shared_%d", rng.IntN(3)))
			var err error
			if rng.IntN(2) == 0 {
				err = m.CreateTable(context.Background(), id, catalogtest.SampleTable(), true)
			} else {
				err = m.DropTable(context.Background(), id, true)
			}
			if err != nil {
				return nil, fmt.Errorf("worker %d op %d on %s: %w", worker, i, id.Object, err)
			}
		}
		name := fmt.Sprintf("w%d_t%d", worker, rng.IntN(10))
		id := catalogs.NewIdentifier("default_catalog", "shared", name)
		var err error
		if exists[name] {
			err = m.DropTable(context.Background(), id, false)
		} else {
			err = m.CreateTable(context.Background(), id, catalogtest.SampleTable(), false)
		}
		if err != nil {
			return nil, fmt.Errorf("worker %d op %d on %s: %w", worker, i, name, err)
		}
		exists[name] = !exists[name]
	}
	var names []string
	for n, ok := range exists {
		if ok {
			names = append(names, n)
		}
	}
	return names, nil
}

func TestChildProcess(t *testing.T) {
	role := os.Getenv(childEnv)
	if role == "" {
		t.Skip("only run as a child process")
	}
	s, err := OpenStore(os.Getenv("EDDY_STORE_PATH"))
	if err != nil {
		fmt.Println("ERROR", err)
		os.Exit(1)
	}
	defer s.Close()
	m := newManager(t, s)
	switch role {
	case "worker":
		w, _ := strconv.Atoi(os.Getenv("EDDY_WORKER"))
		ops, _ := strconv.Atoi(os.Getenv("EDDY_OPS"))
		names, err := runWorker(m, w, ops)
		if err != nil {
			fmt.Println("ERROR", err)
			os.Exit(1)
		}
		fmt.Println("RESULT", strings.Join(names, ","))
	case "rowwriter":
		// Appends EDDY_OPS transactions of 1,000 rows to default.t of
		// catalog cat (see TestScanWhileAnotherProcessWrites).
		ops, _ := strconv.Atoi(os.Getenv("EDDY_OPS"))
		cat, err := s.Create("cat", nil)
		if err != nil {
			fmt.Println("ERROR", err)
			os.Exit(1)
		}
		c := cat.(*Catalog)
		cols, p := scanTestTypes(), catalogs.NewObjectPath("default", "t")
		for i := range ops {
			if err := writeSequence(c, p, cols, int64(i)*1000, 1000); err != nil {
				fmt.Println("ERROR", err)
				os.Exit(1)
			}
		}
		fmt.Println("RESULT ok")
	case "acker":
		// Inserts rows k = EDDY_FROM, EDDY_FROM+1, ... one per transaction
		// into default.t of catalog cat and prints "ACK k" once each is
		// committed, until killed.
		from, _ := strconv.ParseInt(os.Getenv("EDDY_FROM"), 10, 64)
		cat, err := s.Create("cat", nil)
		if err != nil {
			fmt.Println("ERROR", err)
			os.Exit(1)
		}
		c := cat.(*Catalog)
		cols, p := scanTestTypes(), catalogs.NewObjectPath("default", "t")
		for k := from; ; k++ {
			if err := writeSequence(c, p, cols, k, 1); err != nil {
				fmt.Println("ERROR", err)
				os.Exit(1)
			}
			fmt.Println("ACK", k)
		}
	case "bulk":
		// Appends batches of EDDY_BATCH rows k = n, n+1, ... (n: the rows
		// default.t of catalog cat holds) to it, one transaction each,
		// with chunks of EDDY_CHUNK_ROWS rows, so that most commits fold,
		// and prints "ACK k" for the last row of each committed batch,
		// until killed.
		batch, _ := strconv.Atoi(os.Getenv("EDDY_BATCH"))
		s.chunkRows, _ = strconv.Atoi(os.Getenv("EDDY_CHUNK_ROWS"))
		cat, err := s.Create("cat", nil)
		if err != nil {
			fmt.Println("ERROR", err)
			os.Exit(1)
		}
		c := cat.(*Catalog)
		cols, p := scanTestTypes(), catalogs.NewObjectPath("default", "t")
		n, err := countRows(c, p, cols)
		if err != nil {
			fmt.Println("ERROR", err)
			os.Exit(1)
		}
		for k := n; ; k += int64(batch) {
			if err := writeSequence(c, p, cols, k, batch); err != nil {
				fmt.Println("ERROR", err)
				os.Exit(1)
			}
			fmt.Println("ACK", k+int64(batch)-1)
		}
	case "createmodel", "listmodels":
		r, err := modelChild(m, role)
		if err != nil {
			fmt.Println("ERROR", err)
			os.Exit(1)
		}
		fmt.Println("RESULT", r)
	case "populate":
		if err := populate(context.Background(), m); err != nil {
			fmt.Println("ERROR", err)
			os.Exit(1)
		}
		fmt.Println("RESULT ok")
	}
}

func child(t *testing.T, path, role string, env ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^TestChildProcess$")
	cmd.Env = append(os.Environ(), childEnv+"="+role, "EDDY_STORE_PATH="+path)
	cmd.Env = append(cmd.Env, env...)
	return cmd
}

func result(t *testing.T, out []byte) string {
	t.Helper()
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		if r, ok := strings.CutPrefix(sc.Text(), "RESULT "); ok {
			return r
		}
	}
	t.Fatalf("child gave no result:\n%s", out)
	return ""
}

// TestConcurrentProcesses runs 4 processes doing 200 CREATE/DROP TABLE
// statements each on one store: none may fail, and the final listing must
// be exactly what the statements imply.
func TestConcurrentProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	path := filepath.Join(t.TempDir(), "eddy.db")
	s, err := OpenStore(path)
	must(t, err)
	defer s.Close()
	m := newManager(t, s)
	must(t, m.CreateDatabase(ctx, "default_catalog", "shared", nil, false))

	const procs, ops = 4, 200
	cmds := make([]*exec.Cmd, procs)
	outs := make([]strings.Builder, procs)
	for i := range cmds {
		cmds[i] = child(t, path, "worker", fmt.Sprintf("EDDY_WORKER=%d", i), fmt.Sprintf("EDDY_OPS=%d", ops))
		cmds[i].Stdout, cmds[i].Stderr = &outs[i], &outs[i]
		must(t, cmds[i].Start())
	}
	var want []string
	for i, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatalf("worker %d: %v\n%s", i, err, outs[i].String())
		}
		if r := result(t, []byte(outs[i].String())); r != "" {
			want = append(want, strings.Split(r, ",")...)
		}
	}
	slices.Sort(want)
	got, err := m.ListTables(ctx, "default_catalog", "shared", &catalogs.LikeFilter{Pattern: "w%"})
	must(t, err)
	equal(t, got, want)
	t.Logf("%d processes x %d statements, %d tables left", procs, ops, len(got))
}

// TestConcurrentGoroutines does the same with goroutines, each with its own
// store handle, as several shells in one process would.
func TestConcurrentGoroutines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "eddy.db")
	s, err := OpenStore(path)
	must(t, err)
	defer s.Close()
	m := newManager(t, s)
	must(t, m.CreateDatabase(ctx, "default_catalog", "shared", nil, false))
	const workers, ops = 6, 60
	var mu sync.Mutex
	var want []string
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ws, err := OpenStore(path)
			if err != nil {
				errs <- err
				return
			}
			defer ws.Close()
			names, err := runWorker(newManager(t, ws), w, ops)
			if err != nil {
				errs <- err
				return
			}
			mu.Lock()
			want = append(want, names...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	slices.Sort(want)
	got, err := m.ListTables(ctx, "default_catalog", "shared", &catalogs.LikeFilter{Pattern: "w%"})
	must(t, err)
	equal(t, got, want)
}

// countRows counts the rows of a managed table by a scan of no column.
func countRows(c *Catalog, p catalogs.ObjectPath, cols []*types.Type) (int64, error) {
	cur, err := c.ScanRows(context.Background(), p, cols, catalogs.ScanSpec{Columns: []int{}})
	if err != nil {
		return 0, err
	}
	defer cur.Close()
	var n int64
	for {
		ch, err := cur.Next(context.Background(), 1024)
		if err != nil || ch == nil {
			return n, err
		}
		n += int64(ch.N)
	}
}
