package kafka

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"eddy/catalogs"
	"eddy/engine/connectors"
)

// cluster is one database of a Kafka catalog: a Kafka cluster, its admin
// client, and the table definitions read from its tables topic.
type cluster struct {
	catalog, db string
	props       map[string]string // the cluster's 'properties.*'
	cfg         clientConfig
	tablesTopic string

	cl       *kgo.Client // metadata, topic administration, writing definitions
	adm      *kadm.Client
	consumer *kgo.Client // reads the tables topic from its start

	mu   sync.Mutex // guards defs and next
	defs map[string]defEntry
	next map[int32]int64 // the next offset to read, by partition of the tables topic
}

// openCluster connects to a cluster within ctx and its request timeout,
// and creates its tables topic (compacted) when it has none.
func openCluster(ctx context.Context, catalog, db string, props map[string]string, tablesTopic string) (*cluster, error) {
	cfg, err := newClientConfig(props)
	if err != nil {
		return nil, catalogError(err)
	}
	c := &cluster{catalog: catalog, db: db, props: props, cfg: cfg, tablesTopic: tablesTopic,
		defs: map[string]defEntry{}, next: map[int32]int64{}}
	if c.cl, c.adm, err = cfg.newAdmin(); err != nil {
		return nil, catalogError(err)
	}
	if err := c.ensureTablesTopic(ctx); err != nil {
		c.close()
		return nil, err
	}
	c.consumer, err = kgo.NewClient(append(cfg.opts(),
		kgo.ConsumeTopics(tablesTopic), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
		// A tables topic made a moment ago is found without waiting long.
		kgo.MetadataMinAge(250*time.Millisecond))...)
	if err != nil {
		c.close()
		return nil, catalogError(&connectors.Error{Exception: "KafkaException", Msg: err.Error()})
	}
	if _, err := c.definitions(ctx); err != nil {
		c.close()
		return nil, err
	}
	return c, nil
}

func (c *cluster) close() {
	if c.consumer != nil {
		c.consumer.Close()
	}
	if c.cl != nil {
		c.cl.Close()
	}
}

// bound limits one exchange with the cluster to its request timeout.
func (c *cluster) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, c.cfg.requestTimeout)
}

// fail turns a client failure into a catalog error naming the brokers.
func (c *cluster) fail(err error) error {
	var ce *catalogs.Error
	if errors.As(err, &ce) {
		return err
	}
	return catalogError(c.cfg.clientError(err))
}

// catalogError carries a connector error's class and message as a catalog
// error.
func catalogError(err error) error {
	var ce *connectors.Error
	if errors.As(err, &ce) {
		return catalogs.ClassErrorf(catalogs.ErrStore, ce.Exception, "%s", ce.Msg)
	}
	return catalogs.WrapStore(err, "Kafka")
}

func (c *cluster) ensureTablesTopic(ctx context.Context) error {
	ctx, cancel := c.bound(ctx)
	defer cancel()
	topics, _, err := c.listTopics(ctx, c.tablesTopic)
	if err != nil {
		return c.fail(err)
	}
	if _, ok := topics[c.tablesTopic]; ok {
		return nil
	}
	compact := "compact"
	resp, err := c.adm.CreateTopic(ctx, 1, -1, map[string]*string{"cleanup.policy": &compact}, c.tablesTopic)
	if err == nil {
		err = resp.Err
	}
	if err != nil && !errors.Is(err, kerr.TopicAlreadyExists) {
		return c.fail(err)
	}
	return c.awaitTopic(ctx, c.tablesTopic, true)
}

// topicInfo is what the catalog needs of a topic.
type topicInfo struct {
	partitions int
}

// listTopics asks a broker for the metadata of the named topics (every
// topic when none is named), bypassing the client's metadata cache (a
// topic just created, grown or deleted shows as it is now). A named topic
// that does not exist is left out, never created.
func (c *cluster) listTopics(ctx context.Context, names ...string) (map[string]topicInfo, map[string]bool, error) {
	req := kmsg.NewPtrMetadataRequest()
	req.AllowAutoTopicCreation = false
	for _, n := range names {
		rt := kmsg.NewMetadataRequestTopic()
		rt.Topic = kmsg.StringPtr(n)
		req.Topics = append(req.Topics, rt)
	}
	resp, err := req.RequestWith(ctx, c.cl)
	if err != nil {
		return nil, nil, err
	}
	out, internal := map[string]topicInfo{}, map[string]bool{}
	for _, t := range resp.Topics {
		if t.Topic == nil {
			continue
		}
		if err := kerr.ErrorForCode(t.ErrorCode); errors.Is(err, kerr.UnknownTopicOrPartition) || errors.Is(err, kerr.InvalidTopicException) {
			continue
		}
		out[*t.Topic] = topicInfo{partitions: len(t.Partitions)}
		internal[*t.Topic] = t.IsInternal
	}
	return out, internal, nil
}

