package exec

import (
	"context"
	"time"

	"eddy/engine/plan"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// Mini-batching (table.exec.mini-batch.*) of the streaming group
// aggregation and of the processing-time deduplication: the input is cut
// into bundles and each key's changes are folded per bundle, as Flink's
// MiniBatchGroupAggFunction, MiniBatchLocalGroupAggFunction +
// MiniBatchGlobalGroupAggFunction and the ProcTimeMiniBatchDeduplicate
// functions do at parallelism 1.
//
// A bundle ends when it holds Size records (Flink's CountBundleTrigger),
// at the end of the input, or when a record arrives Latency or more after
// the bundle's first one. Flink also ends bundles on a processing-time
// timer aligned to multiples of the latency, which no record waits for;
// eddy has no timer, so a quiet unbounded input keeps its open bundle
// until the next record.
//
// Two-phase (local-global) aggregation, which Flink's planner picks when
// the aggregate phase strategy is not ONE_PHASE and every aggregate can
// merge partial results: the local phase counts Size input records per
// bundle and then sends one partial result per key of the bundle; the
// global phase counts Size partial results per bundle. The partial
// results of a local bundle go out in the order their keys first appear
// in it (Flink's follow its hash map's order, so a global bundle that ends
// inside a local bundle's output may take other keys than eddy's).

// MiniBatch is what the session read from table.exec.mini-batch.* and
// table.optimizer.agg-phase-strategy.
type MiniBatch struct {
	// Enabled is set when mini-batching is on and the statement has a
	// stateful operator (even when Size is not valid).
	Enabled bool
	// Size is the number of records of a bundle; 0 turns mini-batching off.
	Size int
	// Latency ends a bundle whose first record is at least this old when
	// the next record arrives.
	Latency time.Duration
	// TwoPhase allows the local-global split of group aggregations.
	TwoPhase bool
}

// aggBundle is the open bundle of a mini-batched streaming aggregation.
type aggBundle struct {
	size     int
	latency  time.Duration
	twoPhase bool
	// n counts the records of the open (global) bundle; dirty lists its
	// groups in the order they were first touched.
	n     int
	dirty []*group
	inB   map[*group]bool
	// started is when the open bundle took its first record (the local
	// one's, in two phases).
	started time.Time
	// local holds the input rows of the open local bundle (two phases).
	local *vector.Batch
	ended bool
	// localMap and globalMap order the keys of a bundle (bundlehash.go).
	localMap, globalMap bundleMap
	keyTypes            []*types.Type
}

func newAggBundle(mb MiniBatch, twoPhase bool, keys []plan.Expr) *aggBundle {
	b := &aggBundle{size: mb.Size, latency: mb.Latency, twoPhase: twoPhase, inB: map[*group]bool{}}
	for _, k := range keys {
		b.keyTypes = append(b.keyTypes, k.Type())
	}
	return b
}

// touch records a group the current record changed (nil: a record that
// changed none) and reports whether the (one-phase) bundle is full.
func (b *aggBundle) touch(g *group) bool {
	if b.started.IsZero() && !b.twoPhase {
		b.started = time.Now()
	}
	if g != nil && !b.inB[g] {
		b.inB[g] = true
		b.dirty = append(b.dirty, g)
	}
	if b.twoPhase {
		return false
	}
	b.n++
	return b.n >= b.size
}

// late reports whether the open bundle has waited its latency.
func (b *aggBundle) late() bool {
	return !b.started.IsZero() && b.latency > 0 && time.Since(b.started) >= b.latency
}

// mergeable reports whether every aggregate of n can merge partial
// results, which the local-global split needs (Flink's
// doAllSupportPartialMerge over its built-in functions: Flink 2.2 plans
// FIRST_VALUE, LAST_VALUE and JSON_ARRAYAGG in one phase, LISTAGG,
// ARRAY_AGG, COLLECT, JSON_OBJECTAGG and the arithmetic ones in two).
func mergeable(n *plan.Aggregate) bool {
	for _, a := range n.Aggs {
		switch a.Name {
		case "FIRST_VALUE", "LAST_VALUE", "JSON_ARRAYAGG":
			return false
		}
	}
	return true
}

// flushBundle ends the open (global) bundle: every group it changed emits
// its new result against the one it emitted last.
func (o *aggOp) flushBundle(changes *vector.Batch) {
	b := o.mb
	hashes := make([]uint32, len(b.dirty))
	ok := len(o.sets) == 1
	for i, g := range b.dirty {
		var hok bool
		hashes[i], hok = keyHash(g.keys, b.keyTypes)
		ok = ok && hok
	}
	for _, i := range b.globalMap.order(hashes, ok) {
		g := b.dirty[i]
		delete(b.inB, g)
		o.emit(changes, g)
	}
	b.dirty = b.dirty[:0]
	b.n = 0
	if !b.twoPhase {
		b.started = time.Time{}
	}
}

// consumeBundled takes one input batch under mini-batching.
func (o *aggOp) consumeBundled(ctx context.Context, bt *vector.Batch) (*vector.Batch, error) {
	changes := vector.NewBatch(o.outTypes, 0)
	if o.mb.late() {
		if err := o.endBundles(ctx, changes); err != nil {
			return nil, err
		}
	}
	if !o.mb.twoPhase {
		more, err := o.consumeRows(ctx, bt)
		if err != nil {
			return nil, err
		}
		changes.AppendBatch(more)
		return changes, nil
	}
	b := o.mb
	for row := range bt.N {
		if b.local == nil {
			b.local = vector.NewBatch(o.inTypes, b.size)
			b.started = time.Now()
		}
		b.local.AppendFrom(bt, row, bt.Kind(row))
		if b.local.N >= b.size {
			if err := o.flushLocal(ctx, changes); err != nil {
				return nil, err
			}
		}
	}
	return changes, nil
}

// endBundles ends the open local and global bundles.
func (o *aggOp) endBundles(ctx context.Context, changes *vector.Batch) error {
	if o.mb.twoPhase {
		if err := o.flushLocal(ctx, changes); err != nil {
			return err
		}
	}
	o.flushBundle(changes)
	return nil
}

// flushLocal ends the open local bundle: its rows reach the global phase
// key by key, each key one partial result that counts towards the global
// bundle.
func (o *aggOp) flushLocal(ctx context.Context, changes *vector.Batch) error {
	b := o.mb
	local := b.local
	b.local = nil
	b.started = time.Time{}
	if local == nil || local.N == 0 {
		return nil
	}
	keyVecs, err := evalAll(ctx, o.groupEvs, local)
	if err != nil {
		return err
	}
	var order []string
	var hashes []uint32
	hashed := true
	rows := map[string][]int{}
	var buf []byte
	for row := range local.N {
		buf = buf[:0]
		for _, k := range o.sets[0] {
			buf = vector.AppendKey(buf, keyVecs[k], row)
		}
		key := string(buf)
		if _, ok := rows[key]; !ok {
			order = append(order, key)
			vals := make([]any, len(keyVecs))
			for k, v := range keyVecs {
				vals[k] = v.Get(row)
			}
			h, ok := keyHash(vals, b.keyTypes)
			hashes, hashed = append(hashes, h), hashed && ok
		}
		rows[key] = append(rows[key], row)
	}
	for _, i := range b.localMap.order(hashes, hashed) {
		key := order[i]
		if _, err := o.consumeRows(ctx, local.Gather(rows[key])); err != nil {
			return err
		}
		b.n++
		if b.n >= b.size {
			o.flushBundle(changes)
		}
	}
	return nil
}

// miniBatchError is an option error of mini-batching, with Flink's class.
type miniBatchError struct{ msg string }

func (e *miniBatchError) Error() string { return e.msg }

// Class returns Flink's exception class.
func (e *miniBatchError) Class() string { return "IllegalArgumentException" }

// dedupMiniBatch is Flink's check of the bundle size when it builds a
// mini-batched deduplication.
func (b *Builder) dedupMiniBatch() error {
	if b.opts.MiniBatch.Enabled && b.opts.MiniBatch.Size <= 0 {
		return &miniBatchError{"table.exec.mini-batch.size should be greater than 0."}
	}
	return nil
}
