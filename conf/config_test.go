package conf

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

func TestLoadFull(t *testing.T) {
	cfg, err := Load(filepath.Join("testdata", "full.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	want := &Config{
		File:  filepath.Join("testdata", "full.yaml"),
		Store: "./team.db",
		Catalogs: []CatalogConfig{
			{Name: "_env_prod", Type: "sqlite", DefaultDatabase: "default", Options: map[string]string{"path": "./prod.db"}, Line: 3},
			{Name: "scratch", Type: "generic_in_memory", Options: map[string]string{}, Line: 7},
		},
		Execution: Execution{CurrentCatalog: "_env_prod", CurrentDatabase: "default", RuntimeMode: "batch", ResultMode: "tableau"},
		Configuration: []Setting{
			{Key: "table.local-time-zone", Value: "UTC", Line: 15},
			{Key: "sql-client.display.max-column-width", Value: "40", Line: 16},
		},
	}
	if !reflect.DeepEqual(cfg, want) {
		t.Fatalf("got  %+v\nwant %+v", cfg, want)
	}
	if got := cfg.Catalogs[0].AllOptions(); !reflect.DeepEqual(got, map[string]string{"type": "sqlite", "default-database": "default", "path": "./prod.db"}) {
		t.Errorf("AllOptions = %v", got)
	}
	if got := cfg.Settings()["table.local-time-zone"]; got != "UTC" {
		t.Errorf("Settings = %v", cfg.Settings())
	}
}

func TestLoadUnknownKeyHasLine(t *testing.T) {
	_, err := Load(filepath.Join("testdata", "typo.yaml"))
	want := filepath.Join("testdata", "typo.yaml") + `:7: unknown key "typo" in "execution" (expected current-catalog, current-database, runtime-mode or result-mode)`
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v\nwant %s", err, want)
	}
	var ce *Error
	if !errors.As(err, &ce) || ce.Line != 7 {
		t.Fatalf("not a *conf.Error at line 7: %#v", err)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, yaml, want string
	}{
		{"top-level typo", "store: x\ntypo: 1\n", `config.yaml:2: unknown key "typo" (expected store, catalogs, execution, configuration, gateway or examples-catalog)`},
		{"store not scalar", "store:\n  - a\n", `config.yaml:2: "store" must be a scalar value, found a list`},
		{"catalogs not list", "catalogs: abc\n", `config.yaml:1: "catalogs" must be a list, found a scalar`},
		{"missing name", "catalogs:\n  - type: sqlite\n", `config.yaml:2: catalog entry has no "name"`},
		{"missing type", "catalogs:\n  - name: a\n    default-database: d\n", `config.yaml:2: catalog "a" has no "type"`},
		{"duplicate catalog", "catalogs:\n  - name: a\n    type: sqlite\n  - name: a\n    type: generic_in_memory\n", `config.yaml:4: duplicate catalog name "a" (first at line 2)`},
		{"duplicate key", "catalogs:\n  - name: a\n    type: sqlite\n    type: x\n", `config.yaml:4: duplicate key "type" (first at line 3)`},
		{"option not scalar", "catalogs:\n  - name: a\n    type: sqlite\n    path: {x: 1}\n", `config.yaml:4: "path" must be a scalar value, found a mapping`},
		{"bad runtime mode", "execution:\n  runtime-mode: fast\n", `config.yaml:2: runtime-mode "fast" is not one of streaming, batch, automatic`},
		{"bad result mode", "execution:\n  result-mode: pretty\n", `config.yaml:2: result-mode "pretty" is not one of table, tableau, changelog`},
		{"configuration not mapping", "configuration:\n  - a\n", `config.yaml:2: "configuration" must be a mapping, found a list`},
		{"root not mapping", "- a\n", `config.yaml:1: the configuration must be a mapping, found a list`},
		{"tab indentation", "execution:\n\tcurrent-catalog: a\n", `config.yaml:2: found character that cannot start any token`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.yaml), "config.yaml")
			if err == nil || err.Error() != tt.want {
				t.Fatalf("err = %v\nwant  %s", err, tt.want)
			}
		})
	}
}

func TestParseEmptyAndAliases(t *testing.T) {
	for _, in := range []string{"", "# nothing\n", "~\n"} {
		cfg, err := Parse([]byte(in), "c.yaml")
		if err != nil || len(cfg.Catalogs) != 0 || cfg.Store != "" {
			t.Errorf("Parse(%q) = %+v, %v", in, cfg, err)
		}
	}
	in := "base: &b\n  type: generic_in_memory\n"
	if _, err := Parse([]byte(in), "c.yaml"); err == nil || !strings.Contains(err.Error(), `unknown key "base"`) {
		t.Errorf("anchor at top level: %v", err)
	}
	in = "catalogs:\n  - &c\n    name: a\n    type: generic_in_memory\nexecution:\n  current-catalog: &n a\n  current-database: *n\n"
	cfg, err := Parse([]byte(in), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Execution.CurrentDatabase != "a" {
		t.Errorf("alias not followed: %+v", cfg.Execution)
	}
}

// TestReadmeExample loads every ```yaml block of the repository's
// README.md, the example configurations users copy.
func TestReadmeExample(t *testing.T) {
	root := repoRoot(t)
	data, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatalf("README.md: %v", err)
	}
	blocks := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllSubmatch(data, -1)
	if blocks == nil {
		t.Fatal("README.md has no ```yaml block with the example configuration")
	}
	for _, m := range blocks {
		readmeExample(t, m[1])
	}
}

func readmeExample(t *testing.T, block []byte) {
	t.Helper()
	cfg, err := Parse(block, "README.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Catalogs) == 0 {
		t.Fatal("README example declares no catalogs")
	}
	for _, c := range cfg.Catalogs {
		if c.Type != "sqlite" && c.Type != "generic_in_memory" && c.Type != "kafka" && c.Type != "hive" && c.Type != "iceberg" {
			t.Errorf("README example catalog %q has type %q, which eddy does not serve", c.Name, c.Type)
		}
	}
	if cfg.Execution.CurrentCatalog != "" {
		found := false
		for _, c := range cfg.Catalogs {
			found = found || c.Name == cfg.Execution.CurrentCatalog
		}
		if !found {
			t.Errorf("current-catalog %q is not one of the example's catalogs", cfg.Execution.CurrentCatalog)
		}
	}
}

func repoRoot(t *testing.T) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the package directory")
		}
		dir = parent
	}
}

func TestGatewaySection(t *testing.T) {
	cfg, err := Parse([]byte("gateway:\n  endpoint: http://127.0.0.1:8083\n"), "config.yaml")
	if err != nil || cfg.Gateway != "http://127.0.0.1:8083" {
		t.Fatalf("Parse = %+v, %v", cfg, err)
	}
	for in, want := range map[string]string{
		"gateway:\n  endpoint: localhost:8083\n": "config.yaml:2:",
		"gateway:\n  url: http://x\n":            `config.yaml:2: unknown key "url"`,
	} {
		if _, err := Parse([]byte(in), "config.yaml"); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) error = %v, want it to contain %q", in, err, want)
		}
	}
}

func TestSecondDocumentRefused(t *testing.T) {
	_, err := Parse([]byte("store: a.db\n---\nstore: b.db\n"), "config.yaml")
	if err == nil || !strings.Contains(err.Error(), "config.yaml:2:") || !strings.Contains(err.Error(), "one YAML document") {
		t.Fatalf("error = %v, want a second document refused at its start, line 2", err)
	}
	if _, err := Parse([]byte(""), "config.yaml"); err != nil {
		t.Fatalf("an empty file: %v", err)
	}
}
