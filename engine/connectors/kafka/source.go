package kafka

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"

	"eddy/engine/connectors"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// metadataKeys are the metadata keys of Flink's Kafka source, in Flink's
// order, with their types.
func readableMetadata() []connectors.MetadataKey {
	return []connectors.MetadataKey{
		{Key: "topic", Type: types.NewString().WithNullable(false)},
		{Key: "partition", Type: types.New(types.Int).WithNullable(false)},
		{Key: "headers", Type: types.NewMap(types.NewString(), types.NewVarBinary(types.MaxLength)).WithNullable(false)},
		{Key: "leader-epoch", Type: types.New(types.Int)},
		{Key: "offset", Type: types.New(types.BigInt).WithNullable(false)},
		{Key: "timestamp", Type: types.NewTimestampLTZ(3).WithNullable(false)},
		{Key: "timestamp-type", Type: types.NewString().WithNullable(false)},
	}
}

// valueMetadataPrefix is the prefix of the value format's metadata keys
// among the source's.
const valueMetadataPrefix = "value."

// withValueMetadata returns the source's readable metadata for a value
// format: the format's own keys under valueMetadataPrefix, then the
// connector's (a key of both is the format's), the order and precedence
// of Flink's KafkaDynamicSource.
func withValueMetadata(value connectors.Codec, keys []connectors.MetadataKey) []connectors.MetadataKey {
	mc, ok := value.(connectors.MetadataCodec)
	if !ok {
		return keys
	}
	var out []connectors.MetadataKey
	for _, k := range mc.ReadableMetadata() {
		out = append(out, connectors.MetadataKey{Key: valueMetadataPrefix + k.Key, Type: k.Type})
	}
	for _, k := range keys {
		if !slices.ContainsFunc(out, func(m connectors.MetadataKey) bool { return m.Key == k.Key }) {
			out = append(out, k)
		}
	}
	return out
}

// writableMetadata are the metadata keys of Flink's Kafka sink.
func writableMetadata() []connectors.MetadataKey {
	return []connectors.MetadataKey{
		{Key: "headers", Type: types.NewMap(types.NewString(), types.NewVarBinary(types.MaxLength))},
		{Key: "timestamp", Type: types.NewTimestampLTZ(3)},
	}
}

// boundedFetchWait is how long the broker may hold a bounded read's fetch
// for new records.
const boundedFetchWait = 100 * time.Millisecond

// commitEvery is how often a source with a group id commits the offsets
// it has read.
const commitEvery = time.Second

type tp struct {
	topic     string
	partition int32
}

// reader reads a kafka or upsert-kafka table.
type reader struct {
	s      *spec
	cl     *kgo.Client
	adm    *kadm.Client
	ends   map[tp]int64 // bounded: the offset each partition stops before
	next   map[tp]int64 // the offset after the last record read
	left   int          // bounded: partitions not yet at their end
	scan   []*types.Type
	keyC   []connectors.Column
	valC   []connectors.Column
	keyR   connectors.MessageReader // nil without a key format
	valR   connectors.MessageReader
	commit time.Time // the last group commit
	// pending are records of the last poll not yet returned.
	pending []*kgo.Record
	// cursors are the partitions being read; last is the one of the last
	// record (records come in runs of one partition).
	cursors map[tp]*cursor
	last    *cursor
	// valA is valR when it appends straight into vectors (and the table is
	// no upsert-kafka one): the rows of a record then go into the batch
	// without an engine value per field. valVecs are the value columns'
	// vectors of the batch vecsOf.
	valA connectors.MessageAppender
	// valMeta are the value format's metadata keys the table reads (the
	// key without valueMetadataPrefix), valMetaAt the metadata column of
	// each and valMetaType the type the format gives it; valMetaCodec
	// decodes a value with them.
	valMeta      []string
	valMetaAt    []int
	valMetaType  []*types.Type
	valMetaCodec connectors.MetadataCodec
	valVecs      []*vector.Vec
	vecsOf       *vector.Batch
	// keyOnly are the key's fields (index in the key, column) that are no
	// value field: with 'value.fields-include' = 'ALL' the value's field
	// is the column's value.
	keyOnly [][2]int
	// discover is when an unbounded read next looks for new partitions
	// (zero: never).
	discover time.Time
	closed   bool
	// handedOver is set when a transactional Kafka sink of the same
	// statement commits the read offsets in its transactions (see
	// writer.txnOffsets): the reader then never commits them itself.
	handedOver atomic.Bool
	// mu guards next against the sink reading it at a commit.
	mu sync.Mutex
}

