package kafka

import (
	"context"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/twmb/franz-go/pkg/kadm"

	"eddy/catalogs"
	"eddy/conf"
	"eddy/engine/types"
)

// Table options of a Kafka catalog that configure the table's topic; they
// are the catalog's, never passed to the connector.
const (
	optPartitions    = "kafka.partitions"         // number of partitions (default: the broker's num.partitions)
	optReplication   = "kafka.replication-factor" // replicas of each partition (default: the broker's)
	optRetentionTime = "kafka.retention.time"     // retention.ms, a duration ('7 d'), -1 for none
	optRetentionSize = "kafka.retention.size"     // retention.bytes, a memory size ('1 gb'), -1 for none
	optCleanup       = "kafka.cleanup-policy"     // cleanup.policy: delete, compact or delete-compact
	topicPrefix      = "kafka."
)

func topicOptionKeys() []string {
	return []string{optCleanup, optPartitions, optReplication, optRetentionSize, optRetentionTime}
}

// topicSettings are a table's topic options, read.
type topicSettings struct {
	partitions  int32 // -1: the broker's default
	replication int16 // -1: the broker's default
	// config are the topic configurations the options set, by Kafka name.
	config map[string]string
}

func (ts topicSettings) configs() map[string]*string {
	out := map[string]*string{}
	for k, v := range ts.config {
		out[k] = &v
	}
	return out
}

// topicConfigOf maps the options that become topic configurations.
var topicConfigOf = map[string]string{
	optRetentionTime: "retention.ms",
	optRetentionSize: "retention.bytes",
	optCleanup:       "cleanup.policy",
}

// readTopicSettings reads the 'kafka.*' options of a table; buckets is
// the DISTRIBUTED INTO n BUCKETS count, the partitions when
// 'kafka.partitions' is not set.
func readTopicSettings(o map[string]string, buckets int) (topicSettings, error) {
	ts := topicSettings{partitions: -1, replication: -1, config: map[string]string{}}
	if buckets > 0 {
		ts.partitions = int32(buckets)
	}
	for k, v := range o {
		if !strings.HasPrefix(k, topicPrefix) {
			continue
		}
		v = strings.TrimSpace(v)
		bad := func(want string) error {
			return catalogs.ClassErrorf(catalogs.ErrInvalidOption, "ValidationException",
				"Invalid value for option '%s': '%s' (expected %s).", k, v, want)
		}
		switch k {
		case optPartitions:
			n, err := strconv.ParseInt(v, 10, 32)
			if err != nil || n < 1 {
				return ts, bad("a positive number of partitions")
			}
			ts.partitions = int32(n)
		case optReplication:
			n, err := strconv.ParseInt(v, 10, 16)
			if err != nil || n < 1 {
				return ts, bad("a positive number of replicas")
			}
			ts.replication = int16(n)
		case optRetentionTime:
			if v == "-1" {
				ts.config["retention.ms"] = "-1"
				continue
			}
			d, err := conf.ParseDuration(v)
			if err != nil || d < 0 {
				return ts, bad("a duration such as '7 d' or '12 h', or -1 to keep records forever")
			}
			ts.config["retention.ms"] = strconv.FormatInt(d.Milliseconds(), 10)
		case optRetentionSize:
			if v == "-1" {
				ts.config["retention.bytes"] = "-1"
				continue
			}
			n, err := conf.ParseMemorySize(v)
			if err != nil || n < 0 {
				return ts, bad("a size such as '1 gb' or '512 mb', or -1 for no limit")
			}
			ts.config["retention.bytes"] = strconv.FormatInt(n, 10)
		case optCleanup:
			switch strings.ToLower(v) {
			case "delete", "compact":
				ts.config["cleanup.policy"] = strings.ToLower(v)
			case "delete-compact", "compact,delete", "delete,compact":
				ts.config["cleanup.policy"] = "compact,delete"
			default:
				return ts, bad("'delete', 'compact' or 'delete-compact'")
			}
		default:
			return ts, catalogs.ClassErrorf(catalogs.ErrInvalidOption, "ValidationException",
				"Unsupported topic option '%s' for a table of a Kafka catalog. Supported topic options:\n\n%s",
				k, strings.Join(topicOptionKeys(), "\n"))
		}
	}
	return ts, nil
}

