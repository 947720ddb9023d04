package exec

import (
	"context"

	"eddy/engine/connectors"
	"eddy/engine/plan"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// LookupTables is implemented by the Tables of a session whose connectors
// answer point lookups (the dimension side of a lookup join).
type LookupTables interface {
	// OpenLookup returns a lookup reader of the scanned table by its
	// physical columns keys.
	OpenLookup(ctx context.Context, scan *plan.Scan, keys []int) (connectors.Lookuper, error)
}

// lookupJoin runs a LookupJoin: each input row's keys are looked up in
// the table when the row arrives.
func (b *Builder) lookupJoin(n *plan.LookupJoin) (Operator, error) {
	in, err := b.Build(n.Input)
	if err != nil {
		return nil, err
	}
	o := &lookupJoinOp{b: b, n: n, in: in, outTypes: n.Schema().Types(), dimTypes: n.Table.Physical.Types()}
	for _, k := range n.Keys {
		ev, err := b.compile(k.Left)
		if err != nil {
			return nil, err
		}
		o.keys = append(o.keys, ev)
		o.keyCols = append(o.keyCols, k.Column)
		o.keyTypes = append(o.keyTypes, k.Left.Type())
	}
	if n.Residual != nil {
		if o.cond, err = b.compile(n.Residual); err != nil {
			return nil, err
		}
	}
	return o, nil
}

type lookupJoinOp struct {
	b        *Builder
	n        *plan.LookupJoin
	in       Operator
	lk       connectors.Lookuper
	keys     []evaluator
	keyCols  []int
	keyTypes []*types.Type
	cond     evaluator
	outTypes []*types.Type
	dimTypes []*types.Type
}

func (o *lookupJoinOp) open(ctx context.Context) error {
	lt, ok := o.b.opts.Tables.(LookupTables)
	if !ok || o.b.opts.Tables == nil {
		return &connectors.Error{Exception: "TableException", Msg: "Processing-time temporal join is not supported yet."}
	}
	lk, err := lt.OpenLookup(ctx, o.n.Table, o.keyCols)
	if err != nil {
		return err
	}
	o.lk = lk
	return nil
}

func (o *lookupJoinOp) Next(ctx context.Context) (*vector.Batch, error) {
	if o.lk == nil {
		if err := o.open(ctx); err != nil {
			return nil, err
		}
	}
	for {
		bt, err := o.in.Next(ctx)
		if err != nil || bt == nil {
			return nil, err
		}
		out, err := o.join(ctx, bt)
		if err != nil {
			return nil, err
		}
		if out.N > 0 {
			return out, nil
		}
	}
}

// join looks up every row of bt and returns the joined rows.
func (o *lookupJoinOp) join(ctx context.Context, bt *vector.Batch) (*vector.Batch, error) {
	keyVecs := make([]*vector.Vec, len(o.keys))
	for i, ev := range o.keys {
		v, err := ev(ctx, bt)
		if err != nil {
			return nil, err
		}
		keyVecs[i] = v
	}
	// Candidates: each input row with each row its key finds.
	cand := vector.NewBatch(o.outTypes, bt.N)
	var from []int // the input row of each candidate
	nl := len(bt.Cols)
	key := make([]any, len(o.keys))
	for i := range bt.N {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var rows [][]any
		null := false
		for k, v := range keyVecs {
			x := v.Get(i)
			if x == nil {
				null = true
				break
			}
			if t := o.dimTypes[o.keyCols[k]]; !o.keyTypes[k].Equal(t) {
				c, err := types.CastValue(x, o.keyTypes[k], t)
				if err != nil {
					return nil, err
				}
				x = c
			}
			key[k] = x
		}
		if !null {
			var err error
			if rows, err = o.lk.Lookup(ctx, key); err != nil {
				return nil, err
			}
		}
		for _, r := range rows {
			for c := range nl {
				cand.Cols[c].AppendFrom(bt.Cols[c], i)
			}
			for c, x := range r {
				cand.Cols[nl+c].Append(x)
			}
			cand.N++
			from = append(from, i)
		}
	}
	keep := make([]bool, cand.N)
	for j := range keep {
		keep[j] = true
	}
	if o.cond != nil && cand.N > 0 {
		c, err := o.cond(ctx, cand)
		if err != nil {
			return nil, err
		}
		for j := range keep {
			keep[j] = !c.IsNull(j) && c.Bools[j]
		}
	}
	out := vector.NewBatch(o.outTypes, bt.N)
	j := 0
	for i := range bt.N {
		kind := bt.Kind(i)
		matched := false
		for ; j < len(from) && from[j] == i; j++ {
			if keep[j] {
				out.AppendFrom(cand, j, kind)
				matched = true
			}
		}
		if !matched && o.n.Kind == plan.LeftJoin {
			if kind != types.Insert && out.Kinds == nil {
				out.Kinds = make([]types.RowKind, out.N, max(out.N+1, vector.BatchSize))
			}
			if out.Kinds != nil {
				out.Kinds = append(out.Kinds, kind)
			}
			for c := range nl {
				out.Cols[c].AppendFrom(bt.Cols[c], i)
			}
			for c := range o.dimTypes {
				out.Cols[nl+c].AppendNull()
			}
			out.N++
		}
	}
	return out, nil
}

func (o *lookupJoinOp) Close() error {
	err := o.in.Close()
	if o.lk != nil {
		if cerr := o.lk.Close(); err == nil {
			err = cerr
		}
		o.lk = nil
	}
	return err
}
