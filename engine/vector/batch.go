package vector

import (
	"eddy/engine/types"
)

// BatchSize is the number of rows operators aim to put in a batch.
const BatchSize = 1024

// Batch is a set of rows stored as columns. Kinds holds each row's change
// kind; nil means every row is an insert (+I).
type Batch struct {
	Cols  []*Vec
	Kinds []types.RowKind
	N     int
	// Recycle, when set, gives the batch's vectors back to the producer
	// that filled them, to be filled again (see Release). An operator
	// whose output batch holds its input's vectors, or is made from them
	// with nothing kept, passes its input's Recycle on.
	Recycle func()
}

// Inherit moves src's Recycle to b, for an operator whose output b holds
// src's vectors (or things made from them): b's consumer releases both.
// It returns b.
func (b *Batch) Inherit(src *Batch) *Batch {
	b.Recycle, src.Recycle = src.Recycle, nil
	return b
}

// Release tells the batch's producer that the caller is done with it: it
// keeps no reference to the batch's vectors or to their storage, so the
// producer may fill them again. Values copied out stay valid: a producer
// refills a vector's arrays, never the bytes a string or byte string
// value points to, nor a decimal. A consumer
// that keeps a vector, or a slice of one, must not call it; a batch with
// no producer to give back to ignores it. Only the first call counts.
func (b *Batch) Release() {
	if f := b.Recycle; f != nil {
		b.Recycle = nil
		f()
	}
}

// NewBatch returns an empty batch with one vector per type.
func NewBatch(ts []*types.Type, capacity int) *Batch {
	b := &Batch{Cols: make([]*Vec, len(ts))}
	for i, t := range ts {
		b.Cols[i] = New(t, capacity)
	}
	return b
}

// Kind returns the row kind of row i.
func (b *Batch) Kind(i int) types.RowKind {
	if b.Kinds == nil {
		return types.Insert
	}
	return b.Kinds[i]
}

// Row returns row i as engine values.
func (b *Batch) Row(i int) []any {
	out := make([]any, len(b.Cols))
	for c, v := range b.Cols {
		out[c] = v.Get(i)
	}
	return out
}

// AppendRow adds a row of engine values with a kind.
func (b *Batch) AppendRow(kind types.RowKind, vals []any) {
	if kind != types.Insert && b.Kinds == nil {
		b.Kinds = make([]types.RowKind, b.N, max(b.N+1, BatchSize))
	}
	if b.Kinds != nil {
		b.Kinds = append(b.Kinds, kind)
	}
	for c, v := range b.Cols {
		v.Append(vals[c])
	}
	b.N++
}

// AppendFrom copies row i of src (same column types) with a kind.
func (b *Batch) AppendFrom(src *Batch, i int, kind types.RowKind) {
	if kind != types.Insert && b.Kinds == nil {
		b.Kinds = make([]types.RowKind, b.N, max(b.N+1, BatchSize))
	}
	if b.Kinds != nil {
		b.Kinds = append(b.Kinds, kind)
	}
	for c, v := range b.Cols {
		v.AppendFrom(src.Cols[c], i)
	}
	b.N++
}

// Gather returns a batch of the rows at the given positions.
func (b *Batch) Gather(sel []int) *Batch {
	out := &Batch{Cols: make([]*Vec, len(b.Cols)), N: len(sel)}
	for c, v := range b.Cols {
		out.Cols[c] = v.Gather(sel)
	}
	if b.Kinds != nil {
		out.Kinds = make([]types.RowKind, len(sel))
		for j, i := range sel {
			out.Kinds[j] = b.Kinds[i]
		}
	}
	return out
}

// Reserve makes room for n more rows in every column (Vec.Reserve).
func (b *Batch) Reserve(n int) {
	for _, v := range b.Cols {
		v.Reserve(n)
	}
}

// AppendBatch adds every row of src (same column types).
func (b *Batch) AppendBatch(src *Batch) {
	if src.Kinds != nil && b.Kinds == nil {
		b.Kinds = make([]types.RowKind, b.N, b.N+src.N)
	}
	if b.Kinds != nil {
		if src.Kinds != nil {
			b.Kinds = append(b.Kinds, src.Kinds...)
		} else {
			for range src.N {
				b.Kinds = append(b.Kinds, types.Insert)
			}
		}
	}
	for c, v := range b.Cols {
		v.AppendVec(src.Cols[c])
	}
	b.N += src.N
}

// Types returns the column types.
func (b *Batch) Types() []*types.Type {
	out := make([]*types.Type, len(b.Cols))
	for i, v := range b.Cols {
		out[i] = v.T
	}
	return out
}
