package exec

import (
	"context"
	"sync"

	"eddy/engine/plan"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// join is a hash join: the right input is built into a hash table on its
// equi-key values, the left input probes it batch by batch. Without
// equi-keys every right row is a candidate (a nested loop, only for
// conditions with no equality). The residual condition is evaluated
// vectorized over the candidate pairs.
func (b *Builder) join(n *plan.Join) (Operator, error) {
	shared := b.shared[n]
	var left, right Operator
	var par *parallelProbe
	var err error
	if shared != nil {
		// A worker's step of a parallel pipeline: the table is shared.
		left, err = b.Build(n.Left)
	} else {
		left, par, err = b.buildLeft(n)
	}
	if err != nil {
		return nil, err
	}
	if shared == nil {
		if right, err = b.Build(n.Right); err != nil {
			left.Close()
			return nil, err
		}
	}
	o := &joinOp{n: n, left: left, right: right, par: par, shared: shared,
		leftTypes: n.Left.Schema().Types(), rightTypes: n.Right.Schema().Types(), outTypes: n.Schema().Types(),
		budget: b.opts.JoinBudget, memBudget: b.memoryBudget(), streaming: b.opts.Streaming,
		read: unreadable(b.joinUse.read(n), n.Schema().Types())}
	for _, k := range n.EquiKeys {
		l, err := b.compile(k.Left)
		if err != nil {
			o.Close()
			return nil, err
		}
		r, err := b.compile(k.Right)
		if err != nil {
			o.Close()
			return nil, err
		}
		o.lkeys = append(o.lkeys, l)
		o.rkeys = append(o.rkeys, r)
		o.nullSafe = append(o.nullSafe, k.NullSafe)
	}
	if n.Residual != nil {
		r, err := b.compile(n.Residual)
		if err != nil {
			o.Close()
			return nil, err
		}
		o.residual = r
	}
	return o, nil
}

type joinOp struct {
	n                               *plan.Join
	left, right                     Operator
	leftTypes, rightTypes, outTypes []*types.Type
	lkeys, rkeys                    []evaluator
	nullSafe                        []bool
	residual                        evaluator
	// A build side past budget rows (when positive) or memBudget bytes
	// makes a grace hash join: both inputs partitioned to disk by key
	// hash, then joined partition by partition (joinspill.go).
	budget    int
	memBudget int64
	grace     *graceJoin
	streaming bool
	// partitionsJoined counts the grace partitions joined (0: in memory),
	// partitionsSplit those partitioned again.
	partitionsJoined, partitionsSplit int

	built bool
	rows  *vector.Batch    // the right input
	table map[string][]int // key -> right rows
	// With one integer key: intHead maps a key to its first right row and
	// intNext chains the rows of equal keys, in input order.
	intHead     *intTable
	intNext     []int32
	intNullHead int32 // first right row with a NULL key (null-safe joins), or -1
	// With one integer key whose values span a small range, dense
	// replaces intHead: dense[key-denseMin] is the key's first right row.
	dense    []int32
	denseMin int64
	// unique is set when no two right rows share a dense key.
	unique bool
	// With one string key, strHead maps a key to its number among the
	// distinct keys strKeys, and strFirst[number] is its first right row.
	strHead      *strTable
	strKeys      []string
	strFirst     []int32
	matchedRight []bool
	tail         *sliceOp // unmatched right rows of RIGHT and FULL joins
	leftDone     bool
	// A nested-loop join (no equi-key) works through each left batch a
	// few rows at a time, so that no step builds more than maxPairs
	// candidate pairs.
	pending    *vector.Batch
	pendingPos int
	// liBuf and riBuf are the pair buffers reused by the probes.
	liBuf, riBuf []int
	// par, when the left input is a parallel pipeline, probes on its
	// workers (paralleljoin.go).
	par *parallelProbe
	// read, when not nil, is which output columns the plan above reads
	// (joinuse.go); the others are not gathered but cut from zeros, one
	// vector per column that grows as needed and is never written.
	read  []bool
	zeros []*vector.Vec
	// spares are output vectors the join gathered whose batch its
	// consumer released (vector.Batch.Release), to gather into again.
	spares *vecSpares
	// shared, in a worker of a parallel pipeline, is the table built once
	// for every worker (paralleljoin.go).
	shared *sharedBuild
}

const maxPairs = 1 << 16

func (o *joinOp) build(ctx context.Context) error {
	if s := o.shared; s != nil {
		if s.over {
			// Over the budget, the pipeline runs on one worker, which
			// partitions what the shared build read and the rest.
			o.right, s.right = s.right, nil
			rows, pending := s.t.rows, s.pending
			s.t.rows, s.pending = nil, nil
			return o.startGrace(ctx, rows, pending)
		}
		o.adopt(s.t)
		return nil
	}
	rows, pending, err := o.readBuild(ctx)
	if err != nil {
		return err
	}
	if pending != nil {
		return o.startGrace(ctx, rows, pending)
	}
	return o.buildTable(ctx, rows)
}

// readBuild reads the build input; pending is the batch that took it
// past the budget (nil when all of it fits).
func (o *joinOp) readBuild(ctx context.Context) (rows, pending *vector.Batch, err error) {
	// Only an equi-join of inputs with a run encoding can partition; the
	// others build in memory whatever their size.
	canSpill := !o.streaming && len(o.rkeys) > 0 && spillable(o.rightTypes) && spillable(o.leftTypes)
	// The batches are kept as they come and copied once (concatBatches).
	var held int64
	var batches []*vector.Batch
	n := 0
	for {
		if err := ctx.Err(); err != nil {
			releaseAll(batches)
			return nil, nil, err
		}
		bt, err := o.right.Next(ctx)
		if err != nil {
			releaseAll(batches)
			return nil, nil, err
		}
		if bt == nil {
			break
		}
		held += batchBytes(bt) + hashEntry*int64(bt.N)
		if canSpill && (o.budget > 0 && n+bt.N > o.budget || held > o.memBudget) {
			return concatBatches(o.rightTypes, batches, n), bt, nil
		}
		batches = append(batches, bt)
		n += bt.N
	}
	return concatBatches(o.rightTypes, batches, n), nil, nil
}

// buildTable makes the hash table of the build rows in memory.
func (o *joinOp) buildTable(ctx context.Context, rows *vector.Batch) error {
	o.rows = rows
	o.table, o.intHead, o.intNext, o.dense, o.strHead = nil, nil, nil, nil, nil
	o.matchedRight = make([]bool, rows.N)
	if len(o.rkeys) == 0 {
		o.built = true
		return nil
	}
	keys, err := evalAll(ctx, o.rkeys, rows)
	if err != nil {
		return err
	}
	if len(keys) == 1 && keys[0].Class == vector.Int && vector.ClassOf(o.n.EquiKeys[0].Left.Type()) == vector.Int {
		o.intNext = make([]int32, rows.N)
		o.intNullHead = -1
		k := keys[0]
		if o.buildDense(k, rows.N) {
			o.built = true
			return nil
		}
		o.intHead = newIntTableFor(rows.N)
		for i := rows.N - 1; i >= 0; i-- {
			if k.IsNull(i) {
				if o.nullSafe[0] {
					o.intNext[i], o.intNullHead = o.intNullHead, int32(i)
				}
				continue
			}
			o.intNext[i] = o.intHead.get(k.Ints[i])
			o.intHead.set(k.Ints[i], int32(i))
		}
		o.built = true
		return nil
	}
	if len(keys) == 1 && keys[0].Class == vector.String && vector.ClassOf(o.n.EquiKeys[0].Left.Type()) == vector.String {
		o.buildStrings(keys[0], rows.N)
		o.built = true
		return nil
	}
	o.table = make(map[string][]int, rows.N)
	var buf []byte
	for i := range rows.N {
		var ok bool
		buf, ok = encodeKey(buf[:0], keys, o.nullSafe, i)
		if !ok {
			continue
		}
		o.table[string(buf)] = append(o.table[string(buf)], i)
	}
	o.built = true
	return nil
}

func evalAll(ctx context.Context, evs []evaluator, bt *vector.Batch) ([]*vector.Vec, error) {
	out := make([]*vector.Vec, len(evs))
	for i, ev := range evs {
		v, err := ev(ctx, bt)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// encodeKey encodes row i of the key columns; ok is false when a key that
// is not null-safe is NULL (such a row matches nothing).
func encodeKey(buf []byte, keys []*vector.Vec, nullSafe []bool, i int) ([]byte, bool) {
	for k, v := range keys {
		if v.IsNull(i) && !nullSafe[k] {
			return buf, false
		}
		buf = vector.AppendKey(buf, v, i)
	}
	return buf, true
}

func (o *joinOp) Next(ctx context.Context) (*vector.Batch, error) {
	if !o.built {
		if err := o.build(ctx); err != nil {
			return nil, err
		}
		if o.par != nil && o.grace == nil {
			if err := o.par.enable(o); err != nil {
				return nil, err
			}
		}
	}
	for {
		out, err := o.pass(ctx)
		if out != nil || err != nil {
			return out, err
		}
		// One pass ends: with a grace join, the next partition follows.
		if o.grace == nil {
			return nil, nil
		}
		more, err := o.nextPartition(ctx)
		if err != nil || !more {
			return nil, err
		}
	}
}

// pass joins the left input (or the current left partition) with the
// build rows in memory; nil at its end.
func (o *joinOp) pass(ctx context.Context) (*vector.Batch, error) {
	for o.par != nil && o.par.on && !o.leftDone {
		out, err := o.par.next(ctx, o)
		if err != nil || out != nil {
			return out, err
		}
		o.leftDone = true
	}
	for !o.leftDone || o.pending != nil {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var bt *vector.Batch
		if o.pending != nil {
			bt = o.nextSlice()
		} else {
			next, err := o.nextLeft(ctx)
			if err != nil {
				return nil, err
			}
			if next == nil {
				o.leftDone = true
				break
			}
			bt = next
			if len(o.lkeys) == 0 && bt.N*o.rows.N > maxPairs {
				o.pending, o.pendingPos = bt, 0
				bt = o.nextSlice()
			}
		}
		out, err := o.probe(ctx, bt)
		if err != nil {
			return nil, err
		}
		if out != nil && out.N > 0 {
			return out, nil
		}
	}
	kind := o.n.Kind
	if kind != plan.RightJoin && kind != plan.FullJoin {
		return nil, nil
	}
	if o.tail == nil {
		var li, ri []int
		for r, m := range o.matchedRight {
			if !m {
				li = append(li, -1)
				ri = append(ri, r)
			}
		}
		o.tail = &sliceOp{b: o.assemble(nil, li, ri)}
	}
	return o.tail.Next(ctx)
}

// probe joins a left batch with the build rows. The output inherits the
// batch's Recycle when it holds the batch's vectors; otherwise the batch
// is released, the output holding copies of what it needs.
func (o *joinOp) probe(ctx context.Context, bt *vector.Batch) (*vector.Batch, error) {
	out, err := o.probeRows(ctx, bt)
	bt.Release()
	return out, err
}

func (o *joinOp) probeRows(ctx context.Context, bt *vector.Batch) (*vector.Batch, error) {
	var li, ri []int
	if len(o.lkeys) == 0 {
		for l := range bt.N {
			for r := range o.rows.N {
				li = append(li, l)
				ri = append(ri, r)
			}
		}
	} else if o.intNext != nil {
		keys, err := evalAll(ctx, o.lkeys, bt)
		if err != nil {
			return nil, err
		}
		k := keys[0]
		li, ri = o.liBuf[:0], o.riBuf[:0]
		defer func() { o.liBuf, o.riBuf = li[:0], ri[:0] }()
		if o.strHead == nil && !k.HasNulls() {
			li, ri = o.probeInts(k.Ints[:bt.N], li, ri)
		} else {
			for l := range bt.N {
				first := o.intNullHead
				switch {
				case !k.IsNull(l):
					first = o.chainFirst(k, l)
				case !o.nullSafe[0]:
					continue
				}
				for r := first; r >= 0; r = o.intNext[r] {
					li = append(li, l)
					ri = append(ri, int(r))
				}
			}
		}
	} else {
		keys, err := evalAll(ctx, o.lkeys, bt)
		if err != nil {
			return nil, err
		}
		var buf []byte
		for l := range bt.N {
			var ok bool
			buf, ok = encodeKey(buf[:0], keys, o.nullSafe, l)
			if !ok {
				continue
			}
			for _, r := range o.table[string(buf)] {
				li = append(li, l)
				ri = append(ri, r)
			}
		}
	}
	if o.residual != nil && len(li) > 0 {
		pairs := o.pairBatch(bt, li, ri)
		c, err := o.residual(ctx, pairs)
		if err != nil {
			return nil, err
		}
		k := 0
		for j := range li {
			if !c.IsNull(j) && c.Bools[j] {
				li[k], ri[k] = li[j], ri[j]
				k++
			}
		}
		li, ri = li[:k], ri[:k]
	}
	if o.n.Kind == plan.RightJoin || o.n.Kind == plan.FullJoin {
		for _, r := range ri {
			o.matchedRight[r] = true
		}
	}
	switch o.n.Kind {
	case plan.SemiJoin, plan.AntiJoin:
		matched := make([]bool, bt.N)
		for _, l := range li {
			matched[l] = true
		}
		want := o.n.Kind == plan.SemiJoin
		var sel []int
		for l, m := range matched {
			if m == want {
				sel = append(sel, l)
			}
		}
		return bt.Gather(sel), nil
	case plan.LeftJoin, plan.FullJoin:
		matched := make([]bool, bt.N)
		for _, l := range li {
			matched[l] = true
		}
		// Keep the left input's order: each left row's matches, or the row
		// padded with NULLs.
		var li2, ri2 []int
		j := 0
		for l := range bt.N {
			if !matched[l] {
				li2 = append(li2, l)
				ri2 = append(ri2, -1)
				continue
			}
			for j < len(li) && li[j] < l {
				j++
			}
			for j < len(li) && li[j] == l {
				li2 = append(li2, l)
				ri2 = append(ri2, ri[j])
				j++
			}
		}
		return o.assemble(bt, li2, ri2), nil
	}
	return o.assemble(bt, li, ri), nil
}

// nextSlice returns the next rows of the pending left batch, as many as
// keep the candidate pairs under maxPairs (at least one).
func (o *joinOp) nextSlice() *vector.Batch {
	n := max(1, maxPairs/max(o.rows.N, 1))
	end := min(o.pendingPos+n, o.pending.N)
	sel := make([]int, 0, end-o.pendingPos)
	for i := o.pendingPos; i < end; i++ {
		sel = append(sel, i)
	}
	bt := o.pending.Gather(sel)
	o.pendingPos = end
	if end >= o.pending.N {
		o.pending = nil
	}
	return bt
}

// pairBatch is the left columns then the right columns of candidate pairs.
func (o *joinOp) pairBatch(bt *vector.Batch, li, ri []int) *vector.Batch {
	out := &vector.Batch{N: len(li)}
	for _, v := range bt.Cols {
		out.Cols = append(out.Cols, v.Gather(li))
	}
	for _, v := range o.rows.Cols {
		out.Cols = append(out.Cols, v.Gather(ri))
	}
	return out
}

// assemble builds output rows from pairs; -1 on either side pads NULLs.
func (o *joinOp) assemble(bt *vector.Batch, li, ri []int) *vector.Batch {
	out := &vector.Batch{N: len(li), Cols: make([]*vector.Vec, 0, len(o.outTypes))}
	c := 0
	// Pairs that take every left row once, in order, take the left
	// columns as they are.
	whole := bt != nil && len(li) == bt.N && identity(li)
	passed := false
	var made []spareVec
	for i := range o.leftTypes {
		var src *vector.Vec
		if bt != nil {
			src = bt.Cols[i]
		}
		switch {
		case o.read != nil && !o.read[c]:
			out.Cols = append(out.Cols, o.unread(c, len(li)))
		case whole && src.Len == bt.N && src.T.Equal(o.outTypes[c]):
			out.Cols = append(out.Cols, src)
			passed = true
		default:
			out.Cols = append(out.Cols, gatherOrNull(src, o.outTypes[c], li))
		}
		c++
	}
	for i := range o.rightTypes {
		src := o.rows.Cols[i]
		switch {
		case o.read != nil && !o.read[c]:
			out.Cols = append(out.Cols, o.unread(c, len(ri)))
		case o.n.Kind == plan.InnerJoin && !src.HasNulls() && (src.Class == vector.Int || src.Class == vector.Float) &&
			src.T.Equal(o.outTypes[c]):
			// An inner join pairs every row: no position is -1, and a
			// column without NULLs gathers with no check at all.
			if o.spares == nil {
				o.spares = &vecSpares{}
			}
			v := src.GatherInto(o.spares.take(c), ri)
			out.Cols = append(out.Cols, v)
			made = append(made, spareVec{c, v})
		default:
			out.Cols = append(out.Cols, gatherOrNull(src, o.outTypes[c], ri))
		}
		c++
	}
	if passed {
		out.Inherit(bt)
	}
	if len(made) > 0 {
		sp, inherited := o.spares, out.Recycle
		out.Recycle = func() {
			sp.put(made)
			if inherited != nil {
				inherited()
			}
		}
	}
	return out
}

// vecSpares holds, per output column, vectors to be filled again. A
// batch may be released on another goroutine than the join's.
type vecSpares struct {
	mu   sync.Mutex
	cols [][]*vector.Vec
}

// spareVec is a vector made for output column col.
type spareVec struct {
	col int
	v   *vector.Vec
}

// maxSpares bounds the vectors kept per column.
const maxSpares = 64

// take returns a spare vector of column col, or nil.
func (s *vecSpares) take(col int) *vector.Vec {
	s.mu.Lock()
	defer s.mu.Unlock()
	if col >= len(s.cols) || len(s.cols[col]) == 0 {
		return nil
	}
	vs := s.cols[col]
	v := vs[len(vs)-1]
	s.cols[col] = vs[:len(vs)-1]
	return v
}

func (s *vecSpares) put(vs []spareVec) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, x := range vs {
		for len(s.cols) <= x.col {
			s.cols = append(s.cols, nil)
		}
		if len(s.cols[x.col]) < maxSpares {
			s.cols[x.col] = append(s.cols[x.col], x.v)
		}
	}
}

func (o *joinOp) Close() error {
	err := o.left.Close()
	if o.right != nil {
		if e := o.right.Close(); err == nil {
			err = e
		}
	}
	if o.grace != nil {
		if e := o.grace.close(); err == nil {
			err = e
		}
		o.grace = nil
	}
	return err
}

// buildDense builds the dense head array of one integer key column when
// its values span at most a few times as many slots as there are rows (a
// key lookup is then one array access, the array a fraction of a hash
// table's size); false leaves it to the hash table.
func (o *joinOp) buildDense(k *vector.Vec, n int) bool {
	lo, hi, seen := int64(0), int64(0), false
	for i := range n {
		if k.IsNull(i) {
			continue
		}
		x := k.Ints[i]
		if !seen {
			lo, hi, seen = x, x, true
			continue
		}
		lo, hi = min(lo, x), max(hi, x)
	}
	span := uint64(hi - lo)
	if !seen || hi-lo < 0 || span >= uint64(max(4*n, 1024)) {
		return false
	}
	o.dense, o.denseMin, o.unique = make([]int32, span+1), lo, true
	for i := range o.dense {
		o.dense[i] = -1
	}
	for i := n - 1; i >= 0; i-- {
		if k.IsNull(i) {
			if o.nullSafe[0] {
				o.intNext[i], o.intNullHead = o.intNullHead, int32(i)
			}
			continue
		}
		d := k.Ints[i] - lo
		o.intNext[i], o.dense[d] = o.dense[d], int32(i)
		o.unique = o.unique && o.intNext[i] < 0
	}
	return true
}

// intFirst is the first right row of an integer key, or -1.
func (o *joinOp) intFirst(x int64) int32 {
	if o.dense != nil {
		if d := uint64(x - o.denseMin); d < uint64(len(o.dense)) {
			return o.dense[d]
		}
		return -1
	}
	return o.intHead.get(x)
}

// buildStrings builds the table of one string key column: each distinct
// key gets a number, its first row and the rows after it chained through
// intNext, in input order.
func (o *joinOp) buildStrings(k *vector.Vec, n int) {
	o.intNext = make([]int32, n)
	o.intNullHead = -1
	o.strHead, o.strKeys, o.strFirst = newStrTable(), nil, nil
	var last []int32
	nullLast := int32(-1)
	for i := range n {
		o.intNext[i] = -1
		if k.IsNull(i) {
			if o.nullSafe[0] {
				if nullLast < 0 {
					o.intNullHead = int32(i)
				} else {
					o.intNext[nullLast] = int32(i)
				}
				nullLast = int32(i)
			}
			continue
		}
		s := k.Strs[i]
		h := o.strHead.hash(s)
		id := o.strHead.get(s, h, o.strKeys)
		if id < 0 {
			id = int32(len(o.strKeys))
			o.strKeys = append(o.strKeys, s)
			o.strFirst = append(o.strFirst, int32(i))
			last = append(last, int32(i))
			o.strHead.put(h, id)
			continue
		}
		o.intNext[last[id]] = int32(i)
		last[id] = int32(i)
	}
}

// chainFirst is the first right row of the non-NULL key at row l of the
// probe key column k, or -1.
func (o *joinOp) chainFirst(k *vector.Vec, l int) int32 {
	if o.strHead != nil {
		s := k.Strs[l]
		id := o.strHead.get(s, o.strHead.hash(s), o.strKeys)
		if id < 0 {
			return -1
		}
		return o.strFirst[id]
	}
	return o.intFirst(k.Ints[l])
}

// identity reports whether idx is 0, 1, 2, ...
func identity(idx []int) bool {
	for j, i := range idx {
		if i != j {
			return false
		}
	}
	return true
}

// probeInts appends the pairs of the probe keys x, none of them NULL,
// with the right rows of an integer key table: the probe loop of the
// commonest join, one array or hash table access per row and a walk of
// the key's chain.
func (o *joinOp) probeInts(x []int64, li, ri []int) ([]int, []int) {
	if cap(li) < len(x) {
		li, ri = make([]int, 0, len(x)), make([]int, 0, len(x))
	}
	next := o.intNext
	if d := o.dense; d != nil {
		lo := o.denseMin
		if o.unique {
			// One right row at most per key: no chain to walk.
			li, ri = li[:cap(li)], ri[:cap(ri)]
			k := 0
			for l, v := range x {
				u := uint64(v - lo)
				if u >= uint64(len(d)) || d[u] < 0 {
					continue
				}
				li[k], ri[k] = l, int(d[u])
				k++
			}
			return li[:k], ri[:k]
		}
		for l, v := range x {
			u := uint64(v - lo)
			if u >= uint64(len(d)) {
				continue
			}
			for r := d[u]; r >= 0; r = next[r] {
				li = append(li, l)
				ri = append(ri, int(r))
			}
		}
		return li, ri
	}
	h := o.intHead
	for l, v := range x {
		for r := h.get(v); r >= 0; r = next[r] {
			li = append(li, l)
			ri = append(ri, int(r))
		}
	}
	return li, ri
}

// unread returns n rows of output column c, which nothing reads: zero
// values (no NULLs), cut from a vector kept for the purpose, with no room
// to append in place.
func (o *joinOp) unread(c, n int) *vector.Vec {
	if o.zeros == nil {
		o.zeros = make([]*vector.Vec, len(o.outTypes))
	}
	z := o.zeros[c]
	if z == nil || z.Len < n {
		z = vector.Make(o.outTypes[c], max(n, vector.BatchSize))
		o.zeros[c] = z
	}
	return &vector.Vec{T: z.T, Class: z.Class, Len: n,
		Bools: cut(z.Bools, n), Ints: cut(z.Ints, n), Floats: cut(z.Floats, n), Decs: cut(z.Decs, n),
		Strs: cut(z.Strs, n), Bytes: cut(z.Bytes, n), Times: cut(z.Times, n), Anys: cut(z.Anys, n)}
}

// cut is s's first n values, or nil for a nil s.
func cut[T any](s []T, n int) []T {
	if s == nil {
		return nil
	}
	return s[:n:n]
}

// unreadable returns read with the columns whose zero value is not a
// value (a DECIMAL's nil, a nil of any other non-primitive kind) read
// after all: a sort or a spill may still copy or encode them. nil when
// every column is read.
func unreadable(read []bool, ts []*types.Type) []bool {
	if read == nil || len(read) != len(ts) {
		return nil
	}
	out := append([]bool(nil), read...)
	all := true
	for c, t := range ts {
		switch vector.ClassOf(t) {
		case vector.Bool, vector.Int, vector.Float, vector.String, vector.Bytes, vector.Time:
		default:
			out[c] = true
		}
		all = all && out[c]
	}
	if all {
		return nil
	}
	return out
}
