package exec

import (
	"eddy/conf"
	"eddy/engine/vector"
)

// DefaultMemoryBudget is the number of bytes a sort, an aggregation or the
// build side of a hash join holds before it spills to disk, when the
// statement sets no budget: eddy.exec.memory-budget's default in conf's
// option registry.
var DefaultMemoryBudget, _ = conf.ParseMemorySize(conf.Default(conf.SpillMemory))

// The sizes below estimate what a value costs in the Go heap: its slot in
// the column slice plus what the slot points to. They need not be exact,
// only proportional, so that a budget bounds the memory an operator holds.
const (
	stringHeader  = 16 // string header in a []string
	bytesHeader   = 24 // slice header in a [][]byte
	decimalBytes  = 8 + 64
	timeBytes     = 24
	anyValueBytes = 16 + 64 // interface plus a small boxed value
	hashEntry     = 48      // a hash table entry (map bucket share, row index)
)

// memoryBudget returns the statement's budget in bytes.
func (b *Builder) memoryBudget() int64 {
	if b.opts.MemoryBudget > 0 {
		return b.opts.MemoryBudget
	}
	return DefaultMemoryBudget
}

// vecBytes estimates the heap bytes of values [from, to) of v.
func vecBytes(v *vector.Vec, from, to int) int64 {
	n := int64(to - from)
	if n <= 0 {
		return 0
	}
	var size int64
	switch v.Class {
	case vector.Bool:
		size = n
	case vector.Int, vector.Float:
		size = 8 * n
	case vector.Decimal:
		size = decimalBytes * n
	case vector.String:
		size = stringHeader * n
		for i := from; i < to && i < len(v.Strs); i++ {
			size += int64(len(v.Strs[i]))
		}
	case vector.Bytes:
		size = bytesHeader * n
		for i := from; i < to && i < len(v.Bytes); i++ {
			size += int64(len(v.Bytes[i]))
		}
	case vector.Time:
		size = timeBytes * n
	default:
		size = anyValueBytes * n
	}
	if v.HasNulls() {
		size += n / 8
	}
	return size
}

// batchBytes estimates the heap bytes of a batch.
func batchBytes(bt *vector.Batch) int64 {
	if bt == nil {
		return 0
	}
	var size int64
	for _, v := range bt.Cols {
		size += vecBytes(v, 0, bt.N)
	}
	if bt.Kinds != nil {
		size += int64(bt.N)
	}
	return size
}