// cursor is the read position of one partition: next is the offset after
// the last record read; a bounded read stops before end.
type cursor struct {
	p       tp
	next    int64
	end     int64
	bounded bool
}

// sourceKey registers the readers with a group id in a statement's
// connectors.Pipeline; txnSinkKey the exactly-once writers.
type (
	sourceKey  struct{}
	txnSinkKey struct{}
)

// positions returns, by topic and partition, the offset after the last
// record the reader returned.
func (r *reader) positions() map[tp]int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make(map[tp]int64, len(r.next))
	for p, at := range r.next {
		out[p] = at
	}
	return out
}

// recordPool lends the client the slices it decodes a fetch's records
// into; the reader recycles each record once it has read it, and a slice
// whose records are all recycled comes back for the next fetch.
type recordPool struct{ p sync.Pool }

// GetRecords implements kgo.PoolRecords.
func (rp *recordPool) GetRecords(n int) []kgo.Record {
	if s, ok := rp.p.Get().(*[]kgo.Record); ok && cap(*s) >= n {
		return (*s)[:0]
	}
	return make([]kgo.Record, 0, n)
}

// PutRecords implements kgo.PoolRecords.
func (rp *recordPool) PutRecords(s []kgo.Record) { rp.p.Put(&s) }

func openReader(ctx context.Context, s *spec) (connectors.Reader, error) {
	// The fetched records come from a pool, not a new slice per fetch.
	opts := []kgo.Opt{kgo.KeepControlRecords(), kgo.WithPools(&recordPool{})}
	if s.bounded != modeUnbounded {
		// A bounded read knows where it ends: a fetch past the last
		// records must not hold the read (and its Close) for the broker's
		// default wait for new data.
		opts = append(opts, kgo.FetchMaxWait(boundedFetchWait))
	}
	if s.client.readCommitted {
		opts = append(opts, kgo.FetchIsolationLevel(kgo.ReadCommitted()))
	}
	cl, adm, err := s.client.newAdmin(opts...)
	if err != nil {
		return nil, err
	}
	r := &reader{s: s, cl: cl, adm: adm, next: map[tp]int64{}, cursors: map[tp]*cursor{}, scan: s.t.ScanTypes(), commit: time.Now()}
	r.keyC, r.valC = s.columns(s.keyIdx), s.columns(s.valueIdx)
	if s.key != nil {
		r.keyR = connectors.NewMessageReader(s.key, r.keyC)
	}
	r.valR = connectors.NewMessageReader(s.value, r.valC)
	if mc, ok := s.value.(connectors.MetadataCodec); ok {
		keys := mc.ReadableMetadata()
		for i, m := range s.t.Metadata {
			k, isValue := strings.CutPrefix(m.Key, valueMetadataPrefix)
			if !isValue {
				continue
			}
			var from *types.Type
			for _, rk := range keys {
				if rk.Key == k {
					from = rk.Type
				}
			}
			r.valMeta, r.valMetaAt, r.valMetaType, r.valMetaCodec = append(r.valMeta, k), append(r.valMetaAt, i), append(r.valMetaType, from), mc
		}
	}
	if a, ok := r.valR.(connectors.MessageAppender); ok && !s.upsert && r.valMeta == nil {
		r.valA = a
		for i, p := range s.keyIdx {
			if !slices.Contains(s.valueIdx, p) {
				r.keyOnly = append(r.keyOnly, [2]int{i, p})
			}
		}
	}
	if err := r.assign(ctx); err != nil {
		cl.Close()
		return nil, err
	}
	if s.bounded == modeUnbounded && s.discovery > 0 {
		r.discover = time.Now().Add(s.discovery)
	}
	if p := connectors.PipelineOf(ctx); p != nil && s.client.groupID != "" {
		p.Add(sourceKey{}, r)
		if len(p.Items(txnSinkKey{})) > 0 {
			r.handedOver.Store(true)
		}
	}
	return r, nil
}

