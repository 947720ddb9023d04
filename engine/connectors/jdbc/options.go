package jdbc

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"eddy/conf"
	"eddy/engine/connectors"
)

// The option keys of Flink's JdbcConnectorOptions and LookupOptions.
const (
	optURL             = "url"
	optTableName       = "table-name"
	optDriver          = "driver"
	optCompatibleMode  = "compatible-mode"
	optUsername        = "username"
	optPassword        = "password"
	optMaxRetryTimeout = "connection.max-retry-timeout"
	optPartColumn      = "scan.partition.column"
	optPartNum         = "scan.partition.num"
	optPartLower       = "scan.partition.lower-bound"
	optPartUpper       = "scan.partition.upper-bound"
	optFetchSize       = "scan.fetch-size"
	optAutoCommit      = "scan.auto-commit"
	optFilterPolicy    = "filter.handling.policy"
	optFlushRows       = "sink.buffer-flush.max-rows"
	optFlushInterval   = "sink.buffer-flush.interval"
	optSinkRetries     = "sink.max-retries"
	optSinkParallelism = "sink.parallelism"
	// Lookup options (Flink's LookupOptions) and the deprecated ones the
	// JDBC connector still reads.
	optLookupCache          = "lookup.cache"
	optLookupMaxRetries     = "lookup.max-retries"
	optCacheExpireAccess    = "lookup.partial-cache.expire-after-access"
	optCacheExpireWrite     = "lookup.partial-cache.expire-after-write"
	optCacheMaxRows         = "lookup.partial-cache.max-rows"
	optCacheMissingKey      = "lookup.partial-cache.cache-missing-key"
	optLegacyCacheMaxRows   = "lookup.cache.max-rows"
	optLegacyCacheTTL       = "lookup.cache.ttl"
	optLegacyCacheMissing   = "lookup.cache.caching-missing-key"
	optConnectionProperties = "connection.properties."
)

func supportedOptions() (required, optional []string) {
	return []string{"connector", optURL, optTableName}, []string{
		optDriver, optCompatibleMode, optUsername, optPassword, optMaxRetryTimeout,
		optPartColumn, optPartNum, optPartLower, optPartUpper, optFetchSize, optAutoCommit,
		optFilterPolicy, optFlushRows, optFlushInterval, optSinkRetries, optSinkParallelism,
		optLookupCache, optLookupMaxRetries, optCacheExpireAccess, optCacheExpireWrite,
		optCacheMaxRows, optCacheMissingKey, optLegacyCacheMaxRows, optLegacyCacheTTL, optLegacyCacheMissing,
	}
}

// spec is a jdbc table's options, parsed and checked as Flink's
// JdbcDynamicTableFactory does.
type spec struct {
	t       *connectors.Table
	url     *dbURL
	dialect dialect
	table   string
	user    string
	pass    string
	// maxRetryTimeout bounds connecting and every retry wait.
	maxRetryTimeout time.Duration

	partColumn   string
	partNum      int
	partLo       int64
	partHi       int64
	fetchSize    int
	autoCommit   bool
	pushFilters  bool
	flushRows    int
	flushEvery   time.Duration
	sinkRetries  int
	lookupRetry  int
	cache        *cacheSpec
	primaryKey   []int
	columnsNames []string
}

// cacheSpec is a PARTIAL lookup cache (Flink's DefaultLookupCache).
type cacheSpec struct {
	expireAccess, expireWrite time.Duration
	maxRows                   int64
	cacheMissing              bool
}

func illegalArgument(format string, args ...any) error {
	return &connectors.Error{Exception: "IllegalArgumentException", Msg: fmt.Sprintf(format, args...)}
}

func validationError(format string, args ...any) error {
	return &connectors.Error{Exception: "ValidationException", Msg: fmt.Sprintf(format, args...)}
}

func parseError(key, v string) error {
	return validationError("Could not parse value '%s' for key '%s'.", v, key)
}

func optInt(o map[string]string, key string, def int) (int, error) {
	v, ok := o[key]
	if !ok {
		return def, nil
	}
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 32)
	if err != nil {
		return 0, parseError(key, v)
	}
	return int(n), nil
}

func optLong(o map[string]string, key string, def int64) (int64, error) {
	v, ok := o[key]
	if !ok {
		return def, nil
	}
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil {
		return 0, parseError(key, v)
	}
	return n, nil
}

func optBool(o map[string]string, key string, def bool) (bool, error) {
	v, ok := o[key]
	if !ok {
		return def, nil
	}
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, parseError(key, v)
}

func optDuration(o map[string]string, key string, def time.Duration) (time.Duration, error) {
	v, ok := o[key]
	if !ok {
		return def, nil
	}
	d, err := conf.ParseDuration(v)
	if err != nil {
		return 0, parseError(key, v)
	}
	return d, nil
}

