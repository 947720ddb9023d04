package conf

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Config is a parsed configuration file. The layout follows Flink's legacy
// sql-client-defaults.yaml:
//
//	store: ./team.db
//	catalogs:
//	  - name: _env_prod
//	    type: sqlite
//	    default-database: default   # every other key is a catalog option
//	execution:
//	  current-catalog: _env_prod
//	  current-database: default
//	  runtime-mode: batch
//	  result-mode: tableau
//	configuration:
//	  table.local-time-zone: UTC
type Config struct {
	File          string          // the name errors are reported with
	Store         string          // or "" when not set
	Catalogs      []CatalogConfig // in file order
	Execution     Execution
	Configuration []Setting // in file order; keys are unique
	// Gateway is the Flink SQL Gateway to send statements to (the
	// `gateway: {endpoint: URL}` section), or "" for the local engine.
	Gateway string
	// NoExamplesCatalog is `examples-catalog: false`: the read-only
	// examples catalog is not registered (it is by default).
	NoExamplesCatalog bool
}

// CatalogConfig is one entry of the catalogs list.
type CatalogConfig struct {
	Name            string
	Type            string
	DefaultDatabase string            // or "" when not given
	Options         map[string]string // every other key
	Line            int               // line of the entry
}

// AllOptions returns the catalog's options as CREATE CATALOG would hold
// them: 'type', 'default-database' when given, and the other options.
func (c CatalogConfig) AllOptions() map[string]string {
	out := maps.Clone(c.Options)
	if out == nil {
		out = map[string]string{}
	}
	out["type"] = c.Type
	if c.DefaultDatabase != "" {
		out["default-database"] = c.DefaultDatabase
	}
	return out
}

// Execution holds the execution section; empty fields were not given.
type Execution struct {
	CurrentCatalog  string
	CurrentDatabase string
	RuntimeMode     string
	ResultMode      string
}

// Setting is one key of the configuration section, applied as SET key = value.
type Setting struct {
	Key   string
	Value string
	Line  int
}

// Settings returns the configuration section as a map.
func (c *Config) Settings() map[string]string {
	m := make(map[string]string, len(c.Configuration))
	for _, s := range c.Configuration {
		m[s.Key] = s.Value
	}
	return m
}

// Error is a configuration problem at a line of a file; Error() reads
// "config.yaml:7: unknown key "typo"".
type Error struct {
	File string
	Line int // 0 when the problem has no line
	Msg  string
}

// Error returns "file:line: message".
func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// Class returns the Flink exception class the shell shows for the error.
func (e *Error) Class() string { return "ValidationException" }

// MaxFileBytes is the largest configuration file Load reads: a larger
// one (or an endless one such as /dev/zero) is an error, not read to its
// end.
const MaxFileBytes = 32 << 20

// Load reads and parses the configuration file at path; errors name path.
func Load(path string) (*Config, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &Error{File: path, Msg: err.Error()}
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, &Error{File: path, Msg: err.Error()}
	}
	if len(data) > MaxFileBytes {
		return nil, &Error{File: path, Msg: fmt.Sprintf("the configuration file is larger than %d MiB", MaxFileBytes>>20)}
	}
	return Parse(data, path)
}

// yamlLine splits a yaml.v3 message "yaml: line N: text" (text on one
// line) into N and text.
func yamlLine(msg string) (int, string, bool) {
	rest, ok := strings.CutPrefix(msg, "yaml: line ")
	if !ok {
		return 0, "", false
	}
	i := 0
	for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
		i++
	}
	text, ok := strings.CutPrefix(rest[i:], ": ")
	if i == 0 || !ok || strings.Contains(text, "\n") {
		return 0, "", false
	}
	line, err := strconv.Atoi(rest[:i])
	return line, text, err == nil
}

// Parse parses configuration text; name is the file name errors carry.
func Parse(data []byte, name string) (*Config, error) {
	cfg := &Config{File: name}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil && !errors.Is(err, io.EOF) {
		return nil, yamlError(name, err)
	}
	// A second document would be silently ignored: refuse it instead.
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, &Error{File: name, Line: extra.Line, Msg: "a configuration file holds one YAML document; found another"}
	} else if !errors.Is(err, io.EOF) {
		return nil, yamlError(name, err)
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return cfg, nil // empty file
	}
	p := &parser{file: name}
	root := p.resolve(doc.Content[0])
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return cfg, nil
	}
	if err := p.mapping(root, "the configuration", func(key string, k, v *yaml.Node) error {
		switch key {
		case "store":
			s, err := p.scalar(v, "store")
			cfg.Store = s
			return err
		case "catalogs":
			return p.catalogs(v, cfg)
		case "execution":
			return p.execution(v, cfg)
		case "configuration":
			return p.configuration(v, cfg)
		case "gateway":
			return p.gateway(v, cfg)
		case "examples-catalog":
			s, err := p.scalar(v, "examples-catalog")
			if err != nil {
				return err
			}
			switch strings.ToLower(s) {
			case "true":
			case "false":
				cfg.NoExamplesCatalog = true
			default:
				return p.errorf(v, "\"examples-catalog\" must be true or false, found %q", s)
			}
			return nil
		}
		return p.errorf(k, "unknown key %q (expected store, catalogs, execution, configuration, gateway or examples-catalog)", key)
	}); err != nil {
		return nil, err
	}
	return cfg, nil
}

func yamlError(name string, err error) error {
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		err = errors.New(te.Errors[0])
	}
	msg := err.Error()
	if line, text, ok := yamlLine(msg); ok {
		return &Error{File: name, Line: line, Msg: text}
	}
	return &Error{File: name, Msg: strings.TrimPrefix(msg, "yaml: ")}
}