// columns returns the physical columns at idx, named as the format sees
// them (the key prefix removed from key fields).
func (s *spec) columns(idx []int) []connectors.Column {
	out := make([]connectors.Column, len(idx))
	for i, p := range idx {
		c := s.t.Columns[p]
		if s.keyPrefix != "" && slices.Contains(s.keyIdx, p) {
			c.Name = strings.TrimPrefix(c.Name, s.keyPrefix)
		}
		out[i] = c
	}
	return out
}

// assign finds the table's partitions, their start and end offsets, and
// starts consuming them; it waits at most the request timeout.
func (r *reader) assign(ctx context.Context) error {
	s := r.s
	ctx, cancel := context.WithTimeout(ctx, s.client.requestTimeout)
	defer cancel()
	topics, err := r.topics(ctx)
	if err != nil {
		return err
	}
	starts, err := r.offsets(ctx, topics, s.startup, s.startupTS, s.startupOffsets, true)
	if err != nil {
		return err
	}
	if s.bounded != modeUnbounded {
		if r.ends, err = r.offsets(ctx, topics, s.bounded, s.boundedTS, s.boundedOffsets, false); err != nil {
			return err
		}
	}
	consume := map[string]map[int32]kgo.Offset{}
	for p, at := range starts {
		r.next[p] = at
		if r.ends != nil {
			if at >= r.ends[p] {
				continue
			}
			r.left++
		}
		if consume[p.topic] == nil {
			consume[p.topic] = map[int32]kgo.Offset{}
		}
		consume[p.topic][p.partition] = kgo.NewOffset().At(at)
	}
	if len(consume) > 0 {
		r.cl.AddConsumePartitions(consume)
	}
	return nil
}

// topics returns the table's topics: its 'topic' list, or the topics
// matching 'topic-pattern'.
func (r *reader) topics(ctx context.Context) ([]string, error) {
	s := r.s
	var details kadm.TopicDetails
	var err error
	if s.pattern != nil {
		details, err = r.adm.ListTopics(ctx)
	} else {
		details, err = r.adm.ListTopics(ctx, s.topics...)
	}
	if err != nil {
		return nil, s.client.clientError(err)
	}
	if s.pattern != nil {
		var out []string
		for name := range details {
			if s.pattern.MatchString(name) {
				out = append(out, name)
			}
		}
		sort.Strings(out)
		return out, nil
	}
	for _, t := range s.topics {
		d, ok := details[t]
		if !ok || d.Err != nil {
			cause := "unknown topic"
			if ok {
				cause = d.Err.Error()
			}
			if ok && errors.Is(d.Err, kerr.SaslAuthenticationFailed) {
				return nil, s.client.clientError(d.Err)
			}
			return nil, &connectors.Error{Exception: "RuntimeException", Msg: fmt.Sprintf(
				"Failed to get metadata for topics [%s]: %s", strings.Join(s.topics, ", "), cause)}
		}
	}
	return s.topics, nil
}

