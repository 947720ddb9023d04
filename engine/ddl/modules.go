package ddl

import (
	"fmt"
	"slices"
	"strings"

	"eddy/engine/ast"
	"eddy/engine/result"
	"eddy/engine/sqlerr"
)

// modules is the session's module list (Flink's ModuleManager): loaded
// modules in resolution order, each used or not. eddy ships one module,
// core, which holds the built-in functions.
type modules struct {
	loaded []moduleEntry
}

type moduleEntry struct {
	name string
	used bool
}

// moduleFactories are the module types eddy can load. hive (Flink's
// HiveModule) is accepted so that scripts written for Flink load it; its
// functions are Hive UDFs that run in a JVM, none of which eddy runs: a
// name only it would resolve stays an unknown function.
func moduleFactories() []string { return []string{"core", "hive"} }

func newModules() *modules { return &modules{loaded: []moduleEntry{{name: "core", used: true}}} }

func (m *modules) find(name string) int {
	return slices.IndexFunc(m.loaded, func(e moduleEntry) bool { return e.name == name })
}

func (m *modules) load(st *ast.LoadModule) error {
	name := st.Name.Name
	for _, p := range st.Options {
		if p.Key == "type" {
			return sqlerr.Errorf(sqlerr.ValidationException, "Option 'type' = '%s' is not supported since module name is used to find module", p.Value)
		}
	}
	if m.find(name) >= 0 {
		return sqlerr.Errorf(sqlerr.ValidationException, "A module with name '%s' already exists", name)
	}
	if !slices.Contains(moduleFactories(), name) {
		return sqlerr.Errorf(sqlerr.ValidationException, "Could not find any factory for identifier '%s' that implements 'org.apache.flink.table.factories.ModuleFactory' in the classpath.\n\nAvailable factory identifiers are:\n\n%s",
			name, strings.Join(moduleFactories(), "\n"))
	}
	m.loaded = append(m.loaded, moduleEntry{name: name, used: true})
	return nil
}

func (m *modules) unload(name string) error {
	i := m.find(name)
	if i < 0 {
		return sqlerr.Errorf(sqlerr.ValidationException, "No module with name '%s' exists", name)
	}
	m.loaded = slices.Delete(m.loaded, i, i+1)
	return nil
}

// use makes the named modules used, in that order, ahead of the unused ones.
func (m *modules) use(st *ast.UseModules) error {
	seen := map[string]bool{}
	for _, id := range st.Names {
		if m.find(id.Name) < 0 {
			return sqlerr.Errorf(sqlerr.ValidationException, "No module with name '%s' exists", id.Name)
		}
		if seen[id.Name] {
			return sqlerr.Errorf(sqlerr.ValidationException, "Module '%s' appears more than once", id.Name)
		}
		seen[id.Name] = true
	}
	var used, unused []moduleEntry
	for _, id := range st.Names {
		used = append(used, moduleEntry{name: id.Name, used: true})
	}
	for _, e := range m.loaded {
		if !seen[e.name] {
			unused = append(unused, moduleEntry{name: e.name})
		}
	}
	m.loaded = append(used, unused...)
	return nil
}

// list returns the used modules (SHOW MODULES) or all of them with their
// used flag (SHOW FULL MODULES), in resolution order.
func (m *modules) list(full bool) *result.Result {
	var rows [][]any
	for _, e := range m.loaded {
		if full {
			rows = append(rows, []any{e.name, strings.ToUpper(fmt.Sprint(e.used))})
		} else if e.used {
			rows = append(rows, []any{e.name})
		}
	}
	if full {
		return result.StringTable([]string{"module name", "used"}, rows)
	}
	return result.StringTable([]string{"module name"}, rows)
}