type parser struct {
	file string
}

func (p *parser) errorf(n *yaml.Node, format string, args ...any) error {
	return &Error{File: p.file, Line: n.Line, Msg: fmt.Sprintf(format, args...)}
}

// resolve follows aliases to the anchored node.
func (p *parser) resolve(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	}
	return "a scalar"
}

// mapping calls fn for each key of a mapping node, refusing duplicates.
func (p *parser) mapping(n *yaml.Node, what string, fn func(key string, k, v *yaml.Node) error) error {
	n = p.resolve(n)
	if n.Kind != yaml.MappingNode {
		return p.errorf(n, "%s must be a mapping, found %s", what, kindName(n))
	}
	seen := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := p.resolve(n.Content[i]), p.resolve(n.Content[i+1])
		if k.Kind != yaml.ScalarNode {
			return p.errorf(k, "keys of %s must be scalars, found %s", what, kindName(k))
		}
		if first, ok := seen[k.Value]; ok {
			return p.errorf(k, "duplicate key %q (first at line %d)", k.Value, first)
		}
		seen[k.Value] = k.Line
		if err := fn(k.Value, k, v); err != nil {
			return err
		}
	}
	return nil
}

func (p *parser) scalar(n *yaml.Node, key string) (string, error) {
	n = p.resolve(n)
	if n.Kind != yaml.ScalarNode {
		return "", p.errorf(n, "%q must be a scalar value, found %s", key, kindName(n))
	}
	if n.Tag == "!!null" {
		return "", nil
	}
	return n.Value, nil
}

func (p *parser) catalogs(n *yaml.Node, cfg *Config) error {
	n = p.resolve(n)
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		return p.errorf(n, "\"catalogs\" must be a list, found %s", kindName(n))
	}
	names := map[string]int{}
	for _, item := range n.Content {
		item = p.resolve(item)
		c := CatalogConfig{Line: item.Line, Options: map[string]string{}}
		hasName, hasType := false, false
		err := p.mapping(item, "a catalogs entry", func(key string, k, v *yaml.Node) error {
			s, err := p.scalar(v, key)
			if err != nil {
				return err
			}
			switch key {
			case "name":
				c.Name, hasName = s, true
			case "type":
				c.Type, hasType = s, true
			case "default-database":
				c.DefaultDatabase = s
			default:
				c.Options[key] = s
			}
			return nil
		})
		if err != nil {
			return err
		}
		if !hasName || c.Name == "" {
			return p.errorf(item, "catalog entry has no \"name\"")
		}
		if !hasType || c.Type == "" {
			return p.errorf(item, "catalog %q has no \"type\"", c.Name)
		}
		if first, ok := names[c.Name]; ok {
			return p.errorf(item, "duplicate catalog name %q (first at line %d)", c.Name, first)
		}
		names[c.Name] = item.Line
		cfg.Catalogs = append(cfg.Catalogs, c)
	}
	return nil
}

func (p *parser) execution(n *yaml.Node, cfg *Config) error {
	n = p.resolve(n)
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil
	}
	return p.mapping(n, "\"execution\"", func(key string, k, v *yaml.Node) error {
		s, err := p.scalar(v, key)
		if err != nil {
			return err
		}
		switch key {
		case "current-catalog":
			cfg.Execution.CurrentCatalog = s
		case "current-database":
			cfg.Execution.CurrentDatabase = s
		case "runtime-mode":
			if !slices.Contains([]string{"streaming", "batch", "automatic"}, strings.ToLower(s)) {
				return p.errorf(v, "runtime-mode %q is not one of streaming, batch, automatic", s)
			}
			cfg.Execution.RuntimeMode = s
		case "result-mode":
			if !slices.Contains([]string{"table", "tableau", "changelog"}, strings.ToLower(s)) {
				return p.errorf(v, "result-mode %q is not one of table, tableau, changelog", s)
			}
			cfg.Execution.ResultMode = s
		default:
			return p.errorf(k, "unknown key %q in \"execution\" (expected current-catalog, current-database, runtime-mode or result-mode)", key)
		}
		return nil
	})
}

func (p *parser) gateway(n *yaml.Node, cfg *Config) error {
	n = p.resolve(n)
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil
	}
	return p.mapping(n, "\"gateway\"", func(key string, k, v *yaml.Node) error {
		s, err := p.scalar(v, key)
		if err != nil {
			return err
		}
		if key != "endpoint" {
			return p.errorf(k, "unknown key %q in \"gateway\" (expected endpoint)", key)
		}
		if !strings.HasPrefix(s, "http://") && !strings.HasPrefix(s, "https://") {
			return p.errorf(v, "gateway endpoint %q is not an http:// or https:// URL", s)
		}
		cfg.Gateway = s
		return nil
	})
}

func (p *parser) configuration(n *yaml.Node, cfg *Config) error {
	n = p.resolve(n)
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil
	}
	return p.mapping(n, "\"configuration\"", func(key string, k, v *yaml.Node) error {
		s, err := p.scalar(v, key)
		if err != nil {
			return err
		}
		cfg.Configuration = append(cfg.Configuration, Setting{Key: key, Value: s, Line: k.Line})
		return nil
	})
}

// CatalogError returns an error about a catalog entry at its line, for
// problems found when the catalog is made (a missing required option).
func (c *Config) CatalogError(cat CatalogConfig, err error) error {
	return &Error{File: c.File, Line: cat.Line, Msg: fmt.Sprintf("catalog %q: %v", cat.Name, err)}
}