// offsets returns the offset of every partition of topics a startup mode
// (start true) or a bounded mode names.
func (r *reader) offsets(ctx context.Context, topics []string, mode string, ts int64, specific map[int32]int64, start bool) (map[tp]int64, error) {
	if len(topics) == 0 {
		return map[tp]int64{}, nil
	}
	s := r.s
	first, err := r.adm.ListStartOffsets(ctx, topics...)
	if err != nil {
		return nil, s.client.clientError(err)
	}
	last, err := r.latest(ctx, topics)
	if err != nil {
		return nil, err
	}
	out := map[tp]int64{}
	var listErr error
	first.Each(func(o kadm.ListedOffset) {
		if o.Err != nil {
			listErr = o.Err
			return
		}
		p := tp{o.Topic, o.Partition}
		end := last[p]
		switch mode {
		case modeEarliest:
			out[p] = o.Offset
		case modeLatest:
			out[p] = end
		case modeSpecific:
			if at, ok := specific[o.Partition]; ok {
				out[p] = at
			} else {
				out[p] = o.Offset
			}
		}
	})
	if listErr != nil {
		return nil, s.client.clientError(listErr)
	}
	switch mode {
	case modeTimestamp:
		after, err := r.adm.ListOffsetsAfterMilli(ctx, ts, topics...)
		if err != nil {
			return nil, s.client.clientError(err)
		}
		after.Each(func(o kadm.ListedOffset) {
			p := tp{o.Topic, o.Partition}
			if o.Err != nil || o.Offset < 0 {
				out[p] = last[p]
			} else {
				out[p] = o.Offset
			}
		})
	case modeGroup:
		if s.client.groupID == "" {
			return nil, &connectors.Error{Exception: "IllegalStateException",
				Msg: "Property group.id is required when using committed offset for offsets initializer"}
		}
		committed, err := r.adm.FetchOffsetsForTopics(ctx, s.client.groupID, topics...)
		if err != nil {
			return nil, s.client.clientError(err)
		}
		var unset []string
		first.Each(func(o kadm.ListedOffset) {
			p := tp{o.Topic, o.Partition}
			if c, ok := committed.Lookup(o.Topic, o.Partition); ok && c.Err == nil && c.At >= 0 {
				out[p] = c.At
				return
			}
			switch {
			case !start:
				out[p] = last[p]
			case s.client.resetEarliest == nil:
				unset = append(unset, fmt.Sprintf("%s-%d", o.Topic, o.Partition))
			case *s.client.resetEarliest:
				out[p] = o.Offset
			default:
				out[p] = last[p]
			}
		})
		if len(unset) > 0 {
			sort.Strings(unset)
			return nil, &connectors.Error{Exception: "NoOffsetForPartitionException",
				Msg: "Undefined offset with no reset policy for partitions: [" + strings.Join(unset, ", ") + "]"}
		}
	}
	return out, nil
}

// latest returns the end offset of every partition: the last stable
// offset when reading committed records only.
func (r *reader) latest(ctx context.Context, topics []string) (map[tp]int64, error) {
	var l kadm.ListedOffsets
	var err error
	if r.s.client.readCommitted {
		l, err = r.adm.ListCommittedOffsets(ctx, topics...)
	} else {
		l, err = r.adm.ListEndOffsets(ctx, topics...)
	}
	if err != nil {
		return nil, r.s.client.clientError(err)
	}
	out := map[tp]int64{}
	var listErr error
	l.Each(func(o kadm.ListedOffset) {
		if o.Err != nil {
			listErr = o.Err
		}
		out[tp{o.Topic, o.Partition}] = o.Offset
	})
	if listErr != nil {
		return nil, r.s.client.clientError(listErr)
	}
	return out, nil
}

// Next returns the rows of the next records: a batch of at most
// vector.BatchSize rows, nil when a bounded read has reached its end.
func (r *reader) Next(ctx context.Context) (*vector.Batch, error) {
	out := vector.NewBatch(r.scan, vector.BatchSize)
	for {
		for len(r.pending) > 0 && out.N < vector.BatchSize {
			rec := r.pending[0]
			r.pending = r.pending[1:]
			err := r.add(out, rec)
			rec.Recycle() // nothing of the record is used after add but its key's, value's and headers' bytes, which are not pooled
			if err != nil {
				return nil, err
			}
		}
		if out.N > 0 {
			r.publish()
			r.maybeCommit(ctx, false)
			return out, nil
		}
		if r.ends != nil && r.left == 0 {
			r.publish()
			r.maybeCommit(ctx, true)
			return nil, nil
		}
		if !r.discover.IsZero() && !time.Now().Before(r.discover) {
			if err := r.discoverPartitions(ctx); err != nil {
				return nil, err
			}
		}
		fs := r.poll(ctx)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var ferr error
		fs.EachError(func(topic string, p int32, err error) {
			if ferr == nil && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
				ferr = r.s.client.clientError(err)
			}
		})
		if ferr != nil {
			return nil, ferr
		}
		r.pending = fs.Records()
	}
}

// poll waits for records, until the next partition discovery at the
// latest.
func (r *reader) poll(ctx context.Context) kgo.Fetches {
	if r.discover.IsZero() {
		return r.cl.PollRecords(ctx, vector.BatchSize)
	}
	pctx, cancel := context.WithDeadline(ctx, r.discover)
	defer cancel()
	return r.cl.PollRecords(pctx, vector.BatchSize)
}