// newSpec parses and checks the options of t. It opens no connection.
func newSpec(t *connectors.Table) (*spec, error) {
	required, optional := supportedOptions()
	if err := connectors.CheckOptions("jdbc", t.Options, required, optional, optConnectionProperties); err != nil {
		return nil, err
	}
	o := t.Options
	s := &spec{t: t, table: o[optTableName], user: o[optUsername], pass: o[optPassword]}
	u, err := parseURL(o[optURL])
	if err != nil {
		return nil, err
	}
	s.url = u
	s.dialect = u.dialect
	if err := checkAllOrNone(o, optUsername, optPassword); err != nil {
		return nil, err
	}
	if err := checkAllOrNone(o, optPartColumn, optPartNum, optPartLower, optPartUpper); err != nil {
		return nil, err
	}
	if s.partNum, err = optInt(o, optPartNum, 0); err != nil {
		return nil, err
	}
	if s.partLo, err = optLong(o, optPartLower, 0); err != nil {
		return nil, err
	}
	if s.partHi, err = optLong(o, optPartUpper, 0); err != nil {
		return nil, err
	}
	s.partColumn = o[optPartColumn]
	if s.partColumn != "" && s.partLo > s.partHi {
		return nil, illegalArgument("'%s'='%d' must not be larger than '%s'='%d'.", optPartLower, s.partLo, optPartUpper, s.partHi)
	}
	if err := checkAllOrNone(o, optLegacyCacheMaxRows, optLegacyCacheTTL); err != nil {
		return nil, err
	}
	if s.lookupRetry, err = optInt(o, optLookupMaxRetries, 3); err != nil {
		return nil, err
	}
	if s.lookupRetry < 0 {
		return nil, illegalArgument("The value of '%s' option shouldn't be negative, but is %d.", optLookupMaxRetries, s.lookupRetry)
	}
	if s.sinkRetries, err = optInt(o, optSinkRetries, 3); err != nil {
		return nil, err
	}
	if s.sinkRetries < 0 {
		return nil, illegalArgument("The value of '%s' option shouldn't be negative, but is %d.", optSinkRetries, s.sinkRetries)
	}
	if s.maxRetryTimeout, err = optDuration(o, optMaxRetryTimeout, 60*time.Second); err != nil {
		return nil, err
	}
	if s.maxRetryTimeout < time.Second {
		return nil, illegalArgument("The value of '%s' option must be in second granularity and shouldn't be smaller than 1 second, but is %s.",
			optMaxRetryTimeout, o[optMaxRetryTimeout])
	}
	if s.fetchSize, err = optInt(o, optFetchSize, 0); err != nil {
		return nil, err
	}
	if s.autoCommit, err = optBool(o, optAutoCommit, true); err != nil {
		return nil, err
	}
	switch p := strings.ToUpper(strings.TrimSpace(o[optFilterPolicy])); p {
	case "", "ALWAYS":
		s.pushFilters = true
	case "NEVER":
	default:
		return nil, parseError(optFilterPolicy, o[optFilterPolicy])
	}
	if s.flushRows, err = optInt(o, optFlushRows, 100); err != nil {
		return nil, err
	}
	if s.flushEvery, err = optDuration(o, optFlushInterval, time.Second); err != nil {
		return nil, err
	}
	if _, err := optInt(o, optSinkParallelism, 1); err != nil {
		return nil, err
	}
	if s.cache, err = lookupCacheOptions(o); err != nil {
		return nil, err
	}
	for _, c := range t.Columns {
		s.columnsNames = append(s.columnsNames, c.Name)
	}
	for _, k := range t.PrimaryKey {
		for i, c := range t.Columns {
			if c.Name == k {
				s.primaryKey = append(s.primaryKey, i)
			}
		}
	}
	if s.partColumn != "" && s.column(s.partColumn) < 0 {
		return nil, validationError("Unknown partition column '%s' of table %s.", s.partColumn, t.Name)
	}
	if err := s.dialect.validate(t.Columns); err != nil {
		return nil, err
	}
	return s, nil
}

// lookupCacheOptions reads the lookup cache options: 'lookup.cache' = 'PARTIAL'
// with the partial-cache options, or the deprecated max-rows and ttl.
func lookupCacheOptions(o map[string]string) (*cacheSpec, error) {
	var c *cacheSpec
	legacyRows, err := optLong(o, optLegacyCacheMaxRows, -1)
	if err != nil {
		return nil, err
	}
	legacyTTL, err := optDuration(o, optLegacyCacheTTL, 10*time.Second)
	if err != nil {
		return nil, err
	}
	legacyMissing, err := optBool(o, optLegacyCacheMissing, true)
	if err != nil {
		return nil, err
	}
	if legacyRows > 0 && legacyTTL > 0 {
		c = &cacheSpec{maxRows: legacyRows, expireWrite: legacyTTL, cacheMissing: legacyMissing}
	}
	switch v := strings.ToUpper(strings.TrimSpace(o[optLookupCache])); v {
	case "", "NONE":
	case "PARTIAL":
		c = &cacheSpec{}
		if c.expireAccess, err = optDuration(o, optCacheExpireAccess, 0); err != nil {
			return nil, err
		}
		if c.expireWrite, err = optDuration(o, optCacheExpireWrite, 0); err != nil {
			return nil, err
		}
		if c.maxRows, err = optLong(o, optCacheMaxRows, 0); err != nil {
			return nil, err
		}
		if c.cacheMissing, err = optBool(o, optCacheMissingKey, true); err != nil {
			return nil, err
		}
		if c.expireAccess == 0 && c.expireWrite == 0 && c.maxRows == 0 {
			return nil, illegalArgument("Expiration duration and maximum size are not set for the cache. " +
				"The cache will not have any eviction and could lead to potential memory issues as the cache size may grow infinitely.")
		}
	case "FULL":
		return nil, validationError("The JDBC connector does not support the lookup cache type 'FULL'.")
	default:
		return nil, parseError(optLookupCache, o[optLookupCache])
	}
	return c, nil
}

// checkAllOrNone is Flink's check that a group of options is set whole or
// not at all.
func checkAllOrNone(o map[string]string, keys ...string) error {
	n := 0
	for _, k := range keys {
		if _, ok := o[k]; ok {
			n++
		}
	}
	if n != 0 && n != len(keys) {
		return illegalArgument("Either all or none of the following options should be provided:\n%s", strings.Join(keys, "\n"))
	}
	return nil
}

// column returns the position of the physical column name, or -1.
func (s *spec) column(name string) int {
	for i, c := range s.columnsNames {
		if c == name {
			return i
		}
	}
	return -1
}
