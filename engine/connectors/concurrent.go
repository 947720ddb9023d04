package connectors

// Concurrent is the ability of a Reader whose Next may be called from
// several goroutines at once, which a parallel scan uses to hand the
// input out to its workers one batch (a morsel) at a time. When
// Concurrent returns true:
//   - each call returns a batch of its own, which no other call touches;
//   - the batches of all calls together are exactly the rows one
//     goroutine's calls would return, each once;
//   - the order in which the calls get them is not defined, so a caller
//     that needs the serial order calls Next from one goroutine;
//   - Close is called once, after every Next has returned.
//
// A reader that wraps another (a prefetcher, a projection) answers for
// itself: true only when its own state is safe to share. The pushdowns
// (Pushdown) all happen before the first Next.
type Concurrent interface {
	Reader
	Concurrent() bool
}

// WorkerCap is the ability of a Reader that decodes on goroutines of its
// own (a Parquet file's row groups) to bound their number by the
// statement's eddy.exec.parallelism; the caller sets it before the first
// Next, and 1 makes the reader decode on the caller's goroutine.
type WorkerCap interface {
	CapWorkers(n int)
}

// IsConcurrent reports whether r's Next may be called from several
// goroutines at once.
func IsConcurrent(r Reader) bool {
	c, ok := r.(Concurrent)
	return ok && c.Concurrent()
}
