package kafka

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"eddy/engine/connectors"
	"eddy/engine/sqlerr"
)

// The option keys of Flink's KafkaConnectorOptions.
const (
	optTopic              = "topic"
	optTopicPattern       = "topic-pattern"
	optBootstrap          = "properties.bootstrap.servers"
	optGroupID            = "properties.group.id"
	optFormat             = "format"
	optKeyFormat          = "key.format"
	optKeyFields          = "key.fields"
	optKeyFieldsPrefix    = "key.fields-prefix"
	optValueFormat        = "value.format"
	optValueFieldsInclude = "value.fields-include"
	optStartupMode        = "scan.startup.mode"
	optStartupOffsets     = "scan.startup.specific-offsets"
	optStartupTimestamp   = "scan.startup.timestamp-millis"
	optBoundedMode        = "scan.bounded.mode"
	optBoundedOffsets     = "scan.bounded.specific-offsets"
	optBoundedTimestamp   = "scan.bounded.timestamp-millis"
	optDiscovery          = "scan.topic-partition-discovery.interval"
	optScanParallelism    = "scan.parallelism"
	optPartitioner        = "sink.partitioner"
	optSinkParallelism    = "sink.parallelism"
	optDelivery           = "sink.delivery-guarantee"
	optTxPrefix           = "sink.transactional-id-prefix"
	optFlushRows          = "sink.buffer-flush.max-rows"
	optFlushInterval      = "sink.buffer-flush.interval"
	propertiesPrefix      = "properties."
)

// kafkaOptions are the optional keys of the kafka connector.
func kafkaOptions() []string {
	return []string{
		optFormat, optKeyFormat, optKeyFields, optKeyFieldsPrefix, optValueFormat, optValueFieldsInclude,
		optTopic, optTopicPattern, optGroupID, optStartupMode, optStartupOffsets, optDiscovery,
		optStartupTimestamp, optPartitioner, optSinkParallelism, optDelivery, optTxPrefix,
		optBoundedMode, optBoundedOffsets, optBoundedTimestamp, optScanParallelism,
	}
}

// upsertOptions are the optional keys of the upsert-kafka connector.
func upsertOptions() []string {
	return []string{
		optTopic, optTopicPattern, optKeyFieldsPrefix, optValueFieldsInclude, optSinkParallelism,
		optFlushRows, optFlushInterval, optDelivery, optTxPrefix, optScanParallelism,
		optBoundedMode, optBoundedOffsets, optBoundedTimestamp,
	}
}

// Startup and bounded modes.
const (
	modeEarliest  = "earliest-offset"
	modeLatest    = "latest-offset"
	modeGroup     = "group-offsets"
	modeTimestamp = "timestamp"
	modeSpecific  = "specific-offsets"
	modeUnbounded = "unbounded"
)

// defaultDiscovery is Flink's 'scan.topic-partition-discovery.interval'
// default.
const defaultDiscovery = 5 * time.Minute

// Delivery guarantees.
const (
	deliveryNone        = "none"
	deliveryAtLeastOnce = "at-least-once"
	deliveryExactlyOnce = "exactly-once"
)

// spec is a kafka or upsert-kafka table with its options validated.
type spec struct {
	upsert  bool
	name    string // the connector identifier
	t       *connectors.Table
	topics  []string
	pattern *regexp.Regexp
	client  clientConfig

	key, value       connectors.Codec
	keyID, valueID   string // format identifiers
	keyIdx, valueIdx []int  // physical columns in the key and the value
	keyPrefix        string

	startup         string
	startupTS       int64
	startupOffsets  map[int32]int64
	bounded         string
	boundedTS       int64
	boundedOffsets  map[int32]int64
	partitioner     string
	delivery        string
	txPrefix        string
	flushRows       int64
	flushInterval   time.Duration
	discovery       time.Duration
	ignoreParseErrs bool
}

func validationError(format string, args ...any) error {
	return &connectors.Error{Exception: sqlerr.ValidationException, Msg: fmt.Sprintf(format, args...)}
}

