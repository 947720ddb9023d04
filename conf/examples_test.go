package conf

import (
	"strings"
	"testing"
)

func TestExamplesCatalogKey(t *testing.T) {
	for text, off := range map[string]bool{"": false, "examples-catalog: true\n": false, "examples-catalog: false\n": true, "examples-catalog: FALSE\n": true} {
		cfg, err := Parse([]byte(text), "config.yaml")
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		if cfg.NoExamplesCatalog != off {
			t.Errorf("%q: NoExamplesCatalog = %v", text, cfg.NoExamplesCatalog)
		}
	}
	_, err := Parse([]byte("examples-catalog: maybe\n"), "config.yaml")
	if err == nil || !strings.Contains(err.Error(), `config.yaml:1: "examples-catalog" must be true or false, found "maybe"`) {
		t.Fatalf("bad value: %v", err)
	}
}