// topics returns the cluster's topics by name, without internal topics
// (Kafka's and every name starting with "__") and the tables topic.
func (c *cluster) topics(ctx context.Context) (map[string]topicInfo, error) {
	ctx, cancel := c.bound(ctx)
	defer cancel()
	all, internal, err := c.listTopics(ctx)
	if err != nil {
		return nil, c.fail(err)
	}
	for name := range all {
		if internal[name] || strings.HasPrefix(name, "__") || name == c.tablesTopic {
			delete(all, name)
		}
	}
	return all, nil
}

// topic returns one topic's details; ok is false when it does not exist.
func (c *cluster) topic(ctx context.Context, name string) (topicInfo, bool, error) {
	if strings.HasPrefix(name, "__") || name == c.tablesTopic {
		return topicInfo{}, false, nil
	}
	ctx, cancel := c.bound(ctx)
	defer cancel()
	ts, internal, err := c.listTopics(ctx, name)
	if err != nil {
		return topicInfo{}, false, c.fail(err)
	}
	if internal[name] {
		return topicInfo{}, false, nil
	}
	d, ok := ts[name]
	return d, ok, nil
}

// defEntry is one table's definition as read from the tables topic, or
// why it could not be read (a document of a later version, say).
type defEntry struct {
	table *catalogs.CatalogTable
	err   error
}

// definitions reads the tables topic up to its current end and returns
// the definitions by table name (the map is the caller's; the tables are
// shared and must be copied before a change).
func (c *cluster) definitions(ctx context.Context) (map[string]defEntry, error) {
	ctx, cancel := c.bound(ctx)
	defer cancel()
	c.mu.Lock()
	defer c.mu.Unlock()
	ends, err := c.adm.ListEndOffsets(ctx, c.tablesTopic)
	if err != nil {
		return nil, c.fail(err)
	}
	if err := ends.Error(); err != nil {
		return nil, c.fail(err)
	}
	behind := func() bool {
		late := false
		ends.Each(func(o kadm.ListedOffset) {
			if c.next[o.Partition] < o.Offset {
				late = true
			}
		})
		return late
	}
	for behind() {
		fs := c.consumer.PollFetches(ctx)
		if err := ctx.Err(); err != nil {
			return nil, c.fail(err)
		}
		var ferr error
		fs.EachError(func(_ string, _ int32, err error) { ferr = err })
		if ferr != nil {
			return nil, c.fail(ferr)
		}
		fs.EachRecord(func(r *kgo.Record) {
			c.next[r.Partition] = r.Offset + 1
			name := string(r.Key)
			if r.Value == nil {
				delete(c.defs, name)
				return
			}
			// A definition this eddy cannot read is kept as such: the table
			// is listed and using it says why, and it is never replaced by
			// the raw layout (an ALTER would overwrite it).
			t, err := decodeTable(r.Value)
			c.defs[name] = defEntry{table: t, err: err}
		})
	}
	out := make(map[string]defEntry, len(c.defs))
	for k, v := range c.defs {
		out[k] = v
	}
	return out, nil
}

// definition returns the definition of one table, or nil when there is
// none; a definition that cannot be read is an error saying why.
func (c *cluster) definition(ctx context.Context, name string) (*catalogs.CatalogTable, error) {
	defs, err := c.definitions(ctx)
	if err != nil {
		return nil, err
	}
	e, ok := defs[name]
	switch {
	case !ok:
		return nil, nil
	case e.err != nil:
		return nil, c.unreadable(name, e.err)
	}
	return e.table.Copy(), nil
}

// unreadable is the error of using a table whose definition cannot be read.
func (c *cluster) unreadable(name string, err error) error {
	return catalogs.ClassErrorf(catalogs.ErrStore, "CatalogException",
		"The definition of table %s.%s in the topic '%s' cannot be read: %v. DROP TABLE removes the table, its topic and the definition.",
		c.db, name, c.tablesTopic, err)
}