// newSpec validates a table's options for the connector (upsert for
// upsert-kafka) used as a source (sink false) or a sink.
func newSpec(reg *connectors.Registry, t *connectors.Table, upsert, sink bool) (*spec, error) {
	o := t.Options
	s := &spec{upsert: upsert, name: "kafka", t: t, startup: modeGroup, bounded: modeUnbounded,
		partitioner: "default", delivery: deliveryAtLeastOnce, discovery: defaultDiscovery}
	required := []string{"connector", optBootstrap}
	optional := kafkaOptions()
	if upsert {
		s.name, s.startup = "upsert-kafka", modeEarliest
		required = append(required, optKeyFormat, optValueFormat)
		optional = upsertOptions()
	}
	// The formats' own options, prefixed as Flink's format discovery
	// prefixes them: 'json.*' for 'format', 'key.json.*' and
	// 'value.json.*' for 'key.format' and 'value.format'.
	for _, f := range []struct{ key, prefix string }{{optFormat, ""}, {optKeyFormat, "key."}, {optValueFormat, "value."}} {
		id, ok := o[f.key]
		if !ok {
			continue
		}
		format, ok := reg.Format(id)
		if !ok {
			continue // reported by codec below
		}
		for _, k := range format.Options {
			optional = append(optional, f.prefix+k)
		}
	}
	if err := connectors.CheckOptions(s.name, o, required, optional, propertiesPrefix); err != nil {
		return nil, err
	}
	if err := s.topicOptions(sink); err != nil {
		return nil, err
	}
	var err error
	if s.client, err = newClientConfig(o); err != nil {
		return nil, err
	}
	if err := s.formats(reg, sink); err != nil {
		return nil, err
	}
	if err := s.scanOptions(); err != nil {
		return nil, err
	}
	if err := s.sinkOptions(); err != nil {
		return nil, err
	}
	return s, nil
}

// topicOptions reads 'topic' (a ';' list) and 'topic-pattern'.
func (s *spec) topicOptions(sink bool) error {
	o := s.t.Options
	topic, hasTopic := o[optTopic]
	pattern, hasPattern := o[optTopicPattern]
	if hasTopic && hasPattern {
		return validationError("Option 'topic' and 'topic-pattern' shouldn't be set together.")
	}
	if !hasTopic && !hasPattern {
		return validationError("Either 'topic' or 'topic-pattern' must be set.")
	}
	if hasTopic {
		for _, tp := range strings.Split(topic, ";") {
			if tp = strings.TrimSpace(tp); tp != "" {
				s.topics = append(s.topics, tp)
			}
		}
	}
	if hasPattern {
		re, err := regexp.Compile("^(?:" + pattern + ")$")
		if err != nil {
			return validationError("Invalid regular expression '%s' for option 'topic-pattern': %v", pattern, err)
		}
		s.pattern = re
	}
	if sink && (s.pattern != nil || len(s.topics) != 1) {
		if s.pattern != nil {
			return validationError("Flink Kafka sink currently only supports single topic, but got 'topic-pattern': %s.", pattern)
		}
		return validationError("Flink Kafka sink currently only supports single topic, but got 'topic': %s.", "["+strings.Join(s.topics, ", ")+"]")
	}
	return nil
}

// formats configures the key and value codecs and the fields they carry.
func (s *spec) formats(reg *connectors.Registry, sink bool) error {
	o := s.t.Options
	names := make([]string, len(s.t.Columns))
	for i, c := range s.t.Columns {
		names[i] = c.Name
	}
	s.keyPrefix = o[optKeyFieldsPrefix]
	role := "scan"
	if sink {
		role = "sink"
	}
	// The key fields: 'key.fields', or the primary key of upsert-kafka.
	var keyFields []string
	if s.upsert {
		if len(s.t.PrimaryKey) == 0 {
			return validationError("'upsert-kafka' tables require to define a PRIMARY KEY constraint. The PRIMARY KEY specifies which columns should be read from or write to the Kafka message key. The PRIMARY KEY also defines records in the 'upsert-kafka' table should update or delete on which keys.")
		}
		keyFields = s.t.PrimaryKey
	} else {
		_, hasKeyFormat := o[optKeyFormat]
		kf, hasKeyFields := o[optKeyFields]
		if hasKeyFields {
			for _, f := range strings.Split(kf, ";") {
				if f = strings.TrimSpace(f); f != "" {
					keyFields = append(keyFields, f)
				}
			}
		}
		if !hasKeyFormat && hasKeyFields {
			return validationError("The option '%s' can only be declared if a key format is defined using '%s'.", optKeyFields, optKeyFormat)
		}
		if hasKeyFormat && len(keyFields) == 0 {
			return validationError("A key format '%s' requires the declaration of one or more of key fields using '%s'.", optKeyFormat, optKeyFields)
		}
	}
	for _, f := range keyFields {
		pos := slices.Index(names, f)
		if pos < 0 {
			return validationError("Could not find the field '%s' in the table schema for usage in the key format. A key field must be a regular, physical column. The following columns can be selected in the '%s' option:\n[%s]",
				f, optKeyFields, strings.Join(names, ", "))
		}
		if !strings.HasPrefix(f, s.keyPrefix) {
			return validationError("All fields in '%s' must be prefixed with '%s' when option '%s' is set but field '%s' is not prefixed.",
				optKeyFields, s.keyPrefix, optKeyFieldsPrefix, f)
		}
		s.keyIdx = append(s.keyIdx, pos)
	}
	switch inc := o[optValueFieldsInclude]; inc {
	case "", "ALL":
		if s.keyPrefix != "" {
			return validationError("A key prefix is not allowed when option '%s' is set to 'ALL'. Set it to 'EXCEPT_KEY' instead to avoid field overlaps.", optValueFieldsInclude)
		}
		for i := range names {
			s.valueIdx = append(s.valueIdx, i)
		}
	case "EXCEPT_KEY":
		for i := range names {
			if !slices.Contains(s.keyIdx, i) {
				s.valueIdx = append(s.valueIdx, i)
			}
		}
	default:
		return validationError("Could not parse value '%s' for key '%s'.", inc, optValueFieldsInclude)
	}
	if id, ok := o[optKeyFormat]; ok {
		c, err := configure(reg, id, "key.", o)
		if err != nil {
			return err
		}
		s.key, s.keyID = c, id
	}
	id, ok := o[optValueFormat]
	prefix := "value."
	if !ok {
		id, ok = o[optFormat]
		prefix = ""
	}
	if !ok {
		return validationError("Could not find required %s format '%s'.", role, optValueFormat)
	}
	c, err := configure(reg, id, prefix, o)
	if err != nil {
		return err
	}
	s.value, s.valueID = c, id
	s.ignoreParseErrs = o[prefix+id+".ignore-parse-errors"] == "true"
	// No format of Flink 2.2 takes a VARIANT column.
	cols := func(idx []int) []connectors.Column {
		out := make([]connectors.Column, len(idx))
		for i, j := range idx {
			out[i] = s.t.Columns[j]
		}
		return out
	}
	if s.key != nil {
		if err := connectors.FormatVariantError(s.keyID, cols(s.keyIdx), sink); err != nil {
			return err
		}
	}
	if err := connectors.FormatVariantError(id, cols(s.valueIdx), sink); err != nil {
		return err
	}
	if s.upsert && !insertOnlyFormat(id) {
		return validationError("'upsert-kafka' connector doesn't support '%s' as value format, because '%s' is not in insert-only mode.", id, id)
	}
	return nil
}

