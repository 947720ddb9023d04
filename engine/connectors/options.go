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

// factoryIDs are the connector identifiers eddy serves, sorted, as
// FactoryUtil lists them after an unknown identifier.
var factoryIDs = []string{"blackhole", "datagen", "filesystem", "print"}

func validationError(format string, args ...any) error {
	return &Error{Exception: "ValidationException", Msg: fmt.Sprintf(format, args...)}
}

// checkOptions reports missing required keys, then keys outside
// required+optional. Keys with a prefix in prefixes (format options) are
// accepted as well.
func checkOptions(id string, options map[string]string, required, optional []string, prefixes ...string) error {
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

// Validate checks a table's connector options the way Flink does when the
// table is used as a source (sink false) or a sink (sink true): an unknown
// connector, a source used as a sink or the reverse, missing required and
// unsupported options. Managed tables always pass.
func Validate(t *Table, sink bool) error {
	if t.Managed() {
		return nil
	}
	id := t.Options["connector"]
	switch id {
	case "datagen":
		if sink {
			return validationError("Connector 'datagen' can only be used as a source. It cannot be used as a sink.")
		}
		_, err := newDatagenSpec(t)
		return err
	case "print":
		if !sink {
			return validationError("Connector 'print' can only be used as a sink. It cannot be used as a source.")
		}
		return checkOptions(id, t.Options, []string{"connector"},
			[]string{"print-identifier", "standard-error", "sink.parallelism"})
	case "blackhole":
		if !sink {
			return validationError("Connector 'blackhole' can only be used as a sink. It cannot be used as a source.")
		}
		return checkOptions(id, t.Options, []string{"connector"}, nil)
	case "filesystem":
		_, err := newFileFormat(t)
		return err
	}
	return validationError("Could not find any factory for identifier '%s' that implements 'org.apache.flink.table.factories.DynamicTableFactory' in the classpath.\n\nAvailable factory identifiers are:\n\n%s",
		id, strings.Join(factoryIDs, "\n"))
}

// Bounded reports whether a table's source ends: a datagen table without
// 'number-of-rows' and without a sequence column runs forever, as does a
// filesystem table with 'source.monitor-interval'.
func Bounded(options map[string]string, columns []string) bool {
	switch options["connector"] {
	case "datagen":
		if options["number-of-rows"] != "" {
			return true
		}
		for _, c := range columns {
			if options["fields."+c+".kind"] == "sequence" {
				return true
			}
		}
		return false
	case "filesystem":
		return options["source.monitor-interval"] == ""
	case "kafka", "upsert-kafka", "kinesis", "pulsar":
		return false
	}
	return true
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
