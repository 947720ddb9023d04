package kafka

import (
	"context"
	"sort"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"eddy/engine/connectors"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// writer writes rows as records to the table's topic.
type writer struct {
	s     *spec
	cl    *kgo.Client
	topic string
	keyC  []connectors.Column
	valC  []connectors.Column
	tx    bool // exactly-once: the records are in a transaction
	inTx  bool
	// every is the checkpoint interval: a transaction open that long is
	// committed after the next batch (0: at Commit only); txStart is when
	// the open one began.
	every   time.Duration
	txStart time.Time
	mu      sync.Mutex
	err     error // the first failed delivery
	closed  bool
	// pipeline is the statement's (exactly-once): its Kafka sources with
	// a group id commit their offsets in this writer's transactions.
	pipeline *connectors.Pipeline
	// txRecords counts the records of the open transaction.
	txRecords int
	// row, key and val are the scratch rows a record is encoded from (the
	// formats keep nothing of them).
	row, key, val []any
}

func openWriter(ctx context.Context, s *spec, ws connectors.WriteSpec) (connectors.Writer, error) {
	opts := append(s.client.opts(),
		kgo.AllowAutoTopicCreation(),
		kgo.DefaultProduceTopic(s.topics[0]),
		kgo.ProducerBatchCompression(s.client.compression),
		kgo.ProducerLinger(s.client.linger),
	)
	switch s.partitioner {
	case "fixed":
		opts = append(opts, kgo.RecordPartitioner(kgo.ManualPartitioner()))
	case "round-robin":
		opts = append(opts, kgo.RecordPartitioner(kgo.RoundRobinPartitioner()))
	}
	w := &writer{s: s, topic: s.topics[0], keyC: s.columns(s.keyIdx), valC: s.columns(s.valueIdx), every: ws.CheckpointInterval}
	if s.delivery == deliveryExactlyOnce {
		w.tx = true
		opts = append(opts, kgo.TransactionalID(s.txPrefix+"-0"))
	}
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		return nil, &connectors.Error{Exception: "KafkaException", Msg: err.Error()}
	}
	w.cl = cl
	pctx, cancel := context.WithTimeout(ctx, s.client.requestTimeout)
	defer cancel()
	if err := cl.Ping(pctx); err != nil {
		cl.Close()
		return nil, s.client.clientError(err)
	}
	if p := connectors.PipelineOf(ctx); p != nil && w.tx {
		// The offsets of the statement's Kafka sources commit with this
		// writer's transactions, as Flink's exactly-once sink commits a
		// checkpoint's source offsets with it.
		w.pipeline = p
		p.Add(txnSinkKey{}, w)
		for _, x := range p.Items(sourceKey{}) {
			x.(*reader).handedOver.Store(true)
		}
	}
	return w, nil
}

// Write encodes the rows of b and hands them to the client, which sends
// them in the background.
func (w *writer) Write(ctx context.Context, b *vector.Batch) error {
	if err := w.failed(); err != nil {
		return err
	}
	if w.tx && !w.inTx {
		if err := w.cl.BeginTransaction(); err != nil {
			return w.s.client.clientError(err)
		}
		w.inTx, w.txStart = true, time.Now()
	}
	for i := 0; i < b.N; i++ {
		kind := b.Kind(i)
		if w.s.upsert && kind == types.UpdateBefore {
			continue // the update-after that follows replaces the key's value
		}
		w.row = w.row[:0]
		for _, v := range b.Cols {
			w.row = append(w.row, v.Get(i))
		}
		rec, err := w.record(kind, w.row)
		if err != nil {
			return err
		}
		w.cl.Produce(context.Background(), rec, w.delivered)
		w.txRecords++
	}
	if w.inTx && w.every > 0 && time.Since(w.txStart) >= w.every {
		return w.commitTx(ctx)
	}
	return nil
}

