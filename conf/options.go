package conf

import (
	"fmt"
	"math"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"
)

// OptionType is the type of a session option's value.
type OptionType uint8

// Option value types.
const (
	TypeString OptionType = iota
	TypeBool
	TypeInt
	TypeEnum
	TypeDuration
	TypeZone
	TypeMemorySize
)

// Option describes one session option key that eddy interprets.
type Option struct {
	Key     string
	Type    OptionType
	Default string   // "" when the option has no default
	Values  []string // TypeEnum: the allowed values, as Flink spells them
	// EnumClass is the Java enum Flink parses the value into; when set, a
	// bad value fails as Flink's Enum.valueOf does
	// ("No enum constant <class>.<VALUE>").
	EnumClass string
	// Fallback is an older key whose value applies when Key is not set.
	Fallback    string
	Description string
}

// ValueError reports a value an option does not accept. Class is the Flink
// exception class the client shows.
type ValueError struct {
	Exception string
	Msg       string
}

func (e *ValueError) Error() string { return e.Msg }

// Class returns Flink's exception class for the error.
func (e *ValueError) Class() string { return e.Exception }

// Validate checks a value against the option's type and returns it in its
// normal form (as typed, except booleans, which Flink lower-cases).
func (o *Option) Validate(value string) (string, error) {
	switch o.Type {
	case TypeBool:
		switch strings.ToLower(value) {
		case "true", "false":
			return strings.ToLower(value), nil
		}
		return "", o.parseError(value)
	case TypeInt:
		if _, err := strconv.ParseInt(strings.TrimSpace(value), 10, 32); err != nil {
			return "", o.parseError(value)
		}
		return value, nil
	case TypeEnum:
		for _, v := range o.Values {
			if strings.EqualFold(v, value) {
				return value, nil
			}
		}
		if o.EnumClass != "" {
			return "", &ValueError{Exception: "IllegalArgumentException",
				Msg: fmt.Sprintf("No enum constant %s.%s", o.EnumClass, strings.ToUpper(value))}
		}
		return "", &ValueError{Exception: "IllegalArgumentException",
			Msg: fmt.Sprintf("Could not parse value '%s' for key '%s'. Expected one of: [%s]", value, o.Key, strings.Join(o.Values, ", "))}
	case TypeDuration:
		if _, err := ParseDuration(value); err != nil {
			return "", o.parseError(value)
		}
		return value, nil
	case TypeMemorySize:
		if _, err := ParseMemorySize(value); err != nil {
			return "", o.parseError(value)
		}
		return value, nil
	case TypeZone:
		if _, err := LoadZone(value); err != nil {
			return "", &ValueError{Exception: "ValidationException",
				Msg: fmt.Sprintf("Invalid time zone '%s' for key '%s': %v", value, o.Key, err)}
		}
		return value, nil
	}
	return value, nil
}

func (o *Option) parseError(value string) error {
	return &ValueError{Exception: "IllegalArgumentException",
		Msg: fmt.Sprintf("Could not parse value '%s' for key '%s'.", value, o.Key)}
}

// durationUnits are the unit labels of Flink's TimeUtils.parseDuration.
var durationUnits = map[string]time.Duration{
	"ns": time.Nanosecond, "nano": time.Nanosecond, "nanos": time.Nanosecond, "nanosecond": time.Nanosecond, "nanoseconds": time.Nanosecond,
	"us": time.Microsecond, "µs": time.Microsecond, "micro": time.Microsecond, "micros": time.Microsecond, "microsecond": time.Microsecond, "microseconds": time.Microsecond,
	"ms": time.Millisecond, "milli": time.Millisecond, "millis": time.Millisecond, "millisecond": time.Millisecond, "milliseconds": time.Millisecond,
	"":  time.Millisecond,
	"s": time.Second, "sec": time.Second, "secs": time.Second, "second": time.Second, "seconds": time.Second,
	"m": time.Minute, "min": time.Minute, "mins": time.Minute, "minute": time.Minute, "minutes": time.Minute,
	"h": time.Hour, "hour": time.Hour, "hours": time.Hour,
	"d": 24 * time.Hour, "day": 24 * time.Hour, "days": 24 * time.Hour,
}