// discoverPartitions starts reading the partitions (and, with
// 'topic-pattern', the topics) that appeared since the read began, from
// their earliest offsets, as Flink's partition discovery does.
func (r *reader) discoverPartitions(ctx context.Context) error {
	s := r.s
	r.discover = time.Now().Add(s.discovery)
	ctx, cancel := context.WithTimeout(ctx, s.client.requestTimeout)
	defer cancel()
	topics, err := r.topics(ctx)
	if err != nil {
		return err
	}
	first, err := r.adm.ListStartOffsets(ctx, topics...)
	if err != nil {
		return s.client.clientError(err)
	}
	consume := map[string]map[int32]kgo.Offset{}
	first.Each(func(o kadm.ListedOffset) {
		p := tp{o.Topic, o.Partition}
		if _, known := r.next[p]; known || o.Err != nil {
			return
		}
		r.mu.Lock()
		r.next[p] = o.Offset
		r.mu.Unlock()
		if consume[p.topic] == nil {
			consume[p.topic] = map[int32]kgo.Offset{}
		}
		consume[p.topic][p.partition] = kgo.NewOffset().At(o.Offset)
	})
	if len(consume) > 0 {
		r.cl.AddConsumePartitions(consume)
	}
	return nil
}

// publish makes the read positions of the cursors those the sink and
// the group commits see: the positions after the records returned.
func (r *reader) publish() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for p, c := range r.cursors {
		r.next[p] = c.next
	}
}

// cursor returns the cursor of rec's partition.
func (r *reader) cursor(rec *kgo.Record) *cursor {
	if c := r.last; c != nil && c.p.partition == rec.Partition && c.p.topic == rec.Topic {
		return c
	}
	p := tp{rec.Topic, rec.Partition}
	c := r.cursors[p]
	if c == nil {
		r.mu.Lock()
		c = &cursor{p: p, next: r.next[p]}
		r.mu.Unlock()
		if r.ends != nil {
			c.end, c.bounded = r.ends[p], true
		}
		r.cursors[p] = c
	}
	r.last = c
	return c
}

// add appends the rows of one record to out and advances its partition.
func (r *reader) add(out *vector.Batch, rec *kgo.Record) error {
	c := r.cursor(rec)
	if c.bounded && c.next >= c.end {
		return nil // a record past the end fetched with the last ones
	}
	c.next = rec.Offset + 1
	if c.bounded && c.next >= c.end {
		// Done: stop fetching the partition.
		r.left--
		r.cl.PauseFetchPartitions(map[string][]int32{c.p.topic: {c.p.partition}})
	}
	if rec.Attrs.IsControl() || (c.bounded && rec.Offset >= c.end) {
		return nil
	}
	var err error
	if r.valA != nil {
		err = r.append(out, rec)
	} else {
		err = r.appendRows(out, rec)
	}
	if de, ok := err.(*decodeError); ok {
		if r.s.ignoreParseErrs {
			return nil
		}
		return de.err
	}
	return err
}

// decodeError is a record the formats cannot decode.
type decodeError struct{ err error }

func (e *decodeError) Error() string { return e.err.Error() }
func (e *decodeError) Unwrap() error { return e.err }

// appendRows appends the rows of a record as engine values.
func (r *reader) appendRows(out *vector.Batch, rec *kgo.Record) error {
	rows, kinds, vmeta, err := r.decode(rec)
	if err != nil {
		return &decodeError{err}
	}
	var meta []any
	if len(r.s.t.Metadata) > 0 {
		if meta, err = r.metadata(rec); err != nil {
			return err
		}
	}
	for i, row := range rows {
		row = append(row, meta...)
		if vmeta != nil {
			if err := r.fillValueMetadata(row[len(r.s.t.Columns):], vmeta[i], rec); err != nil {
				return err
			}
		}
		out.AppendRow(kinds[i], row)
	}
	return nil
}

// fillValueMetadata puts the value format's metadata of one row (vals, in
// the order of r.valMeta) into its metadata columns (meta), cast to the
// columns' types.
func (r *reader) fillValueMetadata(meta, vals []any, rec *kgo.Record) error {
	for j, at := range r.valMetaAt {
		m := r.s.t.Metadata[at]
		meta[at] = nil
		if j >= len(vals) || vals[j] == nil {
			continue
		}
		x, err := types.CastValue(vals[j], r.valMetaType[j], m.Type)
		if err != nil {
			return &connectors.Error{Exception: "IOException", Msg: fmt.Sprintf(
				"Failed to read metadata '%s' of topic %s partition %d offset %d as column '%s': %v",
				m.Key, rec.Topic, rec.Partition, rec.Offset, m.Name, err)}
		}
		meta[at] = x
	}
	return nil
}