// The scan defaults of a Kafka catalog's tables: a statement reads what
// the topic holds when it starts, from its earliest record.
const (
	defaultCatalogStartup = modeEarliest
	defaultCatalogBounded = "latest-offset"
)

// withDefaults returns a table as the catalog shows it: the connector and
// scan defaults filled in when the definition sets none, and the topic's
// partitions as they are.
func withDefaults(t *catalogs.CatalogTable, topic *topicInfo) *catalogs.CatalogTable {
	if t.Options == nil {
		t.Options = map[string]string{}
	}
	applyDefaults(t.Options)
	if topic != nil {
		t.Options[optPartitions] = strconv.Itoa(topic.partitions)
	}
	return t
}

// applyDefaults sets the options a Kafka catalog's table has unless it
// says otherwise: the kafka connector, a JSON value, and a scan of what
// the topic holds when a statement starts.
func applyDefaults(o map[string]string) {
	if _, ok := o["connector"]; !ok {
		o["connector"] = "kafka"
	}
	if o["connector"] == "kafka" {
		if _, ok := o[optStartupMode]; !ok {
			o[optStartupMode] = defaultCatalogStartup
		}
		_, hasFormat := o[optFormat]
		_, hasValueFormat := o[optValueFormat]
		if !hasFormat && !hasValueFormat {
			o[optValueFormat] = "json"
		}
	}
	if _, ok := o[optBoundedMode]; !ok {
		o[optBoundedMode] = defaultCatalogBounded
	}
}

// rawTable is the table of a topic no one defined: Flink's raw layout,
// the record's key and value as bytes and the metadata of
// flink-connector-kafka as virtual columns.
func rawTable(topic string) *catalogs.CatalogTable {
	bytes := func() *types.Type { return types.NewVarBinary(types.MaxLength) }
	t := &catalogs.CatalogTable{
		Comment: "Topic '" + topic + "' without a table definition: the raw key and value of its records",
		Options: map[string]string{
			"connector":           "kafka",
			optKeyFormat:          "raw",
			optKeyFields:          "key",
			optValueFormat:        "raw",
			optValueFieldsInclude: "EXCEPT_KEY",
		},
	}
	t.Schema.Columns = []catalogs.Column{
		{Name: "key", Kind: catalogs.Physical, Type: bytes()},
		{Name: "val", Kind: catalogs.Physical, Type: bytes()},
	}
	for _, m := range readableMetadata() {
		t.Schema.Columns = append(t.Schema.Columns, catalogs.Column{Name: strings.ReplaceAll(m.Key, "-", "_"),
			Kind: catalogs.Metadata, Type: m.Type, MetadataKey: m.Key, Virtual: true})
	}
	return t
}

// GetTable returns a topic's table: its definition when the cluster holds
// one (even if the topic is gone), else the raw layout of the topic.
func (c *Catalog) GetTable(ctx context.Context, path catalogs.ObjectPath) (catalogs.BaseTable, error) {
	cl, err := c.cluster(path.Database)
	if err != nil {
		return nil, err
	}
	def, err := cl.definition(ctx, path.Object)
	if errorKind(err) == catalogs.ErrStore && cl.readError(path.Object) != nil {
		// Listed and droppable, but without columns: using it says why.
		return &catalogs.CatalogTable{Comment: err.Error(), Options: map[string]string{"connector": "kafka"}}, nil
	}
	if err != nil {
		return nil, err
	}
	topic, ok, err := cl.topic(ctx, path.Object)
	if err != nil {
		return nil, err
	}
	var detail *topicInfo
	if ok {
		detail = &topic
	}
	switch {
	case def != nil:
		return withDefaults(def, detail), nil
	case ok:
		return withDefaults(rawTable(path.Object), detail), nil
	}
	return nil, catalogs.TableNotExist(c.name, path)
}

// TableExists reports whether the cluster has the topic or a definition
// of it.
func (c *Catalog) TableExists(ctx context.Context, path catalogs.ObjectPath) (bool, error) {
	_, err := c.GetTable(ctx, path)
	if err == nil {
		return true, nil
	}
	if ce, ok := err.(*catalogs.Error); ok && (ce.Kind == catalogs.ErrTableNotExist || ce.Kind == catalogs.ErrDatabaseNotExist) {
		return false, nil
	}
	return false, err
}