// ParseDuration reads Flink's duration syntax (TimeUtils.parseDuration): a
// number and an optional unit, blanks allowed between them, units
// case-insensitive (ns, us, ms, s, min or m, h, d and their long forms); a
// bare number is milliseconds. It is the one reader of durations, for
// session options and connector options alike.
func ParseDuration(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, fmt.Errorf("invalid duration %q", s)
	}
	n, err := strconv.ParseInt(s[:i], 10, 64)
	if err != nil {
		return 0, err
	}
	u, ok := durationUnits[strings.ToLower(strings.TrimSpace(s[i:]))]
	if !ok {
		return 0, fmt.Errorf("invalid duration unit %q", s[i:])
	}
	return time.Duration(n) * u, nil
}

// memoryUnits are the unit labels of Flink's MemorySize.
var memoryUnits = map[string]int64{"": 1, "b": 1, "bytes": 1, "k": 1 << 10, "kb": 1 << 10, "kibibytes": 1 << 10,
	"m": 1 << 20, "mb": 1 << 20, "mebibytes": 1 << 20, "g": 1 << 30, "gb": 1 << 30, "gibibytes": 1 << 30,
	"t": 1 << 40, "tb": 1 << 40, "tebibytes": 1 << 40}

// ParseMemorySize reads a memory size in bytes as Flink's MemorySize does:
// a number with an optional unit (b, k/kb, m/mb, g/gb, t/tb and the long
// forms, case-insensitive, blanks allowed between number and unit).
func ParseMemorySize(s string) (int64, error) {
	s = strings.TrimSpace(s)
	end := 0
	for end < len(s) && s[end] >= '0' && s[end] <= '9' {
		end++
	}
	if end == 0 {
		return 0, fmt.Errorf("invalid memory size %q", s)
	}
	n, err := strconv.ParseInt(s[:end], 10, 64)
	if err != nil {
		return 0, err
	}
	mul, ok := memoryUnits[strings.ToLower(strings.TrimSpace(s[end:]))]
	if !ok || n > math.MaxInt64/mul {
		return 0, fmt.Errorf("invalid memory size %q", s)
	}
	return n * mul, nil
}

// LoadZone resolves a table.local-time-zone value: "default" is the
// machine's zone; otherwise an IANA name, "UTC", or an offset "GMT+08:00".
func LoadZone(name string) (*time.Location, error) {
	switch {
	case name == "" || strings.EqualFold(name, "default"):
		return time.Local, nil
	case strings.HasPrefix(name, "GMT+") || strings.HasPrefix(name, "GMT-") ||
		strings.HasPrefix(name, "UTC+") || strings.HasPrefix(name, "UTC-"):
		sign := 1
		if name[3] == '-' {
			sign = -1
		}
		hm := strings.SplitN(name[4:], ":", 2)
		h, err := strconv.Atoi(hm[0])
		if err != nil || h > 18 {
			return nil, fmt.Errorf("invalid offset %q", name)
		}
		m := 0
		if len(hm) == 2 {
			if m, err = strconv.Atoi(hm[1]); err != nil || m > 59 {
				return nil, fmt.Errorf("invalid offset %q", name)
			}
		}
		return time.FixedZone(name, sign*(h*3600+m*60)), nil
	}
	return time.LoadLocation(name)
}

// Registry is the set of session options eddy knows. It is immutable.
type Registry struct {
	byKey map[string]*Option
}

// Lookup returns the option registered under key.
func (r *Registry) Lookup(key string) (*Option, bool) {
	o, ok := r.byKey[key]
	return o, ok
}

