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
// NULL keys hash like any other and simply match nothing. A partition is
// built in memory whatever its size (no recursive partitioning).

// joinPartitions is the number of partition pairs of a grace hash join.
const joinPartitions = 32

// graceJoin is the partitioned state of a grace hash join.
type graceJoin struct {
	build, probe []*spillPart
	cur          int // the partition being joined
}

// startGrace switches the join to partitions: rows are the build rows
// read so far, pending the batch that crossed the budget.
func (o *joinOp) startGrace(ctx context.Context, rows, pending *vector.Batch) error {
	g := &graceJoin{build: make([]*spillPart, joinPartitions), probe: make([]*spillPart, joinPartitions)}
	o.grace = g
	for i := range joinPartitions {
		var err error
		if g.build[i], err = newSpillPart(o.rightTypes); err != nil {
			return err
		}
		if g.probe[i], err = newSpillPart(o.leftTypes); err != nil {
			return err
		}
	}
	if err := o.partition(ctx, g.build, o.rkeys, rows); err != nil {
		return err
	}
	if err := o.partition(ctx, g.build, o.rkeys, pending); err != nil {
		return err
	}
	for _, in := range []struct {
		op    Operator
		parts []*spillPart
		keys  []evaluator
	}{{o.right, g.build, o.rkeys}, {o.left, g.probe, o.lkeys}} {
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
			if err := o.partition(ctx, in.parts, in.keys, bt); err != nil {
				return err
			}
		}
	}
	for i := range joinPartitions {
		if err := errors.Join(g.build[i].finish(), g.probe[i].finish()); err != nil {
			return err
		}
	}
	g.cur = -1
	_, err := o.nextPartition(ctx)
	return err
}

// partition appends the rows of bt to the partitions of their key hash.
func (o *joinOp) partition(ctx context.Context, parts []*spillPart, keys []evaluator, bt *vector.Batch) error {
	if bt == nil || bt.N == 0 {
		return nil
	}
	kv, err := evalAll(ctx, keys, bt)
	if err != nil {
		return err
	}
	var buf []byte
	for i := range bt.N {
		buf = buf[:0]
		for _, v := range kv {
			buf = vector.AppendKey(buf, v, i)
		}
		if err := parts[hashBytes(buf)%joinPartitions].write(bt, i); err != nil {
			return err
		}
	}
	return nil
}

// nextPartition closes the partition just joined and loads the build rows
// of the next one; false when none is left.
func (o *joinOp) nextPartition(ctx context.Context) (bool, error) {
	g := o.grace
	if g.cur >= 0 {
		err := errors.Join(g.build[g.cur].close(), g.probe[g.cur].close())
		g.build[g.cur], g.probe[g.cur] = nil, nil
		if err != nil {
			return false, err
		}
	}
	g.cur++
	if g.cur >= joinPartitions {
		return false, nil
	}
	rows := vector.NewBatch(o.rightTypes, vector.BatchSize)
	for {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		bt, err := g.build[g.cur].run.readBatch(vector.BatchSize)
		if err != nil {
			return false, err
		}
		if bt == nil {
			break
		}
		rows.AppendBatch(bt)
	}
	o.leftDone, o.pending, o.tail = false, nil, nil
	if err := o.buildTable(ctx, rows); err != nil {
		return false, err
	}
	o.partitionsJoined++
	return true, nil
}

// nextLeft returns the next probe batch: from the left input, or from the
// current left partition of a grace join.
func (o *joinOp) nextLeft(ctx context.Context) (*vector.Batch, error) {
	if o.grace == nil {
		return o.left.Next(ctx)
	}
	return o.grace.probe[o.grace.cur].run.readBatch(vector.BatchSize)
}

func (g *graceJoin) close() error {
	var err error
	for i := range g.build {
		if g.build[i] != nil {
			err = errors.Join(err, g.build[i].close())
		}
		if g.probe[i] != nil {
			err = errors.Join(err, g.probe[i].close())
		}
	}
	return err
}