// checkDefinition checks the options of a table about to be stored and
// returns the options to store: the topic and the cluster's connection
// are the catalog's, so they are not kept in the definition.
func (c *Catalog) checkDefinition(cl *cluster, path catalogs.ObjectPath, t *catalogs.CatalogTable) (map[string]string, error) {
	o := maps.Clone(t.Options)
	if o == nil {
		o = map[string]string{}
	}
	refuse := func(format string, args ...any) error {
		return catalogs.ClassErrorf(catalogs.ErrInvalidOption, "ValidationException", format, args...)
	}
	switch id := o["connector"]; id {
	case "":
		o["connector"] = "kafka"
	case "kafka", "upsert-kafka":
	default:
		return nil, refuse("A table of Kafka catalog '%s' is a topic read by the 'kafka' or 'upsert-kafka' connector; 'connector' = '%s' is not possible here.", c.name, id)
	}
	if topic, ok := o[optTopic]; ok {
		if topic != path.Object {
			return nil, refuse("A table of Kafka catalog '%s' is the topic of its own name: 'topic' = '%s' is not possible for table %s.", c.name, topic, path.FullName())
		}
		delete(o, optTopic)
	}
	if _, ok := o[optTopicPattern]; ok {
		return nil, refuse("A table of Kafka catalog '%s' is the topic of its own name: 'topic-pattern' is not possible.", c.name)
	}
	for k, v := range o {
		if !strings.HasPrefix(k, propertiesPrefix) {
			continue
		}
		if cv, ok := cl.props[k]; ok && cv == v {
			delete(o, k) // the cluster's own, as GetTable never shows it
			continue
		}
		if k == optBootstrap {
			return nil, refuse("A table of Kafka catalog '%s' lives in the cluster of its database '%s'; 'properties.bootstrap.servers' is the catalog's option.", c.name, path.Database)
		}
		if catalogs.IsSensitiveOption(k) {
			return nil, refuse("Option '%s' is secret and a table definition of a Kafka catalog is kept in the cluster, readable by its clients: set it on the catalog instead.", k)
		}
	}
	if o["connector"] == "kafka" {
		_, hasFormat := o[optFormat]
		_, hasValueFormat := o[optValueFormat]
		if !hasFormat && !hasValueFormat {
			o[optValueFormat] = "json"
		}
	}
	return o, nil
}

// CreateTable creates the table's topic with the partitions, replicas and
// configurations its 'kafka.*' options say, and records the definition in
// the cluster. When the definition cannot be recorded the topic is
// deleted again.
func (c *Catalog) CreateTable(ctx context.Context, path catalogs.ObjectPath, table catalogs.BaseTable, ignoreIfExists bool) error {
	cl, err := c.cluster(path.Database)
	if err != nil {
		return err
	}
	t, ok := table.(*catalogs.CatalogTable)
	if !ok {
		return catalogs.ClassErrorf(catalogs.ErrViewsUnsupported, "ValidationException", "%s", c.ViewDDLRefusal(c.name))
	}
	exists, err := c.TableExists(ctx, path)
	if err != nil {
		return err
	}
	if exists {
		if ignoreIfExists {
			return nil
		}
		return catalogs.TableAlreadyExist(c.name, path)
	}
	opts, err := c.checkDefinition(cl, path, t)
	if err != nil {
		return err
	}
	buckets := 0
	if t.Distribution != nil {
		buckets = t.Distribution.Buckets
	}
	ts, err := readTopicSettings(opts, buckets)
	if err != nil {
		return err
	}
	if err := cl.createTopic(ctx, path, ts); err != nil {
		if ignoreIfExists && errorKind(err) == catalogs.ErrTableAlreadyExist {
			return nil
		}
		return err
	}
	def := t.Copy()
	def.Options = opts
	if err := cl.putDefinition(ctx, path.Object, def); err != nil {
		_ = cl.deleteTopic(context.WithoutCancel(ctx), path.Object)
		return err
	}
	return nil
}

