package engine

import (
	"sort"
	"strconv"
	"strings"

	"eddy/conf"
	"eddy/engine/sqlerr"
)

// config is a session's option state in two layers, as in the Flink SQL
// client: the base layer (YAML configuration, -D flags, and what an
// embedding program passes) survives RESET; the set layer holds what SET
// changed in this session.
type config struct {
	reg  *conf.Registry
	base map[string]string
	set  map[string]string
}

func newConfig(reg *conf.Registry, base map[string]string) (*config, error) {
	c := &config{reg: reg, base: make(map[string]string, len(base)), set: map[string]string{}}
	for k, v := range base {
		nv, err := reg.Validate(k, v)
		if err == nil {
			err = checkRange(k, nv)
		}
		if err != nil {
			return nil, err
		}
		c.base[k] = nv
	}
	return c, nil
}

// get returns the effective value of key: set, then base, then the
// option's fallback key, then its default.
func (c *config) get(key string) string {
	if v, ok := c.set[key]; ok {
		return v
	}
	if v, ok := c.base[key]; ok {
		return v
	}
	if o, ok := c.reg.Lookup(key); ok {
		if o.Fallback != "" {
			if v, ok := c.set[o.Fallback]; ok {
				return v
			}
			if v, ok := c.base[o.Fallback]; ok {
				return v
			}
		}
		return o.Default
	}
	return ""
}

func (c *config) getBool(key string) bool { return c.get(key) == "true" }

// setKey validates and sets one key; a bad value changes nothing.
func (c *config) setKey(key, value string) error {
	nv, err := c.reg.Validate(key, value)
	if err == nil {
		err = checkRange(key, nv)
	}
	if err != nil {
		return err
	}
	c.set[key] = nv
	return nil
}

// resetKey drops what SET changed for key: the base value, if any, applies again.
func (c *config) resetKey(key string) { delete(c.set, key) }

// resetAll drops every SET of the session.
func (c *config) resetAll() { c.set = map[string]string{} }

// list returns the explicitly configured keys (base and set) sorted by key,
// the rows SET; shows.
func (c *config) list() [][2]string {
	merged := make(map[string]string, len(c.base)+len(c.set))
	for k, v := range c.base {
		merged[k] = v
	}
	for k, v := range c.set {
		merged[k] = v
	}
	keys := make([]string, 0, len(merged))
	for k := range merged {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([][2]string, len(keys))
	for i, k := range keys {
		out[i] = [2]string{k, merged[k]}
	}
	return out
}

// memoryBudget returns eddy.exec.memory-budget in bytes (conf.ParseMemorySize).
func (c *config) memoryBudget() (int64, error) {
	v := c.get(conf.SpillMemory)
	n, err := conf.ParseMemorySize(v)
	if err != nil {
		return 0, Errorf(sqlerr.IllegalArgumentException, "Could not parse value '%s' for key '%s'.", v, conf.SpillMemory)
	}
	return n, nil
}

// checkRange rejects a value of the right type outside its option's
// range: eddy.exec.parallelism is at least 1.
func checkRange(key, value string) error {
	if key != conf.ExecParallelism {
		return nil
	}
	if n, err := strconv.Atoi(strings.TrimSpace(value)); err != nil || n < 1 {
		return Errorf(sqlerr.IllegalArgumentException,
			"Could not parse value '%s' for key '%s': the parallelism must be an integer of at least 1.", value, conf.ExecParallelism)
	}
	return nil
}

// parallelism returns eddy.exec.parallelism: how many workers a batch
// query's parallel pipelines run on.
func (c *config) parallelism() (int, error) {
	v := c.get(conf.ExecParallelism)
	if err := checkRange(conf.ExecParallelism, v); err != nil {
		return 0, err
	}
	n, _ := strconv.Atoi(strings.TrimSpace(v))
	return n, nil
}
