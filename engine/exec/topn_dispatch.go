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
	return b.rankOver(in, n)
}

// rankAlgo is the algorithm of a Top-N, chosen as Flink's planner does.
type rankAlgo uint8

const (
	algoEmpty      rankAlgo = iota // a range without ranks
	algoWindow                     // window Top-N (topn_window.go)
	algoDedupProc                  // deduplication by processing time
	algoDedupRow                   // deduplication by event time
	algoRetract                    // Top-N of an updating input
	algoFirstN                     // first N by ascending processing time
	algoFastTop1                   // the first row of each partition
	algoAppendTopN                 // Top-N of an insert-only input
)

var rankAlgoNames = [...]string{algoEmpty: "Empty", algoWindow: "WindowRank", algoDedupProc: "Deduplicate",
	algoDedupRow: "Deduplicate", algoRetract: "RetractRank", algoFirstN: "FirstNRank",
	algoFastTop1: "FastTop1Rank", algoAppendTopN: "AppendRank"}

// chooseRank picks the algorithm of a Top-N.
func chooseRank(n *plan.TopN) rankAlgo {
	if n.End < n.Start {
		return algoEmpty
	}
	appendOnly := !n.InputUpdates
	if appendOnly {
		if _, ok := windowRankCols(n.Input, n.Partition); ok {
			return algoWindow
		}
	}
	timeAttr := types.Regular
	timeCol := -1
	if len(n.Order) == 1 {
		timeAttr = n.Order[0].Expr.Type().TimeAttr
		if r, ok := n.Order[0].Expr.(*plan.ColumnRef); ok {
			timeCol = r.Index
		}
	}
	// Deduplication: rn = 1 ordered by a time attribute of an append-only
	// input.
	if appendOnly && n.Start == 1 && n.End == 1 && timeAttr != types.Regular && n.RankCol {
		switch {
		case timeAttr == types.Proctime:
			return algoDedupProc
		case timeCol >= 0:
			return algoDedupRow
		}
	}
	switch {
	case !appendOnly:
		return algoRetract
	case timeAttr == types.Proctime && !n.Order[0].Desc:
		return algoFirstN
	case n.Start == 1 && n.End == 1:
		return algoFastTop1
	}
	return algoAppendTopN
}

// rankOver returns the operator of a Top-N over in (the rows of its
// input).
func (b *Builder) rankOver(in Operator, n *plan.TopN) (Operator, error) {
	partEvs, err := b.compileAll(n.Partition)
	if err != nil {
		in.Close()
		return nil, err
	}
	orderExprs := make([]plan.Expr, len(n.Order))
	for i, k := range n.Order {
		orderExprs[i] = k.Expr
	}
	orderEvs, err := b.compileAll(orderExprs)
	if err != nil {
		in.Close()
		return nil, err
	}
	inTypes := n.Input.Schema().Types()
	// Flink's planner drops the rank number of a range of one rank and
	// projects the constant instead.
	single := n.Start == n.End
	spec := rankSpec{part: partEvs, order: orderEvs, keys: n.Order, start: n.Start, end: n.End,
		withRankCol: n.RankCol, rankNumber: (n.RankUsed && !single) || n.Start > 1, updateBefore: true}
	switch chooseRank(n) {
	case algoEmpty:
		in.Close()
		return emptyOp{}, nil
	case algoWindow:
		cols, _ := windowRankCols(n.Input, n.Partition)
		return b.windowRank(in, n.Input, cols, spec, n.RankType), nil
	case algoDedupProc:
		if err := b.dedupMiniBatch(); err != nil {
			in.Close()
			return nil, err
		}
		op := newDedupOp(in, partEvs, -1, n.Order[0].Desc, 0, inTypes, n.RankType, n.RankCol, 1)
		if b.opts.MiniBatch.Size > 0 {
			op.bundle = &dedupBundle{mb: b.opts.MiniBatch, last: map[string][]any{}, hashed: true}
		}
		return op, nil
	case algoDedupRow:
		if err := b.dedupMiniBatch(); err != nil {
			in.Close()
			return nil, err
		}
		delay, _ := watermarkDelay(n.Input)
		timeCol := n.Order[0].Expr.(*plan.ColumnRef).Index
		return newDedupOp(in, partEvs, timeCol, n.Order[0].Desc, delay, inTypes, n.RankType, n.RankCol, 1), nil
	case algoRetract:
		spec.strategy = rankRetract
	case algoFirstN:
		spec.strategy = rankFirstN
	case algoFastTop1:
		spec.strategy = rankFastTop1
		// Flink's planner asks a partitioned Top-1 only for +U (its
		// partition key is the result's unique key).
		spec.updateBefore = len(n.Partition) == 0
	default:
		spec.strategy = rankAppendTopN
	}
	return newRankOp(spec, in, inTypes, n.RankType), nil
}

// streamRankError is Flink's refusal of RANK and DENSE_RANK in streaming
// mode.
type streamRankError struct{ msg string }

func (e *streamRankError) Error() string { return e.msg }

// Class returns Flink's exception class.
func (e *streamRankError) Class() string { return "TableException" }
