package qtest_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"eddy/repl/qtest"
)

func TestZZDump(t *testing.T) {
	dir, _ := flinkDir(t)
	skips, _ := qtest.ReadSkipList("testdata/skip.txt")
	for _, f := range qfiles(t, "flink", dir) {
		raw, _ := os.ReadFile(f.path)
		s, _ := qtest.Parse(string(raw))
		for _, r := range s.Records {
			if _, ok := skips[qtest.Key{File: f.key, Record: r.Num}]; ok || os.Getenv("ALL") != "" {
				first := strings.ReplaceAll(strings.TrimSpace(r.SQL), "\n", " ")
				if len(first) > 90 {
					first = first[:90]
				}
				exp := strings.SplitN(r.Expected, "\n", 2)[0]
				if len(exp) > 50 {
					exp = exp[:50]
				}
				fmt.Printf("%s #%d %s | %s\n", filepath.Base(filepath.Dir(f.path))+"/"+filepath.Base(f.path), r.Num, first, exp)
			}
		}
	}
}
