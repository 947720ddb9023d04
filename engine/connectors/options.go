package connectors

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"eddy/conf"
)

// Option validation as Flink's FactoryUtil does it: required options
// first ("Missing required options are:"), then every key the factory did
// not consume ("Unsupported options found for '<id>'."), both lists sorted,
// one key per line.

func validationError(format string, args ...any) error {
	return &Error{Exception: "ValidationException", Msg: fmt.Sprintf(format, args...)}
}

// CheckOptions reports missing required keys, then keys outside
// required+optional, with Flink's texts. Keys with a prefix in prefixes
// are accepted as well.
func CheckOptions(id string, options map[string]string, required, optional []string, prefixes ...string) error {
	var missing []string
	for _, k := range required {
		if _, ok := options[k]; !ok {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return validationError("Missing required options are:\n\n%s", strings.Join(missing, "\n"))
	}
	known := map[string]bool{}
	for _, k := range required {
		known[k] = true
	}
	for _, k := range optional {
		known[k] = true
	}
	var unknown []string
	for k := range options {
		if known[k] {
			continue
		}
		prefixed := false
		for _, p := range prefixes {
			if strings.HasPrefix(k, p) {
				prefixed = true
			}
		}
		if !prefixed {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	sort.Strings(unknown)
	supported := make([]string, 0, len(known))
	for k := range known {
		supported = append(supported, k)
	}
	sort.Strings(supported)
	return validationError("Unsupported options found for '%s'.\n\nUnsupported options:\n\n%s\n\nSupported options:\n\n%s",
		id, strings.Join(unknown, "\n"), strings.Join(supported, "\n"))
}

// Validate checks a table's connector options against eddy's registry
// (Registry.Validate).
//
// Deprecated: use Connectors.Validate or Registry.Validate, which see the
// session's registry.
func Validate(t *Table, sink bool) error { return NewRegistry().Validate(t, sink) }

// Bounded reports whether a table's source ends, as eddy's registry
// declares it (Abilities.Bounded) for a table with these options and
// physical columns.
//
// Deprecated: use Registry.Abilities, or plan.Scan.Bounded, which the
// validator sets from it.
func Bounded(options map[string]string, columns []string) bool {
	t := &Table{Options: options}
	for _, c := range columns {
		t.Columns = append(t.Columns, Column{Name: c})
	}
	return NewRegistry().Abilities(t).Bounded
}

// parseBool reads a Boolean option value as Flink's ConfigOption does.
func parseBool(key, v string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, validationError("Could not parse value '%s' for key '%s'.", v, key)
}

func parseLong(key, v string) (int64, error) {
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil {
		return 0, validationError("Could not parse value '%s' for key '%s'.", v, key)
	}
	return n, nil
}

// parseDuration reads a Duration option ("5 s", "100ms", "1 min"); a bare
// number is milliseconds, as in Flink.
func parseDuration(key, v string) (time.Duration, error) {
	d, err := conf.ParseDuration(v)
	if err != nil {
		return 0, validationError("Could not parse value '%s' for key '%s'.", v, key)
	}
	return d, nil
}