// Keys returns the registered keys, sorted.
func (r *Registry) Keys() []string {
	keys := make([]string, 0, len(r.byKey))
	for k := range r.byKey {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Validate checks a value for key. Keys eddy does not know are accepted
// unchanged, as Flink accepts any key in SET.
func (r *Registry) Validate(key, value string) (string, error) {
	if o, ok := r.byKey[key]; ok {
		return o.Validate(value)
	}
	return value, nil
}

// defaults is the registry Default reads; like every Registry it never
// changes.
var defaults = Options()

// Default returns the default value of an option key eddy interprets, ""
// for a key without one. It is the one place defaults are written: the
// shell and the renderer read theirs from here.
func Default(key string) string {
	if o, ok := defaults.Lookup(key); ok {
		return o.Default
	}
	return ""
}

// Option keys eddy reads.
const (
	RuntimeMode        = "execution.runtime-mode"
	ResultMode         = "sql-client.execution.result-mode"
	MaxColumnWidth     = "table.display.max-column-width"
	MaxColumnWidthOld  = "sql-client.display.max-column-width"
	PrintTimeCost      = "sql-client.display.print-time-cost"
	ShowLineNumbers    = "sql-client.display.show-line-numbers"
	ColorSchema        = "sql-client.display.color-schema"
	OutputFormat       = "sql-client.display.output-format"
	Prompt             = "sql-client.display.prompt"
	MaxTableResultRows = "sql-client.execution.max-table-result.rows"
	Verbose            = "sql-client.verbose"
	DMLSync            = "table.dml-sync"
	LocalTimeZone      = "table.local-time-zone"
	LegacyCast         = "table.exec.legacy-cast-behaviour"
	SQLDialect         = "table.sql-dialect"
	Parallelism        = "parallelism.default"
	PipelineName       = "pipeline.name"
	AggPhaseStrategy   = "table.optimizer.agg-phase-strategy"
	StateTTL           = "table.exec.state.ttl"
	CheckpointInterval = "execution.checkpointing.interval"
	SpillMemory        = "eddy.exec.memory-budget"
	ExecParallelism    = "eddy.exec.parallelism"
	CatalogOpenTimeout = "eddy.catalog.open-timeout"
	Pager              = "eddy.display.pager"
)

// EssentialKeys returns the options whose defaults shape every answer: a
// bare `SET;` of the shell lists them with their effective values even when
// nothing set them, marked as defaults.
func EssentialKeys() []string {
	return []string{RuntimeMode, ResultMode, OutputFormat, DMLSync, LocalTimeZone, MaxColumnWidth, SpillMemory}
}

// ParallelismEnv names the environment variable that, when it holds an
// integer of at least 1, is eddy.exec.parallelism's default instead of
// the number of CPUs (a test run at another parallelism sets it).
const ParallelismEnv = "EDDY_EXEC_PARALLELISM"

func defaultParallelism() string {
	if v := os.Getenv(ParallelismEnv); v != "" {
		if n, err := strconv.Atoi(v); err == nil && n >= 1 {
			return strconv.Itoa(n)
		}
	}
	return strconv.Itoa(runtime.NumCPU())
}

// Options returns the registry of the options eddy interprets, with Flink's
// defaults.
func Options() *Registry {
	opts := []*Option{
		{Key: RuntimeMode, Type: TypeEnum, Default: "streaming", Values: []string{"streaming", "batch", "automatic"},
			Description: "Runtime mode: streaming shows the changelog, batch the final result."},
		{Key: ResultMode, Type: TypeEnum, Default: "table", Values: []string{"table", "tableau", "changelog"},
			Description: "How query results are shown."},
		{Key: MaxColumnWidth, Type: TypeInt, Default: "30", Fallback: MaxColumnWidthOld,
			Description: "Maximum width of a column in query results."},
		{Key: MaxColumnWidthOld, Type: TypeInt, Default: "30",
			Description: "Deprecated name of table.display.max-column-width."},
		{Key: PrintTimeCost, Type: TypeBool, Default: "true", Description: "Print the time a query took."},
		{Key: ShowLineNumbers, Type: TypeBool, Default: "false", Description: "Show line numbers when editing."},
		// Flink's schemas; DEFAULT means no highlighting, as in Flink. eddy
		// highlights with DARK unless the option says otherwise.
		{Key: ColorSchema, Type: TypeEnum, Default: "DARK",
			Values:      []string{"DEFAULT", "DARK", "LIGHT", "CHESTER", "DRACULA", "SOLARIZED", "VS2010", "OBSIDIAN", "GESHI"},
			Description: "Syntax highlighting colours at the prompt; DEFAULT turns highlighting off."},
		{Key: OutputFormat, Type: TypeEnum, Default: "tableau",
			Values:      []string{"tableau", "csv", "tsv", "json", "jsonl", "markdown", "vertical"},
			Description: "How query results are printed: tableau (the Flink client's tables) or an export format."},
		{Key: Prompt, Type: TypeString, Default: "%c.%d> ",
			Description: "The prompt: %c is the current catalog, %d the current database, %m the runtime mode, %% a percent sign."},
		{Key: MaxTableResultRows, Type: TypeInt, Default: "1000000",
			Description: "Rows kept by the table result mode; older rows are dropped."},
		{Key: Verbose, Type: TypeBool, Default: "false", Description: "Print error details."},
		{Key: DMLSync, Type: TypeBool, Default: "false", Description: "Wait for INSERT statements to finish."},
		{Key: LocalTimeZone, Type: TypeZone, Default: "default", Description: "Zone of TIMESTAMP_LTZ values."},
		{Key: LegacyCast, Type: TypeEnum, Default: "DISABLED", Values: []string{"ENABLED", "DISABLED"},
			EnumClass:   "org.apache.flink.table.api.config.ExecutionConfigOptions.LegacyCastBehaviour",
			Description: "CAST returns NULL on failure when ENABLED."},
		{Key: SQLDialect, Type: TypeEnum, Default: "default", Values: []string{"default", "hive"},
			EnumClass: "org.apache.flink.table.api.SqlDialect", Description: "SQL dialect."},
		{Key: Parallelism, Type: TypeInt, Default: "1", Description: "Default parallelism."},
		{Key: PipelineName, Type: TypeString, Description: "Name of submitted jobs."},
		{Key: AggPhaseStrategy, Type: TypeEnum, Default: "AUTO", Values: []string{"AUTO", "ONE_PHASE", "TWO_PHASE"},
			EnumClass:   "org.apache.flink.table.api.config.OptimizerConfigOptions.AggregatePhaseStrategy",
			Description: "Aggregation strategy."},
		{Key: StateTTL, Type: TypeDuration, Default: "0 ms", Description: "Idle state retention."},
		{Key: CheckpointInterval, Type: TypeDuration, Description: "Checkpoint interval."},
		{Key: SpillMemory, Type: TypeMemorySize, Default: "256mb",
			Description: "Memory a sort, aggregation or hash join may hold before spilling to disk."},
		{Key: ExecParallelism, Type: TypeInt, Default: defaultParallelism(),
			Description: "Workers a batch query's scans, filters, projections, aggregations, joins and sorts run on (at least 1; default: $EDDY_EXEC_PARALLELISM, else the number of CPUs)."},
		// No default here: unset, the catalog layer's own bound applies.
		{Key: CatalogOpenTimeout, Type: TypeDuration,
			Description: "How long opening a catalog (connecting to its metastore or service) may take; read when the session starts. Unset: 10 s."},
		{Key: Pager, Type: TypeBool, Default: "true",
			Description: "At a terminal, a bounded result taller than the screen goes through $PAGER (less -FRSX when unset)."},
	}
	r := &Registry{byKey: make(map[string]*Option, len(opts))}
	for _, o := range opts {
		r.byKey[o.Key] = o
	}
	return r
}
