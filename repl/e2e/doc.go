// Package e2e holds eddy's process-level tests: they build the eddy binary
// once and drive it as users do — piped scripts, flags, several processes
// on one store, and a real terminal under tmux. It has no non-test code.
package e2e
