package main

import (
	"bufio"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	_ "github.com/duckdb/duckdb-go/v2" // the "duckdb" database/sql driver
)

// scale fixes the data sizes.
type scale struct {
	name      string
	rows      int // fact table rows
	groups    int // distinct keys of the large GROUP BY, and rows of the join's dimension table
	objects   int // tables, and again views, in the catalog-scale store
	inserts   int // piped INSERT statements
	streamRow int // rows a bounded datagen source produces
}

var scales = map[string]scale{
	"small": {name: "small", rows: 1_000_000, groups: 100_000, objects: 10_000, inserts: 5_000, streamRow: 2_000_000},
	"full":  {name: "full", rows: 10_000_000, groups: 1_000_000, objects: 10_000, inserts: 100_000, streamRow: 50_000_000},
}

// env is the shared state of a run: binaries, generated data, stores.
type env struct {
	dir    string
	eddy   string
	sqlite string // the sqlite3 CLI
	sc     scale
	log    io.Writer
	duck   *sql.DB // nil until a workload needs it
	// parallelism, when positive, is every eddy run's
	// eddy.exec.parallelism (0: eddy's default, the number of CPUs).
	parallelism int
}

func newEnv(dir, eddyBin string, sc scale, log io.Writer) (*env, error) {
	e := &env{dir: dir, eddy: eddyBin, sc: sc, log: log}
	if p, err := exec.LookPath("sqlite3"); err == nil {
		e.sqlite = p
	} else {
		fmt.Fprintln(log, "sqlite3 CLI not found (apt-get install -y sqlite3): its column stays empty")
	}
	return e, nil
}

func (e *env) close() {
	if e.duck != nil {
		e.duck.Close()
	}
}

func (e *env) path(name string) string { return filepath.Join(e.dir, name) }

// fresh returns the path of a database file in the run directory after
// removing any earlier copy and its SQLite side files.
func (e *env) fresh(name string) string {
	p := e.path(name)
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		os.Remove(p + suffix)
	}
	return p
}

// duckDB opens (once) the DuckDB database file of the run.
func (e *env) duckDB() (*sql.DB, error) {
	if e.duck != nil {
		return e.duck, nil
	}
	db, err := sql.Open("duckdb", e.path("duck.db"))
	if err != nil {
		return nil, err
	}
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, err
	}
	e.duck = db
	return db, nil
}

// repoRoot walks up from the working directory to the directory whose
// go.mod declares module eddy.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && modulePath(string(data)) == "eddy" {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod of module eddy above the working directory; run from inside the repository or pass -eddy")
		}
		dir = parent
	}
}

func modulePath(gomod string) string {
	for l := range strings.Lines(gomod) {
		if f := strings.Fields(l); len(f) == 2 && f[0] == "module" {
			return f[1]
		}
	}
	return ""
}

// buildEddy builds the eddy binary from the repository root into dir.
func buildEddy(dir string) (string, error) {
	root, err := repoRoot()
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "eddy")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build in %s: %v\n%s", root, err, out)
	}
	return bin, nil
}

// eddyArgs are the flags every eddy run gets: its store, batch mode,
// tableau results, synchronous DML.
func (e *env) eddyArgs(store string, extra ...string) []string {
	args := []string{"--store", store,
		"-D", "sql-client.execution.result-mode=tableau",
		"-D", "execution.runtime-mode=batch",
		"-D", "table.dml-sync=true"}
	if e.parallelism > 0 {
		args = append(args, "-D", fmt.Sprintf("eddy.exec.parallelism=%d", e.parallelism))
	}
	return append(args, extra...)
}

// eddyScript runs script on eddy with the store and returns the sample.
func (e *env) eddyScript(store, script string, extra ...string) (sample, error) {
	return proc("", e.eddy, e.eddyArgs(store, append(extra, "-f", script)...)...)
}

// writeFile writes text into the run directory and returns its path.
func (e *env) writeFile(name, text string) (string, error) {
	p := e.path(name)
	return p, os.WriteFile(p, []byte(text), 0o644)
}

// genFacts writes the fact table as CSV once: id, k1 (1,000 keys), k2
// (sc.groups keys), v (a double in [0, 1000)), s (a short string).
func (e *env) genFacts() (string, error) {
	p := e.path("facts.csv")
	if _, err := os.Stat(p); err == nil {
		return p, nil
	}
	f, err := os.Create(p)
	if err != nil {
		return "", err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	r := rand.New(rand.NewPCG(1, 2))
	buf := make([]byte, 0, 64)
	for i := range e.sc.rows {
		v := float64(r.IntN(100_000)) / 100
		buf = fmt.Appendf(buf[:0], "%d,%d,%d,%.2f,s%d\n", i, i%1000, r.IntN(e.sc.groups), v, i%97)
		w.Write(buf)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return "", err
	}
	return p, f.Close()
}

// genDims writes the join's dimension table: id 0..groups-1, w, name.
func (e *env) genDims() (string, error) {
	p := e.path("dims.csv")
	if _, err := os.Stat(p); err == nil {
		return p, nil
	}
	f, err := os.Create(p)
	if err != nil {
		return "", err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	for i := range e.sc.groups {
		fmt.Fprintf(w, "%d,%d,n%d\n", i, i%10, i)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return "", err
	}
	return p, f.Close()
}

// machine describes the hardware for the report's heading.
func machine() string {
	model := ""
	if data, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for l := range strings.Lines(string(data)) {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
				model = strings.TrimSpace(v)
				break
			}
		}
	}
	s := fmt.Sprintf("%d CPUs", runtime.NumCPU())
	if model != "" {
		s += " (" + model + ")"
	}
	return s + ", " + runtime.GOOS + "/" + runtime.GOARCH
}

// loadAverage is the machine's one-minute load average, "?" when unknown;
// the figures of a loaded machine are slower than its quiet ones.
func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(data)); err == nil && len(f) > 0 {
		return f[0]
	}
	return "?"
}
