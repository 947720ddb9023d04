//go:build !unix

package repl

import (
	"errors"
	"time"
)

// newScreen returns nil: the full-screen views and the pager need a Unix
// terminal.
func newScreen(*Shell) *ttyScreen { return nil }

// ReadKeys is never called: there is no screen.
func (s *ttyScreen) ReadKeys(time.Duration) ([]byte, error) {
	return nil, errors.New("no terminal keys on this system")
}
