package exec

import (
	"context"
	"errors"

	"eddy/engine/functions"
	"eddy/engine/plan"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// aggregate is a hash aggregation over grouping sets. In batch mode it
// emits one row per group at the end of its input (groups in order of
// first appearance); in streaming mode it emits, per input row, +I for a
// new group and -U/+U when a group's result changes, as Flink's
// GroupAggFunction does without mini-batching. With mini-batching
// (Options.MiniBatch) the changes are folded per bundle (minibatch.go).
func (b *Builder) aggregate(n *plan.Aggregate) (Operator, error) {
	if w, ok := n.Input.(*plan.WindowTVF); ok && b.opts.Streaming {
		if op, ok, err := b.windowAggregate(n, w); ok || err != nil {
			return op, err
		}
	}
	if scan, _, ok := b.parallelPipeline(n.Input); ok {
		switch {
		case twoPhase(n):
			return b.parallelAggregate(n, scan)
		case partitionable(n) && b.opts.Parallelism >= minPartitioned && b.opts.Parallelism <= 256:
			return b.partitionedAggregate(n, scan)
		}
	}
	in, err := b.Build(n.Input)
	if err != nil {
		return nil, err
	}
	return b.newAggOp(n, in, b.opts.Streaming)
}

// newAggOp returns the aggregation of n over in; streaming selects the
// changelog output.
func (b *Builder) newAggOp(n *plan.Aggregate, in Operator, streaming bool) (*aggOp, error) {
	var err error
	o := &aggOp{n: n, in: in, streaming: streaming, outTypes: n.Schema().Types(),
		inTypes: n.Input.Schema().Types(), budget: b.opts.AggBudget, memBudget: b.memoryBudget()}
	if o.groupEvs, err = b.compileAll(n.Group); err != nil {
		in.Close()
		return nil, err
	}
	o.sets = n.GroupingSets
	if o.sets == nil {
		all := make([]int, len(n.Group))
		for i := range all {
			all[i] = i
		}
		o.sets = [][]int{all}
	}
	for _, a := range n.Aggs {
		spec := aggSpec{call: a}
		if spec.args, err = b.compileAll(a.Args); err != nil {
			in.Close()
			return nil, err
		}
		if a.Filter != nil {
			if spec.filter, err = b.compile(a.Filter); err != nil {
				in.Close()
				return nil, err
			}
		}
		switch a.Name {
		case "GROUP_ID":
			spec.grouping, spec.groupID = true, true
		case "GROUPING", "GROUPING_ID":
			spec.grouping = true
			for _, x := range a.Args {
				pos := -1
				for gi, g := range n.Group {
					if g.String() == x.String() {
						pos = gi
					}
				}
				if pos < 0 {
					in.Close()
					return nil, &UnsupportedError{What: a.Name + " of an expression that is not grouped: " + x.String()}
				}
				spec.groupPos = append(spec.groupPos, pos)
			}
		default:
			argTypes := make([]*types.Type, len(a.Args))
			for i, x := range a.Args {
				argTypes[i] = x.Type()
			}
			if spec.newAcc, err = functions.AggregateKernel(a.Name, argTypes, a.T); err != nil {
				in.Close()
				return nil, err
			}
			spec.newAcc = retractable(spec.newAcc, argTypes, streaming && n.InputUpdates)
			if mk, ok := functions.GroupAggregateKernel(a.Name, argTypes, a.T); ok && !a.Distinct && !streaming {
				spec.newGacc = mk
			}
		}
		o.specs = append(o.specs, spec)
	}
	// A group costs its struct, its key slots and hash entry, and per
	// aggregate an accumulator (or a slot of a flat group accumulator).
	o.groupBytes = 128 + 24*int64(len(n.Group)) + hashEntry
	for _, s := range o.specs {
		switch {
		case s.newGacc != nil:
			o.groupBytes += 16
		case s.newAcc != nil:
			o.groupBytes += 96
		}
		if s.call.Distinct {
			o.groupBytes += 96
		}
	}
	o.flat = o.flatEligible()
	o.st = o.newState()
	if streaming && b.opts.MiniBatch.Size > 0 {
		o.mb = newAggBundle(b.opts.MiniBatch, len(o.sets) == 1 && b.opts.MiniBatch.TwoPhase && mergeable(n), n.Group)
	}
	return o, nil
}

// Rows of groups beyond the memory budget are spilled to partition files
// on disk and aggregated partition by partition after the input ends.

// spillPartitions is how many partition files an overflowing aggregation
// (or partition) writes, each level on its own 4 bits of the key hash;
// a partition over the budget spills again up to maxAggDepth levels.
const (
	spillPartitions = 16
	spillBits       = 4
	maxAggDepth     = 4
)

// aggPart is a spill partition waiting to be aggregated, and the level
// its rows will spill at if its groups outgrow the budget.
type aggPart struct {
	p     *spillPart
	depth int
}

// aggState is the hash table of one aggregation pass: the groups in order
// of first appearance and the flat group accumulators.
type aggState struct {
	groups    map[string]*group
	intGroups *intTable // one integer group key and one grouping set: key -> position in order
	nullGroup *group    // its NULL key's group
	order     []*group
	gaccs     []functions.GroupAccumulator // per spec; nil for the others
	bytes     int64                        // estimated bytes of the groups
	n         int                          // number of groups
	flat      *flatState                   // the group table of a flat aggregation (aggflat.go)
	// firsts is, with aggOp.firsts set, each group's first ordinal (the
	// input's last column at the row that made the group), by id.
	firsts []int64
}

func (o *aggOp) newState() *aggState {
	st := &aggState{groups: map[string]*group{}, gaccs: make([]functions.GroupAccumulator, len(o.specs))}
	for i, s := range o.specs {
		if s.newGacc != nil {
			st.gaccs[i] = s.newGacc()
		}
	}
	if o.flat {
		st.flat = o.newFlatState()
	}
	return st
}

type aggSpec struct {
	call     plan.AggCall
	args     []evaluator
	filter   evaluator
	newAcc   func() functions.Accumulator
	grouping bool
	groupPos []int // GROUPING / GROUPING_ID: the Group position of each argument
	groupID  bool  // GROUP_ID(): which repetition of an equal grouping set
	// newGacc makes the flat state of every group (batch mode, aggregates
	// without DISTINCT that have a group kernel); nil otherwise.
	newGacc func() functions.GroupAccumulator
}

type group struct {
	id       int32 // position in aggOp.order
	set      int
	keys     []any // group column values (NULL outside the set)
	accs     []functions.Accumulator
	distinct []map[string]int // per DISTINCT aggregate: argument key -> count
	last     []any            // the last emitted row (streaming)
	rows     int64            // accumulated rows minus retracted ones
}

type aggOp struct {
	n         *plan.Aggregate
	in        Operator
	streaming bool
	outTypes  []*types.Type
	inTypes   []*types.Type
	groupEvs  []evaluator
	sets      [][]int
	specs     []aggSpec
	st        *aggState
	// flat runs the aggregation on flat group state (aggflat.go).
	flat      bool
	budget    int   // groups before a spill (0: no group cap)
	memBudget int64 // estimated bytes of groups before a spill
	// groupBytes is the estimated cost of one group besides its key values.
	groupBytes int64
	// parts are the spill partitions of the current pass (the input, or a
	// partition) for rows whose groups did not fit the budget; nil until
	// the pass overflows. queue holds the partitions still to aggregate,
	// depth the spill level of the current pass.
	parts   []*spillPart
	queue   []aggPart
	depth   int
	spilled int64 // rows written to partitions
	done    bool
	out     *sliceOp
	// finished is set once the last result row is out.
	finished bool
	// mb folds the streaming changelog per bundle; nil without mini-batching.
	mb *aggBundle
	// firsts is set when the input's last column is each row's ordinal
	// (batch mode): the result rows then carry one more column, the
	// ordinal of each group's first row (a partitioned aggregation,
	// parallelagg.go, restores first-appearance order with it). ords is
	// that column of the batch being consumed.
	firsts bool
	ords   *vector.Vec
}

func (o *aggOp) Next(ctx context.Context) (*vector.Batch, error) {
	if o.finished {
		return nil, nil
	}
	for o.out != nil {
		bt, err := o.out.Next(ctx)
		if bt != nil || err != nil {
			return bt, err
		}
		// The groups in memory are out: aggregate the next spill partition.
		if err := o.nextPartition(ctx); err != nil {
			return nil, err
		}
		if o.out == nil {
			o.finished = true
			return nil, nil
		}
	}
	if changes, err := pullChanges(ctx, o.in, &o.done, o.consume); changes != nil || err != nil {
		return changes, err
	}
	if !o.streaming {
		if err := o.readyGroups(); err != nil {
			return nil, err
		}
		return o.Next(ctx)
	}
	if o.mb != nil && !o.mb.ended {
		// The end of the input ends the open bundles.
		o.mb.ended = true
		changes := vector.NewBatch(o.outTypes, 0)
		if err := o.endBundles(ctx, changes); err != nil {
			return nil, err
		}
		if changes.N > 0 {
			return changes, nil
		}
	}
	return nil, nil
}

// readyGroups makes the result rows of the groups in memory o.out, once
// the whole input is consumed (batch mode).
func (o *aggOp) readyGroups() error {
	var out *vector.Batch
	if o.flat {
		out = o.flushFlat()
	} else {
		out = vector.NewBatch(o.outTypes, max(o.st.n, 1))
		if o.st.n == 0 && len(o.n.Group) == 0 && o.n.GroupingSets == nil {
			// A global aggregate over no rows still gives one row.
			o.newGroup(0, nil, 0)
		}
		if err := o.flush(out); err != nil {
			return err
		}
	}
	o.st = nil
	// Each spill partition holds whole groups: it is aggregated alone once
	// the rows before it are out, so that no more than one partition's
	// groups are held (a partition over the budget spills again).
	o.queuePasses()
	o.out = &sliceOp{b: out}
	return nil
}

// consumeAll aggregates the whole input and readies the result rows of
// the groups in memory as o.out (batch mode); spilled reports whether
// groups wait in spill partitions, aggregated as Next reaches them.
func (o *aggOp) consumeAll(ctx context.Context) (spilled bool, err error) {
	if _, err := pullChanges(ctx, o.in, &o.done, o.consume); err != nil {
		return false, err
	}
	if err := o.readyGroups(); err != nil {
		return false, err
	}
	return len(o.queue) > 0, nil
}

// queuePasses queues the partitions the current pass spilled, first, one
// level deeper.
func (o *aggOp) queuePasses() {
	next := make([]aggPart, 0, len(o.parts)+len(o.queue))
	for _, p := range o.parts {
		next = append(next, aggPart{p: p, depth: o.depth + 1})
	}
	o.queue = append(next, o.queue...)
	o.parts = nil
}

// nextPartition aggregates the next spill partition into o.out; o.out is
// nil when none is left.
func (o *aggOp) nextPartition(ctx context.Context) error {
	o.out = nil
	for len(o.queue) > 0 {
		p := o.queue[0].p
		o.depth = o.queue[0].depth
		o.queue = o.queue[1:]
		o.st = o.newState()
		if err := p.finish(); err != nil {
			p.close()
			return err
		}
		for {
			if err := ctx.Err(); err != nil {
				p.close()
				return err
			}
			bt, err := p.run.readBatch(vector.BatchSize)
			if err != nil {
				p.close()
				return err
			}
			if bt == nil {
				break
			}
			if _, err := o.consume(ctx, bt); err != nil {
				p.close()
				return err
			}
		}
		if err := p.close(); err != nil {
			return err
		}
		o.queuePasses()
		if o.st.n == 0 {
			continue
		}
		var out *vector.Batch
		if o.flat {
			out = o.flushFlat()
		} else {
			out = vector.NewBatch(o.outTypes, o.st.n)
			if err := o.flush(out); err != nil {
				return err
			}
		}
		o.st = nil
		o.out = &sliceOp{b: out}
		return nil
	}
	return nil
}

// flush appends the result rows of the current state's groups; it fails
// when an accumulator met a row it could not take.
func (o *aggOp) flush(out *vector.Batch) error {
	for _, g := range o.st.gaccs {
		if g != nil {
			g.Grow(len(o.st.order))
		}
	}
	for _, g := range o.st.order {
		for _, acc := range g.accs {
			if f, ok := acc.(functions.FailingAccumulator); ok && f.Err() != nil {
				return f.Err()
			}
		}
		out.AppendRow(types.Insert, o.result(g))
	}
	if o.firsts {
		out.Cols = append(out.Cols, firstsVec(o.st.firsts))
	}
	return nil
}

// firstsVec is the column of the groups' first ordinals.
func firstsVec(firsts []int64) *vector.Vec {
	return &vector.Vec{T: types.New(types.BigInt).WithNullable(false), Class: vector.Int, Len: len(firsts), Ints: firsts}
}

func (o *aggOp) newGroup(set int, keyVecs []*vector.Vec, row int) *group {
	g := &group{id: int32(len(o.st.order)), set: set, keys: make([]any, len(o.n.Group))}
	o.st.bytes += o.groupBytes
	for _, k := range o.sets[set] {
		g.keys[k] = keyVecs[k].Get(row)
		o.st.bytes += vecBytes(keyVecs[k], row, row+1)
	}
	g.accs = make([]functions.Accumulator, len(o.specs))
	g.distinct = make([]map[string]int, len(o.specs))
	for i, s := range o.specs {
		if s.newAcc != nil && s.newGacc == nil {
			g.accs[i] = s.newAcc()
		}
		if s.call.Distinct {
			g.distinct[i] = map[string]int{}
		}
	}
	o.st.order = append(o.st.order, g)
	o.st.n = len(o.st.order)
	if o.firsts {
		o.st.firsts = append(o.st.firsts, o.ords.Ints[row])
	}
	return g
}

func (o *aggOp) result(g *group) []any {
	row := make([]any, 0, len(o.outTypes))
	row = append(row, g.keys...)
	for i, s := range o.specs {
		switch {
		case s.groupID:
			row = append(row, groupIDValue(s, o.sets, g.set))
		case s.grouping:
			row = append(row, groupingValue(s, o.sets[g.set]))
		case o.st.gaccs[i] != nil:
			row = append(row, o.st.gaccs[i].Result(int(g.id)))
		default:
			row = append(row, g.accs[i].Result())
		}
	}
	return row
}

// groupIDValue is GROUP_ID(): how many grouping sets before set i group
// by the same columns (Calcite's GROUP_ID tells repeated sets apart: 0 for
// the first, 1 for the second ...).
func groupIDValue(spec aggSpec, sets [][]int, i int) any {
	same := func(a, b []int) bool {
		if len(a) != len(b) {
			return false
		}
		for _, x := range a {
			found := false
			for _, y := range b {
				found = found || x == y
			}
			if !found {
				return false
			}
		}
		return true
	}
	var n int64
	for _, s := range sets[:i] {
		if same(s, sets[i]) {
			n++
		}
	}
	return types.IntegerValue(spec.call.T.Kind, n)
}

// groupingValue is GROUPING(a, b...) / GROUPING_ID: a bit per argument,
// set when that group column is not in the grouping set.
func groupingValue(spec aggSpec, set []int) any {
	var v int64
	for _, pos := range spec.groupPos {
		v <<= 1
		in := false
		for _, s := range set {
			in = in || s == pos
		}
		if !in {
			v |= 1
		}
	}
	return types.IntegerValue(spec.call.T.Kind, v)
}

func (o *aggOp) consume(ctx context.Context, bt *vector.Batch) (*vector.Batch, error) {
	if o.mb != nil {
		return o.consumeBundled(ctx, bt)
	}
	return o.consumeRows(ctx, bt)
}

// consumeRows aggregates the rows of bt; in streaming mode it returns the
// changes they make (none with mini-batching: a bundle's end emits them).
func (o *aggOp) consumeRows(ctx context.Context, bt *vector.Batch) (*vector.Batch, error) {
	if o.firsts {
		o.ords = bt.Cols[len(bt.Cols)-1]
	}
	keyVecs, err := evalAll(ctx, o.groupEvs, bt)
	if err != nil {
		return nil, err
	}
	args := make([][]*vector.Vec, len(o.specs))
	filters := make([]*vector.Vec, len(o.specs))
	for i, s := range o.specs {
		if args[i], err = evalAll(ctx, s.args, bt); err != nil {
			return nil, err
		}
		if s.filter != nil {
			if filters[i], err = s.filter(ctx, bt); err != nil {
				return nil, err
			}
		}
	}
	if o.flat {
		err := o.consumeFlat(bt, keyVecs, args, filters)
		if err == nil {
			// The flat state keeps copies of the keys and the folded
			// values only (spilled rows are written out).
			o.ords = nil
			bt.Release()
		}
		return nil, err
	}
	var changes *vector.Batch
	if o.streaming {
		changes = vector.NewBatch(o.outTypes, bt.N)
	}
	// ids[set][row] is the group of each row in each grouping set, for the
	// group accumulators.
	var ids [][]int32
	if o.hasGroupAcc() {
		if bt.Kinds != nil {
			for row := range bt.N {
				if !bt.Kind(row).IsAccumulate() {
					return nil, &UnsupportedError{What: "aggregation of an updating input in batch mode"}
				}
			}
		}
		ids = make([][]int32, len(o.sets))
		for set := range ids {
			ids[set] = make([]int32, bt.N)
		}
	}
	var buf []byte
	st := o.st
	intKey := len(o.sets) == 1 && len(o.sets[0]) == 1 && keyVecs[o.sets[0][0]].Class == vector.Int
	if intKey && st.intGroups == nil {
		st.intGroups = newIntTable()
	}
	// Past the budget, rows of new groups go to spill partitions (batch
	// mode, one grouping set, input columns with a run encoding).
	canSpill := !o.streaming && o.depth < maxAggDepth && len(o.sets) == 1 && len(o.n.Group) > 0 && spillable(o.inTypes)
	var spillRows []int
	var spillPart []int
	for row := range bt.N {
		kind := bt.Kind(row)
		retract := !kind.IsAccumulate()
		for set, cols := range o.sets {
			var g *group
			var ok bool
			if intKey {
				kv := keyVecs[cols[0]]
				if kv.IsNull(row) {
					g, ok = st.nullGroup, st.nullGroup != nil
				} else if pos := st.intGroups.get(kv.Ints[row]); pos >= 0 {
					g, ok = st.order[pos], true
				}
				if !ok {
					if retract {
						if o.mb != nil && o.mb.touch(nil) {
							o.flushBundle(changes)
						}
						continue
					}
					if canSpill && o.full() {
						spillRows = append(spillRows, row)
						spillPart = append(spillPart, int((uint64(intKeyOf(kv, row))*0x9E3779B97F4A7C15>>40>>(spillBits*o.depth))%spillPartitions))
						if ids != nil {
							ids[set][row] = -1
						}
						continue
					}
					g = o.newGroup(set, keyVecs, row)
					if kv.IsNull(row) {
						st.nullGroup = g
					} else {
						st.intGroups.put(kv.Ints[row], g.id)
					}
				}
			} else {
				buf = append(buf[:0], byte(set), byte(set>>8))
				for _, k := range cols {
					buf = vector.AppendKey(buf, keyVecs[k], row)
				}
				g, ok = st.groups[string(buf)]
				if !ok {
					if retract {
						if o.mb != nil && o.mb.touch(nil) {
							o.flushBundle(changes)
						}
						continue
					}
					if canSpill && o.full() {
						spillRows = append(spillRows, row)
						spillPart = append(spillPart, int((hashBytes(buf)>>(spillBits*o.depth))%spillPartitions))
						if ids != nil {
							ids[set][row] = -1
						}
						continue
					}
					g = o.newGroup(set, keyVecs, row)
					st.groups[string(buf)] = g
				}
			}
			if retract {
				g.rows--
			} else {
				g.rows++
			}
			if ids != nil {
				ids[set][row] = g.id
			}
			for i, s := range o.specs {
				if s.grouping || st.gaccs[i] != nil {
					continue
				}
				if f := filters[i]; f != nil && (f.IsNull(row) || !f.Bools[row]) {
					continue
				}
				if s.call.Distinct {
					var kb []byte
					for _, a := range args[i] {
						kb = vector.AppendKey(kb, a, row)
					}
					key := string(kb)
					if retract {
						g.distinct[i][key]--
						if g.distinct[i][key] > 0 {
							continue
						}
						delete(g.distinct[i], key)
					} else {
						g.distinct[i][key]++
						if g.distinct[i][key] > 1 {
							continue
						}
					}
				}
				if retract {
					if !g.accs[i].Retract(args[i], row) {
						return nil, &UnsupportedError{What: s.call.Name + " over an updating input"}
					}
				} else {
					g.accs[i].Add(args[i], row)
				}
			}
			if o.streaming {
				if o.mb == nil {
					o.emit(changes, g)
				} else if o.mb.touch(g) {
					o.flushBundle(changes)
				}
			}
		}
	}
	if ids != nil {
		for i := range o.specs {
			gacc := st.gaccs[i]
			if gacc == nil {
				continue
			}
			gacc.Grow(len(st.order))
			for _, setIDs := range ids {
				if f := filters[i]; f != nil {
					masked := make([]int32, len(setIDs))
					for row, g := range setIDs {
						masked[row] = g
						if f.IsNull(row) || !f.Bools[row] {
							masked[row] = -1
						}
					}
					setIDs = masked
				}
				gacc.Update(setIDs, args[i])
			}
		}
	}
	if len(spillRows) > 0 {
		if err := o.spill(bt, spillRows, spillPart); err != nil {
			return nil, err
		}
	}
	return changes, nil
}

func (o *aggOp) hasGroupAcc() bool {
	for _, g := range o.st.gaccs {
		if g != nil {
			return true
		}
	}
	return false
}

// full reports whether the groups in memory reached the budget.
func (o *aggOp) full() bool {
	return o.budget > 0 && o.st.n >= o.budget || o.st.bytes >= o.memBudget
}

// spill appends the given input rows to their partitions.
func (o *aggOp) spill(bt *vector.Batch, rows, parts []int) error {
	if o.parts == nil {
		o.parts = make([]*spillPart, spillPartitions)
		for i := range o.parts {
			p, err := newSpillPart(o.inTypes)
			if err != nil {
				return err
			}
			o.parts[i] = p
		}
	}
	for j, row := range rows {
		if err := o.parts[parts[j]].write(bt, row); err != nil {
			return err
		}
	}
	o.spilled += int64(len(rows))
	return nil
}

func intKeyOf(v *vector.Vec, i int) int64 {
	if v.IsNull(i) {
		return 0
	}
	return v.Ints[i]
}

// hashBytes is FNV-1a.
func hashBytes(b []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range b {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}

// emit appends the changelog of one group's new result.
func (o *aggOp) emit(changes *vector.Batch, g *group) {
	if g.rows <= 0 && len(o.n.Group) > 0 {
		if g.last != nil {
			changes.AppendRow(types.Delete, g.last)
			g.last = nil
		}
		return
	}
	now := o.result(g)
	switch {
	case g.last == nil:
		changes.AppendRow(types.Insert, now)
	case !sameRow(g.last, now):
		changes.AppendRow(types.UpdateBefore, g.last)
		changes.AppendRow(types.UpdateAfter, now)
	default:
		return
	}
	g.last = now
}

func sameRow(a, b []any) bool {
	for i := range a {
		if (a[i] == nil) != (b[i] == nil) {
			return false
		}
		if a[i] != nil && types.CompareValues(numericWiden(a[i]), numericWiden(b[i])) != 0 {
			return false
		}
	}
	return true
}

func (o *aggOp) Close() error {
	err := o.in.Close()
	for _, p := range o.parts {
		if p != nil {
			err = errors.Join(err, p.close())
		}
	}
	o.parts = nil
	for _, q := range o.queue {
		err = errors.Join(err, q.p.close())
	}
	o.queue = nil
	return err
}