func errorKind(err error) *catalogs.Kind {
	if ce, ok := err.(*catalogs.Error); ok {
		return ce.Kind
	}
	return nil
}

// DropTable deletes the table's topic, its records with it, and then its
// definition. A definition whose topic is already gone is removed alone.
func (c *Catalog) DropTable(ctx context.Context, path catalogs.ObjectPath, ignoreIfNotExists bool) error {
	cl, err := c.cluster(path.Database)
	if err != nil {
		if ignoreIfNotExists {
			return nil
		}
		return err
	}
	defs, err := cl.definitions(ctx)
	if err != nil {
		return err
	}
	_, hasDef := defs[path.Object]
	_, hasTopic, err := cl.topic(ctx, path.Object)
	if err != nil {
		return err
	}
	if !hasDef && !hasTopic {
		if ignoreIfNotExists {
			return nil
		}
		return catalogs.TableNotExist(c.name, path)
	}
	if hasTopic {
		if err := cl.deleteTopic(ctx, path.Object); err != nil {
			return err
		}
	}
	if hasDef {
		return cl.putDefinition(ctx, path.Object, nil)
	}
	return nil
}

// AlterTable records a changed definition; changed topic options change
// the topic first (more partitions, retention, cleanup policy).
func (c *Catalog) AlterTable(ctx context.Context, path catalogs.ObjectPath, table catalogs.BaseTable, ignoreIfNotExists bool) error {
	cl, err := c.cluster(path.Database)
	if err != nil {
		return err
	}
	t, ok := table.(*catalogs.CatalogTable)
	if !ok {
		return catalogs.ClassErrorf(catalogs.ErrViewsUnsupported, "ValidationException", "%s", c.ViewDDLRefusal(c.name))
	}
	stored, err := cl.definition(ctx, path.Object)
	if err != nil {
		return err
	}
	cur, err := c.GetTable(ctx, path)
	if errorKind(err) == catalogs.ErrTableNotExist {
		if ignoreIfNotExists {
			return nil
		}
		return err
	}
	if err != nil {
		return err
	}
	curOpts := cur.GetOptions()
	opts, err := c.checkDefinition(cl, path, t)
	if err != nil {
		return err
	}
	newTS, err := readTopicSettings(opts, 0)
	if err != nil {
		return err
	}
	oldTS, _ := readTopicSettings(curOpts, 0)
	partitions := int32(0)
	if newTS.partitions > 0 && newTS.partitions != oldTS.partitions {
		if newTS.partitions < oldTS.partitions {
			return c.unsupported("Kafka cannot remove partitions: the topic '%s' has %d, so '%s' = '%d' is not possible.",
				path.Object, oldTS.partitions, optPartitions, newTS.partitions)
		}
		partitions = newTS.partitions
	}
	if opts[optReplication] != curOpts[optReplication] {
		return c.unsupported("The replication factor of the topic '%s' cannot be changed by ALTER TABLE ('%s').", path.Object, optReplication)
	}
	var alter []kadm.AlterConfig
	for _, k := range slices.Sorted(maps.Keys(topicConfigOf)) {
		name := topicConfigOf[k]
		nv, has := newTS.config[name]
		ov, had := oldTS.config[name]
		switch {
		case has && (!had || nv != ov):
			alter = append(alter, kadm.AlterConfig{Op: kadm.SetConfig, Name: name, Value: &nv})
		case !has && had:
			alter = append(alter, kadm.AlterConfig{Op: kadm.DeleteConfig, Name: name})
		}
	}
	if partitions > 0 || len(alter) > 0 {
		if _, ok, err := cl.topic(ctx, path.Object); err != nil {
			return err
		} else if !ok {
			return c.unsupported("The topic '%s' of table %s no longer exists, so its topic options cannot change; DROP TABLE removes its definition.", path.Object, path.FullName())
		}
		if err := cl.alterTopic(ctx, path.Object, partitions, alter); err != nil {
			return err
		}
	}
	def := t.Copy()
	def.Options = opts
	if stored == nil && def.Comment == rawTable(path.Object).Comment {
		def.Comment = "" // the raw layout's note, no longer true once defined
	}
	return cl.putDefinition(ctx, path.Object, def)
}