// readError returns, from the definitions read last, why the definition
// of a table cannot be read, or nil.
func (c *cluster) readError(name string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.defs[name]; ok && e.err != nil {
		return c.unreadable(name, e.err)
	}
	return nil
}

// putDefinition writes a table's definition (nil: removes it) and reads
// the tables topic up to it, so the change is visible at once.
func (c *cluster) putDefinition(ctx context.Context, name string, t *catalogs.CatalogTable) error {
	var value []byte
	if t != nil {
		b, err := encodeTable(t)
		if err != nil {
			return err
		}
		value = b
	}
	bctx, cancel := c.bound(ctx)
	defer cancel()
	if err := c.cl.ProduceSync(bctx, &kgo.Record{Topic: c.tablesTopic, Key: []byte(name), Value: value}).FirstErr(); err != nil {
		return c.fail(err)
	}
	_, err := c.definitions(ctx)
	return err
}

// createTopic creates a topic; an existing one is ErrTableAlreadyExist.
func (c *cluster) createTopic(ctx context.Context, path catalogs.ObjectPath, ts topicSettings) error {
	ctx, cancel := c.bound(ctx)
	defer cancel()
	resp, err := c.adm.CreateTopic(ctx, ts.partitions, ts.replication, ts.configs(), path.Object)
	if err == nil {
		err = resp.Err
	}
	if errors.Is(err, kerr.TopicAlreadyExists) {
		return catalogs.TableAlreadyExist(c.catalog, path)
	}
	if err != nil {
		if resp.ErrMessage != "" {
			return catalogs.ClassErrorf(catalogs.ErrStore, "KafkaException", "Could not create the topic '%s' of table %s: %v: %s",
				path.Object, path.FullName(), err, resp.ErrMessage)
		}
		return c.fail(err)
	}
	return c.awaitTopic(ctx, path.Object, true)
}

// awaitTopic waits until the cluster's metadata lists the topic (present)
// or no longer does, within ctx.
func (c *cluster) awaitTopic(ctx context.Context, name string, present bool) error {
	for {
		all, _, err := c.listTopics(ctx, name)
		if err != nil {
			return c.fail(err)
		}
		if _, ok := all[name]; ok == present {
			return nil
		}
		select {
		case <-ctx.Done():
			return c.fail(ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// deleteTopic deletes a topic and waits, within the request timeout,
// until the cluster no longer lists it. A topic already gone is no error.
func (c *cluster) deleteTopic(ctx context.Context, name string) error {
	ctx, cancel := c.bound(ctx)
	defer cancel()
	resp, err := c.adm.DeleteTopics(ctx, name)
	if err == nil {
		err = resp.Error()
	}
	if err != nil && !errors.Is(err, kerr.UnknownTopicOrPartition) {
		return c.fail(err)
	}
	return c.awaitTopic(ctx, name, false)
}

// alterTopic applies changed topic settings: more partitions, and the
// topic configurations set or removed.
func (c *cluster) alterTopic(ctx context.Context, name string, partitions int32, alter []kadm.AlterConfig) error {
	ctx, cancel := c.bound(ctx)
	defer cancel()
	if partitions > 0 {
		resp, err := c.adm.UpdatePartitions(ctx, int(partitions), name)
		if err == nil {
			err = resp.Error()
		}
		if err != nil {
			return c.fail(err)
		}
	}
	if len(alter) > 0 {
		resp, err := c.adm.AlterTopicConfigs(ctx, alter, name)
		if err == nil {
			for _, r := range resp {
				if r.Err != nil {
					err = r.Err
					if r.ErrMessage != "" {
						return catalogs.ClassErrorf(catalogs.ErrStore, "KafkaException", "Could not change the topic '%s': %v: %s", name, r.Err, r.ErrMessage)
					}
				}
			}
		}
		if err != nil {
			return c.fail(err)
		}
	}
	return nil
}

// truncate deletes every record a topic holds now (Kafka's DeleteRecords
// up to each partition's end offset).
func (c *cluster) truncate(ctx context.Context, name string) error {
	ctx, cancel := c.bound(ctx)
	defer cancel()
	ends, err := c.adm.ListEndOffsets(ctx, name)
	if err == nil {
		err = ends.Error()
	}
	if err != nil {
		return c.fail(err)
	}
	resp, err := c.adm.DeleteRecords(ctx, ends.Offsets())
	if err == nil {
		err = resp.Error()
	}
	if err != nil {
		return c.fail(err)
	}
	return nil
}