// commitTx waits until the transaction's records are delivered and
// commits it, as a checkpoint of Flink's exactly-once sink does.
func (w *writer) commitTx(ctx context.Context) error {
	if err := w.flush(ctx); err != nil {
		return w.s.client.clientError(err)
	}
	if err := w.failed(); err != nil {
		return err
	}
	if err := w.txnOffsets(ctx); err != nil {
		return err
	}
	w.inTx, w.txRecords = false, 0
	if err := w.cl.EndTransaction(ctx, kgo.TryCommit); err != nil {
		return w.s.client.clientError(err)
	}
	return nil
}

// txnOffsets adds the read offsets of the statement's Kafka sources with
// a group id to the open transaction (Kafka's AddOffsetsToTxn and
// TxnOffsetCommit): they commit, or abort, with its records. A
// transaction without records commits no offsets (the next one does).
func (w *writer) txnOffsets(ctx context.Context) error {
	if w.pipeline == nil || w.txRecords == 0 {
		return nil
	}
	for _, x := range w.pipeline.Items(sourceKey{}) {
		r := x.(*reader)
		group := r.s.client.groupID
		pos := r.positions()
		if len(pos) == 0 {
			continue
		}
		id, epoch, err := w.cl.ProducerID(ctx)
		if err != nil {
			return w.s.client.clientError(err)
		}
		add := kmsg.NewPtrAddOffsetsToTxnRequest()
		add.TransactionalID, add.ProducerID, add.ProducerEpoch, add.Group = w.s.txPrefix+"-0", id, epoch, group
		addResp, err := add.RequestWith(ctx, w.cl)
		if err == nil {
			err = kerr.ErrorForCode(addResp.ErrorCode)
		}
		if err != nil {
			return w.s.client.clientError(err)
		}
		commit := kmsg.NewPtrTxnOffsetCommitRequest()
		commit.TransactionalID, commit.Group, commit.ProducerID, commit.ProducerEpoch = w.s.txPrefix+"-0", group, id, epoch
		commit.Generation = -1
		byTopic := map[string]*kmsg.TxnOffsetCommitRequestTopic{}
		for p, at := range pos {
			t, ok := byTopic[p.topic]
			if !ok {
				nt := kmsg.NewTxnOffsetCommitRequestTopic()
				nt.Topic = p.topic
				t = &nt
				byTopic[p.topic] = t
			}
			part := kmsg.NewTxnOffsetCommitRequestTopicPartition()
			part.Partition, part.Offset, part.LeaderEpoch = p.partition, at, -1
			t.Partitions = append(t.Partitions, part)
		}
		for _, t := range byTopic {
			commit.Topics = append(commit.Topics, *t)
		}
		resp, err := commit.RequestWith(ctx, w.cl)
		if err != nil {
			return w.s.client.clientError(err)
		}
		for _, t := range resp.Topics {
			for _, p := range t.Partitions {
				if err := kerr.ErrorForCode(p.ErrorCode); err != nil {
					return w.s.client.clientError(err)
				}
			}
		}
	}
	return nil
}

// record encodes one row: its key fields as the key, its value fields as
// the value; a deleted row of upsert-kafka is a tombstone.
func (w *writer) record(kind types.RowKind, row []any) (*kgo.Record, error) {
	s := w.s
	rec := &kgo.Record{Topic: w.topic}
	if s.key != nil {
		w.key = w.key[:0]
		for _, p := range s.keyIdx {
			w.key = append(w.key, row[p])
		}
		b, err := connectors.EncodeBytes(s.key, types.Insert, w.key, w.keyC)
		if err != nil {
			return nil, w.encodeError(err)
		}
		rec.Key = trimNewline(b)
	}
	w.writeMetadata(rec, row[len(s.t.Columns):])
	if s.upsert && kind == types.Delete {
		return rec, nil
	}
	if s.upsert {
		kind = types.Insert
	}
	w.val = w.val[:0]
	for _, p := range s.valueIdx {
		w.val = append(w.val, row[p])
	}
	b, err := connectors.EncodeBytes(s.value, kind, w.val, w.valC)
	if err != nil {
		return nil, w.encodeError(err)
	}
	rec.Value = trimNewline(b)
	return rec, nil
}

