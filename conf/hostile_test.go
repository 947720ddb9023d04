package conf

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// loadQuickly writes text to a file and loads it: Load must return in
// bounded time (generous for the race detector), without a panic, and
// any error must be a *conf.Error naming the file.
func loadQuickly(t *testing.T, text string) (*Config, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	type outcome struct {
		cfg   *Config
		err   error
		panic any
	}
	done := make(chan outcome, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- outcome{panic: r}
			}
		}()
		cfg, err := Load(path)
		done <- outcome{cfg: cfg, err: err}
	}()
	select {
	case o := <-done:
		if o.panic != nil {
			t.Fatalf("Load panicked: %v", o.panic)
		}
		if o.err != nil {
			var ce *Error
			if !errors.As(o.err, &ce) || !strings.HasPrefix(o.err.Error(), path) {
				t.Fatalf("error %T does not name the file: %v", o.err, o.err)
			}
		}
		return o.cfg, o.err
	case <-time.After(2 * time.Minute):
		t.Fatalf("Load still running after 2 minutes")
	}
	return nil, nil
}

func TestHostileYAML(t *testing.T) {
	laughs := "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n"
	prev := "a"
	for _, n := range "bcdefghi" {
		refs := strings.TrimSuffix(strings.Repeat("*"+prev+",", 9), ",")
		laughs += fmt.Sprintf("%c: &%c [%s]\n", n, n, refs)
		prev = string(n)
	}
	laughs += "configuration:\n  k: *i\n"
	deep := strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000)
	for _, c := range []struct {
		name, yaml string
		wantErr    bool
	}{
		{"tab indentation", "execution:\n\tcurrent-catalog: a\n", true},
		{"tab after key", "store:\t./x.db\n", false},
		{"tabs inside a value", "configuration:\n  k: \"a\tb\"\n", false},
		{"billion laughs", laughs, true},
		{"alias loop", "configuration: &c\n  k: *c\n", true},
		{"alias of a list as a value", "l: &l [1, 2]\nconfiguration:\n  k: *l\n", true},
		{"undefined alias", "configuration:\n  k: *nowhere\n", true},
		{"merge key", "base: &b {k: v}\nconfiguration:\n  <<: *b\n", true},
		{"deep nesting", "configuration:\n  k: " + deep + "\n", true},
		{"NUL byte", "store: a\x00b\n", true},
		{"invalid UTF-8", "store: \xff\xfe\n", true},
		{"several documents", "store: a\n---\nstore: b\n", true}, // one document per file: the rest would be silently lost
		{"only a comment", "# nothing\n", false},
		{"binary garbage", string([]byte{0x89, 'P', 'N', 'G', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d}), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := loadQuickly(t, c.yaml)
			if (err != nil) != c.wantErr {
				t.Fatalf("err = %v, want an error: %v", err, c.wantErr)
			}
		})
	}
}

// TestHugeYAML loads documents of many megabytes: 100,000 configuration
// keys, and one value of 10 MB. Both load, with every key.
func TestHugeYAML(t *testing.T) {
	var b strings.Builder
	b.WriteString("configuration:\n")
	const keys = 100_000
	for i := 0; i < keys; i++ {
		fmt.Fprintf(&b, "  key.number-%d: value %d\n", i, i)
	}
	cfg, err := loadQuickly(t, b.String())
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Configuration) != keys || cfg.Settings()["key.number-12345"] != "value 12345" {
		t.Fatalf("%d keys loaded, want %d", len(cfg.Configuration), keys)
	}
	big := strings.Repeat("x", 10<<20)
	cfg, err = loadQuickly(t, "configuration:\n  big: "+big+"\n")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Settings()["big"] != big {
		t.Fatalf("the 10 MB value came back with %d bytes", len(cfg.Settings()["big"]))
	}
}
