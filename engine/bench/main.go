package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// config is the parsed command line.
type config struct {
	scale   scale
	runs    int
	eddy    string // prebuilt eddy binary; empty builds one
	only    string // run only workloads whose group contains this text
	workdir string // data and stores; empty makes a temporary directory
	// baseline is an earlier eddy binary measured in the same rounds as
	// eddy (the before/after comparison of a change); empty: none.
	baseline string
	// peers runs the sqlite3 CLI and DuckDB too (false: eddy, and the
	// baseline if any, only).
	peers bool
	// parallelism and baseParallelism set eddy.exec.parallelism for eddy
	// and the baseline (0: eddy's default).
	parallelism, baseParallelism int
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c config
	scaleName := fs.String("scale", "small", "data sizes: small (fits 2 cores and a few minutes) or full (the sizes of the targets)")
	fs.IntVar(&c.runs, "runs", 5, "alternating runs per workload; the median is reported")
	fs.StringVar(&c.eddy, "eddy", "", "use this eddy binary instead of building one from the repository root")
	fs.StringVar(&c.only, "only", "", "run only the workload groups whose name contains this text (startup, catalog, script, analytics, csv, parquet, memory, streaming)")
	fs.StringVar(&c.workdir, "workdir", "", "directory for generated data and stores (default: a temporary directory, removed at the end)")
	fs.StringVar(&c.baseline, "baseline", "", "an earlier eddy binary to measure in the same rounds as eddy (adds baseline and eddy/baseline columns)")
	fs.IntVar(&c.parallelism, "parallelism", 0, "eddy.exec.parallelism of every eddy run (0: eddy's default, the number of CPUs)")
	fs.IntVar(&c.baseParallelism, "baseline-parallelism", 0, "eddy.exec.parallelism of the baseline's runs (0: eddy's default); with -baseline set to the same binary, compares two parallelisms")
	fs.BoolVar(&c.peers, "peers", true, "also run the sqlite3 CLI and DuckDB (false: only eddy and the baseline)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	sc, ok := scales[*scaleName]
	if !ok {
		fmt.Fprintf(stderr, "bench: unknown -scale %q (small or full)\n", *scaleName)
		return 2
	}
	c.scale = sc
	if c.runs < 1 {
		fmt.Fprintln(stderr, "bench: -runs must be at least 1")
		return 2
	}
	if err := bench(c, stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "bench: %v\n", err)
		return 1
	}
	return 0
}

func bench(c config, stdout, stderr io.Writer) error {
	dir := c.workdir
	if dir == "" {
		d, err := os.MkdirTemp("", "eddy-bench-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		dir = d
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	eddyBin := c.eddy
	if eddyBin == "" {
		fmt.Fprintln(stderr, "building eddy ...")
		b, err := buildEddy(dir)
		if err != nil {
			return err
		}
		eddyBin = b
	} else if abs, err := filepath.Abs(eddyBin); err == nil {
		eddyBin = abs
	}
	var base *env
	env, err := newEnv(dir, eddyBin, c.scale, stderr)
	if err != nil {
		return err
	}
	env.parallelism = c.parallelism
	defer env.close()
	// The baseline works on stores of its own (a store written by one
	// build is not handed to the other) over data generated alike.
	if c.baseline != "" {
		abs, err := filepath.Abs(c.baseline)
		if err != nil {
			return err
		}
		bdir := filepath.Join(dir, "baseline")
		if err := os.MkdirAll(bdir, 0o755); err != nil {
			return err
		}
		if base, err = newEnv(bdir, abs, c.scale, stderr); err != nil {
			return err
		}
		base.parallelism = c.baseParallelism
		defer base.close()
	}
	loadBefore := loadAverage()
	var results []result
	for _, g := range groups() {
		if c.only != "" && !strings.Contains(g.name, c.only) {
			continue
		}
		fmt.Fprintf(stderr, "preparing %s ...\n", g.name)
		cases, err := g.prepare(env)
		if err != nil {
			fmt.Fprintf(stderr, "  %s: %v\n", g.name, err)
			results = append(results, result{group: g.name, name: "(setup)", note: "not available: " + oneLine(err.Error())})
			continue
		}
		var baseCases []caseDef
		if base != nil {
			if baseCases, err = g.prepare(base); err != nil {
				fmt.Fprintf(stderr, "  %s (baseline): %v\n", g.name, err)
			}
		}
		for i, cs := range cases {
			if i < len(baseCases) && baseCases[i].name == cs.name {
				cs.runs[baseEngine] = baseCases[i].runs[eddyEngine]
			}
			if !c.peers {
				// Targets are judged against the peers: a run without
				// them compares builds and judges nothing.
				cs.runs[sqliteEngine], cs.runs[duckEngine] = nil, nil
				cs.target = nil
			}
			fmt.Fprintf(stderr, "  %s / %s\n", g.name, cs.name)
			results = append(results, measure(g.name, cs, c.runs))
		}
	}
	fmt.Fprintf(stdout, "eddy performance, -scale %s, medians of %d alternating runs, %s, load average %s at the start and %s at the end\n\n",
		c.scale.name, c.runs, machine(), loadBefore, loadAverage())
	writeTable(stdout, results, base != nil)
	return nil
}
