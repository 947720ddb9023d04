package exec

import (
	"context"
	"errors"

	"eddy/engine/vector"
)

// A hash join whose build side outgrows the memory budget becomes a grace
// hash join: the build rows read so far, the rest of the build input and
// then the whole probe input are written to partition files by the hash
// of their equi-key, so that equal keys meet in the same partition; each
// partition pair is then joined in memory, one after the other. Every
// join kind stays correct partition by partition: a probe row's matches
// all live in its partition (outer, semi and anti joins decide per row),
// and a build row unmatched in its partition is unmatched everywhere
// (RIGHT and FULL joins emit it at the end of the partition). Rows with
// NULL keys hash like any other and simply match nothing. A build
// partition still over the budget is partitioned again on other bits of
// the hash, up to maxGraceDepth levels; past that (one key holding more
// rows than the budget) it is built in memory whatever its size.

// joinPartitions is the number of partition pairs a grace hash join (or
// one more level of it) writes; a power of two, so that each level takes
// its own bits of the key hash.
const (
	joinPartitions = 32
	partitionBits  = 5
	maxGraceDepth  = 3
)

// gracePair is one partition of both inputs, at a partitioning depth.
type gracePair struct {
	build, probe *spillPart
	depth        int
}

// graceJoin is the partitioned state of a grace hash join: the pairs left
// to join and the one being joined.
type graceJoin struct {
	queue []*gracePair
	cur   *gracePair
}

func newGracePairs(o *joinOp, depth int) ([]*gracePair, error) {
	pairs := make([]*gracePair, joinPartitions)
	for i := range pairs {
		b, err := newSpillPart(o.rightTypes)
		if err != nil {
			closePairs(pairs)
			return nil, err
		}
		p, err := newSpillPart(o.leftTypes)
		if err != nil {
			b.close()
			closePairs(pairs)
			return nil, err
		}
		pairs[i] = &gracePair{build: b, probe: p, depth: depth}
	}
	return pairs, nil
}

func closePairs(pairs []*gracePair) error {
	var err error
	for _, p := range pairs {
		if p != nil {
			err = errors.Join(err, p.build.close(), p.probe.close())
		}
	}
	return err
}

// startGrace switches the join to partitions: rows are the build rows
// read so far, pending the batch that crossed the budget.
func (o *joinOp) startGrace(ctx context.Context, rows, pending *vector.Batch) error {
	pairs, err := newGracePairs(o, 0)
	if err != nil {
		return err
	}
	o.grace = &graceJoin{queue: pairs}
	for _, bt := range []*vector.Batch{rows, pending} {
		if err := o.partition(ctx, pairs, true, o.rkeys, bt); err != nil {
			return err
		}
	}
	for _, in := range []struct {
		op    Operator
		build bool
		keys  []evaluator
	}{{o.right, true, o.rkeys}, {o.left, false, o.lkeys}} {
		for {
			if err := ctx.Err(); err != nil {
				return err
			}
			bt, err := in.op.Next(ctx)
			if err != nil {
				return err
			}
			if bt == nil {
				break
			}
			if err := o.partition(ctx, pairs, in.build, in.keys, bt); err != nil {
				return err
			}
		}
	}
	if err := finishPairs(pairs); err != nil {
		return err
	}
	_, err = o.nextPartition(ctx)
	return err
}

func finishPairs(pairs []*gracePair) error {
	for _, p := range pairs {
		if err := errors.Join(p.build.finish(), p.probe.finish()); err != nil {
			return err
		}
	}
	return nil
}

// partition appends the rows of bt to the build (or probe) files of the
// pairs their key hash selects at the pairs' depth.
func (o *joinOp) partition(ctx context.Context, pairs []*gracePair, build bool, keys []evaluator, bt *vector.Batch) error {
	if bt == nil || bt.N == 0 {
		return nil
	}
	kv, err := evalAll(ctx, keys, bt)
	if err != nil {
		return err
	}
	shift := uint(pairs[0].depth * partitionBits)
	var buf []byte
	for i := range bt.N {
		buf = buf[:0]
		for _, v := range kv {
			buf = vector.AppendKey(buf, v, i)
		}
		p := pairs[(hashBytes(buf)>>shift)%joinPartitions]
		part := p.probe
		if build {
			part = p.build
		}
		if err := part.write(bt, i); err != nil {
			return err
		}
	}
	return nil
}

// nextPartition closes the pair just joined and loads the build rows of
// the next one (partitioning it again while it is over the budget);
// false when none is left.
func (o *joinOp) nextPartition(ctx context.Context) (bool, error) {
	g := o.grace
	if g.cur != nil {
		err := closePairs([]*gracePair{g.cur})
		g.cur = nil
		if err != nil {
			return false, err
		}
	}
	for len(g.queue) > 0 {
		g.cur, g.queue = g.queue[0], g.queue[1:]
		rows := vector.NewBatch(o.rightTypes, vector.BatchSize)
		var held int64
		split := false
		for {
			if err := ctx.Err(); err != nil {
				return false, err
			}
			bt, err := g.cur.build.run.readBatch(vector.BatchSize)
			if err != nil {
				return false, err
			}
			if bt == nil {
				break
			}
			held += batchBytes(bt) + hashEntry*int64(bt.N)
			rows.AppendBatch(bt)
			if g.cur.depth+1 < maxGraceDepth && (o.budget > 0 && rows.N > o.budget || held > o.memBudget) {
				split = true
				break
			}
		}
		if !split {
			o.leftDone, o.pending, o.tail = false, nil, nil
			if err := o.buildTable(ctx, rows); err != nil {
				return false, err
			}
			o.partitionsJoined++
			return true, nil
		}
		if err := o.repartition(ctx, rows); err != nil {
			return false, err
		}
	}
	return false, nil
}

// repartition splits the current pair, of which rows are the build rows
// read so far, into pairs one level deeper, queued first.
func (o *joinOp) repartition(ctx context.Context, rows *vector.Batch) error {
	g := o.grace
	pairs, err := newGracePairs(o, g.cur.depth+1)
	if err != nil {
		return err
	}
	g.queue = append(pairs, g.queue...)
	if err := o.partition(ctx, pairs, true, o.rkeys, rows); err != nil {
		return err
	}
	for _, side := range []struct {
		run   *runFile
		build bool
		keys  []evaluator
	}{{g.cur.build.run, true, o.rkeys}, {g.cur.probe.run, false, o.lkeys}} {
		for {
			if err := ctx.Err(); err != nil {
				return err
			}
			bt, err := side.run.readBatch(vector.BatchSize)
			if err != nil {
				return err
			}
			if bt == nil {
				break
			}
			if err := o.partition(ctx, pairs, side.build, side.keys, bt); err != nil {
				return err
			}
		}
	}
	if err := finishPairs(pairs); err != nil {
		return err
	}
	err = closePairs([]*gracePair{g.cur})
	g.cur = nil
	o.partitionsSplit++
	return err
}

// nextLeft returns the next probe batch: from the left input, or from the
// current left partition of a grace join.
func (o *joinOp) nextLeft(ctx context.Context) (*vector.Batch, error) {
	if o.grace == nil {
		return o.left.Next(ctx)
	}
	return o.grace.cur.probe.run.readBatch(vector.BatchSize)
}

func (g *graceJoin) close() error {
	err := closePairs(g.queue)
	g.queue = nil
	if g.cur != nil {
		err = errors.Join(err, closePairs([]*gracePair{g.cur}))
		g.cur = nil
	}
	return err
}
