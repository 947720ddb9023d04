package exec

import (
	"eddy/engine/plan"
	"eddy/engine/types"
)

// topN builds a Top-N or a deduplication (streaming mode).
func (b *Builder) topN(n *plan.TopN) (Operator, error) {
	switch n.Func {
	case "RANK", "DENSE_RANK":
		return nil, &streamRankError{n.Func + "() on streaming table is not supported currently"}
	}
	in, err := b.Build(n.Input)
	if err != nil {
		return nil, err
	}
	if n.End < n.Start {
		in.Close()
		return emptyOp{}, nil
	}
	return b.rankOver(in, n.Input, n.Partition, n.Order, n.Start, n.End, n.RankCol, n.RankUsed, n.RankType, !n.InputUpdates)
}

// rankOver chooses the algorithm as Flink's planner does and returns the
// operator over in (the rows of input). withRankCol appends the rank
// column (of type rankType); rankUsed says whether its value is read;
// appendOnly says whether the input carries only inserts.
func (b *Builder) rankOver(in Operator, input plan.Node, part []plan.Expr, keys []plan.SortKey, start, end int64,
	withRankCol, rankUsed bool, rankType *types.Type, appendOnly bool) (Operator, error) {
	partEvs, err := b.compileAll(part)
	if err != nil {
		in.Close()
		return nil, err
	}
	orderExprs := make([]plan.Expr, len(keys))
	for i, k := range keys {
		orderExprs[i] = k.Expr
	}
	orderEvs, err := b.compileAll(orderExprs)
	if err != nil {
		in.Close()
		return nil, err
	}
	inTypes := input.Schema().Types()
	timeAttr := types.Regular
	timeCol := -1
	if len(keys) == 1 {
		timeAttr = keys[0].Expr.Type().TimeAttr
		if r, ok := keys[0].Expr.(*plan.ColumnRef); ok {
			timeCol = r.Index
		}
	}
	// Flink's planner drops the rank number of a range of one rank and
	// projects the constant instead.
	single := start == end
	spec := rankSpec{part: partEvs, order: orderEvs, keys: keys, start: start, end: end,
		withRankCol: withRankCol, rankNumber: (rankUsed && !single) || start > 1, updateBefore: true}
	if appendOnly {
		if op, ok := b.windowRank(in, input, part, spec, rankType); ok {
			return op, nil
		}
	}
	// Deduplication: rn = 1 ordered by a time attribute of an append-only
	// input.
	if appendOnly && start == 1 && end == 1 && timeAttr != types.Regular && withRankCol {
		switch {
		case timeAttr == types.Proctime:
			return newDedupOp(in, partEvs, -1, keys[0].Desc, 0, inTypes, rankType, withRankCol, 1), nil
		case timeCol >= 0:
			delay, _ := watermarkDelay(input)
			return newDedupOp(in, partEvs, timeCol, keys[0].Desc, delay, inTypes, rankType, withRankCol, 1), nil
		}
	}
	switch {
	case !appendOnly:
		spec.strategy = rankRetract
	case timeAttr == types.Proctime && !keys[0].Desc:
		spec.strategy = rankFirstN
	case start == 1 && end == 1:
		spec.strategy = rankFastTop1
		// Flink's planner asks a partitioned Top-1 only for +U (its
		// partition key is the result's unique key).
		spec.updateBefore = len(part) == 0
	default:
		spec.strategy = rankAppendTopN
	}
	return newRankOp(spec, in, inTypes, rankType), nil
}

// streamRankError is Flink's refusal of RANK and DENSE_RANK in streaming
// mode.
type streamRankError struct{ msg string }

func (e *streamRankError) Error() string { return e.msg }

// Class returns Flink's exception class.
func (e *streamRankError) Class() string { return "TableException" }