// insertOnlyFormat reports whether a format carries only inserts (the
// changelog formats carry updates and deletes of their own).
func insertOnlyFormat(id string) bool {
	switch id {
	case "debezium-json", "canal-json", "maxwell-json", "ogg-json", "debezium-avro-confluent":
		return false
	}
	return true
}

// configure returns the codec of format id with its options read from
// the keys under prefix ('key.json.x' is the key format's 'json.x').
func configure(reg *connectors.Registry, id, prefix string, o map[string]string) (connectors.Codec, error) {
	f, ok := reg.Format(id)
	if !ok {
		return nil, validationError("Could not find any factory for identifier '%s' that implements 'org.apache.flink.table.factories.DeserializationFormatFactory' in the classpath.\n\nAvailable factory identifiers are:\n\n%s",
			id, strings.Join(reg.FormatIdentifiers(), "\n"))
	}
	fo := map[string]string{"format": id}
	for k, v := range o {
		if strings.HasPrefix(k, prefix+id+".") {
			fo[strings.TrimPrefix(k, prefix)] = v
		}
	}
	return f.Configure(fo)
}

// scanOptions reads the startup and bounded modes.
func (s *spec) scanOptions() error {
	o := s.t.Options
	if m, ok := o[optStartupMode]; ok {
		switch m {
		case modeEarliest, modeLatest, modeGroup, modeTimestamp, modeSpecific:
			s.startup = m
		default:
			return enumError(optStartupMode, m)
		}
	}
	if m, ok := o[optBoundedMode]; ok {
		switch m {
		case modeUnbounded, modeLatest, modeGroup, modeTimestamp, modeSpecific:
			s.bounded = m
		default:
			return enumError(optBoundedMode, m)
		}
	}
	var err error
	if s.startupTS, s.startupOffsets, err = s.modeArgs(s.startup, "startup", optStartupTimestamp, optStartupOffsets); err != nil {
		return err
	}
	if s.boundedTS, s.boundedOffsets, err = s.modeArgs(s.bounded, "bounded", optBoundedTimestamp, optBoundedOffsets); err != nil {
		return err
	}
	if v, ok := o[optDiscovery]; ok {
		if s.discovery, err = parseDuration(optDiscovery, v); err != nil {
			return err
		}
	}
	return nil
}

// modeArgs reads the timestamp or the specific offsets a startup or
// bounded mode needs.
func (s *spec) modeArgs(mode, kind, tsKey, offKey string) (int64, map[int32]int64, error) {
	o := s.t.Options
	switch mode {
	case modeTimestamp:
		v, ok := o[tsKey]
		if !ok {
			return 0, nil, validationError("'%s' is required in '%s' %s mode but missing.", tsKey, mode, kind)
		}
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil {
			return 0, nil, validationError("Could not parse value '%s' for key '%s'.", v, tsKey)
		}
		return n, nil, nil
	case modeSpecific:
		v, ok := o[offKey]
		if !ok {
			return 0, nil, validationError("'%s' is required in '%s' %s mode but missing.", offKey, mode, kind)
		}
		if len(s.topics) != 1 {
			return 0, nil, validationError("Currently Kafka source only supports specific offset for single topic.")
		}
		offs, err := parseSpecificOffsets(v, offKey)
		return 0, offs, err
	}
	return 0, nil, nil
}

