package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// batchCount is the row of the README's batch count: 1000 orders, and the
// customers among them.
var batchCount = regexp.MustCompile(`\|\s+1000 \|\s+(\d+) \|`)

// readmeBlock returns the first fenced block of kind lang that follows
// the text after in README.md.
func readmeBlock(t *testing.T, after, lang string) string {
	t.Helper()
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(data), after)
	if !ok {
		t.Fatalf("README.md has no %q", after)
	}
	_, block, ok := strings.Cut(rest, "```"+lang+"\n")
	if !ok {
		t.Fatalf("README.md has no %s block after %q", lang, after)
	}
	block, _, _ = strings.Cut(block, "```")
	return block
}

// TestReadmeExamplesCatalog runs the README's examples of the examples
// catalog in a fresh streaming session, and again under the README's own
// configuration file (batch mode, its catalogs, its current catalog):
// every statement succeeds, the LIMIT query prints its five rows, and the
// batch counts are the snapshot's documented row count, the same on
// every run.
func TestReadmeExamplesCatalog(t *testing.T) {
	sqlText := readmeBlock(t, "## Data to play with", "sql")
	yaml := readmeBlock(t, "The configuration file uses the layout", "yaml")
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfg, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	var counts []string
	for _, args := range [][]string{
		{"--store", store(t)},
		{"--config", cfg},
		{"--config", cfg},
	} {
		r := eddy(t, sqlText, args...)
		if r.code != 0 || strings.Contains(r.stderr, "WARNING") {
			t.Fatalf("%v: exit %d\n%s%s", args, r.code, r.stdout, r.stderr)
		}
		if !strings.Contains(r.stdout, "5 rows") {
			t.Errorf("%v: the LIMIT 5 query:\n%s", args, r.stdout)
		}
		m := batchCount.FindStringSubmatch(r.stdout)
		if m == nil {
			t.Fatalf("%v: no batch count of the documented 1000 orders:\n%s", args, r.stdout)
		}
		count := m[1]
		counts = append(counts, count)
	}
	if counts[0] != counts[1] || counts[1] != counts[2] {
		t.Errorf("the snapshot differs between runs:\n%s\n%s\n%s", counts[0], counts[1], counts[2])
	}
	if _, err := os.Stat(filepath.Join(dir, "team.db")); err != nil {
		t.Errorf("the configuration's store was not used: %v", err)
	}
}