// append appends the rows of a record straight into out's vectors: the
// value's by valA, the key's and the metadata's once per row.
func (r *reader) append(out *vector.Batch, rec *kgo.Record) error {
	s := r.s
	if rec.Value == nil {
		return nil // a tombstone: no row
	}
	key, err := r.decodeKey(rec)
	if err != nil {
		return &decodeError{err}
	}
	var meta []any
	if len(s.t.Metadata) > 0 {
		if meta, err = r.metadata(rec); err != nil {
			return err
		}
	}
	if r.vecsOf != out {
		r.vecsOf = out
		r.valVecs = r.valVecs[:0]
		for _, p := range s.valueIdx {
			r.valVecs = append(r.valVecs, out.Cols[p])
		}
	}
	n, err := r.valA.Append(rec.Value, r.valVecs)
	if err != nil {
		return &decodeError{r.decodeError(rec, err)}
	}
	for range n {
		for _, k := range r.keyOnly {
			out.Cols[k[1]].Append(key[k[0]])
		}
		for i, m := range meta {
			out.Cols[len(s.t.Columns)+i].Append(m)
		}
		if out.Kinds != nil {
			out.Kinds = append(out.Kinds, types.Insert)
		}
	}
	out.N += n
	return nil
}

// decodeKey returns the key's fields of a record (NULLs without a key),
// nil without a key format.
func (r *reader) decodeKey(rec *kgo.Record) ([]any, error) {
	s := r.s
	if s.key == nil {
		return nil, nil
	}
	if rec.Key == nil {
		return make([]any, len(s.keyIdx)), nil
	}
	rows, _, err := r.keyR.Decode(rec.Key)
	if err != nil {
		return nil, r.decodeError(rec, err)
	}
	if len(rows) == 0 {
		return make([]any, len(s.keyIdx)), nil
	}
	// The reader's rows are valid until its next call.
	return append([]any(nil), rows[0]...), nil
}

// decode returns the physical rows of a record: the key's fields and the
// value's, with their row kinds (for upsert-kafka: the upsert stream by
// key, +U for a value and -D for a tombstone).
func (r *reader) decode(rec *kgo.Record) (rows [][]any, kinds []types.RowKind, vmeta [][]any, err error) {
	s := r.s
	width := len(s.t.Columns)
	key, err := r.decodeKey(rec)
	if err != nil {
		return nil, nil, nil, err
	}
	if rec.Value == nil {
		if !s.upsert {
			return nil, nil, nil, nil // a tombstone: no row
		}
		// upsert-kafka: the deletion of the key's row; the planner's
		// ChangelogNormalize gives it the row it deletes.
		row := make([]any, width)
		for i, p := range s.keyIdx {
			row[p] = key[i]
		}
		var vm [][]any
		if r.valMeta != nil {
			vm = [][]any{nil}
		}
		return [][]any{row}, []types.RowKind{types.Delete}, vm, nil
	}
	var vals [][]any
	if r.valMeta != nil {
		vals, kinds, vmeta, err = r.decodeValueWithMetadata(rec.Value)
	} else {
		vals, kinds, err = r.valR.Decode(rec.Value)
	}
	if err != nil {
		return nil, nil, nil, r.decodeError(rec, err)
	}
	rows = make([][]any, 0, len(vals))
	for _, v := range vals {
		row := make([]any, width)
		for i, p := range s.keyIdx {
			row[p] = key[i]
		}
		for i, p := range s.valueIdx {
			row[p] = v[i]
		}
		rows = append(rows, row)
	}
	if s.upsert {
		// The latest value of the key (Flink's upsert source emits
		// UPDATE_AFTER); ChangelogNormalize turns the stream into a full
		// changelog.
		kinds = make([]types.RowKind, len(rows))
		for i := range kinds {
			kinds[i] = types.UpdateAfter
		}
	}
	return rows, kinds, vmeta, nil
}

