// Package kafka is eddy's 'kafka' and 'upsert-kafka' connectors: Flink's
// KafkaDynamicTableFactory and UpsertKafkaDynamicTableFactory over the
// franz-go client (kgo for records, kadm for offsets and metadata).
//
// Register adds both factories to a connectors.Registry; their key and
// value formats are the registry's formats, picked by identifier, so a
// format registered there works as a Kafka key or value format without
// changes here.
//
// A source reads the partitions of its topics from the offsets its
// 'scan.startup.mode' names, computed once when it opens, and ends, when
// 'scan.bounded.mode' is set, at the offsets that mode names. It emits the
// physical columns decoded from the record's key and value, followed by the
// metadata columns the table reads (topic, partition, headers,
// leader-epoch, offset, timestamp, timestamp-type, and the value format's
// own keys under 'value.', such as debezium-json's
// 'value.source.timestamp'). With
// 'properties.group.id' set, the offsets it has read are committed to that
// group as it goes and when it closes.
//
// A sink encodes the key fields with the key format and the value fields
// with the value format; the table's persisted metadata columns 'headers'
// and 'timestamp' become the record's headers and timestamp.
//
// The upsert-kafka source normalises its upsert stream into a changelog as
// Flink's ChangelogNormalize does: the first value of a key is +I, the
// next ones -U/+U pairs, and a tombstone (a record without value) of a
// known key is -D of its last row. The upsert-kafka sink writes +I and +U
// rows as records keyed by the primary key and -D rows as tombstones.
//
// A sink with 'sink.delivery-guarantee' = 'exactly-once' writes in Kafka
// transactions, committed at each execution.checkpointing.interval (after
// the batch that crosses it) and when the sink commits at the end of its
// input; the others flush their records then.
//
// CatalogFactory makes catalogs of type 'kafka' (catalog*.go): each
// database is a Kafka cluster (the top-level 'properties.*' name the
// default database's, 'cluster.<db>.properties.*' more), each table one of
// its topics. Table definitions are records of a compacted topic of the
// cluster ('tables-topic', _eddy_tables by default) keyed by table name,
// read to its end before each answer, so every catalog connected to the
// cluster sees the same tables; a topic without a definition is Flink's
// raw layout (key and val bytes, metadata as virtual columns). CREATE
// TABLE creates the topic from the 'kafka.*' options, DROP TABLE deletes
// it. The catalog supplies the connector of its tables
// (connectors.CatalogConnector): the kafka or upsert-kafka factory over
// the table's topic with its cluster's properties, formats taken from a
// registry of eddy's own formats.
//
// Errors carry Flink's and Kafka's exception classes: an unreachable
// broker is a TimeoutException naming the bootstrap servers after
// 'properties.request.timeout.ms' (30000 ms by default), a failed login a
// SaslAuthenticationException (the password is never part of a message),
// a record its format cannot decode an IOException naming its topic,
// partition and offset.
package kafka
