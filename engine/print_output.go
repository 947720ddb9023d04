package engine

import "io"

// SetPrintOutput sets where the rows of 'print' sinks go: stdout for the
// default, stderr for tables with 'standard-error' = 'true'. Until it is
// called, print sinks discard their rows (the engine writes to no
// terminal of its own).
func (s *Session) SetPrintOutput(stdout, stderr io.Writer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.conns.Stdout, s.conns.Stderr = stdout, stderr
}

// SetDatagenSeed makes datagen sources deterministic: with a non-zero
// seed every scan of a datagen table yields the same values (tests,
// reproducible examples); zero restores time-seeded values.
func (s *Session) SetDatagenSeed(seed uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.conns.Seed = seed
}