// decodeValueWithMetadata decodes a record's value with the value
// format's metadata the table reads: the rows' fields, their kinds, and
// each row's metadata values in the order of r.valMeta.
func (r *reader) decodeValueWithMetadata(msg []byte) (vals [][]any, kinds []types.RowKind, meta [][]any, err error) {
	if len(bytes.TrimSpace(msg)) == 0 {
		return nil, nil, nil, nil
	}
	d := r.valMetaCodec.MetadataDecoder(bytes.NewReader(msg), "message", r.valC, r.valMeta)
	n := len(r.valC)
	for {
		row := make([]any, n+len(r.valMeta))
		kind, ok, err := d.Next(row)
		if err != nil {
			return nil, nil, nil, err
		}
		if !ok {
			return vals, kinds, meta, nil
		}
		vals, kinds, meta = append(vals, row[:n:n]), append(kinds, kind), append(meta, row[n:])
	}
}

// decodeError is Flink's failure for a record its format cannot decode.
func (r *reader) decodeError(rec *kgo.Record, err error) error {
	return &connectors.Error{Exception: "IOException", Msg: fmt.Sprintf(
		"Failed to deserialize consumer record ConsumerRecord(topic = %s, partition = %d, leaderEpoch = %d, offset = %d, %s = %d, serialized key size = %d, serialized value size = %d): %v",
		rec.Topic, rec.Partition, rec.LeaderEpoch, rec.Offset, timestampType(rec), rec.Timestamp.UnixMilli(),
		size(rec.Key), size(rec.Value), err)}
}

func size(b []byte) int {
	if b == nil {
		return -1
	}
	return len(b)
}

func timestampType(rec *kgo.Record) string {
	if rec.Attrs.TimestampType() == 1 {
		return "LogAppendTime"
	}
	return "CreateTime"
}

// metadata returns the values of the table's metadata columns for rec.
func (r *reader) metadata(rec *kgo.Record) ([]any, error) {
	keys := readableMetadata()
	out := make([]any, len(r.s.t.Metadata))
	for i, m := range r.s.t.Metadata {
		var v any
		var from *types.Type
		for _, k := range keys {
			if k.Key == m.Key {
				from = k.Type
			}
		}
		switch m.Key {
		case "topic":
			v = rec.Topic
		case "partition":
			v = rec.Partition
		case "headers":
			h := make(map[any]any, len(rec.Headers))
			for _, x := range rec.Headers {
				h[x.Key] = x.Value
			}
			v = h
		case "leader-epoch":
			if rec.LeaderEpoch >= 0 {
				v = rec.LeaderEpoch
			}
		case "offset":
			v = rec.Offset
		case "timestamp":
			v = time.UnixMilli(rec.Timestamp.UnixMilli()).UTC()
		case "timestamp-type":
			v = timestampType(rec)
		}
		if v == nil {
			continue
		}
		x, err := types.CastValue(v, from, m.Type)
		if err != nil {
			return nil, &connectors.Error{Exception: "IOException", Msg: fmt.Sprintf(
				"Failed to read metadata '%s' of topic %s partition %d offset %d as column '%s': %v",
				m.Key, rec.Topic, rec.Partition, rec.Offset, m.Name, err)}
		}
		out[i] = x
	}
	return out, nil
}

// maybeCommit commits the offsets read to the group, at most once every
// commitEvery unless force.
func (r *reader) maybeCommit(ctx context.Context, force bool) {
	if r.s.client.groupID == "" || r.handedOver.Load() || (!force && time.Since(r.commit) < commitEvery) {
		return
	}
	r.commit = time.Now()
	var os kadm.Offsets
	for p, at := range r.next {
		os.AddOffset(p.topic, p.partition, at, -1)
	}
	if len(os) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), r.s.client.requestTimeout)
	defer cancel()
	// A failed commit is not a failed read, as in Flink: the offsets are
	// committed again at the next commit.
	_, _ = r.adm.CommitOffsets(ctx, r.s.client.groupID, os)
}

// Close commits the offsets read (with a group id) and closes the client.
func (r *reader) Close() error {
	if r.closed {
		return nil
	}
	r.closed = true
	r.maybeCommit(context.Background(), true)
	r.cl.Close()
	return nil
}