// parseSpecificOffsets reads 'partition:0,offset:42;partition:1,offset:300'.
func parseSpecificOffsets(v, key string) (map[int32]int64, error) {
	bad := validationError("Invalid properties '%s' should follow the format 'partition:0,offset:42;partition:1,offset:300', but is '%s'.", key, v)
	out := map[int32]int64{}
	for _, pair := range strings.Split(v, ";") {
		kv := strings.Split(pair, ",")
		if len(kv) != 2 || !strings.HasPrefix(kv[0], "partition:") || !strings.HasPrefix(kv[1], "offset:") {
			return nil, bad
		}
		p, err1 := strconv.ParseInt(strings.TrimPrefix(kv[0], "partition:"), 10, 32)
		off, err2 := strconv.ParseInt(strings.TrimPrefix(kv[1], "offset:"), 10, 64)
		if err1 != nil || err2 != nil {
			return nil, bad
		}
		out[int32(p)] = off
	}
	return out, nil
}

// sinkOptions reads the partitioner, the delivery guarantee and the
// buffer-flush options.
func (s *spec) sinkOptions() error {
	o := s.t.Options
	if p, ok := o[optPartitioner]; ok {
		switch {
		case p == "":
			return validationError("Option '%s' should be a non-empty string.", optPartitioner)
		case p == "round-robin" && o[optKeyFields] != "":
			return validationError("Currently 'round-robin' partitioner only works when option 'key.fields' is not specified.")
		case p == "default" || p == "fixed" || p == "round-robin":
			s.partitioner = p
		default:
			return validationError("Could not find and instantiate partitioner class '%s'", p)
		}
	}
	if d, ok := o[optDelivery]; ok {
		switch d {
		case deliveryNone, deliveryAtLeastOnce, deliveryExactlyOnce:
			s.delivery = d
		default:
			return enumError(optDelivery, d)
		}
	}
	s.txPrefix = o[optTxPrefix]
	if s.delivery == deliveryExactlyOnce && s.txPrefix == "" {
		return validationError("%s must be specified when using DeliveryGuarantee.EXACTLY_ONCE.", optTxPrefix)
	}
	if v, ok := o[optFlushRows]; ok {
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 32)
		if err != nil {
			return validationError("Could not parse value '%s' for key '%s'.", v, optFlushRows)
		}
		s.flushRows = n
	}
	if v, ok := o[optFlushInterval]; ok {
		d, err := parseDuration(optFlushInterval, v)
		if err != nil {
			return err
		}
		s.flushInterval = d
	}
	if (s.flushRows > 0) != (s.flushInterval > 0) && s.upsert {
		return validationError("'%s' and '%s' must be set to be greater than zero together to enable sink buffer flushing.", optFlushRows, optFlushInterval)
	}
	return nil
}

// enumError is Flink's text for an option value outside its enumeration.
func enumError(key, v string) error {
	return validationError("Could not parse value '%s' for key '%s'.", v, key)
}

// durationUnits are the unit labels of Flink's TimeUtils.parseDuration.
var durationUnits = map[string]time.Duration{
	"ns": time.Nanosecond, "us": time.Microsecond, "ms": time.Millisecond, "": time.Millisecond,
	"milli": time.Millisecond, "millis": time.Millisecond, "millisecond": time.Millisecond, "milliseconds": time.Millisecond,
	"s": time.Second, "sec": time.Second, "secs": time.Second, "second": time.Second, "seconds": time.Second,
	"m": time.Minute, "min": time.Minute, "mins": time.Minute, "minute": time.Minute, "minutes": time.Minute,
	"h": time.Hour, "hour": time.Hour, "hours": time.Hour, "d": 24 * time.Hour, "day": 24 * time.Hour, "days": 24 * time.Hour,
}

// parseDuration reads a Duration option ("5 s", "100ms", "1 min"); a bare
// number is milliseconds, as in Flink.
func parseDuration(key, v string) (time.Duration, error) {
	s := strings.TrimSpace(v)
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	n, err := strconv.ParseInt(s[:i], 10, 64)
	unit, ok := durationUnits[strings.ToLower(strings.TrimSpace(s[i:]))]
	if err != nil || !ok {
		return 0, validationError("Could not parse value '%s' for key '%s'.", v, key)
	}
	return time.Duration(n) * unit, nil
}
