package sink

import (
	"eddy/conf"
	"eddy/engine/sqlerr"
)

// CheckpointsOf returns the checkpoints of an INSERT from the session's
// execution.checkpointing.interval (interval; "" when not set:
// DefaultCheckpointInterval) and eddy.exec.memory-budget (budget, in
// bytes): a writer commits early (streaming) or spills (batch: no
// interval) when it holds an eighth of the budget, at most 32 MiB and at
// least 1 MiB.
func CheckpointsOf(interval string, budget int64, streaming bool) (*Checkpoints, error) {
	cp := &Checkpoints{Interval: DefaultCheckpointInterval,
		MaxBuffered: min(max(budget/8, 1<<20), 32<<20)}
	if !streaming {
		cp.Interval = 0
		return cp, nil
	}
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