// trimNewline drops the line end a line-oriented format ends a record
// with: a Kafka record is one message, not a line of a file.
func trimNewline(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	if b == nil {
		return []byte{}
	}
	return b
}

func (w *writer) encodeError(err error) error {
	if _, ok := err.(*connectors.Error); ok {
		return err
	}
	return &connectors.Error{Exception: "FlinkRuntimeException", Msg: "Could not serialize row: " + err.Error()}
}

// flush waits until every record handed to the client is delivered, at
// most 'properties.delivery.timeout.ms' (Kafka's default, two minutes).
// (The client's own delivery timeout counts from a record's timestamp,
// which a 'timestamp' metadata column may set in the past.)
func (w *writer) flush(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, w.s.client.deliveryTimeout)
	defer cancel()
	if err := w.cl.Flush(ctx); err != nil {
		return w.s.client.clientError(err)
	}
	return nil
}

// delivered records the first failed delivery.
func (w *writer) delivered(_ *kgo.Record, err error) {
	if err == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err == nil {
		w.err = w.s.client.clientError(err)
	}
}

func (w *writer) failed() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// Commit waits until every record is delivered and, exactly-once,
// commits the transaction; it closes the client.
func (w *writer) Commit(ctx context.Context) error {
	if w.closed {
		return nil
	}
	defer w.close()
	if err := w.flush(ctx); err != nil {
		return err
	}
	if err := w.failed(); err != nil {
		if w.inTx {
			_ = w.cl.EndTransaction(ctx, kgo.TryAbort)
		}
		return err
	}
	if w.inTx {
		if err := w.txnOffsets(ctx); err != nil {
			_ = w.cl.EndTransaction(ctx, kgo.TryAbort)
			return err
		}
		w.inTx, w.txRecords = false, 0
		if err := w.cl.EndTransaction(ctx, kgo.TryCommit); err != nil {
			return w.s.client.clientError(err)
		}
	}
	return nil
}

// Abort aborts the transaction (exactly-once) and closes the client;
// records already delivered without a transaction stay in the topic.
func (w *writer) Abort() error {
	if w.closed {
		return nil
	}
	defer w.close()
	if w.inTx {
		ctx, cancel := context.WithTimeout(context.Background(), w.s.client.requestTimeout)
		defer cancel()
		w.inTx = false
		if err := w.cl.AbortBufferedRecords(ctx); err != nil {
			return w.s.client.clientError(err)
		}
		if err := w.cl.EndTransaction(ctx, kgo.TryAbort); err != nil {
			return w.s.client.clientError(err)
		}
	}
	return nil
}

func (w *writer) close() {
	w.closed = true
	w.cl.Close()
}

// writeMetadata sets the record's headers and timestamp from the values of
// the table's persisted metadata columns (vals, in Table.Metadata order).
func (w *writer) writeMetadata(rec *kgo.Record, vals []any) {
	for i, m := range w.s.t.Metadata {
		if i >= len(vals) || vals[i] == nil {
			continue
		}
		switch m.Key {
		case "headers":
			h, _ := vals[i].(map[any]any)
			keys := make([]string, 0, len(h))
			for k := range h {
				if ks, ok := k.(string); ok {
					keys = append(keys, ks)
				}
			}
			sort.Strings(keys)
			for _, k := range keys {
				var v []byte
				switch x := h[k].(type) {
				case []byte:
					v = x
				case string:
					v = []byte(x)
				}
				rec.Headers = append(rec.Headers, kgo.RecordHeader{Key: k, Value: v})
			}
		case "timestamp":
			if ts, ok := vals[i].(time.Time); ok {
				rec.Timestamp = ts
			}
		}
	}
}
