package exec

import (
	"context"

	"eddy/engine/plan"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// setOp runs UNION, INTERSECT and EXCEPT (ALL or DISTINCT) with hash sets
// of encoded rows. UNION ALL streams its inputs one after the other.
func (b *Builder) setOp(n *plan.SetOp) (Operator, error) {
	ins := make([]Operator, 0, len(n.Inputs))
	for _, c := range n.Inputs {
		op, err := b.Build(c)
		if err != nil {
			for _, o := range ins {
				o.Close()
			}
			return nil, err
		}
		ins = append(ins, op)
	}
	return &setOpOp{n: n, ins: ins, types: n.Cols.Types(), seen: map[string]int{}}, nil
}

type setOpOp struct {
	n     *plan.SetOp
	ins   []Operator
	types []*types.Type
	cur   int
	seen  map[string]int // DISTINCT: rows emitted; INTERSECT/EXCEPT: right-side counts
	built bool
}

func (o *setOpOp) Next(ctx context.Context) (*vector.Batch, error) {
	if o.n.Kind != plan.Union && !o.built {
		right, err := Drain(ctx, o.ins[1], o.n.Inputs[1].Schema().Types())
		if err != nil {
			return nil, err
		}
		if right, err = retype(right, o.types); err != nil {
			return nil, err
		}
		var buf []byte
		for i := range right.N {
			buf = rowKey(buf[:0], right, i)
			o.seen[string(buf)]++
		}
		o.built = true
	}
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if o.cur >= len(o.ins) || o.n.Kind != plan.Union && o.cur > 0 {
			return nil, nil
		}
		bt, err := o.ins[o.cur].Next(ctx)
		if err != nil {
			return nil, err
		}
		if bt == nil {
			o.cur++
			continue
		}
		bt, err = retype(bt, o.types)
		if err != nil {
			return nil, err
		}
		if o.n.Kind == plan.Union && o.n.All {
			return bt, nil
		}
		if sel := o.select_(bt); len(sel) > 0 {
			return bt.Gather(sel), nil
		}
	}
}

// select_ picks the rows of a batch the set operation emits.
func (o *setOpOp) select_(bt *vector.Batch) []int {
	var sel []int
	var buf []byte
	emitted := o.seen
	for i := range bt.N {
		buf = rowKey(buf[:0], bt, i)
		k := string(buf)
		switch {
		case o.n.Kind == plan.Union:
			if emitted[k] == 0 {
				emitted[k] = 1
				sel = append(sel, i)
			}
		case o.n.Kind == plan.Intersect && o.n.All:
			if o.seen[k] > 0 {
				o.seen[k]--
				sel = append(sel, i)
			}
		case o.n.Kind == plan.Intersect:
			if o.seen[k] > 0 {
				o.seen[k] = -1 // emitted once
				sel = append(sel, i)
			}
		case o.n.Kind == plan.Except && o.n.All:
			if o.seen[k] > 0 {
				o.seen[k]--
			} else {
				sel = append(sel, i)
			}
		default: // EXCEPT
			if o.seen[k] == 0 {
				o.seen[k] = -1
				sel = append(sel, i)
			}
		}
	}
	return sel
}

func rowKey(buf []byte, bt *vector.Batch, i int) []byte {
	for _, v := range bt.Cols {
		buf = vector.AppendKey(buf, v, i)
	}
	return buf
}

// retype gives a batch the set operation's column types.
func retype(bt *vector.Batch, ts []*types.Type) (*vector.Batch, error) {
	out := &vector.Batch{Cols: make([]*vector.Vec, len(bt.Cols)), Kinds: bt.Kinds, N: bt.N}
	for i, v := range bt.Cols {
		c, err := conform(v, ts[i], nil)
		if err != nil {
			return nil, err
		}
		out.Cols[i] = c
	}
	return out.Inherit(bt), nil
}

func (o *setOpOp) Close() error {
	var err error
	for _, in := range o.ins {
		if e := in.Close(); err == nil {
			err = e
		}
	}
	return err
}
