package sink

import (
	"eddy/conf"
	"eddy/engine/sqlerr"
)

// CheckpointsOf returns the checkpoints of a streaming INSERT from the
// session's execution.checkpointing.interval (interval; "" when not set:
// DefaultCheckpointInterval) and eddy.exec.memory-budget (budget, in
// bytes): a writer commits early when it holds an eighth of the budget,
// at most 32 MiB and at least 1 MiB.
func CheckpointsOf(interval string, budget int64) (*Checkpoints, error) {
	cp := &Checkpoints{Interval: DefaultCheckpointInterval,
		MaxBuffered: min(max(budget/8, 1<<20), 32<<20)}
	if interval != "" {
		d, err := conf.ParseDuration(interval)
		if err != nil {
			return nil, sqlerr.Errorf(sqlerr.IllegalArgumentException, "Could not parse value '%s' for key '%s'.",
				interval, conf.CheckpointInterval)
		}
		if d > 0 {
			cp.Interval = d
		}
	}
	return cp, nil
}
